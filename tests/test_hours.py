"""A month's hours for payroll: the totals of a seeded month against totals worked out here by a plainer
method, the rule's edges (midnight, holidays, drafts and canceled shifts, the month's ends, a
daylight-saving night), and the CSV read back by Python's csv module in both encodings."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections import defaultdict

import pytest

from core.errors import ValidationError
from core.roster import hours, hours_table, rules
from core.roster.hours import DayType, ShiftTimes
from core.roster.hours_table import Encoding
from core.roster.lesson_slots import LessonSlot
from core.store.db import Database
from core.store.models import ShiftStatus
from core.texts import t
from tests import factories as f

MAIN, STATION = "本校", "駅前校"
# November 2026 as a wall calendar shows it: the 1st is a Sunday; 3 (文化の日) and 23 (勤労感謝の日)
# are national holidays; the 7th and 14th are Saturdays.
HOLIDAYS = {dt.date(2026, 11, 3), dt.date(2026, 11, 23)}
# (teacher, classroom, date, start, end as a roster writes it, 26:00 being 02:00 the next day, status)
SEEDED = [
    ("佐藤", MAIN, "2026-11-02", "16:00", "21:00", "confirmed"),     # Monday
    ("佐藤", MAIN, "2026-11-03", "10:00", "15:30", "confirmed"),     # 文化の日
    ("佐藤", STATION, "2026-11-07", "22:00", "26:00", "confirmed"),  # Saturday night into Sunday
    ("佐藤", MAIN, "2026-11-10", "16:00", "21:00", "draft"),
    ("鈴木", STATION, "2026-11-08", "13:00", "17:45", "confirmed"),  # Sunday
    ("鈴木", MAIN, "2026-11-23", "09:00", "12:20", "confirmed"),     # 勤労感謝の日
    ("鈴木", MAIN, "2026-11-24", "16:00", "21:00", "canceled"),
    ("鈴木", MAIN, "2026-11-30", "23:00", "25:30", "confirmed"),     # the month's last night, into December
    ("田中", STATION, "2026-11-14", "09:00", "12:00", "confirmed"),  # Saturday
    ("田中", MAIN, "2026-10-31", "22:00", "26:00", "confirmed"),     # October's, though it ends on 1 November
    ("=SUM(A1)", MAIN, "2026-11-16", "17:00", "18:05", "confirmed"),
]
READINGS = {"佐藤": "さとう", "鈴木": "すずき", "田中": "たなか", "=SUM(A1)": "ん"}
# The main school's lesson slots (コマ); the station school has none. 佐藤's Monday 16:00–21:00 covers
# 1限 and 2限 but ends inside 3限; =SUM(A1)'s 17:00–18:05 is inside 1限 and covers none.
SLOTS = {MAIN: [("午前", "10:00", "11:30"), ("1限", "16:50", "18:10"), ("2限", "18:20", "19:40"),
                ("3限", "19:50", "21:10")]}
SLOT_NAMES = ("午前", "1限", "2限", "3限")


def seed(db: Database, now: dt.datetime, rows: list[tuple[str, str, str, str, str, str]] = SEEDED,
         slots: dict[str, list[tuple[str, str, str]]] | None = None) -> None:
    from core.roster.lesson_slots import LessonSlot, set_slots

    with db.write() as s:
        rooms = {name: f.classroom(s, name) for name in (MAIN, STATION)}
        for room, its in (slots or {}).items():
            set_slots(s, rooms[room].id, [LessonSlot(name, dt.time.fromisoformat(start), dt.time.fromisoformat(end))
                                          for name, start, end in its])
        people = {name: f.teacher(s, name, n, reading=READINGS.get(name)) for n, name in
                  enumerate(dict.fromkeys(row[0] for row in rows), start=1)}
        for who, room, day, start, end, status in rows:
            added = f.shift(s, rooms[room], people[who], dt.date.fromisoformat(day), start, end, now=now,
                            status=ShiftStatus.DRAFT if status == "draft" else ShiftStatus.CONFIRMED)
            if status == "canceled":
                rules.cancel_shift(s, added.id, now=now)


def expected(rows: list[tuple[str, str, str, str, str, str]], month: str = "2026-11", room: str | None = None
             ) -> dict[str, dict[str, int]]:
    """Per teacher: shifts, minutes, and minutes per day kind and per classroom, by counting clock
    arithmetic on the roster's own notation and the calendar written above."""
    found: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for who, classroom, day, start, end, status in rows:
        if status != "confirmed" or not day.startswith(month) or room not in (None, classroom):
            continue
        (sh, sm), (eh, em) = (map(int, start.split(":")), map(int, end.split(":")))
        minutes = (eh * 60 + em) - (sh * 60 + sm)
        date = dt.date.fromisoformat(day)
        kind = ("holiday" if date in HOLIDAYS or date.weekday() == 6 else
                "saturday" if date.weekday() == 5 else "weekday")
        counts = found[who]
        counts["shifts"] += 1
        counts["minutes"] += minutes
        counts[kind] += minutes
        counts[classroom] += minutes
    return {who: dict(counts) for who, counts in found.items()}


