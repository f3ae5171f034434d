"""A month's availability as the window reads it, and the manager entering a teacher's answers, each in
its own transaction."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from sqlalchemy.orm import Session

from core.roster import availability
from core.roster.availability import MonthAvailability
from core.roster.availability_text import DayAnswer
from core.store.changes_made import ChangesMade, committed
from core.store.db import Database


def month_status(db: Database, classroom_id: int, year: int, month: int) -> MonthAvailability | None:
    """The classroom's month as asked, or None while nobody was asked about it."""
    with db.read() as session:
        return availability.month_status(session, classroom_id, year, month)


def enter(db: Database, classroom_id: int, year: int, month: int, teacher_id: int, given: Sequence[DayAnswer], *,
          now: dt.datetime) -> ChangesMade[int]:
    """The manager enters a teacher's answers to the month's latest request (availability.enter); how many
    days were recorded, 0 while the month was never asked."""

    def work(session: Session) -> int:
        request = availability.latest(session, classroom_id, year, month)
        return 0 if request is None else availability.enter(session, request, teacher_id, given, at=now)

    return committed(db, work)
