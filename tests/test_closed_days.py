"""A classroom's closed days: the pure rule (holidays closed unless opened, the manager's days closed),
and the marks kept in the database for each classroom."""

from __future__ import annotations

import datetime as dt

import pytest

from core.errors import ValidationError
from core.roster import closed_days as cd
from core.roster.closed_days import ClosedDay, DayMark
from core.store.db import Database
from tests import factories as f

D = dt.date
NOVEMBER = (D(2026, 11, 1), D(2026, 11, 30))
HOLIDAYS = {D(2026, 11, 3): "文化の日", D(2026, 11, 23): "勤労感謝の日"}


def test_holidays_are_closed_until_opened_and_the_managers_days_are_closed() -> None:
    marks = [DayMark(D(2026, 11, 3), closed=False), DayMark(D(2026, 11, 5), closed=True, note="研修"),
             DayMark(D(2026, 12, 29), closed=True, note="年末")]  # outside the range: not counted
    assert cd.closed_between(*NOVEMBER, HOLIDAYS, marks) == {
        D(2026, 11, 5): ClosedDay(D(2026, 11, 5), "研修", holiday=False),
        D(2026, 11, 23): ClosedDay(D(2026, 11, 23), "勤労感謝の日", holiday=True),
    }


def test_a_holiday_marked_closed_keeps_its_name_unless_given_a_note() -> None:
    plain = cd.closed_between(*NOVEMBER, HOLIDAYS, [DayMark(D(2026, 11, 23), closed=True)])
    noted = cd.closed_between(*NOVEMBER, HOLIDAYS, [DayMark(D(2026, 11, 23), closed=True, note="振替")])
    assert plain[D(2026, 11, 23)].note == "勤労感謝の日" and noted[D(2026, 11, 23)].note == "振替"


def test_japans_holidays_come_from_the_holidays_package() -> None:
    found = cd.holidays_between(D(2026, 12, 25), D(2027, 1, 15))
    assert list(found) == [D(2027, 1, 1), D(2027, 1, 11)]  # New Year's Day, Coming of Age Day (2nd Monday)


@pytest.mark.backends("sqlite", "postgresql")
def test_marks_are_kept_per_classroom_and_a_holiday_opens_with_an_open_row(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        main, station = f.classroom(s, "本校").id, f.classroom(s, "駅前").id
        cd.mark_closed(s, main, D(2026, 11, 5), "  研修 ")
        cd.mark_open(s, main, D(2026, 11, 3))  # a holiday: opened by a row
        cd.mark_open(s, main, D(2026, 11, 6))  # neither closed nor a holiday: nothing to do
    with db.read() as s:
        assert [(c.day.day, c.note, c.holiday) for c in cd.read_month(s, main, 2026, 11).values()] == [
            (5, "研修", False), (23, "Labor Thanksgiving Day", True)]
        assert [c.day.day for c in cd.read_month(s, station, 2026, 11).values()] == [3, 23]
        assert cd.closed_on(s, main, D(2026, 11, 3)) is None
        assert len(cd.marks_between(s, main, *NOVEMBER)) == 2
    with db.write() as s:
        cd.mark_open(s, main, D(2026, 11, 5))  # the manager's closed day: its row goes
        cd.mark_closed(s, main, D(2026, 11, 3))  # the opened holiday closes again, keeping its name
    with db.read() as s:
        assert [(c.day.day, c.holiday) for c in cd.read_month(s, main, 2026, 11).values()] == [(3, False), (23, True)]
        assert cd.marks_between(s, main, *NOVEMBER) == [DayMark(D(2026, 11, 3), closed=True, note="")]


def test_a_day_is_read_as_yyyy_mm_dd_and_a_long_note_refused(db: Database) -> None:
    assert cd.parse_day(" 2026-11-05 ") == D(2026, 11, 5)
    for bad in ("2026/11/05", "11-05", "2026-02-30"):
        with pytest.raises(ValidationError, match="YYYY-MM-DD"):
            cd.parse_day(bad)
    with db.write() as s, pytest.raises(ValidationError, match="longer than 200"):
        cd.mark_closed(s, f.classroom(s).id, D(2026, 11, 5), "x" * 201)
