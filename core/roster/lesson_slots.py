"""A classroom's lesson slots (コマ): named periods such as 1限 16:50–18:10, which the shift dialog enters a
shift's times by. A shift keeps its own times: changing a slot later moves no shift a teacher was told about."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from core.errors import NotFoundError, ValidationError
from core.roster import rules
from core.store.models import LessonSlot as LessonSlotRow
from core.texts import t

NAME_LIMIT = 40


@dataclass(frozen=True)
class LessonSlot:
    name: str
    start_time: dt.time
    end_time: dt.time


def check(slot: LessonSlot) -> LessonSlot:
    """A slot with a name that fits and an end after its start; the name trimmed."""
    name = slot.name.strip()
    if not name:
        raise ValidationError(t("slots.name_missing"))
    if len(name) > NAME_LIMIT:
        raise ValidationError(t("slots.name_too_long", limit_count=NAME_LIMIT))
    if slot.end_time <= slot.start_time:
        raise ValidationError(t("slots.end_before_start", name=name, start=f"{slot.start_time:%H:%M}",
                                end=f"{slot.end_time:%H:%M}"))
    return LessonSlot(name, slot.start_time, slot.end_time)


def classroom_slots(session: Session, classroom_id: int) -> list[LessonSlot]:
    """The classroom's slots by start time."""
    rows = session.scalars(select(LessonSlotRow).where(LessonSlotRow.classroom_id == classroom_id)
                           .order_by(LessonSlotRow.start_time, LessonSlotRow.name))
    return [LessonSlot(r.name, r.start_time, r.end_time) for r in rows]


def add_slot(session: Session, classroom_id: int, slot: LessonSlot) -> None:
    """Add a slot, or give the slot of that name new times."""
    rules.get_classroom(session, classroom_id)
    slot = check(slot)
    row = session.scalars(select(LessonSlotRow).where(LessonSlotRow.classroom_id == classroom_id,
                                                      LessonSlotRow.name == slot.name)).first()
    if row is None:
        session.add(LessonSlotRow(classroom_id=classroom_id, name=slot.name, start_time=slot.start_time,
                                  end_time=slot.end_time))
    else:
        row.start_time, row.end_time = slot.start_time, slot.end_time
    session.flush()


def remove_slot(session: Session, classroom_id: int, name: str) -> None:
    done = session.execute(delete(LessonSlotRow).where(LessonSlotRow.classroom_id == classroom_id,
                                                       LessonSlotRow.name == name.strip()))
    if not getattr(done, "rowcount", 0):
        raise NotFoundError(t("slots.unknown", name=name))


def set_slots(session: Session, classroom_id: int, slots: Sequence[LessonSlot]) -> None:
    """The classroom's slots become these: all checked, names once each, before any is written."""
    rules.get_classroom(session, classroom_id)
    checked = [check(s) for s in slots]
    names = [s.name for s in checked]
    if twice := sorted({n for n in names if names.count(n) > 1}):
        raise ValidationError(t("slots.name_twice", name=twice[0]))
    # A slot that stays keeps its row, and with it its staffing needs (core/roster/needs.py).
    kept = {row.name: row for row in session.scalars(select(LessonSlotRow)
                                                     .where(LessonSlotRow.classroom_id == classroom_id))}
    gone = [row.id for name, row in kept.items() if name not in names]
    if gone:
        session.execute(delete(LessonSlotRow).where(LessonSlotRow.id.in_(gone)))
    for slot in checked:
        if (row := kept.get(slot.name)) is not None:
            row.start_time, row.end_time = slot.start_time, slot.end_time
        else:
            session.add(LessonSlotRow(classroom_id=classroom_id, name=slot.name, start_time=slot.start_time,
                                      end_time=slot.end_time))
    session.flush()
