"""The shift reminder: before each confirmed shift, the teacher on it is told when and where.

Due `lead` before the shift starts, moved earlier out of the classroom's quiet hours; one late
reminder still goes before the start (core/planning/reminder_times.py). The planner makes one per
shift version and channel the teacher chose (core/planning/reminders.py). At send time it is canceled
when the shift is gone, changed, started, no longer confirmed or no longer this teacher's, or the
teacher cannot get it on the channel (`RULES` and the channel's teacher rules; the lean path,
reminder_batch, runs the same rules and builds the same message). It counts as telling the teacher
that version: a later change gets a correction. Its actions are 了解 and "Ask for cover", each while
the manager has it on, and "Open my page" while the teachers' page is ready.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from sqlalchemy.orm import Session

from core.kinds.registry import MessageKind, shared_reasons
from core.messages import ack, cover, email_text, texts
from core.messages.message import Action, Message
from core.outbox.policy import CancelReason
from core.pages import buttons
from core.planning import reminders
from core.sending import message_facts, send_checks, send_rules
from core.store.kinds import DeliveryKind
from core.store.models import Delivery
from core.store.paths import DataPaths
from core.texts import t

KEY = DeliveryKind.SHIFT_REMINDER.value
RULES = send_rules.SHIFT + send_rules.REMINDER  # then the teacher rules of the delivery's channel


def message(facts: texts.ShiftFacts, language: str, templates: dict[str, str], actions: tuple[Action, ...] = (),
            to_name: str = "") -> Message:
    """The reminder of one shift, as every channel says it (the lean path makes it from its row)."""
    return Message.of_text(KEY, language, texts.reminder_text(facts, language, templates),
                           facts=email_text.shift_fields(facts, language), actions=actions, to_name=to_name)


def actions(ack_sign: Callable[[int], str] | None, ask_sign: cover.Signer | None, delivery_id: int,
            language: str, page: Action | None = None) -> tuple[Action, ...]:
    """了解 and "Ask for cover", each while the manager has it on, and the teachers' page while it is ready."""
    found = [] if ack_sign is None else [Action(ack.label(language), ack_sign(delivery_id))]
    if ask_sign is not None:
        button = cover.ask_button(ask_sign, delivery_id, language)
        found.append(Action(button.label, button.data))
    return (*found, page) if page is not None else tuple(found)


def page_button(liff_id: str | None, local_date: dt.date, language: str) -> Action | None:
    """"Open my page" at the month of the shift (None without the page)."""
    return buttons.link(liff_id, language, "month", month=buttons.month_of(local_date.year, local_date.month))


def compose(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Message:
    shift = send_checks.checked_shift(session, delivery, now, reminder=True)
    teacher = send_checks.checked_contact(session, delivery, shift.teacher, now)
    room = shift.classroom
    language = message_facts.language_of(room.language)
    return message(message_facts.facts_of(shift, room, shift.note), language,
                   message_facts.templates(language, paths),
                   actions(ack.signer(session), cover.ask_signer(session), delivery.id, language,
                           buttons.for_teacher(session, teacher, language, "month",
                                               month=buttons.month_of(shift.local_date.year, shift.local_date.month))),
                   teacher.display_name)


KIND = MessageKind(
    key=KEY,
    label=t("kind.shift_reminder"),
    subject="shift",
    why=t("plan.why.reminder"),
    compose=compose,
    cancel_reasons=shared_reasons(*(rule.reason for rule in RULES), *send_rules.teacher_reasons(),
                                  CancelReason.COVERED_BY_CORRECTION, CancelReason.SUPERSEDED),
    told=True,
    to_teacher=True,
    acknowledged=True,
    plan=reminders.plan,
)
