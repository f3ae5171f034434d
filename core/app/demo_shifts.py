"""Demo shifts that start soon: their reminders are due at once, so the demo inbox shows one arrive (at
the seed), or the demo's relay has one to send while the computer sleeps (core/app/demo_relay.py)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Container

from sqlalchemy.orm import Session

from core.roster import clock, rules
from core.store.models import Classroom, ShiftStatus, Teacher

SOON_NOTE = "デモ: まもなく始まるシフト"


def add_shifts_starting_soon(session: Session, room: Classroom, teachers: list[Teacher], now: dt.datetime, *,
                             count: int = 2, note: str = SOON_NOTE, closed: Container[dt.date] = ()) -> int:
    """Up to `count` confirmed shifts starting in about 90 minutes, for teachers with no other shift then, so
    their reminders are due at once and the newcomer sees a reminder arrive in the inbox, not only the
    roster image; none when that day is in `closed`. How many it added."""
    local = (now + dt.timedelta(minutes=90)).astimezone(clock.zone(room.timezone))
    start = local.replace(minute=0 if local.minute < 30 else 30, second=0, microsecond=0)
    if start.date() in closed:
        return 0
    end = start + dt.timedelta(hours=1)
    until = end.time() if end.date() == start.date() else dt.time.max
    busy = {s.teacher_id for s in rules.month_shifts(session, room.id, start.year, start.month)
            if s.local_date == start.date() and s.start_time < until and (s.ends_next_day or start.time() < s.end_time)}
    free = [t for t in teachers if t.id not in busy][:count]
    for teacher in free:
        rules.add_shift(session, rules.ShiftDraft(
            classroom_id=room.id, teacher_id=teacher.id, local_date=start.date(), start_time=start.time(),
            end_time=end.time(), ends_next_day=end.date() != start.date(), note=note,
            status=ShiftStatus.CONFIRMED,
        ), now=now)
    return len(free)