def _minutes_of(text: str) -> int:
    h, m = text.split(":")
    return int(h) * 60 + int(m)


def expected_slots(rows: list[tuple[str, str, str, str, str, str]], slots: dict[str, list[tuple[str, str, str]]],
                   month: str = "2026-11") -> dict[str, dict[str, int]]:
    """Per teacher: the slots taught, by name, counted on the roster's own notation (26:00 is 02:00 the next
    day, so a slot the next day is its times plus 24 hours)."""
    found: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for who, classroom, day, start, end, status in rows:
        if status != "confirmed" or not day.startswith(month):
            continue
        for name, slot_start, slot_end in slots.get(classroom, []):
            for day_offset in (0, 24 * 60):
                if (_minutes_of(start) <= _minutes_of(slot_start) + day_offset
                        and _minutes_of(slot_end) + day_offset <= _minutes_of(end)):
                    found[who][name] += 1
    return {who: dict(counts) for who, counts in found.items()}


def as_counts(month: hours.MonthHours) -> dict[str, dict[str, int]]:
    out = {}
    for teacher in month.teachers:
        counts = {"shifts": teacher.shifts, "minutes": teacher.minutes}
        counts.update({kind.value: m for kind, m in teacher.by_day_type.items() if m})
        counts.update({room: m for room, m in teacher.by_classroom.items() if m})
        out[teacher.display_name] = counts
    return out


@pytest.mark.backends("sqlite", "postgresql")
def test_a_seeded_months_totals_match_a_plain_count(db: Database, now: dt.datetime) -> None:
    seed(db, now)
    with db.read() as s:
        month = hours.read_month(s, 2026, 11)
        one = hours.read_month(s, 2026, 11, classroom_id=rules.classroom_by_name(s, STATION).id)
    assert as_counts(month) == expected(SEEDED)
    assert as_counts(one) == expected(SEEDED, room=STATION)
    # The figures themselves, so a mistake shared by both counts would still show.
    assert as_counts(month)["佐藤"] == {"shifts": 3, "minutes": 870, "weekday": 300, "holiday": 330, "saturday": 240,
                                       MAIN: 630, STATION: 240}
    assert as_counts(month)["鈴木"]["minutes"] == 285 + 200 + 150
    assert [t.display_name for t in month.teachers] == ["佐藤", "鈴木", "田中", "=SUM(A1)"]  # by reading
    assert month.classrooms == (MAIN, STATION) and one.classrooms == (STATION,)
    assert month.left_out == {ShiftStatus.DRAFT: 1, ShiftStatus.CANCELED: 1}
    assert month.minutes == sum(c["minutes"] for c in expected(SEEDED).values())
    assert month.slot_names == () and all(teacher.by_slot == {} for teacher in month.teachers)  # no slots, none


@pytest.mark.backends("sqlite", "postgresql")
def test_a_seeded_months_slots_match_a_plain_count(db: Database, now: dt.datetime) -> None:
    seed(db, now, slots=SLOTS)
    with db.read() as s:
        month = hours.read_month(s, 2026, 11)
        station = hours.read_month(s, 2026, 11, classroom_id=rules.classroom_by_name(s, STATION).id)
    taught = {teacher.display_name: dict(teacher.by_slot) for teacher in month.teachers if teacher.by_slot}
    assert taught == expected_slots(SEEDED, SLOTS)
    # The figures themselves: 1限 and 2限 of a 16:00–21:00 shift but not 3限, which ends at 21:10; 午前 of
    # 10:00–15:30 and of 09:00–12:20; nothing of 17:00–18:05, which covers half of 1限.
    assert taught == {"佐藤": {"午前": 1, "1限": 1, "2限": 1}, "鈴木": {"午前": 1}}
    assert {teacher.display_name: teacher.slots for teacher in month.teachers} == {"佐藤": 3, "鈴木": 1, "田中": 0,
                                                                                   "=SUM(A1)": 0}
    assert month.slot_names == SLOT_NAMES
    # Hours are counted as before.
    assert as_counts(month) == expected(SEEDED)
    # The station school defines no slots: its month is counted and shown as without slots.
    assert station.slot_names == () and all(teacher.by_slot == {} for teacher in station.teachers)
    assert hours_table.table(station, "en").headings[-1] == "Sundays and holidays"


