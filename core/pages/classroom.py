"""A classroom's published month as the teachers' page shows it: each day, whether the classroom is closed
and the national holiday, and who works when. Only teachers' display names: no contacts, no ids."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.pages import jsontext, months
from core.pages.entry import PageEntry, PageKind
from core.pages.months import Month
from core.roster import clock, closed_days, reading, rules
from core.store.models import Classroom, Publication, Shift, ShiftStatus


def key_of(classroom_id: int) -> str:
    return f"c{classroom_id}"


def wall(shift: Shift) -> tuple[str, str]:
    return (clock.format_wall_time(shift.start_time),
            clock.format_wall_time(shift.end_time, next_day=shift.ends_next_day))


def published_months(session: Session, *, now: dt.datetime) -> dict[int, set[Month]]:
    """classroom → its published months the relay may still keep (they ended less than 7 days ago, or not yet)."""
    zones = dict(session.execute(select(Classroom.id, Classroom.timezone)).all())
    found: dict[int, set[Month]] = {}
    for classroom_id, year, month in session.execute(
            select(Publication.classroom_id, Publication.year, Publication.month).distinct()):
        zone = zones.get(classroom_id)
        if zone is not None and months.ends((year, month), zone) + months.KEEP > now:
            found.setdefault(classroom_id, set()).add((year, month))
    return found


def days_off(room: Classroom, first: dt.date, last: dt.date, session: Session) -> tuple[
        dict[dt.date, closed_days.ClosedDay], dict[dt.date, str]]:
    holidays = closed_days.holidays_between(first, last)
    marks = closed_days.marks_between(session, room.id, first, last)
    return closed_days.closed_between(first, last, holidays, marks), holidays


def document(session: Session, room: Classroom, month: Month, *, now: dt.datetime) -> dict[str, Any]:
    first, last = rules.month_bounds(*month)
    closed, holidays = days_off(room, first, last, session)
    shifts = [s for s in rules.month_shifts(session, room.id, *month) if s.status == ShiftStatus.CONFIRMED]
    order = {t.id: n for n, t in enumerate(reading.in_order({s.teacher.id: s.teacher for s in shifts}.values()))}
    by_day: dict[dt.date, list[Shift]] = {}
    for shift in sorted(shifts, key=lambda s: (s.start_time, order[s.teacher_id], s.id)):
        by_day.setdefault(shift.local_date, []).append(shift)
    days = []
    for number in range(last.day):
        day = first + dt.timedelta(days=number)
        days.append({"date": day.isoformat(), "closed": day in closed, "holiday": holidays.get(day),
                     "shifts": [{"teacher": s.teacher.display_name, "start": wall(s)[0], "end": wall(s)[1]}
                                for s in by_day.get(day, [])]})
    return {"v": 1, "classroom": key_of(room.id), "name": room.name, "month": months.text(month),
            jsontext.BUILT_AT: jsontext.iso(now), "days": days}


def entries(session: Session, *, now: dt.datetime) -> list[PageEntry]:
    found = []
    for classroom_id, published in sorted(published_months(session, now=now).items()):
        room = session.get(Classroom, classroom_id)
        if room is None:
            continue
        for month in sorted(published):
            found.append(PageEntry(PageKind.CLASSROOM, f"{key_of(room.id)}/{months.text(month)}",
                                   jsontext.dumps(document(session, room, month, now=now)),
                                   months.purge_after([(month, room.timezone)])))
    return found

