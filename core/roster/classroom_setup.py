"""A classroom's set-up as the Shifts area changes it, each change in its own transaction: a new
classroom, its lesson slots (コマ), its staffing needs and its closed days.

The rules are the modules' own (rules, lesson_slots, needs, closed_days); here each is given the
Database, commits, and answers with ids and the events it emitted, never rows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from core.roster import closed_days, lesson_slots, needs, rules
from core.roster.lesson_slots import LessonSlot
from core.roster.needs import Need
from core.store.changes_made import ChangesMade, committed
from core.store.db import Database


def create_classroom(db: Database, *, name: str, timezone: str, line_group_id: str | None) -> ChangesMade[int]:
    """The new classroom's id."""
    return committed(db, lambda session: rules.create_classroom(
        session, name=name, timezone=timezone, line_group_id=line_group_id).id)


def set_slots(db: Database, classroom_id: int, slots: Sequence[LessonSlot]) -> ChangesMade[None]:
    return committed(db, lambda session: lesson_slots.set_slots(session, classroom_id, slots))


def set_needs(db: Database, classroom_id: int, wanted: Sequence[Need]) -> ChangesMade[None]:
    return committed(db, lambda session: needs.set_needs(session, classroom_id, wanted))


def set_closed(db: Database, classroom_id: int, day: dt.date, closed: bool) -> ChangesMade[None]:
    """Close the day (no note: a holiday keeps its name) or open it."""
    if closed:
        return committed(db, lambda session: closed_days.mark_closed(session, classroom_id, day))
    return committed(db, lambda session: closed_days.mark_open(session, classroom_id, day))
