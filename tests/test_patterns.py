"""Weekly patterns and filling a month from them: the days a pattern falls on (pure), closed days and a
teacher's other shifts skipped and counted, drafts that nobody is told about until the month is confirmed."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from core.errors import ValidationError
from core.planning.planner import plan
from core.roster import closed_days, patterns, rules
from core.roster.patterns import Pattern, Skipped, SkipReason
from core.store.db import Database
from core.store.models import Shift, ShiftStatus
from core.texts import render
from tests import factories as f

D, T = dt.date, dt.time
TUESDAY, THURSDAY = 1, 3


def tue(teacher: int = 1, room: int = 1, **kw: object) -> Pattern:
    return Pattern(teacher, room, TUESDAY, T(17), T(21), kw.pop("valid_from", D(2026, 1, 1)), **kw)  # type: ignore[arg-type]


def test_a_pattern_falls_on_its_weekday_inside_its_validity_and_not_on_a_closed_day() -> None:
    december = (D(2026, 12, 1), D(2026, 12, 31))  # Tuesdays: 1, 8, 15, 22, 29
    wanted, skipped = patterns.days_to_fill([tue()], *december, closed={D(2026, 12, 29)})
    assert [day.day for _, day in wanted] == [1, 8, 15, 22]
    assert skipped == [Skipped(D(2026, 12, 29), 1, SkipReason.CLOSED)]
    bounded = tue(valid_from=D(2026, 12, 5), valid_until=D(2026, 12, 22))
    assert [day.day for _, day in patterns.days_to_fill([bounded], *december, closed=())[0]] == [8, 15, 22]
    thursday = Pattern(2, 1, THURSDAY, T(16), T(18), D(2026, 1, 1))
    both = patterns.days_to_fill([thursday, tue()], D(2026, 12, 1), D(2026, 12, 3), closed=())[0]
    assert [(p.teacher_id, day.day) for p, day in both] == [(1, 1), (2, 3)]  # by day


def test_a_pattern_is_checked_before_it_is_kept() -> None:
    with pytest.raises(ValidationError, match="end after it starts"):
        patterns.check(Pattern(1, 1, TUESDAY, T(21), T(17), D(2026, 1, 1)))
    with pytest.raises(ValidationError, match="weekdays go from 0"):
        patterns.check(Pattern(1, 1, 7, T(17), T(21), D(2026, 1, 1)))
    with pytest.raises(ValidationError, match="cannot end"):
        patterns.check(tue(valid_until=D(2025, 12, 31)))


def test_a_weekday_is_read_in_english_japanese_or_as_a_number() -> None:
    assert [patterns.parse_weekday(w) for w in ("tue", "Tuesday", "火", "火曜", "火曜日", " 1 ", "SUN", "日")] == [
        1, 1, 1, 1, 1, 1, 6, 6]
    for wrong in ("7", "tues", "", "火火"):
        with pytest.raises(ValidationError, match="bad weekday"):
            patterns.parse_weekday(wrong)


@pytest.mark.backends("sqlite")
def test_a_pattern_is_added_and_removed_by_its_number_and_fill_keeps_inside_its_dates(
        db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room, sato = f.classroom(s), f.teacher(s, "佐藤", 1)
        until_the_15th = tue(sato.id, room.id, valid_from=rules.FIRST_DAY, valid_until=D(2026, 12, 15))
        from_the_16th = Pattern(sato.id, room.id, TUESDAY, T(10), T(12), D(2026, 12, 16))
        patterns.add_pattern(s, until_the_15th)
        patterns.add_pattern(s, from_the_16th)
        with pytest.raises(ValidationError, match="cannot end"):
            patterns.add_pattern(s, tue(sato.id, room.id, valid_until=D(2025, 1, 1)))
        assert patterns.teacher_patterns(s, sato.id) == [from_the_16th, until_the_15th]  # by weekday, then start
        filled = patterns.fill_month(s, room.id, 2026, 12, now=now)  # Tuesdays: 1, 8, 15, 22, 29
        assert [(d.local_date.day, d.start_time) for d in filled.drafts] == [
            (1, T(17)), (8, T(17)), (15, T(17)), (22, T(10)), (29, T(10))]
        assert patterns.remove_pattern(s, sato.id, 1) == from_the_16th
        assert patterns.teacher_patterns(s, sato.id) == [until_the_15th]
        with pytest.raises(ValidationError, match="no weekly pattern number 2: the teacher has 1"):
            patterns.remove_pattern(s, sato.id, 2)


@pytest.mark.backends("sqlite", "postgresql")
def test_filling_a_month_makes_drafts_and_counts_what_it_skipped(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        main, station = f.classroom(s, "本校"), f.classroom(s, "駅前")
        sato, suzuki = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        patterns.set_teacher_patterns(s, sato.id, [tue(sato.id, main.id)])
        patterns.set_teacher_patterns(s, suzuki.id, [Pattern(suzuki.id, main.id, THURSDAY, T(16), T(18),
                                                             D(2026, 12, 10))])
        closed_days.mark_closed(s, main.id, D(2026, 12, 29), "年末")
        # 佐藤 already works on the 8th at the other classroom, overlapping; on the 15th at other hours.
        f.shift(s, station, sato, D(2026, 12, 8), "18:00", "20:00", now=now)
        f.shift(s, main, sato, D(2026, 12, 15), "10:00", "12:00", now=now)
        ids = {"main": main.id, "sato": sato.id, "suzuki": suzuki.id}
    with db.write() as s:
        filled = patterns.fill_month(s, ids["main"], 2026, 12, now=now)
    assert len(filled.shift_ids) == 3 + 4  # 佐藤: Tuesdays 1, 15, 22; 鈴木: Thursdays from the 10th: 10, 17, 24, 31
    assert filled.count(SkipReason.CLOSED) == 1 and filled.count(SkipReason.OVERLAP) == 1
    assert render(filled.summary, "en") == ("7 draft shifts made; 2 skipped: 1 on a closed day, 1 where the "
                                            "teacher already has a shift")
    with db.read() as s:
        made = s.scalars(select(Shift).where(Shift.id.in_(filled.shift_ids)).order_by(Shift.local_date)).all()
        assert {x.status for x in made} == {ShiftStatus.DRAFT}
        assert [(x.teacher_id == ids["sato"], x.local_date.day) for x in made] == [
            (True, 1), (False, 10), (True, 15), (False, 17), (True, 22), (False, 24), (False, 31)]
    with db.write() as s:
        assert plan(s, now=now).created == []  # drafts: nobody is told until the month is confirmed
        rules.confirm_month(s, ids["main"], 2026, 12, now=now)
        assert plan(s, now=now).created != []  # and once it is, they are


@pytest.mark.backends("sqlite")
def test_an_inactive_teacher_is_refused_and_counted_and_a_deleted_one_loses_their_patterns(
        db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        resting, gone = f.teacher(s, "休職中", 1), f.teacher(s, "退職", 2)
        patterns.set_teacher_patterns(s, resting.id, [tue(resting.id, room.id)])
        patterns.set_teacher_patterns(s, gone.id, [tue(gone.id, room.id)])
        rules.update_teacher(s, resting.id, active=False)
        rules.erase_teacher(s, gone.id, now=now)
        assert patterns.teacher_patterns(s, gone.id) == []
        filled = patterns.fill_month(s, room.id, 2026, 12, now=now)
    assert filled.shift_ids == [] and filled.count(SkipReason.REFUSED) == 5
    assert filled.skipped[0].why is not None and "not an active teacher" in render(filled.skipped[0].why, "en")


def test_the_same_occurrence_of_a_weekday_in_another_month() -> None:
    # November 2026: Tuesdays 3, 10, 17, 24; December: 1, 8, 15, 22, 29; January 2027: 5, 12, 19, 26.
    assert patterns.same_occurrence(D(2026, 11, 3), 2026, 12) == D(2026, 12, 1)  # 1st Tuesday
    assert patterns.same_occurrence(D(2026, 11, 24), 2026, 12) == D(2026, 12, 22)  # 4th
    assert patterns.same_occurrence(D(2026, 12, 29), 2027, 1) is None  # no 5th Tuesday in January
    assert patterns.same_occurrence(D(2026, 12, 31), 2027, 1) is None  # nor a 5th Thursday
    assert patterns.same_occurrence(D(2026, 12, 30), 2027, 1) is None  # nor a 5th Wednesday
    assert patterns.same_occurrence(D(2026, 12, 28), 2027, 2) == D(2027, 2, 22)  # 4th Monday, any month later


@pytest.mark.backends("sqlite", "postgresql")
def test_copying_last_month_by_weekday_occurrence(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        main, station = f.classroom(s, "本校"), f.classroom(s, "駅前")
        sato, suzuki = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        for day in (1, 8, 29):  # December Tuesdays: the 1st, 2nd and 5th
            f.shift(s, main, sato, D(2026, 12, day), "17:00", "21:00", now=now, status=ShiftStatus.CONFIRMED,
                    note="数学")
        f.shift(s, main, suzuki, D(2026, 12, 3), now=now)  # a draft: not copied
        f.shift(s, station, suzuki, D(2026, 12, 10), now=now, status=ShiftStatus.CONFIRMED)  # another classroom
        f.shift(s, main, suzuki, D(2026, 12, 17), "16:00", "18:00", now=now, status=ShiftStatus.CONFIRMED)  # 3rd Thu
        closed_days.mark_closed(s, main.id, D(2027, 1, 21), "入試")  # January's 3rd Thursday
        f.shift(s, station, sato, D(2027, 1, 12), "18:00", "19:00", now=now)  # 佐藤 on January's 2nd Tuesday
        ids = {"main": main.id, "sato": sato.id}
    with db.write() as s:
        filled = patterns.copy_last_month(s, ids["main"], 2027, 1, now=now)
    assert sorted((x.day, x.reason) for x in filled.skipped) == [
        (D(2026, 12, 29), SkipReason.NO_SUCH_DAY),  # no 5th Tuesday in January
        (D(2027, 1, 12), SkipReason.OVERLAP),  # 佐藤 works at 駅前 then
        (D(2027, 1, 21), SkipReason.CLOSED)]
    assert render(filled.summary, "en").startswith("1 draft shift made; 3 skipped: 1 on a weekday this month does "
                                                   "not have, 1 on a closed day, 1 where")
    assert render(filled.summary, "en").endswith(". Only confirmed shifts are copied: last month's 1 draft was not")
    with db.read() as s:
        made = s.scalars(select(Shift).where(Shift.id.in_(filled.shift_ids))).all()
        assert [(x.local_date, x.start_time, x.note, x.status) for x in made] == [
            (D(2027, 1, 5), T(17), "数学", ShiftStatus.DRAFT)]


def test_copying_a_month_without_confirmed_shifts_says_why_nothing_was_made(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        main, empty = f.classroom(s, "本校"), f.classroom(s, "駅前")
        sato = f.teacher(s, "佐藤", 1)
        for day in (1, 8):
            f.shift(s, main, sato, D(2026, 12, day), "17:00", "21:00", now=now)  # drafts only
        f.shift(s, main, sato, D(2026, 12, 15), "17:00", "21:00", now=now, status=ShiftStatus.CANCELED)
        ids = (main.id, empty.id)
    with db.write() as s:
        drafts_only = patterns.copy_last_month(s, ids[0], 2027, 1, now=now)
        nothing = patterns.copy_last_month(s, ids[1], 2027, 1, now=now)
    assert drafts_only.shift_ids == [] and nothing.shift_ids == []
    assert render(drafts_only.summary, "en") == (
        "Nothing was copied: last month has no confirmed shifts, and only confirmed shifts are copied (it has 2 "
        "drafts; confirm last month first to copy them)")
    assert render(drafts_only.summary, "ja") == (
        "先月には確定したシフトがないため、何もコピーしていません。コピーされるのは確定したシフトだけです"
        "（先月の下書きは2件です。コピーするには先に先月を確定してください）。")
    assert render(nothing.summary, "en") == "Nothing was copied: last month has no shifts at this classroom"
