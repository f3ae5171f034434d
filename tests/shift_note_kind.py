"""A message kind written outside core, as a plug-in would be: the shift note.

When the manager writes a note on a confirmed shift ("the key is at the front desk"), the teacher on
it is told the note on LINE at the next planning run. It says what it says once (`compose`) and has
no builder for any channel: each channel's driver renders its message. Its subject is the shift; it is canceled at
send time with a reason of its own when the shift was canceled meanwhile, and by the shared shift
and teacher checks otherwise. It does not count as telling the teacher the shift. Its words travel
with it (`texts`), so no file of core changes for it: tests/test_new_kind.py registers it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from sqlalchemy.orm import Session

from core.kinds.registry import MessageKind, shared_reasons
from core.messages.message import Message
from core.planning.context import PlanningContext, Subject
from core.sending import send_checks, send_rules
from core.sending.outgoing import CancelDelivery
from core.store.models import Delivery, ShiftStatus, SubjectType
from core.store.paths import DataPaths
from core.texts import Text, render
from core.texts.formats import Language

KEY = "shift_note"
SHIFT_CANCELED = "NOTE_SHIFT_CANCELED"
TEXTS = {
    "kind.shift_note": ("Shift note", "シフトのメモ"),
    "plan.why.shift_note": ("a note on a confirmed shift", "確定したシフトへのメモ"),
    "cancel.NOTE_SHIFT_CANCELED": ("the shift the note was on was canceled", "メモを付けたシフトが取消になりました"),
    "shift_note.text": ("A note on your shift on {day} at {classroom}:\n{note}",
                        "{day}（{classroom}）のシフトへのメモです。\n{note}"),
}
RULES = send_rules.SHIFT + send_rules.REMINDER  # then the teacher rules of the delivery's channel


def plan(context: PlanningContext) -> Sequence[int]:
    """One note per confirmed shift version with a note, due now, on each channel the teacher's contacts
    plan (the planning context finds them, and their fallback)."""
    made = []
    for shift, _ in context.upcoming_shifts():
        if shift.status != ShiftStatus.CONFIRMED or not shift.note:
            continue
        rows = context.enqueue_for_teacher(KEY, shift.teacher, Subject.shift(shift), context.at_once(),
                                           Text("plan.why.shift_note"))
        made += [row.delivery_id for row in rows if row.created]
    return made


def compose(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Message:
    """The note, once, for every channel: each channel's driver renders it (no builder of its own)."""
    shift = send_checks.shift_of(session, delivery)
    if shift is not None and shift.status == ShiftStatus.CANCELED:
        raise CancelDelivery(SHIFT_CANCELED)
    shift = send_checks.checked_shift(session, delivery, now, reminder=True)
    teacher = send_checks.checked_contact(session, delivery, shift.teacher, now)
    room = shift.classroom
    language: Language = "ja" if room.language == "ja" else "en"
    words = render(Text("shift_note.text", {"day": shift.local_date, "classroom": room.name, "note": shift.note}),
                   language)
    return Message.of_text(KEY, language, words, facts={"classroom": room.name}, to_name=teacher.display_name)


# Text(...) rather than t(...): the codes enter the catalog when the kind is registered, not before.
KIND = MessageKind(
    key=KEY,
    label=Text("kind.shift_note"),
    subject=SubjectType.SHIFT,
    why=Text("plan.why.shift_note"),
    compose=compose,
    cancel_reasons={SHIFT_CANCELED: Text("cancel.NOTE_SHIFT_CANCELED")}
    | shared_reasons(*(rule.reason for rule in RULES), *send_rules.teacher_reasons()),
    to_teacher=True,
    plan=plan,
    texts=TEXTS,
)
