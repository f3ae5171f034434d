"""The shift reminder: before each confirmed shift, the teacher on it is told when and where.

Due `lead` before the shift starts, moved earlier out of the classroom's quiet hours; one late
reminder still goes before the start (core/planning/reminder_times.py). The planner makes one per
shift version and channel the teacher chose (core/planning/planner.py). At send time it is canceled
when the shift is gone, changed, started, no longer confirmed or no longer this teacher's, or the
teacher cannot get it on the channel (send_rules.LINE_REMINDER; the lean path, reminder_batch, runs
the same rules). It counts as telling the teacher that version: a later change gets a correction.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core.channels.base import Outgoing
from core.kinds.registry import MessageKind, shared_reasons
from core.messages import ack, cover, email_text, texts
from core.outbox.policy import CancelReason
from core.sending import email_builders, line_builders, send_checks, send_rules
from core.store.kinds import Channel, DeliveryKind
from core.store.models import Delivery
from core.store.paths import DataPaths
from core.texts import t

RULES = send_rules.LINE_REMINDER


def build_line(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    shift = send_checks.checked_shift(session, delivery, now, reminder=True)
    teacher = send_checks.checked_teacher(session, delivery, shift.teacher, now)
    room = shift.classroom
    push = line_builders.reminder_push(line_builders.facts_of(shift, room, shift.note), room.language,
                                       send_checks.recipient(teacher, delivery), paths)
    buttons = line_builders.reminder_buttons(ack.signer(session), cover.ask_signer(session), delivery.id, room.language)
    return line_builders.with_buttons(push, buttons)


def build_email(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    shift = send_checks.checked_shift(session, delivery, now, reminder=True)
    teacher = send_checks.checked_email_teacher(shift.teacher, delivery)
    room = shift.classroom
    facts = line_builders.facts_of(shift, room, shift.note)
    text = texts.reminder_text(facts, room.language, line_builders.templates(room.language, paths))
    composed = email_text.compose(email_builders.templates(room.language, paths), subject_name="shift_reminder",
                                  message_text=text, fields=email_text.shift_fields(facts, room.language),
                                  name=teacher.display_name)
    return email_builders.mail_to(session, delivery, teacher, composed)


KIND = MessageKind(
    key=DeliveryKind.SHIFT_REMINDER.value,
    label=t("kind.shift_reminder"),
    subject="shift",
    why=t("plan.why.reminder"),
    builders={Channel.LINE.value: build_line, Channel.EMAIL.value: build_email},
    cancel_reasons=shared_reasons(*(rule.reason for rule in RULES), "EMAIL_NOT_OPTED_IN",
                                  CancelReason.COVERED_BY_CORRECTION, CancelReason.SUPERSEDED),
    told=True,
    to_teacher=True,
    acknowledged=True,
)
