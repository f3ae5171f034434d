"""Fallback: when a teacher's delivery cannot reach them on one channel and their contact rule is
"the first that can reach them, then the next" (core/roster/contacts.py), the same message goes on the
next channel they agreed to, recorded as a delivery linked to the first one (`linked_delivery_id`).
LINE with e-mail after it is the usual case; any registered channel can be either.

The stand-in has the dedup key the planner would give that message on its channel, so however many
paths notice the failure (send time, the sender recording a result, the scheduler's sweep), the
teacher gets one copy. Which failures count is the failed delivery's channel to say: its driver's
`failure` reads the codes it gave (core/channels/base.py); a channel no longer registered gets the
rule for the codes every channel shares (policy.failure).
"""

from __future__ import annotations

import datetime as dt
import logging

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.channels import registry
from core.kinds import registry as kinds
from core.outbox import policy, queue
from core.planning import mailed_publication
from core.planning.context import recipient as recipient
from core.roster import contacts
from core.store.models import (
    Channel,
    ContactRule,
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    Publication,
    SubjectType,
    Teacher,
)

log = logging.getLogger(__name__)
# The cancel reason of a delivery that went another way instead, for a channel that names none of its own.
UNREACHABLE = policy.CancelReason.UNREACHABLE
SWEEP_WINDOW = dt.timedelta(days=1)


def twin_key(key: str, sent_on: str, instead: str) -> str:
    """The dedup key of the same message on another channel, as queue.dedup_key gives it there (keys
    stored long ago carry no channel for LINE, and keep that form)."""
    base = key if sent_on == Channel.LINE else key.removesuffix(f":{sent_on}")
    return base if instead == Channel.LINE else f"{base}:{instead}"


def failure(delivery: Delivery, *, code: str | None, at_recipient: bool, dead: bool) -> policy.ChannelFailure:
    """What the failed delivery means for the teacher's next channel, as its channel's driver says."""
    if registry.registered(delivery.channel):
        return registry.driver(delivery.channel).failure(code, at_recipient=at_recipient, dead=dead)
    return policy.failure(code, dead=dead)


def next_channel(teacher: Teacher, channel: str) -> str | None:
    """The channel a teacher's message goes by when `channel` cannot carry it; None: no fallback."""
    if not (teacher.active and teacher.erased_at is None):
        return None
    instead = contacts.fallback_after(ContactRule(teacher.contact_rule), teacher.contacts, channel)
    return instead if instead is not None and registry.registered(instead) else None


def send_instead(session: Session, failed: Delivery, teacher: Teacher, *, now: dt.datetime) -> int | None:
    """Enqueue the copy of a teacher's delivery on their next channel, linked to it. None if no other
    channel can reach them."""
    instead = next_channel(teacher, failed.channel)
    if instead is None or kinds.builder(failed.kind, instead) is None:
        return None  # no other channel reaches them, or the kind says nothing on it
    delivery_id, _ = queue.enqueue(
        session, kind=failed.kind, dedup=twin_key(failed.dedup_key, failed.channel, instead), due_at=failed.due_at,
        send_at=max(failed.next_attempt_at, now), now=now, channel=instead, recipient=recipient(teacher, instead),
        teacher_id=teacher.id, classroom_id=failed.classroom_id, subject_type=failed.subject_type,
        subject_id=failed.subject_id, subject_version=failed.subject_version, linked_delivery_id=failed.id,
    )
    return delivery_id


def after_failure(session: Session, delivery_id: int, *, code: str | None, at_recipient: bool, dead: bool,
                  now: dt.datetime) -> list[int]:
    """A delivery ended as failed: remember a teacher the channel cannot reach, and fall back to their
    next channel where their rule says. A month published to a classroom's group that failed goes to
    its teachers one by one instead (core/planning/mailed_publication.py).

    Returns the deliveries it enqueued (already existing ones included)."""
    failed = session.get(Delivery, delivery_id)
    if failed is None:
        return []
    verdict = failure(failed, code=code, at_recipient=at_recipient, dead=dead)
    if failed.kind == DeliveryKind.SHIFT_PUBLICATION and failed.teacher_id is None:  # the group's copy
        publication = (session.get(Publication, failed.subject_id)
                       if failed.subject_type == SubjectType.PUBLICATION and failed.subject_id else None)
        if not verdict.fall_back or publication is None:
            return []
        return mailed_publication.fan_out(session, publication, now=now, line_failed=True)
    teacher = session.get(Teacher, failed.teacher_id) if failed.teacher_id else None
    if teacher is None:
        return []
    contact = contacts.on(teacher.contacts, failed.channel)
    if (verdict.recipient_unreachable and contact is not None and contact.address == failed.recipient
            and contact.unreachable_since is None):
        contact.unreachable_since = now
        log.info("%s cannot reach teacher %s (%s); remembered for later messages", failed.channel, teacher.id, code)
    if not verdict.fall_back:
        return []
    created = send_instead(session, failed, teacher, now=now)
    return [created] if created is not None else []


def sweep(session: Session, *, now: dt.datetime, window: dt.timedelta = SWEEP_WINDOW) -> list[int]:
    """Catch failures no one followed up (a sender that stopped between recording and falling back,
    or a teacher who switched to fallback after the failure): the minute job runs this."""
    failed = session.scalars(
        select(Delivery).join(Teacher, Teacher.id == Delivery.teacher_id).where(
            Delivery.status == DeliveryStatus.FAILED, Delivery.kind.in_(kinds.teacher_keys()),
            Delivery.updated_at >= now - window, Teacher.contact_rule == ContactRule.FIRST,
        )
    ).all()
    wanted = {}
    for delivery in failed:
        teacher = session.get(Teacher, delivery.teacher_id)
        instead = next_channel(teacher, delivery.channel) if teacher is not None else None
        if teacher is not None and instead is not None:
            wanted[twin_key(delivery.dedup_key, delivery.channel, instead)] = (delivery, teacher)
    if not wanted:
        return []
    twins = set(session.scalars(select(Delivery.dedup_key).where(Delivery.dedup_key.in_(list(wanted)))))
    created: list[int] = []
    for key, (delivery, teacher) in wanted.items():
        if key in twins:
            continue
        if failure(delivery, code=delivery.last_error_code, at_recipient=delivery.last_error_at_recipient,
                   dead=delivery.dead_lettered_at is not None).fall_back:
            if (made := send_instead(session, delivery, teacher, now=now)) is not None:
                created.append(made)
    return created
