"""A message kind written outside core, as a plug-in would be: the shift note.

When the manager writes a note on a confirmed shift ("the key is at the front desk"), the teacher on
it is told the note on LINE at the next planning run. Its subject is the shift; it is canceled at
send time with a reason of its own when the shift was canceled meanwhile, and by the shared shift
and teacher checks otherwise. It does not count as telling the teacher the shift. Its words travel
with it (`texts`), so no file of core changes for it: tests/test_new_kind.py registers it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.channels import email
from core.channels.base import Outgoing
from core.kinds.registry import MessageKind, shared_reasons
from core.messages import texts
from core.outbox import queue
from core.planning.planner import HORIZON
from core.roster import contacts
from core.sending import send_checks, send_rules
from core.sending.outgoing import CancelDelivery
from core.store.models import Channel, Delivery, Shift, ShiftStatus, SubjectType
from core.store.paths import DataPaths
from core.texts import Text, render

KEY = "shift_note"
SHIFT_CANCELED = "NOTE_SHIFT_CANCELED"
TEXTS = {
    "kind.shift_note": ("Shift note", "シフトのメモ"),
    "plan.why.shift_note": ("a note on a confirmed shift", "確定したシフトへのメモ"),
    "cancel.NOTE_SHIFT_CANCELED": ("the shift the note was on was canceled", "メモを付けたシフトが取消になりました"),
    "shift_note.text": ("A note on your shift on {day} at {classroom}:\n{note}",
                        "{day}（{classroom}）のシフトへのメモです。\n{note}"),
}
RULES = send_rules.SHIFT + send_rules.REMINDER + send_rules.LINE_TEACHER


def plan(session: Session, now: dt.datetime) -> Sequence[int]:
    """One note per confirmed shift version with a note, to a teacher on LINE, due now."""
    shifts = session.scalars(select(Shift).where(
        Shift.status == ShiftStatus.CONFIRMED, Shift.note != "",
        Shift.local_date >= now.date(), Shift.local_date <= (now + HORIZON).date())).all()
    created = []
    for shift in shifts:
        if not contacts.eligible(shift.teacher, Channel.LINE):
            continue
        delivery_id, new = queue.enqueue(
            session, kind=KEY, dedup=queue.dedup_key(KEY, f"shift:{shift.id}", shift.version), due_at=now, now=now,
            recipient=contacts.address_on(shift.teacher, Channel.LINE), teacher_id=shift.teacher_id, classroom_id=shift.classroom_id,
            subject_type=SubjectType.SHIFT, subject_id=shift.id, subject_version=shift.version)
        if new:
            created.append(delivery_id)
    return created


def build_line(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    shift = send_checks.shift_of(session, delivery)
    if shift is not None and shift.status == ShiftStatus.CANCELED:
        raise CancelDelivery(SHIFT_CANCELED)
    shift = send_checks.checked_shift(session, delivery, now, reminder=True)
    teacher = send_checks.checked_teacher(session, delivery, shift.teacher, now)
    room = shift.classroom
    words = render(Text("shift_note.text", {"day": shift.local_date, "classroom": room.name, "note": shift.note}),
                   "ja" if room.language == "ja" else "en")
    return Outgoing("push", send_checks.recipient(teacher, delivery), (texts.flex_message(words),))


# Text(...) rather than t(...): the codes enter the catalog when the kind is registered, not before.
KIND = MessageKind(
    key=KEY,
    label=Text("kind.shift_note"),
    subject=SubjectType.SHIFT,
    why=Text("plan.why.shift_note"),
    builders={"line": build_line},
    cancel_reasons={SHIFT_CANCELED: Text("cancel.NOTE_SHIFT_CANCELED")}
    | shared_reasons(*(rule.reason for rule in RULES), email.NOT_OPTED_IN),
    to_teacher=True,
    plan=plan,
    texts=TEXTS,
)
