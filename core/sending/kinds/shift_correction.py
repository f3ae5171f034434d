"""The shift correction: a teacher who was told a version of a shift hears what changed since.

Planned at once when a shift changes (core/planning/corrections.py) for each teacher told an older
version (core/planning/told.py): old → new, a cancellation notice, or — when the shift went to
someone else — a notice that it is no longer theirs. At send time it is canceled when the shift is
gone, changed again or started, when the teacher was never told the old version or its record is
gone, or the teacher cannot get it on the channel. It counts as telling the teacher the new version.
Red on every channel that shows a colour, with the 了解 action while the manager has it on; its form
(correction, cancellation, hand-over) names its e-mail subject.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.kinds.registry import MessageKind, shared_reasons
from core.messages import ack, email_text, texts
from core.messages.message import Action, Message
from core.outbox.policy import CancelReason
from core.planning import corrections, told
from core.sending import message_facts, send_checks, send_rules
from core.sending.outgoing import CancelDelivery
from core.store.kinds import DeliveryKind
from core.store.models import Classroom, Delivery, Shift, ShiftRevision, ShiftStatus, Teacher
from core.store.paths import DataPaths
from core.texts import t

KEY = DeliveryKind.SHIFT_CORRECTION.value
RULES = send_rules.SHIFT  # then the teacher rules of the delivery's channel


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
    before = message_facts.facts_of(before_rev, session.get(Classroom, before_rev.classroom_id) or room)
    reassigned = shift.teacher_id != teacher.id
    canceled = shift.status == ShiftStatus.CANCELED
    after = None if reassigned or canceled else message_facts.facts_of(shift, room, shift.note)
    text = texts.correction_text(before, after, room.language, message_facts.templates(room.language, paths),
                                 reassigned=reassigned)
    template = "shift_reassigned" if reassigned else "shift_cancellation" if after is None else "shift_correction"
    return Correction(template, text, before, room.language, room)


def compose(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Message:
    shift = send_checks.checked_shift(session, delivery, now, reminder=False)
    teacher = send_checks.checked_contact(session, delivery, send_checks.teacher_of(session, delivery), now)
    correction = correction_for(session, shift, teacher, paths)
    sign = ack.signer(session)
    language = message_facts.language_of(correction.language)
    return Message.of_text(KEY, language, correction.text, facts=email_text.shift_fields(correction.before, language),
                           actions=() if sign is None else (Action(ack.label(language), sign(delivery.id)),),
                           accent=email_text.CORRECTION_ACCENT, to_name=teacher.display_name,
                           variant=correction.template)


KIND = MessageKind(
    key=KEY,
    label=t("kind.shift_correction"),
    subject="shift",
    why=t("plan.why.correction"),
    compose=compose,
    cancel_reasons=shared_reasons(*(rule.reason for rule in RULES), *send_rules.teacher_reasons(),
                                  CancelReason.NOTHING_TOLD, CancelReason.NO_HISTORY, CancelReason.SUPERSEDED),
    told=True,
    to_teacher=True,
    acknowledged=True,
    plan=corrections.plan,
)