def test_a_shift_counts_to_the_day_and_month_it_starts(db: Database, now: dt.datetime) -> None:
    seed(db, now)
    with db.read() as s:
        october, december = hours.read_month(s, 2026, 10), hours.read_month(s, 2026, 12)
    assert as_counts(october) == {"田中": {"shifts": 1, "minutes": 240, "saturday": 240, MAIN: 240}}
    assert december.teachers == ()


def _times(day: dt.date, start: dt.time, end: dt.time, *, next_day: bool = False, zone: str = "Asia/Tokyo",
           status: ShiftStatus = ShiftStatus.CONFIRMED) -> ShiftTimes:
    return ShiftTimes(1, "Smith", None, "NY", zone, "JP", day, start, end, next_day, status)


def _slot(name: str, start: int, end: int, minute: int = 0, end_minute: int = 0) -> LessonSlot:
    return LessonSlot(name, dt.time(start, minute), dt.time(end, end_minute))


EVENING = [_slot("1限", 16, 18, 50, 10), _slot("2限", 18, 19, 20, 40), _slot("3限", 19, 21, 50, 10)]


def test_a_slot_counts_when_the_shift_covers_all_of_it() -> None:
    day = dt.date(2026, 11, 2)
    assert hours.slots_taught(_times(day, dt.time(16, 50), dt.time(19, 40)), EVENING) == ["1限", "2限"]  # both
    assert hours.slots_taught(_times(day, dt.time(16), dt.time(21)), EVENING) == ["1限", "2限"]  # 3限 ends 21:10
    assert hours.slots_taught(_times(day, dt.time(17, 30), dt.time(21, 10)), EVENING) == ["2限", "3限"]
    assert hours.slots_taught(_times(day, dt.time(17, 30), dt.time(18, 10)), EVENING) == []  # half of 1限
    assert hours.slots_taught(_times(day, dt.time(16), dt.time(16, 50)), EVENING) == []
    # Across midnight: the evening's slots, and a slot after midnight on the next day when covered.
    night = [*EVENING, _slot("深夜", 0, 1, 30, 30)]
    assert hours.slots_taught(_times(day, dt.time(19), dt.time(2), next_day=True), night) == ["3限", "深夜"]
    assert hours.slots_taught(_times(day, dt.time(19), dt.time(1), next_day=True), night) == ["3限"]


def test_count_month_counts_slots_only_where_the_classroom_defines_them() -> None:
    def shift(room: str, day: int, start: int, end: int) -> ShiftTimes:
        return ShiftTimes(1, "Smith", None, room, "Asia/Tokyo", "JP", dt.date(2026, 11, day), dt.time(start),
                          dt.time(end), False, ShiftStatus.CONFIRMED)

    worked = [shift("A", 2, 16, 20), shift("A", 3, 16, 22), shift("B", 4, 16, 22)]
    month = hours.count_month(2026, 11, worked, {}, slots={"A": EVENING, "C": [_slot("0限", 9, 10)]})
    [smith] = month.teachers
    assert smith.by_slot == {"1限": 2, "2限": 2, "3限": 1} and smith.slots == 5  # nothing in B, which has none
    assert month.slot_names == ("1限", "2限", "3限")  # C is not listed: no shift there and not the one asked for
    assert hours.count_month(2026, 11, worked, {}).slot_names == ()
    only_b = hours.count_month(2026, 11, worked[2:], {}, classroom="B", slots={"A": EVENING})
    assert only_b.slot_names == () and only_b.teachers[0].by_slot == {}


def test_the_kind_of_day_is_sunday_or_holiday_then_saturday_then_weekday() -> None:
    calendar = hours.holidays_of("JP", 2026)
    assert dt.date(2026, 11, 3) in calendar and dt.date(2026, 11, 23) in calendar
    assert hours.day_type(dt.date(2026, 11, 3), calendar) is DayType.HOLIDAY
    assert hours.day_type(dt.date(2026, 11, 8), calendar) is DayType.HOLIDAY
    assert hours.day_type(dt.date(2026, 11, 7), calendar) is DayType.SATURDAY
    assert hours.day_type(dt.date(2026, 11, 9), calendar) is DayType.WEEKDAY
    assert hours.day_type(dt.date(2026, 11, 9), {dt.date(2026, 11, 9)}) is DayType.HOLIDAY


