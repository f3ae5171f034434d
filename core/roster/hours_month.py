"""The hours window's read: the classrooms to choose from and one month's hours, in one scope."""

from __future__ import annotations

from core.roster import hours, queries
from core.roster.hours import MonthHours
from core.store.db import Database


def read(db: Database, year: int, month: int, classroom_id: int | None) -> tuple[list[tuple[int, str]], MonthHours]:
    """(id, name) of every classroom, and the month's hours for `classroom_id`, or for every classroom when
    it is None or was removed meanwhile."""
    with db.read() as session:
        rooms = [(room.id, room.name) for room in queries.classrooms(session)]
        if classroom_id not in {room_id for room_id, _ in rooms}:
            classroom_id = None
        return rooms, hours.read_month(session, year, month, classroom_id=classroom_id)
