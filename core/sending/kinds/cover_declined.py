"""The decline of a cover request: the teacher who asked hears that the manager said no, so the shift
stays theirs, with the manager's reason when one was given.

Enqueued by `decline` here (the command line's `cover decline` and the Cover requests dialog), which
marks the request (core/roster/cover.py) and queues one delivery per channel the teacher's contacts
plan (LINE, e-mail or both), about the cover request and the shift's version asked about. It is due
at once, or when the classroom's quiet hours end if the manager declines in the night, unless the
shift starts first (core/planning/reminder_times.py, as a correction). At send time it is canceled
when the shift is gone, has changed since (its correction says what is true now), has started, or
the teacher cannot get it on the channel; a teacher who chose LINE then e-mail gets it by e-mail
when LINE cannot reach them. The text is the same on both channels, in the classroom's language.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core.channels.base import Outgoing
from core.kinds.registry import MessageKind, shared_reasons
from core.messages import cover as cover_messages
from core.messages import email_text, texts
from core.outbox import queue
from core.outbox.policy import CancelReason
from core.planning import fallback
from core.planning.planner import planned_channels, quiet_hours_of
from core.planning.reminder_times import outside_quiet_hours
from core.roster import cover, rules
from core.sending import email_builders, line_builders, send_checks, send_rules
from core.sending.outgoing import CancelDelivery
from core.store.kinds import Channel, CoverState, DeliveryKind, SubjectType
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
    start = rules.shift_instants(shift)[0]
    room = shift.classroom
    send_at = outside_quiet_hours(now=now, shift_start=start, zone_name=room.timezone,
                                  quiet=quiet_hours_of(room)).send_at or now
    made = []
    for channel in planned_channels(teacher):
        delivery_id, created = queue.enqueue(
            session, kind=KEY, dedup=queue.dedup_key(KEY, f"cover:{row.id}", row.shift_version, channel=channel),
            due_at=send_at, now=now, channel=channel, recipient=fallback.recipient(teacher, channel),
            teacher_id=teacher.id, classroom_id=room.id, subject_type=SubjectType.COVER_REQUEST,
            subject_id=row.id, subject_version=row.shift_version)
        if created:
            made.append(delivery_id)
    return made


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


def _text(row: CoverRequest, shift: Shift) -> tuple[texts.ShiftFacts, str]:
    facts = line_builders.facts_of(shift, shift.classroom, shift.note)
    return facts, cover_messages.declined_text(facts, row.decline_reason, shift.classroom.language)


def build_line(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    row, shift = _checked(session, delivery, now)
    teacher = send_checks.checked_teacher(session, delivery, send_checks.teacher_of(session, delivery), now)
    _, text = _text(row, shift)
    return Outgoing("push", send_checks.recipient(teacher, delivery), (texts.flex_message(text),))


def build_email(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    row, shift = _checked(session, delivery, now)
    teacher = send_checks.checked_email_teacher(send_checks.teacher_of(session, delivery), delivery)
    facts, text = _text(row, shift)
    language = shift.classroom.language
    composed = email_text.compose(email_builders.templates(language, paths), subject_name=KEY, message_text=text,
                                  fields=email_text.shift_fields(facts, language), name=teacher.display_name)
    return email_builders.mail_to(session, delivery, teacher, composed)


KIND = MessageKind(
    key=KEY,
    label=t("kind.cover_declined"),
    subject=SubjectType.COVER_REQUEST.value,
    why=t("plan.why.cover_declined"),
    builders={Channel.LINE.value: build_line, Channel.EMAIL.value: build_email},
    cancel_reasons=shared_reasons(*(rule.reason for rule in send_rules.LINE_TEACHER), CancelReason.SHIFT_MISSING,
                                  CancelReason.SHIFT_CHANGED, CancelReason.SHIFT_STARTED,
                                  "EMAIL_NOT_OPTED_IN"),
    to_teacher=True,
)
