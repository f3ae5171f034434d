"""The decline of a cover request: the teacher who asked hears that the manager said no, so the shift
stays theirs, with the manager's reason when one was given.

Enqueued by `decline` here (the command line's `cover decline` and the Cover requests dialog), which
marks the request (core/roster/cover.py) and queues one delivery per channel the teacher's contacts
plan (LINE, e-mail or both), about the cover request and the shift's version asked about. It is due
at once, or when the classroom's quiet hours end if the manager declines in the night, unless the
shift starts first, as a correction (core/planning/context.py `soon`). At send time it is canceled
when the shift is gone, has changed since (its correction says what is true now), has started, or
the teacher cannot get it on the channel; a teacher who chose LINE then e-mail gets it by e-mail
when LINE cannot reach them. The text is the same on both channels, in the classroom's language.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core.kinds.registry import MessageKind, shared_reasons
from core.messages import cover as cover_messages
from core.messages import email_text
from core.messages.message import Message
from core.outbox.policy import CancelReason
from core.planning.context import PlanningContext, Subject
from core.roster import cover, rules
from core.sending import message_facts, send_checks, send_rules
from core.sending.outgoing import CancelDelivery
from core.store.kinds import CoverState, DeliveryKind, SubjectType
from core.store.models import CoverRequest, Delivery, Shift
from core.store.paths import DataPaths
from core.texts import t

KEY = DeliveryKind.COVER_DECLINED.value


def decline(session: Session, request_id: int, *, now: dt.datetime, reason: str = "") -> list[int]:
    """The manager declines the request: it is marked declined and the teacher who asked is told on
    each channel they are reached by. The ids of the deliveries it enqueued (none for a teacher no
    channel reaches now)."""
    row = cover.decline(session, request_id, now=now, reason=reason)
    shift = rules.get_shift(session, row.shift_id)
    teacher = rules.get_teacher(session, row.teacher_id)
    context = PlanningContext(session, now=now)
    due = context.soon(rules.shift_instants(shift)[0], shift.classroom)
    subject = Subject(SubjectType.COVER_REQUEST, row.id, row.shift_version, shift.classroom_id, f"cover:{row.id}")
    return [planned.delivery_id for planned in context.enqueue_for_teacher(
        KEY, teacher, subject, due, due.words(t("plan.why.cover_declined"))) if planned.created]


def _checked(session: Session, delivery: Delivery, now: dt.datetime) -> tuple[CoverRequest, Shift]:
    """The declined request and its shift, unchanged since the teacher asked and not started."""
    row = session.get(CoverRequest, delivery.subject_id) if delivery.subject_type == SubjectType.COVER_REQUEST else None
    shift = session.get(Shift, row.shift_id) if row is not None and row.state == CoverState.DECLINED else None
    if row is None or shift is None:
        raise CancelDelivery(CancelReason.SHIFT_MISSING)
    if shift.version != delivery.subject_version:
        raise CancelDelivery(CancelReason.SHIFT_CHANGED)
    if rules.shift_instants(shift)[0] <= now:
        raise CancelDelivery(CancelReason.SHIFT_STARTED)
    return row, shift


def compose(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Message:
    row, shift = _checked(session, delivery, now)
    teacher = send_checks.checked_contact(session, delivery, send_checks.teacher_of(session, delivery), now)
    facts = message_facts.facts_of(shift, shift.classroom, shift.note)
    language = shift.classroom.language
    return Message.of_text(KEY, cover_messages.language_of(language),
                           cover_messages.declined_text(facts, row.decline_reason, language),
                           facts=email_text.shift_fields(facts, language), to_name=teacher.display_name)


KIND = MessageKind(
    key=KEY,
    label=t("kind.cover_declined"),
    subject=SubjectType.COVER_REQUEST.value,
    why=t("plan.why.cover_declined"),
    compose=compose,
    cancel_reasons=shared_reasons(*send_rules.teacher_reasons(), CancelReason.SHIFT_MISSING,
                                  CancelReason.SHIFT_CHANGED, CancelReason.SHIFT_STARTED),
    to_teacher=True,
)
