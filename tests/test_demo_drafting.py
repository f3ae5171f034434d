"""The demo's classroom can be drafted: its lesson slots, staffing needs and two teachers' limits are seeded, so
Draft the month… on the month its availability request asks about gives shifts that keep those limits, and
explains the needs it leaves uncovered."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sqlalchemy import select

from core.app import demo as demo_data
from core.app import demo_drafting
from core.drafting.solver import Stopper
from core.planning import draft_month, from_roster
from core.roster import clock, needs, rules
from core.store.db import Database
from core.store.models import Classroom, Teacher

# Before the 20th the month asked about is this one (confirmed shifts kept); after it, next month (drafts replaced).
MOMENTS = [dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC), dt.datetime(2026, 12, 25, 3, 0, tzinfo=dt.UTC)]


def _minutes(shifts: list[Any]) -> int:
    return sum((dt.datetime.combine(x.local_date, x.end_time) - dt.datetime.combine(x.local_date, x.start_time))
               .seconds // 60 for x in shifts)


def _run_through(day: dt.date, days: set[dt.date]) -> int:
    """How many consecutive days of `days` the run through `day` has."""
    before = after = 0
    while day - dt.timedelta(days=before + 1) in days:
        before += 1
    while day + dt.timedelta(days=after + 1) in days:
        after += 1
    return before + 1 + after


@pytest.mark.parametrize("now", MOMENTS, ids=["first", "25th"])
def test_the_demo_month_drafts_within_the_seeded_limits(db: Database, now: dt.datetime) -> None:
    assert demo_data.seed(db, now=now)
    with db.read() as s:
        room = s.scalars(select(Classroom)).one()
        year, month = clock.planning_month(clock.local_now(now, room.timezone).date())
        wanted = draft_month.read(s, [room.id], year, month)
        ids = {t.display_name: t.id for t in s.scalars(select(Teacher))}
        confirmed = [x for x in rules.month_shifts(s, room.id, year, month) if x.status.value == "confirmed"]
    assert [slot.name for slot in wanted.rooms[0].slots] == ["1限", "2限", "3限"]
    drafted = from_roster.draft(wanted, 10.0, lambda step: None, Stopper())
    assert len(drafted.proposed) > 20
    shifts = list(drafted.proposed)
    # The part-timer under 扶養: the draft adds nothing past the ceiling (her confirmed shifts stay as they are).
    ceiling = ids[demo_data.TEACHERS[demo_drafting.CEILING_TEACHER]]
    hers = [x for x in shifts if x.teacher_id == ceiling]
    held = _minutes([x for x in confirmed if x.teacher_id == ceiling])
    assert not hers if held >= demo_drafting.HOURS_CEILING else held + _minutes(hers) <= demo_drafting.HOURS_CEILING
    # The teacher who works at most three days in a row: no drafted day makes a longer run.
    in_a_row = ids[demo_data.TEACHERS[demo_drafting.IN_A_ROW_TEACHER]]
    his = {x.local_date for x in shifts if x.teacher_id == in_a_row}
    worked = his | {x.local_date for x in confirmed if x.teacher_id == in_a_row}
    assert all(_run_through(day, worked) <= demo_drafting.DAYS_IN_A_ROW for day in his)
    # Every shift is a run of the seeded slots, on a day the classroom needs someone.
    starts = {slot.start_time for slot in demo_drafting.SLOTS}
    ends = {slot.end_time for slot in demo_drafting.SLOTS}
    assert all(x.start_time in starts and x.end_time in ends and x.local_date.weekday() < 6 for x in shifts)
    # The exam-prep week asks for more than the teachers who answered can give: those gaps say why.
    assert drafted.gaps and all(gap.why for gap in drafted.gaps)
    assert {gap.day for gap in drafted.gaps} <= set(demo_drafting.exam_week(year, month))


def test_the_needs_strip_of_the_month_already_there_is_mostly_covered(db: Database) -> None:
    now = MOMENTS[0]
    assert demo_data.seed(db, now=now)
    with db.read() as s:
        room = s.scalars(select(Classroom)).one()
        found = needs.coverage(s, room.id, now.year, now.month)
    short = [c for c in found if c.short]
    assert found and 0 < len(short) < len(found) / 2
