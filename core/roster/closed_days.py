"""A classroom's closed days: Japan's national holidays unless the manager opens one, and any day the
manager marks closed.

Only the manager's word is stored (`classroom_closed_days`): a row closes a day, with a note, or opens
a holiday. A holiday needs no row to be closed, so next year's holidays are closed without anyone
entering them, and a change to the holiday law arrives with the `holidays` package.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.roster import rules
from core.store.models import ClosedDay as ClosedDayRow
from core.texts import t

# A classroom has no country of its own yet; every classroom's holidays are Japan's, as on the grid.
HOLIDAY_COUNTRY = "JP"
NOTE_LIMIT = 200


@dataclass(frozen=True)
class DayMark:
    """The manager's word on one day: closed (with a note), or open although a holiday."""

    day: dt.date
    closed: bool
    note: str = ""


@dataclass(frozen=True)
class ClosedDay:
    day: dt.date
    note: str  # the manager's note, else the holiday's name; may be empty
    holiday: bool  # closed because it is a national holiday and nobody opened it


def closed_between(first: dt.date, last: dt.date, holidays: Mapping[dt.date, str],
                   marks: Iterable[DayMark]) -> dict[dt.date, ClosedDay]:
    """The closed days from first to last (both included), by date: each holiday unless a mark opens it,
    and each day a mark closes. A mark's note wins over the holiday's name."""
    closed = {day: ClosedDay(day, name, True) for day, name in holidays.items() if first <= day <= last}
    for mark in marks:
        if not first <= mark.day <= last:
            continue
        if mark.closed:
            holiday = closed.get(mark.day)
            closed[mark.day] = ClosedDay(mark.day, mark.note or (holiday.note if holiday else ""), False)
        else:
            closed.pop(mark.day, None)
    return dict(sorted(closed.items()))


def holidays_between(first: dt.date, last: dt.date, country: str = HOLIDAY_COUNTRY) -> dict[dt.date, str]:
    """The national holidays from first to last, by date, with their names (the `holidays` package)."""
    # Imported here: the package loads every country's calendar, which a start-up should not wait for.
    import holidays

    names = holidays.country_holidays(country, years=range(first.year, last.year + 1))
    return {day: str(name) for day, name in sorted(names.items()) if first <= day <= last}


def marks_between(session: Session, classroom_id: int, first: dt.date, last: dt.date) -> list[DayMark]:
    rows = session.scalars(select(ClosedDayRow).where(
        ClosedDayRow.classroom_id == classroom_id, ClosedDayRow.local_date >= first, ClosedDayRow.local_date <= last))
    return [DayMark(r.local_date, r.closed, r.note) for r in rows]


def read_between(session: Session, classroom_id: int, first: dt.date, last: dt.date) -> dict[dt.date, ClosedDay]:
    """A classroom's closed days from first to last."""
    return closed_between(first, last, holidays_between(first, last), marks_between(session, classroom_id, first, last))


def read_month(session: Session, classroom_id: int, year: int, month: int) -> dict[dt.date, ClosedDay]:
    return read_between(session, classroom_id, *rules.month_bounds(year, month))


def closed_on(session: Session, classroom_id: int, day: dt.date) -> ClosedDay | None:
    return read_between(session, classroom_id, day, day).get(day)


def parse_day(text: str) -> dt.date:
    """A day as the command line takes it: YYYY-MM-DD."""
    try:
        return rules.check_day(dt.date.fromisoformat(text.strip()))
    except ValueError:
        raise ValidationError(t("closed.bad_day", text=text)) from None


def mark_closed(session: Session, classroom_id: int, day: dt.date, note: str = "") -> None:
    """Close the day, with a note (a holiday keeps its name when the note is empty)."""
    rules.get_classroom(session, classroom_id)
    note = note.strip()
    if len(note) > NOTE_LIMIT:
        raise ValidationError(t("closed.note_too_long", limit_count=NOTE_LIMIT))
    _set(session, classroom_id, rules.check_day(day), closed=True, note=note)


def mark_open(session: Session, classroom_id: int, day: dt.date) -> None:
    """Open the day: a day the manager closed loses its row; a holiday keeps an "open" row, since it is
    closed without one."""
    rules.get_classroom(session, classroom_id)
    day = rules.check_day(day)
    if day in holidays_between(day, day):
        _set(session, classroom_id, day, closed=False, note="")
    elif (row := _row(session, classroom_id, day)) is not None:
        session.delete(row)
        session.flush()


def _row(session: Session, classroom_id: int, day: dt.date) -> ClosedDayRow | None:
    return session.scalars(select(ClosedDayRow).where(
        ClosedDayRow.classroom_id == classroom_id, ClosedDayRow.local_date == day)).first()


def _set(session: Session, classroom_id: int, day: dt.date, *, closed: bool, note: str) -> None:
    row = _row(session, classroom_id, day)
    if row is None:
        session.add(ClosedDayRow(classroom_id=classroom_id, local_date=day, closed=closed, note=note))
    else:
        row.closed, row.note = closed, note
    session.flush()
