"""Each teacher's limits and wishes (core/roster/limits.py): checked before anything is written, read back
in bulk for a draft, slots named in a file resolved within the teacher's classrooms, and a hand-made
month measured against them."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from core.errors import ValidationError
from core.roster import lesson_slots, limits, membership
from core.roster.lesson_slots import LessonSlot
from core.roster.limits import Limits
from core.store.db import Database
from core.store.models import LessonSlot as SlotRow
from core.store.models import TeacherLimits, TeacherSlot
from core.texts import render
from tests import factories as f

T = dt.time
NOW = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)


def _slots(db: Database) -> tuple[int, int, dict[tuple[str, str], int]]:
    """Two classrooms with 1限 and 2限 each; a teacher of 本校 only; slot ids by (classroom, name)."""
    with db.write() as s:
        main, north = f.classroom(s, "本校").id, f.classroom(s, "北校").id
        for room in (main, north):
            lesson_slots.set_slots(s, room, [LessonSlot("1限", T(16, 50), T(18, 10)), LessonSlot("2限", T(18, 20), T(19, 40))])
        teacher = f.teacher(s, "佐藤").id
        membership.join(s, main, teacher, now=NOW)
        names = {(n, r): i for i, n, r in s.execute(select(SlotRow.id, SlotRow.name, SlotRow.classroom_id))}
    return teacher, main, {("本校" if r == main else "北校", n): i for (n, r), i in names.items()}


@pytest.mark.backends("sqlite", "postgresql")
def test_limits_round_trip_and_teachers_without_any_get_none(db: Database) -> None:
    teacher, _main, ids = _slots(db)
    chosen = Limits(8, 40 * 60, 10 * 60 + 30, 3, 4, 2, frozenset({ids["本校", "1限"]}))
    with db.write() as s:
        other = f.teacher(s, "鈴木", n=2).id
        limits.set_limits(s, teacher, chosen)
    with db.read() as s:
        assert limits.limits_of(s, [teacher, other, teacher]) == {teacher: chosen, other: limits.NONE}
    with db.write() as s:  # cleared: no row is left behind
        limits.set_limits(s, teacher, limits.NONE)
    with db.read() as s:
        assert limits.limits_of(s, [teacher]) == {teacher: limits.NONE}
        assert s.scalar(select(func.count()).select_from(TeacherLimits)) == 0
        assert s.scalar(select(func.count()).select_from(TeacherSlot)) == 0


def test_slots_alone_change_and_the_other_limits_stay(db: Database) -> None:
    teacher, _main, ids = _slots(db)
    with db.write() as s:
        limits.set_limits(s, teacher, Limits(max_shifts=5))
        limits.set_teacher_slots(s, teacher, [ids["本校", "2限"]])
    with db.read() as s:
        assert limits.limits_of(s, [teacher])[teacher] == Limits(max_shifts=5, slots=frozenset({ids["本校", "2限"]}))
    with db.write() as s:
        limits.set_teacher_slots(s, teacher, ())
    with db.read() as s:
        assert limits.limits_of(s, [teacher])[teacher] == Limits(max_shifts=5)


@pytest.mark.parametrize(("bad", "said"), [
    (Limits(max_shifts=-1), "the most shifts a month must be from 0 to 200, not -1"),
    (Limits(max_minutes=-30), "the most hours a month must be from 0:00 to 744:00 hours, not -1:30"),
    (Limits(max_days_in_a_row=0), "the most days in a row must be from 1 to 31, not 0"),
    (Limits(max_weekend_days=11), "Saturdays and Sundays a month must be from 0 to 10, not 11"),
    (Limits(target_share=0), "the share of work must be from 1 to 100, not 0"),
    (Limits(max_minutes=600, min_minutes=601), r"the fewest hours a month \(10:01\) are more than the most hours a month \(10:00\)"),
])
def test_bad_limits_are_refused_and_nothing_changes(db: Database, bad: Limits, said: str) -> None:
    teacher, _main, _ids = _slots(db)
    with db.write() as s:
        limits.set_limits(s, teacher, Limits(max_shifts=8))
    with pytest.raises(ValidationError, match=said), db.write() as s:
        limits.set_limits(s, teacher, bad)
    with db.read() as s:
        assert limits.limits_of(s, [teacher])[teacher] == Limits(max_shifts=8)


def test_the_reasons_read_in_japanese() -> None:
    with pytest.raises(ValidationError) as caught:
        limits.check(Limits(max_minutes=600, min_minutes=700))
    assert render(caught.value.text, "ja") == "月の最低時間（11:40）が月の最大時間（10:00）を超えています。"
    with pytest.raises(ValidationError) as caught:
        limits.parse_hours("四十", "max_minutes")
    assert "月の最大時間の「四十」は時間として読めません" in render(caught.value.text, "ja")


def test_an_unknown_slot_id_is_refused(db: Database) -> None:
    teacher, _main, _ids = _slots(db)
    with db.write() as s, pytest.raises(ValidationError, match="no lesson slot #999"):
        limits.set_limits(s, teacher, Limits(slots=frozenset({999})))


@pytest.mark.parametrize(("text", "minutes"), [("40", 2400), ("40:30", 2430), ("40.5", 2430), ("４０：１５", 2415),
                                               ("0.25", 15), ("", None), (" ", None)])
def test_hours_are_read_as_a_manager_writes_them(text: str, minutes: int | None) -> None:
    assert limits.parse_hours(text) == minutes


@pytest.mark.parametrize("text", ["40:60", "-5", "40h", "forty", "1:2:3"])
def test_hours_that_are_not_hours_are_refused(text: str) -> None:
    with pytest.raises(ValidationError, match="is not hours"):
        limits.parse_hours(text)


def test_slot_names_mean_the_teachers_own_classrooms_and_read_back(db: Database) -> None:
    teacher, main, ids = _slots(db)
    with db.read() as s:
        named = limits.slot_names(s)
    mine = {main}
    assert limits.parse_slots("1限;2限", named, mine) == frozenset({ids["本校", "1限"], ids["本校", "2限"]})
    assert limits.parse_slots("1限、北校:2限", named, mine) == frozenset({ids["本校", "1限"], ids["北校", "2限"]})
    assert limits.parse_slots(" ; ", named, mine) is None
    both = limits.parse_slots("1限", named, ())  # a teacher of no classroom: every classroom's 1限
    assert both == frozenset({ids["本校", "1限"], ids["北校", "1限"]})
    with pytest.raises(ValidationError, match="no lesson slot named '3限'"):
        limits.parse_slots("1限;3限", named, mine)
    for chosen in ({ids["本校", "1限"], ids["北校", "2限"]}, both):
        text = limits.slots_text(frozenset(chosen), named, mine)
        assert limits.parse_slots(text, named, mine) == chosen
    assert limits.slots_text(frozenset(both), named, ()) == "1限"
    assert teacher


def test_teaches_all_of_a_classroom_with_none_of_its_slots_ticked() -> None:
    ticked = Limits(slots=frozenset({1}))
    assert ticked.teaches(1, {1, 2}) and not ticked.teaches(2, {1, 2})
    assert ticked.teaches(3, {3, 4})  # another classroom, none of its slots ticked
    assert limits.NONE.teaches(2, {1, 2})


def test_a_month_entered_by_hand_is_measured_against_the_limits() -> None:
    days = [dt.date(2027, 1, d) for d in (1, 2, 3, 4, 9, 9)]  # Fri–Mon in a row; Sat 9th twice
    load = limits.month_load([(day, 240) for day in days])
    assert load == limits.Load(shifts=6, minutes=1440, weekend_days=3, days_in_a_row=4)
    said = [str(text) for text in limits.over(load, Limits(max_shifts=5, max_minutes=1200, max_weekend_days=2,
                                                           max_days_in_a_row=3, min_minutes=2000))]
    assert said == ["6 shifts this month, above the most of 5", "24:00 hours this month, above the most of 20:00",
                    "3 Saturdays and Sundays this month, above the most of 2", "4 days in a row, above the most of 3"]
    assert limits.over(load, Limits(max_shifts=6, max_days_in_a_row=4)) == ()


# ----- the teachers' CSV file -----


def _limit_of(db: Database, name: str) -> Limits:
    from core.roster import rules

    with db.read() as s:
        teacher = rules.teacher_by_name(s, name).id
        return limits.limits_of(s, [teacher])[teacher]


def test_limits_go_out_and_come_back_through_the_teachers_file(db: Database) -> None:
    from core.roster import csv_files

    teacher, _main, ids = _slots(db)
    sato = Limits(8, 40 * 60 + 30, 10 * 60, 3, 4, 2, frozenset({ids["本校", "1限"], ids["北校", "2限"]}))
    with db.write() as s:
        limits.set_limits(s, teacher, sato)
        exported = csv_files.export_teachers(s)
        limits.set_limits(s, teacher, limits.NONE)
    header, row = exported.splitlines()[:2]
    assert header.endswith(",max_shifts,max_hours,min_hours,max_days_in_a_row,max_weekend_days,share,slots")
    assert row.endswith(",8,40:30,10:00,3,4,2,1限;北校:2限")
    with db.write() as s:
        csv_files.import_teachers(s, exported.encode())
    assert _limit_of(db, "佐藤") == sato


def test_japanese_headings_in_shift_jis_set_limits_and_missing_columns_keep_them(db: Database) -> None:
    from core.roster import csv_files

    _teacher, _main, ids = _slots(db)
    data = ("氏名,所属教室,最大シフト数,最大時間,最低時間,最大連続勤務日数,最大土日勤務日数,割合,担当コマ\r\n"
            "佐藤,本校,８,40.5,10:30,3,4,2,1限、2限\r\n"
            "高橋,北校,,,,,,,2限\r\n")
    with db.write() as s:
        result = csv_files.import_teachers(s, data.encode("cp932"))
    assert (result.created, result.updated) == (1, 1)
    both = frozenset({ids["本校", "1限"], ids["本校", "2限"]})
    assert _limit_of(db, "佐藤") == Limits(8, 40 * 60 + 30, 10 * 60 + 30, 3, 4, 2, both)
    assert _limit_of(db, "高橋") == Limits(slots=frozenset({ids["北校", "2限"]}))  # a new teacher's classroom's 2限
    with db.write() as s:  # a file without the columns keeps them; an empty cell clears its own only
        csv_files.import_teachers(s, "name,email\r\n佐藤,sato@example.com\r\n".encode())
    assert _limit_of(db, "佐藤").max_shifts == 8
    with db.write() as s:
        csv_files.import_teachers(s, "name,max_hours,slots\r\n佐藤,,\r\n".encode())
    assert _limit_of(db, "佐藤") == Limits(8, None, 10 * 60 + 30, 3, 4, 2, None)


def test_a_bad_limit_refuses_the_whole_file_with_each_line_s_reason(db: Database) -> None:
    from core.roster import csv_files

    _slots(db)
    with db.write() as s:
        csv_files.import_teachers(s, "name,max_shifts\r\n佐藤,5\r\n".encode())
    data = ("name,max_shifts,max_hours,min_hours,max_days_in_a_row,share,slots\r\n"
            "佐藤,9,,,,,\r\n"
            "鈴木,-1,,,,,\r\n"
            "田中,,10,20,,,\r\n"
            "伊藤,,forty,,,,\r\n"
            "上田,,,,0,,\r\n"
            "中村,,,,,,3限\r\n")
    with pytest.raises(csv_files.CsvImportError) as caught, db.write() as s:
        csv_files.import_teachers(s, data.encode())
    assert [p.line for p in caught.value.problems] == [3, 4, 5, 6, 7]
    assert "the most shifts a month must be from 0 to 200, not -1" in caught.value.problems[0].reason
    assert "the fewest hours a month (20:00) are more than" in caught.value.problems[1].reason
    assert "'forty' is not hours" in caught.value.problems[2].reason
    assert "no lesson slot named '3限'" in caught.value.problems[4].reason
    assert render(caught.value.problems[0].text, "ja").startswith("3行目: 月の最大シフト数は0〜200で指定してください")
    assert _limit_of(db, "佐藤") == Limits(max_shifts=5)  # line 2 was good, but nothing was imported


def test_limits_in_a_big_file_are_looked_up_once_not_per_row(db: Database) -> None:
    from sqlalchemy import event

    from core.roster import csv_files

    _slots(db)
    seen: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.lstrip().upper().startswith("SELECT") and any(
                table in statement for table in ("teacher_limits", "teacher_slots", "lesson_slots")):
            seen.append(statement)

    def imported(rows: int, most: int = 8) -> int:
        seen.clear()
        body = "".join(f"先生{n},本校,{most},40,,3,,,1限\r\n" for n in range(rows))
        with db.write() as s:
            csv_files.import_teachers(s, ("name,classrooms,max_shifts,max_hours,min_hours,max_days_in_a_row,"
                                          "max_weekend_days,share,slots\r\n" + body).encode())
        return len(seen)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        small, big = imported(5), imported(50)
        again_small, again_big = imported(5, most=9), imported(50, most=9)  # now updates of limits set
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    assert big == small and again_big == again_small, (small, big, again_small, again_big)
    assert _limit_of(db, "先生49").max_shifts == 9


def test_month_warnings_count_every_classroom_and_leave_canceled_shifts_out(db: Database) -> None:
    from core.store.kinds import ShiftStatus

    with db.write() as s:
        main, north = f.classroom(s, "本校"), f.classroom(s, "北校")
        sato, suzuki = f.teacher(s, "佐藤"), f.teacher(s, "鈴木", n=2)
        f.shift(s, main, sato, dt.date(2027, 1, 4), "17:00", "21:00", now=NOW)
        f.shift(s, north, sato, dt.date(2027, 1, 5), "17:00", "21:00", now=NOW, status=ShiftStatus.CONFIRMED)
        f.shift(s, main, sato, dt.date(2027, 1, 6), "17:00", "21:00", now=NOW, status=ShiftStatus.CANCELED)
        f.shift(s, main, suzuki, dt.date(2027, 1, 4), "17:00", "21:00", now=NOW)
        f.shift(s, main, sato, dt.date(2027, 2, 1), "17:00", "21:00", now=NOW)  # another month
        limits.set_limits(s, sato.id, Limits(max_shifts=1, max_minutes=7 * 60))
        limits.set_limits(s, suzuki.id, Limits(max_shifts=1))
        ids = sato.id, suzuki.id
    with db.read() as s:
        warned = limits.month_warnings(s, ids, 2027, 1)
    assert [str(text) for text in warned[ids[0]]] == ["2 shifts this month, above the most of 1",
                                                     "8:00 hours this month, above the most of 7:00"]
    assert ids[1] not in warned


def test_limits_read_back_in_the_same_session_after_each_change(db: Database) -> None:
    teacher, _main, _ids = _slots(db)
    with db.write() as s:
        for chosen in (Limits(max_shifts=3), Limits(max_shifts=4, target_share=2), limits.NONE, Limits(max_minutes=60)):
            limits.limits_of(s, [teacher])  # the rows read before are not what is read after
            limits.set_limits(s, teacher, chosen)
            assert limits.limits_of(s, [teacher])[teacher] == chosen
