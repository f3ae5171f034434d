"""What the demo classroom needs for Draft the month… to have something to draft: its lesson slots (コマ), how
many teachers each needs by weekday (and more in an exam-prep week of the month being planned), and two
teachers' limits the draft must keep — one part-timer under a monthly hours ceiling (扶養), one who works at
most three days in a row.

The slots lie inside the evening shifts the demo seeds (16:00–21:00, 17:00–22:00), so the needs strip of the
month already there shows most slots covered and some one short, as a real month would.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core.roster import clock, lesson_slots, limits, needs
from core.roster.lesson_slots import LessonSlot
from core.store.models import Classroom, Teacher

SLOTS = (LessonSlot("1限", dt.time(17, 0), dt.time(18, 15)), LessonSlot("2限", dt.time(18, 25), dt.time(19, 40)),
         LessonSlot("3限", dt.time(19, 45), dt.time(21, 0)))
WEEKDAY_NEED = 2  # Monday to Friday, each slot
SATURDAY_NEED = 1  # Sunday none: the classroom is closed
EXAM_WEEK_NEED = 6  # each slot on the weekdays of the planned month's second full week (定期テスト対策)
HOURS_CEILING = 40 * 60  # minutes a month: under the yearly income ceiling of a dependant (扶養)
DAYS_IN_A_ROW = 3
CEILING_TEACHER = 2  # 高橋 美咲, by index among the teachers on LINE
IN_A_ROW_TEACHER = 3  # 田中 健太


def exam_week(year: int, month: int) -> list[dt.date]:
    """Monday to Friday of the month's second full week."""
    first = dt.date(year, month, 1)
    monday = first + dt.timedelta(days=(7 - first.weekday()) % 7 + 7)
    return [monday + dt.timedelta(days=n) for n in range(5)]


def seed(session: Session, room: Classroom, on_line: list[Teacher], now: dt.datetime) -> None:
    lesson_slots.set_slots(session, room.id, SLOTS)
    year, month = clock.planning_month(clock.local_now(now, room.timezone).date())
    wanted = [needs.Need(slot.name, WEEKDAY_NEED if weekday < 5 else SATURDAY_NEED, weekday=weekday)
              for slot in SLOTS for weekday in range(6)]
    wanted += [needs.Need(slot.name, EXAM_WEEK_NEED, day=day) for slot in SLOTS for day in exam_week(year, month)]
    needs.set_needs(session, room.id, wanted)
    limits.set_limits(session, on_line[CEILING_TEACHER].id, limits.Limits(max_minutes=HOURS_CEILING))
    limits.set_limits(session, on_line[IN_A_ROW_TEACHER].id, limits.Limits(max_days_in_a_row=DAYS_IN_A_ROW))