def test_minutes_are_the_time_that_passes_on_the_classrooms_clock() -> None:
    # New York falls back at 02:00 on 1 November 2026: 00:00–03:00 on the wall lasts four hours.
    night = _times(dt.date(2026, 11, 1), dt.time(0), dt.time(3), zone="America/New_York")
    assert hours.shift_minutes(night) == 240
    assert hours.shift_minutes(_times(dt.date(2026, 11, 1), dt.time(0), dt.time(3))) == 180
    assert hours.shift_minutes(_times(dt.date(2026, 11, 7), dt.time(22), dt.time(2), next_day=True)) == 240


def test_hours_are_written_as_clock_hours_and_decimal_hours() -> None:
    assert [hours_table.clock_hours(m) for m in (0, 5, 450, 1890)] == ["0:00", "0:05", "7:30", "31:30"]
    assert [hours_table.decimal_hours(m) for m in (0, 20, 30, 450, 1)] == ["0.00", "0.33", "0.50", "7.50", "0.02"]


def _read_back(data: bytes, codec: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode(codec), newline="")))


@pytest.mark.parametrize(("encoding", "codec"), [(Encoding.UTF8, "utf-8"), (Encoding.SHIFT_JIS, "shift_jis")])
def test_the_csv_reads_back_in_both_encodings_with_formulas_neutralised(db: Database, now: dt.datetime,
                                                                      encoding: Encoding, codec: str) -> None:
    seed(db, now)
    with db.read() as s:
        month = hours.read_month(s, 2026, 11)
    data = hours_table.csv_bytes(month, "ja", encoding)
    assert data.startswith(b"\xef\xbb\xbf") == (encoding is Encoding.UTF8)  # the BOM Excel needs for UTF-8
    rows = _read_back(data.removeprefix(b"\xef\xbb\xbf"), codec)
    header, *body = rows  # payroll software reads the headings from line 1
    assert header == ["講師", "シフト数", "勤務時間", "勤務時間（10進）", "平日", "平日（10進）", "土曜", "土曜（10進）",
                      "日曜・祝日", "日曜・祝日（10進）", MAIN, f"{MAIN}（10進）", STATION, f"{STATION}（10進）"]
    by_name = {row[0]: dict(zip(header, row, strict=True)) for row in body}
    assert list(by_name) == ["佐藤", "鈴木", "田中", "'=SUM(A1)"]  # the formula is text in Excel
    for who, counts in expected(SEEDED).items():
        row = by_name["'" + who if who.startswith("=") else who]
        assert int(row["シフト数"]) == counts["shifts"]
        h, m = row["勤務時間"].split(":")
        assert int(h) * 60 + int(m) == counts["minutes"]
        assert float(row["勤務時間（10進）"]) == pytest.approx(counts["minutes"] / 60, abs=0.005)
        assert float(row["日曜・祝日（10進）"]) == pytest.approx(counts.get("holiday", 0) / 60, abs=0.005)
        assert float(row[f"{STATION}（10進）"]) == pytest.approx(counts.get(STATION, 0) / 60, abs=0.005)
    assert by_name["佐藤"]["勤務時間"] == "14:30" and by_name["佐藤"]["勤務時間（10進）"] == "14.50"


@pytest.mark.parametrize(("encoding", "codec"), [(Encoding.UTF8, "utf-8"), (Encoding.SHIFT_JIS, "shift_jis")])
def test_the_csv_has_a_column_per_slot_and_the_slots_taught(db: Database, now: dt.datetime, encoding: Encoding,
                                                           codec: str) -> None:
    seed(db, now, slots=SLOTS)
    with db.read() as s:
        month = hours.read_month(s, 2026, 11)
    rows = _read_back(hours_table.csv_bytes(month, "ja", encoding).removeprefix(b"\xef\xbb\xbf"), codec)
    header, *body = rows
    japanese = hours_table.table(month, "ja")
    assert japanese.preamble[1].startswith("集計の対象は確定したシフトだけです")
    assert japanese.preamble[1].endswith("コマは、シフトがその教室のコマの開始から終了までをすべて含むときに1コマと数えます。"
                                         "一部だけ含むコマは数えません。")
    assert japanese.preamble[2] == "集計に含めていないシフト: 下書き 1件、取消 1件"
    assert header[-6:] == [f"{STATION}（10進）", *SLOT_NAMES, "コマ数"]  # after the hours, unchanged before
    by_name = {row[0].removeprefix("'"): dict(zip(header, row, strict=True)) for row in body}
    taught = expected_slots(SEEDED, SLOTS)
    for who in expected(SEEDED):
        counts = taught.get(who, {})
        assert {name: int(by_name[who][name]) for name in SLOT_NAMES} == {name: counts.get(name, 0)
                                                                          for name in SLOT_NAMES}
        assert int(by_name[who]["コマ数"]) == sum(counts.values())
    english = hours_table.table(month, "en")
    assert english.headings[-5:] == (*SLOT_NAMES, "Lesson slots")
    assert "A lesson slot (コマ) counts once for each shift that covers all of it" in english.preamble[1]
    assert english.preamble[1].startswith("Counted: confirmed shifts only")


