"""The demo's manager's month: the availability request and the cover requests it seeds, so the
Availability and Cover requests dialogs (and their pictures in docs/screenshots/) show them."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from core.app import demo as demo_data
from core.roster import availability, clock, cover
from core.store.db import Database
from core.store.kinds import CoverState
from core.store.models import Classroom

# The first of the month (this month's request), the 25th (next month's) and late on the 31st.
MOMENTS = [dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC), dt.datetime(2026, 12, 25, 3, 0, tzinfo=dt.UTC),
           dt.datetime(2026, 12, 31, 14, 0, tzinfo=dt.UTC)]


@pytest.mark.parametrize("now", MOMENTS, ids=["first", "25th", "last-day"])
def test_the_demo_asks_the_month_the_shifts_area_opens_on_and_most_answered(db: Database, now: dt.datetime) -> None:
    assert demo_data.seed(db, now=now)
    with db.read() as s:
        room = s.scalars(select(Classroom)).one()
        today = clock.local_now(now, room.timezone).date()
        shown = availability.month_status(s, room.id, *clock.planning_month(today))
    assert shown is not None
    assert shown.request.deadline < today  # past, so one answer could come late
    assert len(shown.teachers) == len(demo_data.TEACHERS) + len(demo_data.NEW_TEACHERS)
    assert sorted(t.name for t in shown.silent) == sorted(["山本 結衣", demo_data.NEW_TEACHERS[1]])
    assert [t.name for t in shown.teachers if t.late] == ["中村 大輝"]
    assert [t.name for t in shown.teachers if t.entered_by_manager] == [demo_data.NEW_TEACHERS[0]]
    assert all(t.answered_at is not None and t.answered_at < now for t in shown.teachers if t.answered)
    given = {a.answer for t in shown.teachers for a in t.days.values()}
    assert given == {"yes", "no", "hours"}  # ○, × and △ all show on the grid
    assert any(t.corrections for t in shown.teachers)


@pytest.mark.parametrize("now", MOMENTS[:2], ids=["first", "25th"])
def test_the_demo_has_cover_requests_one_with_two_volunteers_and_one_declined(db: Database, now: dt.datetime) -> None:
    assert demo_data.seed(db, now=now)
    with db.read() as s:
        every = cover.requests(s, still_open=False)
        waiting = cover.requests(s)
    assert [r.state for r in every] == [CoverState.CALLING, CoverState.OPEN, CoverState.DECLINED]
    assert len(waiting) == 2 and len(waiting[0].volunteers) == 2 and all(v.free for v in waiting[0].volunteers)
    assert every[2].decline_reason
    assert all(r.created_at < now for r in every)


@pytest.mark.parametrize("now", [*MOMENTS, dt.datetime(2027, 1, 1, 1, 0, tzinfo=dt.UTC)],
                         ids=["first", "25th", "last-day", "new-year"])
def test_the_demo_puts_no_shift_on_a_day_the_classroom_is_closed(db: Database, now: dt.datetime) -> None:
    from core.roster import closed_days, rules

    assert demo_data.seed(db, now=now)
    with db.read() as s:
        room = s.scalars(select(Classroom)).one()
        first = clock.local_now(now, room.timezone).date().replace(day=1)
        months = [(first.year, first.month), ((first.year, first.month + 1) if first.month < 12 else (first.year + 1, 1))]
        seeded = [shift for year, month in months for shift in rules.month_shifts(s, room.id, year, month)]
        closed = {day for year, month in months for day in closed_days.read_month(s, room.id, year, month)}
    assert closed and seeded  # the months seeded hold holidays (元日, 成人の日, 天皇誕生日 …) and shifts
    assert sorted({shift.local_date for shift in seeded} & closed) == []
