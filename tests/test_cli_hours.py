"""`shiftcast hours` end to end, as the manager runs it: `main.py` as a real process on a data folder made
by the same commands, its table in Japanese and English, its CSV read back, and the Shift_JIS refusal."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from tests.test_cli_language import shiftcast
from tests.test_hours import MAIN, READINGS, SEEDED, SLOT_NAMES, SLOTS, STATION, expected, expected_slots

pytestmark = pytest.mark.slow  # every test here starts real processes


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    for room in (MAIN, STATION):
        assert shiftcast(home, "add-classroom", room).returncode == 0
    teachers, shifts = tmp_path / "teachers.csv", tmp_path / "shifts.csv"
    names = dict.fromkeys(row[0] for row in SEEDED)
    # A name starting with = is kept as text by the import only when escaped, as the export writes it.
    teachers.write_text("name,reading\n" + "".join(f"'{n},{READINGS[n]}\n" if n.startswith("=") else f"{n},{READINGS[n]}\n"
                                                   for n in names), encoding="utf-8")
    shifts.write_text("classroom,teacher,date,start,end,status\n"
                      + "".join(f"{room},{chr(39) + who if who.startswith('=') else who},{day},{start},{end},{status}\n"
                                for who, room, day, start, end, status in SEEDED), encoding="utf-8")
    for what, path in (("teachers", teachers), ("shifts", shifts)):
        done = shiftcast(home, "import", what, str(path))
        assert done.returncode == 0, done.stderr
    return home


def test_hours_prints_the_table_and_writes_a_csv_that_reads_back(home: Path, tmp_path: Path) -> None:
    target = tmp_path / "hours.csv"
    done = shiftcast(home, "hours", "--month", "2026-11", "--csv", str(target), "--lang", "ja")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "2026年11月の勤務時間（全教室）"
    assert lines[1].startswith("集計の対象は確定したシフトだけです")
    assert lines[2] == "集計に含めていないシフト: 下書き 1件、取消 1件"
    assert lines[4].split() == ["講師", "シフト数", "勤務時間", "勤務時間（10進）", "平日", "土曜", "日曜・祝日", MAIN, STATION]
    assert lines[5].split() == ["佐藤", "3", "14:30", "14.50", "5:00", "4:00", "5:30", "10:30", "4:00"]
    assert lines[-1] == f"{target} に保存しました。"
    rows = list(csv.reader(io.StringIO(target.read_bytes().decode("utf-8-sig"), newline="")))
    header, body = rows[0], rows[1:]  # the headings on line 1, as payroll software reads them
    found = {row[0]: dict(zip(header, row, strict=True)) for row in body}
    assert set(found) == {"佐藤", "鈴木", "田中", "'=SUM(A1)"}
    for who, counts in expected(SEEDED).items():
        row = found["'" + who if who.startswith("=") else who]
        hours, minutes = row["勤務時間"].split(":")
        assert (int(row["シフト数"]), int(hours) * 60 + int(minutes)) == (counts["shifts"], counts["minutes"])


def test_hours_of_one_classroom_in_english(home: Path) -> None:
    done = shiftcast(home, "hours", "--month", "2026-11", "--classroom", STATION, "--lang", "en")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"Hours for payroll, November 2026, {STATION}"
    assert lines[1].startswith("Counted: confirmed shifts only")
    assert lines[4].split() == ["Teacher", "Shifts", "Hours", "Hours", "(decimal)", "Weekdays", "Saturdays", "Sundays",
                                "and", "holidays"]
    assert [line.split()[:3] for line in lines[5:]] == [["佐藤", "1", "4:00"], ["鈴木", "1", "4:45"], ["田中", "1", "3:00"]]


def test_hours_counts_the_lesson_slots_a_classroom_defines(home: Path, tmp_path: Path) -> None:
    for classroom, slots in SLOTS.items():
        for name, start, end in slots:
            added = shiftcast(home, "lesson-slots", "--classroom", classroom, "--add", name, "--start", start,
                              "--end", end)
            assert added.returncode == 0, added.stderr
    target = tmp_path / "hours.csv"
    done = shiftcast(home, "hours", "--month", "2026-11", "--csv", str(target), "--encoding", "shift_jis",
                     "--lang", "ja")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].endswith("一部だけ含むコマは数えません。")
    assert lines[4].split() == ["講師", "シフト数", "勤務時間", "勤務時間（10進）", "平日", "土曜", "日曜・祝日", MAIN, STATION,
                                *SLOT_NAMES, "コマ数"]
    taught = expected_slots(SEEDED, SLOTS)
    for line in lines[5:-1]:
        who, *cells = line.split()
        counts = taught.get(who, {})
        assert cells[-5:] == [*(str(counts.get(name, 0)) for name in SLOT_NAMES), str(sum(counts.values()))]
    assert lines[5].split()[-5:] == ["1", "1", "1", "0", "3"]  # 佐藤: 午前, 1限, 2限, not 3限
    rows = list(csv.reader(io.StringIO(target.read_bytes().decode("shift_jis"), newline="")))
    assert rows[0][-5:] == [*SLOT_NAMES, "コマ数"] and rows[1][0] == "佐藤" and rows[1][-5:] == ["1", "1", "1", "0", "3"]
    # One classroom without slots: the table as it always was.
    done = shiftcast(home, "hours", "--month", "2026-11", "--classroom", STATION, "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[4].split() == ["講師", "シフト数", "勤務時間", "勤務時間（10進）", "平日", "土曜",
                                                   "日曜・祝日"]
    assert "コマ" not in done.stdout


def test_shift_jis_refuses_a_name_it_cannot_hold_and_writes_nothing(home: Path, tmp_path: Path) -> None:
    extra = tmp_path / "more.csv"
    extra.write_text("name\nNguyễn\n", encoding="utf-8")
    assert shiftcast(home, "import", "teachers", str(extra)).returncode == 0
    extra.write_text(f"classroom,teacher,date,start,end,status\n{MAIN},Nguyễn,2026-11-05,16:00,20:00,confirmed\n",
                     encoding="utf-8")
    assert shiftcast(home, "import", "shifts", str(extra)).returncode == 0
    target = tmp_path / "hours-sjis.csv"
    done = shiftcast(home, "hours", "--month", "2026-11", "--csv", str(target), "--encoding", "shift_jis",
                     "--lang", "ja")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == ("shiftcast: 講師「Nguyễn」の名前にShift_JISで保存できない文字（ễ）があるため、"
                                   "保存していません。UTF-8で保存してください。")
    assert not target.exists() and list(tmp_path.glob("hours-sjis*")) == []
    # Without her shift's month the same command writes a file Shift_JIS readers open.
    done = shiftcast(home, "hours", "--month", "2026-10", "--csv", str(target), "--encoding", "shift_jis")
    assert done.returncode == 0, done.stderr
    assert "田中" in target.read_bytes().decode("shift_jis")
