"""The send-time rules of shift messages, each written once.

A delivery is checked when it is sent, against its shift and teacher as they are now. Each rule is a
named predicate over a `Subject`, a flat view of the delivery, its shift and the teacher it goes to.
The shared checks (send_checks) make the Subject from ORM objects; the lean reminder path
(reminder_batch) makes it from one Core query's row. Both run the same rules in the same order, and
the first rule that fails names the cancel reason — so the two paths cannot drift apart: there is
nothing to keep in step but the two ways of filling in the Subject, and a test compares those field
by field.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.channels import registry
from core.channels.base import CancelReasons
from core.outbox.policy import CancelReason
from core.roster import contacts
from core.store.models import ContactRule, Delivery, Shift, ShiftStatus, Teacher


@dataclass(frozen=True, slots=True)
class Subject:
    """What the rules look at. A missing shift or teacher leaves its fields at their empty values;
    the rule that notices it comes before every rule that reads them. The contact fields are about
    the teacher's contact on the delivery's channel."""

    now: dt.datetime
    delivery_shift_version: int | None
    delivery_teacher_id: int | None
    shift_exists: bool
    shift_version: int | None = None
    shift_status: ShiftStatus | None = None
    shift_teacher_id: int | None = None
    shift_starts_at: dt.datetime | None = None
    teacher_exists: bool = False
    teacher_active: bool = False
    teacher_erased: bool = False
    wants_channel: bool = False  # the teacher still ranks this channel among their ways
    contact_usable: bool = False  # an address on it, and their consent if the channel asks
    contact_unreachable: bool = False  # the channel said it cannot reach the address
    has_fallback: bool = False  # their rule sends a message this channel cannot carry on another
    stands_in: bool = False  # the copy of a message another channel could not carry (linked_delivery_id)


@dataclass(frozen=True)
class Rule:
    reason: str  # the cancel reason when the rule does not hold (CancelReason, or a channel's own)
    holds: Callable[[Subject], bool]
    # When it fails for a teacher whose rule falls back, the copy on their next channel is enqueued first.
    then_fallback: bool = False


# The shift is still what the delivery is about (every shift message).
SHIFT: tuple[Rule, ...] = (
    Rule(CancelReason.SHIFT_MISSING, lambda s: s.shift_exists),
    Rule(CancelReason.SHIFT_CHANGED, lambda s: s.shift_version == s.delivery_shift_version),
    Rule(CancelReason.SHIFT_STARTED, lambda s: s.shift_starts_at is not None and s.shift_starts_at > s.now),
)
# A reminder also needs the shift confirmed and still this teacher's.
REMINDER: tuple[Rule, ...] = (
    Rule(CancelReason.SHIFT_NOT_CONFIRMED, lambda s: s.shift_status is ShiftStatus.CONFIRMED),
    Rule(CancelReason.TEACHER_CHANGED, lambda s: s.delivery_teacher_id is None or s.shift_teacher_id == s.delivery_teacher_id),
)


def teacher_rules(reasons: CancelReasons) -> tuple[Rule, ...]:
    """The teacher can and wants to get it on the channel, in the channel's cancel reasons."""
    return _teacher_rules(reasons.not_agreed, reasons.unreachable)


@functools.lru_cache(maxsize=32)
def _teacher_rules(not_agreed: str, unreachable: str) -> tuple[Rule, ...]:
    # Made once per pair of reasons, so that a channel's rules are the same objects at every send.
    return (
        Rule(CancelReason.TEACHER_INACTIVE, lambda s: s.teacher_exists and s.teacher_active and not s.teacher_erased),
        # A copy standing in for a message another channel could not carry goes whatever the teacher ranks.
        Rule(CancelReason.CHANNEL_CHANGED, lambda s: s.wants_channel or s.stands_in),
        Rule(not_agreed, lambda s: s.contact_usable, then_fallback=True),
        # Without a fallback the channel is still tried: the teacher may have come back (unblocked the account).
        Rule(unreachable, lambda s: not s.contact_unreachable or not s.has_fallback, then_fallback=True),
    )


def for_channel(channel: str) -> tuple[Rule, ...]:
    """The teacher rules of a registered channel that reaches teachers: every kind to a teacher runs
    them, on whichever channel its delivery goes (send_checks.checked_contact)."""
    reasons = registry.driver(channel).cancel_reasons
    if reasons is None:
        raise ValueError(f"channel {channel!r} reaches no teacher")
    return teacher_rules(reasons)


def teacher_reasons() -> tuple[str, ...]:
    """The reasons the teacher rules cancel with on any channel, apart from each channel's own."""
    return (CancelReason.TEACHER_INACTIVE, CancelReason.CHANNEL_CHANGED)


def first_broken(rules: Sequence[Rule], subject: Subject) -> Rule | None:
    for rule in rules:
        if not rule.holds(subject):
            return rule
    return None


def subject_of(delivery: Delivery, shift: Shift | None, teacher: Teacher | None, starts_at: dt.datetime | None,
               now: dt.datetime) -> Subject:
    """The Subject from ORM objects. `starts_at` is the shift's start instant (None without a shift)."""
    contact = contacts.on(teacher.contacts, delivery.channel) if teacher is not None else None
    return Subject(
        now=now,
        delivery_shift_version=delivery.subject_version,
        delivery_teacher_id=delivery.teacher_id,
        shift_exists=shift is not None,
        shift_version=shift.version if shift is not None else None,
        shift_status=ShiftStatus(shift.status) if shift is not None else None,
        shift_teacher_id=shift.teacher_id if shift is not None else None,
        shift_starts_at=starts_at,
        teacher_exists=teacher is not None,
        teacher_active=bool(teacher is not None and teacher.active),
        teacher_erased=teacher is not None and teacher.erased_at is not None,
        wants_channel=teacher is not None and contacts.wants(teacher.contacts, delivery.channel),
        contact_usable=contact is not None and contacts.usable(contact),
        contact_unreachable=contact is not None and contact.unreachable_since is not None,
        has_fallback=teacher is not None and contacts.fallback_after(
            ContactRule(teacher.contact_rule), teacher.contacts, delivery.channel) is not None
        and teacher.active and teacher.erased_at is None,
        stands_in=delivery.linked_delivery_id is not None,
    )
