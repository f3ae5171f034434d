"""LINE with e-mail fallback: when a LINE delivery cannot reach a teacher who chose fallback, the same
message goes by e-mail, recorded as a delivery linked to the LINE one (`linked_delivery_id`).

The e-mail delivery has the dedup key the planner would give an e-mail of that message, so however
many paths notice the failure (send time, the sender recording a result, the scheduler's sweep), the
teacher gets one e-mail. Which failures count is policy.line_failure's rule.
"""

from __future__ import annotations

import datetime as dt
import logging

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.kinds import registry as kinds
from core.outbox import policy, queue
from core.planning import mailed_publication
from core.roster import channel_choice
from core.store.models import (
    Channel,
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    Publication,
    SubjectType,
    Teacher,
)

log = logging.getLogger(__name__)
# The cancel reason of a LINE delivery that went by e-mail instead (the name line_builders raises).
UNREACHABLE = policy.CancelReason.LINE_UNREACHABLE
SWEEP_WINDOW = dt.timedelta(days=1)


def email_key(line_key: str) -> str:
    """The e-mail twin of a LINE dedup key — what queue.dedup_key(..., channel=EMAIL) gives."""
    return f"{line_key}:{Channel.EMAIL.value}"


def send_by_email_instead(session: Session, line: Delivery, teacher: Teacher, *, now: dt.datetime) -> int | None:
    """Enqueue the e-mail copy of a teacher's LINE delivery, linked to it. None if e-mail cannot reach them."""
    if not channel_choice.falls_back_to_email(teacher) or kinds.builder(line.kind, Channel.EMAIL) is None:
        return None  # the teacher has no e-mail to fall back to, or the kind says nothing by e-mail
    delivery_id, _ = queue.enqueue(
        session, kind=line.kind, dedup=email_key(line.dedup_key), due_at=line.due_at,
        send_at=max(line.next_attempt_at, now), now=now, channel=Channel.EMAIL, recipient=teacher.email,
        teacher_id=teacher.id, classroom_id=line.classroom_id, subject_type=line.subject_type,
        subject_id=line.subject_id, subject_version=line.subject_version, linked_delivery_id=line.id,
    )
    return delivery_id


def after_failure(session: Session, delivery_id: int, *, code: str | None, at_recipient: bool, dead: bool,
                  now: dt.datetime) -> list[int]:
    """A delivery ended as failed. Only a LINE one means anything here: remember an unreachable
    teacher, and fall back to e-mail where the rule says; any other does nothing.

    Returns the e-mail deliveries it enqueued (already existing ones included)."""
    line = session.get(Delivery, delivery_id)
    if line is None or line.channel != Channel.LINE:
        return []
    verdict = policy.line_failure(code, at_recipient=at_recipient, dead=dead)
    if line.kind == DeliveryKind.SHIFT_PUBLICATION:
        publication = (session.get(Publication, line.subject_id)
                       if line.subject_type == SubjectType.PUBLICATION and line.subject_id else None)
        if not verdict.fall_back or publication is None:
            return []
        return mailed_publication.fan_out(session, publication, now=now, line_failed=True)
    teacher = session.get(Teacher, line.teacher_id) if line.teacher_id else None
    if teacher is None:
        return []
    if verdict.recipient_unreachable and teacher.line_user_id == line.recipient and teacher.line_unreachable_at is None:
        teacher.line_unreachable_at = now
        log.info("LINE cannot reach teacher %s (%s); remembered for later messages", teacher.id, code)
    if not verdict.fall_back:
        return []
    created = send_by_email_instead(session, line, teacher, now=now)
    return [created] if created is not None else []


def sweep(session: Session, *, now: dt.datetime, window: dt.timedelta = SWEEP_WINDOW) -> list[int]:
    """Catch failures no one followed up (a sender that stopped between recording and falling back,
    or a teacher who switched to fallback after the failure): the minute job runs this."""
    failed = session.scalars(
        select(Delivery).join(Teacher, Teacher.id == Delivery.teacher_id).where(
            Delivery.channel == Channel.LINE, Delivery.status == DeliveryStatus.FAILED,
            Delivery.kind.in_(kinds.teacher_keys()), Delivery.updated_at >= now - window,
            Teacher.channel == "line_fallback",
        )
    ).all()
    if not failed:
        return []
    twins = set(session.scalars(select(Delivery.dedup_key).where(
        Delivery.dedup_key.in_([email_key(d.dedup_key) for d in failed]))))
    created: list[int] = []
    for line in failed:
        if email_key(line.dedup_key) in twins:
            continue
        if policy.line_failure(line.last_error_code, at_recipient=line.last_error_at_recipient,
                               dead=line.dead_lettered_at is not None).fall_back:
            teacher = session.get(Teacher, line.teacher_id)
            if teacher is not None and (made := send_by_email_instead(session, line, teacher, now=now)) is not None:
                created.append(made)
    return created
