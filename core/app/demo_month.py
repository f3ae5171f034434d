"""The demo's manager's month beyond the roster: the availability request (シフト希望) for the month the
Shifts area opens on, most teachers answered and two silent, and cover requests (代講) — one with two
volunteers, one still waiting, one declined. Written through core/roster/availability.py and cover.py
as the app would, at moments before `now`, so the Availability and Cover requests dialogs have
something to show. Nothing is sent: the request's and the call's messages are the app's to send.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core.roster import availability, clock, cover, rules
from core.roster.availability_text import HOURS, NO, YES, DayAnswer, month_days
from core.store.models import Classroom, Shift, ShiftStatus, Teacher

SILENT = 1  # teachers on LINE, just before the last, who have not answered
EVENING = dt.time(17, 0)  # a △ answer: from five, the usual after-school start
COVER_REASONS = ("体調不良のため", "家の用事のため", "学校の試験のため")
DECLINE_REASON = "その日は他に入れる先生がいないため"


def deadline_for(today: dt.date, year: int, month: int) -> dt.date:
    """Some days before the month starts, and already past, so one answer can have come late."""
    return min(dt.date(year, month, 1) - dt.timedelta(days=5), today - dt.timedelta(days=2))


def answers_for(teacher_index: int, days: list[dt.date], shifts: dict[dt.date, Shift]) -> list[DayAnswer]:
    """A teacher's month: the days of their own shifts available (those hours, for every third teacher),
    Sundays not, and the rest ○, × or △ from five in a fixed pattern, so the grid shows all three."""
    given = []
    for day in days:
        shift = shifts.get(day)
        if shift is not None:
            given.append(DayAnswer(day, HOURS, shift.start_time, shift.end_time) if teacher_index % 3 == 0
                         and not shift.ends_next_day else DayAnswer(day, YES))
        elif day.weekday() == 6:
            given.append(DayAnswer(day, NO))
        else:
            pick = (day.day + teacher_index) % 4
            given.append(DayAnswer(day, NO) if pick == 0 else DayAnswer(day, HOURS, EVENING) if pick == 1
                         else DayAnswer(day, YES))
    return given


def seed_availability(session: Session, room: Classroom, on_line: list[Teacher], not_on_line: list[Teacher],
                      now: dt.datetime) -> None:
    """Everyone asked; the teachers on LINE answer with the buttons (the first corrects two days, the
    last answers after the deadline) but the last `SILENT` before them; the first teacher not on LINE
    told the manager, who entered it; the others stay silent."""
    zone = room.timezone
    today = clock.local_now(now, zone).date()
    year, month = clock.planning_month(today)
    deadline = deadline_for(today, year, month)
    days = list(month_days(year, month))

    def at(day: dt.date, hour: int) -> dt.datetime:
        return clock.to_utc(day, dt.time(hour, 0), zone)

    request = availability.ask(session, room.id, year, month, deadline, [t.id for t in on_line + not_on_line],
                               now=at(deadline - dt.timedelta(days=14), 10))
    shifts: dict[int, dict[dt.date, Shift]] = {}
    for shift in rules.month_shifts(session, room.id, year, month):
        shifts.setdefault(shift.teacher_id, {})[shift.local_date] = shift
    silent = set(range(len(on_line) - 1 - SILENT, len(on_line) - 1))
    for i, teacher in enumerate(on_line):
        if i in silent:
            continue
        given = answers_for(i, days, shifts.get(teacher.id, {}))
        late = i == len(on_line) - 1
        when = at(deadline + dt.timedelta(days=1), 9) if late else at(deadline - dt.timedelta(days=12 - i), 20)
        availability.record(session, request, teacher.id, given, source=availability.BUTTONS, at=when)
        if i == 0:  # a change of plans: two days corrected the next evening
            corrected = [DayAnswer(a.day, NO) for a in given if a.answer != NO and a.day not in shifts.get(teacher.id, {})]
            availability.record(session, request, teacher.id, corrected[:2], source=availability.TEXT,
                                at=when + dt.timedelta(days=1))
    if not_on_line:
        teacher = not_on_line[0]
        availability.enter(session, request, teacher.id, answers_for(len(on_line), days, shifts.get(teacher.id, {})),
                           at=at(deadline - dt.timedelta(days=1), 18))


def seed_cover(session: Session, room: Classroom, on_line: list[Teacher], now: dt.datetime) -> None:
    """Cover asked for the next confirmed shifts from two days on: the first called for and offered by two
    teachers, the second still waiting, the third declined. Fewer when the month has fewer left."""
    ahead = now + dt.timedelta(days=2)
    local = clock.local_now(now, room.timezone)
    ours = {t.id for t in on_line}
    later = [s for s in rules.month_shifts(session, room.id, local.year, local.month)
             if s.status == ShiftStatus.CONFIRMED and s.teacher_id in ours and rules.shift_instants(s)[0] > ahead]
    chosen: list[Shift] = []
    for shift in later:  # one a day, so the list reads as separate days
        if all(s.local_date != shift.local_date for s in chosen):
            chosen.append(shift)
    for n, shift in enumerate(chosen[:len(COVER_REASONS)]):
        asked = now - dt.timedelta(hours=26 - 6 * n)
        row = cover.ask(session, shift.id, shift.teacher_id, now=asked, reason=COVER_REASONS[n])
        if n == 0:
            cover.called(session, row.id, now=asked + dt.timedelta(minutes=30))
            free = [t for t in cover.free_teachers(session, shift.id) if t.id in ours][:2]
            for k, teacher in enumerate(free):
                cover.volunteer(session, row.id, teacher.id, now=asked + dt.timedelta(hours=1 + k))
        elif n == 2:
            cover.decline(session, row.id, now=asked + dt.timedelta(hours=1), reason=DECLINE_REASON)


def seed(session: Session, room: Classroom, on_line: list[Teacher], not_on_line: list[Teacher],
         now: dt.datetime) -> None:
    seed_availability(session, room, on_line, not_on_line, now)
    seed_cover(session, room, on_line, now)
