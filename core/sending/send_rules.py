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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.outbox.policy import CancelReason
from core.roster import channel_choice
from core.store.models import Channel, ChannelChoice, Delivery, Shift, ShiftStatus, Teacher


@dataclass(frozen=True, slots=True)
class Subject:
    """What the rules look at. A missing shift or teacher leaves its fields at their empty values;
    the rule that notices it comes before every rule that reads them."""

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
    teacher_channel: ChannelChoice = ChannelChoice.LINE
    teacher_line_opt_in: bool = False
    teacher_has_line_id: bool = False
    teacher_line_unreachable: bool = False
    teacher_email_eligible: bool = False


@dataclass(frozen=True)
class Rule:
    reason: CancelReason  # the cancel reason when the rule does not hold
    holds: Callable[[Subject], bool]
    # When it fails for a teacher who chose LINE with e-mail fallback, the e-mail copy is enqueued first.
    then_email: bool = False


def _wants_line(s: Subject) -> bool:
    return channel_choice.choice_includes(s.teacher_channel, Channel.LINE)


def _falls_back(s: Subject) -> bool:
    return channel_choice.choice_falls_back(s.teacher_channel, email_ok=s.teacher_email_eligible)


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
# The teacher can and wants to get it on LINE.
LINE_TEACHER: tuple[Rule, ...] = (
    Rule(CancelReason.TEACHER_INACTIVE, lambda s: s.teacher_exists and s.teacher_active and not s.teacher_erased),
    Rule(CancelReason.CHANNEL_CHANGED, _wants_line),
    Rule(CancelReason.LINE_NOT_OPTED_IN, lambda s: s.teacher_line_opt_in and s.teacher_has_line_id, then_email=True),
    # Without a fallback LINE is still tried: the teacher may have come back (unblocked the account).
    Rule(CancelReason.LINE_UNREACHABLE, lambda s: not s.teacher_line_unreachable or not _falls_back(s), then_email=True),
)
LINE_REMINDER: tuple[Rule, ...] = SHIFT + REMINDER + LINE_TEACHER


def first_broken(rules: Sequence[Rule], subject: Subject) -> Rule | None:
    for rule in rules:
        if not rule.holds(subject):
            return rule
    return None


def subject_of(delivery: Delivery, shift: Shift | None, teacher: Teacher | None, starts_at: dt.datetime | None,
               now: dt.datetime) -> Subject:
    """The Subject from ORM objects. `starts_at` is the shift's start instant (None without a shift)."""
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
        teacher_channel=ChannelChoice(teacher.channel) if teacher is not None else ChannelChoice.LINE,
        teacher_line_opt_in=bool(teacher is not None and teacher.line_opt_in),
        teacher_has_line_id=bool(teacher is not None and teacher.line_user_id),
        teacher_line_unreachable=teacher is not None and teacher.line_unreachable_at is not None,
        teacher_email_eligible=teacher is not None and channel_choice.email_eligible(teacher),
    )
