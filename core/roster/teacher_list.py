"""The teachers' screen as one read and its changes each in one transaction: the list with what the
editor offers (classrooms, limits, lesson slots), saving a teacher with their weekly patterns and
limits, the manager's order, erasing.

Saving is one transaction on purpose: a teacher whose patterns or limits are refused is not saved
either, so the editor can stay open with the reason and nothing half written.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.orm import Session

from core.roster import limits, order, patterns, queries, rules
from core.roster.limits import Limits, SlotName
from core.roster.patterns import Pattern
from core.roster.queries import TeacherRecord
from core.store.changes_made import ChangesMade, committed
from core.store.db import Database


@dataclass(frozen=True)
class TeacherList:
    """Every teacher not erased, in the listing order, with what their editor offers."""

    teachers: tuple[TeacherRecord, ...]
    classrooms: tuple[tuple[int, str], ...]  # (id, name), by name
    limits: Mapping[int, Limits]  # by teacher id; a teacher with none has limits.NONE
    slots: tuple[SlotName, ...]  # every classroom's lesson slots, for the limits' slot choice


def read(db: Database) -> TeacherList:
    with db.read() as session:
        records = queries.teachers(session)
        return TeacherList(tuple(records), tuple((c.id, c.name) for c in queries.classrooms(session)),
                           limits.limits_of(session, (r.id for r in records)), tuple(limits.slot_names(session)))


def save(db: Database, teacher_id: int | None, details: Mapping[str, Any], weekly: Sequence[Pattern],
         chosen: Limits) -> ChangesMade[int]:
    """Create (no `teacher_id`) or update a teacher from `details` (what rules.create_teacher and
    update_teacher take), with their weekly patterns and limits; the teacher's id."""

    def work(session: Session) -> int:
        if teacher_id is None:
            saved = rules.create_teacher(session, **details).id
        else:
            saved = rules.update_teacher(session, teacher_id, **details).id
        patterns.set_teacher_patterns(session, saved, [replace(p, teacher_id=saved) for p in weekly])
        limits.set_limits(session, saved, chosen)
        return saved

    return committed(db, work)


def move(db: Database, teacher_id: int, step: int) -> ChangesMade[int]:
    """Move a teacher `step` places down the list (negative: up); the place they got."""
    return committed(db, lambda session: order.move_by(session, teacher_id, step))


def sort_by_reading(db: Database) -> ChangesMade[int]:
    """Every teacher back to the order by reading; how many had a place of their own."""
    return committed(db, order.by_reading)


def erase(db: Database, teacher_id: int, *, now: dt.datetime) -> ChangesMade[None]:
    """Erase the teacher's personal data and cancel their future shifts (rules.erase_teacher)."""

    def work(session: Session) -> None:
        rules.erase_teacher(session, teacher_id, now=now)

    return committed(db, work)
