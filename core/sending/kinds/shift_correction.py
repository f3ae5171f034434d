"""The shift correction: a teacher who was told a version of a shift hears what changed since.

Planned at once when a shift changes (core/planning/planner.py) for each teacher told an older
version (core/planning/told.py): old → new, a cancellation notice, or — when the shift went to
someone else — a notice that it is no longer theirs. At send time it is canceled when the shift is
gone, changed again or started, when the teacher was never told the old version or its record is
gone, or the teacher cannot get it on the channel. It counts as telling the teacher the new version.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.channels.base import Outgoing
from core.kinds.registry import MessageKind, shared_reasons
from core.messages import email_text, texts
from core.outbox.policy import CancelReason
from core.planning import told
from core.sending import email_builders, line_builders, send_checks, send_rules
from core.sending.outgoing import CancelDelivery
from core.store.kinds import Channel, DeliveryKind
from core.store.models import Classroom, Delivery, Shift, ShiftRevision, ShiftStatus, Teacher
from core.store.paths import DataPaths
from core.texts import t

RULES = send_rules.SHIFT + send_rules.LINE_TEACHER


@dataclass(frozen=True)
class Correction:
    """What a correction tells a teacher, whatever the channel."""

    template: str  # shift_correction, shift_cancellation or shift_reassigned
    text: str
    before: texts.ShiftFacts
    language: str
    classroom: Classroom


def correction_for(session: Session, shift: Shift, teacher: Teacher, paths: DataPaths) -> Correction:
    """Old → new for the teacher who was told an older version (or a cancellation / hand-over notice)."""
    told_version = told.told_version(session, shift.id, teacher.id, below=shift.version)
    if told_version is None:
        raise CancelDelivery(CancelReason.NOTHING_TOLD)
    before_rev = session.scalar(select(ShiftRevision).where(ShiftRevision.shift_id == shift.id,
                                                            ShiftRevision.version == told_version))
    if before_rev is None:
        raise CancelDelivery(CancelReason.NO_HISTORY)
    room = shift.classroom
    before = line_builders.facts_of(before_rev, session.get(Classroom, before_rev.classroom_id) or room)
    reassigned = shift.teacher_id != teacher.id
    canceled = shift.status == ShiftStatus.CANCELED
    after = None if reassigned or canceled else line_builders.facts_of(shift, room, shift.note)
    text = texts.correction_text(before, after, room.language, line_builders.templates(room.language, paths),
                                 reassigned=reassigned)
    template = "shift_reassigned" if reassigned else "shift_cancellation" if after is None else "shift_correction"
    return Correction(template, text, before, room.language, room)


def build_line(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    shift = send_checks.checked_shift(session, delivery, now, reminder=False)
    teacher = send_checks.checked_teacher(session, delivery, send_checks.teacher_of(session, delivery), now)
    correction = correction_for(session, shift, teacher, paths)
    push = Outgoing("push", send_checks.recipient(teacher, delivery), (texts.flex_message(correction.text, accent="#C0392B"),))
    return line_builders.with_ack(push, line_builders.ack_data(session, delivery), correction.language)


def build_email(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    shift = send_checks.checked_shift(session, delivery, now, reminder=False)
    teacher = send_checks.checked_email_teacher(send_checks.teacher_of(session, delivery), delivery)
    correction = correction_for(session, shift, teacher, paths)
    fields = email_text.shift_fields(correction.before, correction.language)
    composed = email_text.compose(email_builders.templates(correction.language, paths),
                                  subject_name=correction.template, message_text=correction.text, fields=fields,
                                  name=teacher.display_name, accent=email_text.CORRECTION_ACCENT)
    return email_builders.mail_to(session, delivery, teacher, composed)


KIND = MessageKind(
    key=DeliveryKind.SHIFT_CORRECTION.value,
    label=t("kind.shift_correction"),
    subject="shift",
    why=t("plan.why.correction"),
    builders={Channel.LINE.value: build_line, Channel.EMAIL.value: build_email},
    cancel_reasons=shared_reasons(*(rule.reason for rule in RULES), "EMAIL_NOT_OPTED_IN",
                                  CancelReason.NOTHING_TOLD, CancelReason.NO_HISTORY, CancelReason.SUPERSEDED),
    told=True,
    to_teacher=True,
    acknowledged=True,
)