def test_shift_jis_refuses_a_slot_name_it_cannot_hold(db: Database, now: dt.datetime) -> None:
    seed(db, now, slots={MAIN: [("교시1", "16:50", "18:10")]})
    with db.read() as s:
        month = hours.read_month(s, 2026, 11)
    with pytest.raises(ValidationError) as caught:
        hours_table.csv_bytes(month, "ja", Encoding.SHIFT_JIS)
    assert caught.value.text == t("hours.not_shift_jis_slot", slot="교시1", character="교")


def test_shift_jis_refuses_a_name_it_cannot_hold_and_names_the_teacher(db: Database, now: dt.datetime) -> None:
    seed(db, now, SEEDED + [("Nguyễn", MAIN, "2026-11-05", "16:00", "20:00", "confirmed")])
    with db.read() as s:
        month = hours.read_month(s, 2026, 11)
    with pytest.raises(ValidationError) as caught:
        hours_table.csv_bytes(month, "en", Encoding.SHIFT_JIS)
    assert caught.value.text == t("hours.not_shift_jis_teacher", teacher="Nguyễn", character="ễ")
    assert "Nguyễn" in str(caught.value) and "UTF-8" in str(caught.value)
    # Windows' Shift_JIS holds the extended characters Japanese names use; UTF-8 holds everything.
    assert "Nguyễn" in hours_table.csv_bytes(month, "en", Encoding.UTF8).decode("utf-8-sig")


def test_shift_jis_refuses_a_classroom_name_it_cannot_hold(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s, "한빛 교실")
        f.shift(s, room, f.teacher(s, "佐藤"), dt.date(2026, 11, 2), now=now, status=ShiftStatus.CONFIRMED)
    with db.read() as s:
        month = hours.read_month(s, 2026, 11)
    with pytest.raises(ValidationError) as caught:
        hours_table.csv_bytes(month, "ja", Encoding.SHIFT_JIS)
    assert caught.value.text == t("hours.not_shift_jis_classroom", classroom="한빛 교실", character="한")


def test_every_table_starts_with_the_rule_in_its_language_and_the_csv_with_its_headings(db: Database, now: dt.datetime) -> None:
    seed(db, now)
    with db.read() as s:
        month = hours.read_month(s, 2026, 11, classroom_id=rules.classroom_by_name(s, MAIN).id)
    english = hours_table.table(month, "en")
    assert english.preamble[0] == f"Hours for payroll, November 2026, {MAIN}"
    assert english.preamble[1].startswith("Counted: confirmed shifts only (drafts and canceled shifts are left out).")
    assert "counts to the day it starts" in english.preamble[1]
    assert english.headings == ("Teacher", "Shifts", "Hours", "Hours (decimal)", "Weekdays", "Saturdays",
                                "Sundays and holidays")  # one classroom: no column per classroom
    rows = list(csv.reader(io.StringIO(hours_table.csv_text(month, "en"), newline="")))
    assert rows[0] == list(hours_table.table(month, "en", decimal_splits=True).headings)
    assert not any(line in cell for row in rows for cell in row for line in english.preamble)


def test_the_teachers_are_listed_in_the_managers_order(db: Database, now: dt.datetime) -> None:
    from core.roster import order

    with db.write() as s:
        room = f.classroom(s, MAIN)
        named = {name: f.teacher(s, name, n, reading=said)
                 for n, (name, said) in enumerate((("中村", "なかむら"), ("伊藤", "いとう"), ("高橋", None)), start=1)}
        for day, teacher in enumerate(named.values(), start=2):
            f.shift(s, room, teacher, dt.date(2026, 11, day), now=now, status=ShiftStatus.CONFIRMED)
        assert [teacher.name for teacher in hours.read_month(s, 2026, 11).teachers] == ["伊藤", "中村", "高橋"]  # by reading
        order.move_to(s, named["高橋"].id, 1)
        assert [teacher.name for teacher in hours.read_month(s, 2026, 11).teachers] == ["高橋", "伊藤", "中村"]
