"""`shiftcast fill`: a classroom's month filled with drafts from the teachers' weekly patterns, or copied
from last month's confirmed shifts, with what was skipped and why, in the run's language."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tests.test_cli_language import shiftcast

pytestmark = pytest.mark.slow  # every test here starts real processes


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    assert shiftcast(home, "add-classroom", "本校").returncode == 0
    teachers, shifts = tmp_path / "teachers.csv", tmp_path / "shifts.csv"
    teachers.write_text("name\n佐藤\n鈴木\n", encoding="utf-8")
    shifts.write_text("classroom,teacher,date,start,end,status\n"
                      "本校,佐藤,2026-12-01,17:00,21:00,confirmed\n"
                      "本校,佐藤,2026-12-29,17:00,21:00,confirmed\n"
                      "本校,鈴木,2027-01-05,18:00,20:00,draft\n", encoding="utf-8")
    for what, path in (("teachers", teachers), ("shifts", shifts)):
        done = shiftcast(home, "import", what, str(path))
        assert done.returncode == 0, done.stderr
    return home


def _give_patterns(home: Path) -> None:
    from core.roster import patterns, rules
    from core.store.bootstrap import open_database
    from core.store.paths import DataPaths

    db = open_database(DataPaths(home))
    try:
        with db.write() as s:
            room = rules.classroom_by_name(s, "本校").id
            suzuki = rules.teacher_by_name(s, "鈴木").id
            patterns.set_teacher_patterns(s, suzuki, [patterns.Pattern(suzuki, room, 1, dt.time(17), dt.time(19),
                                                                       dt.date(2027, 1, 1))])
    finally:
        db.dispose()


def test_fill_from_patterns_skips_holidays_and_shifts_already_there(home: Path) -> None:
    _give_patterns(home)
    done = shiftcast(home, "fill", "--classroom", "本校", "--month", "2027-01", "--lang", "en")
    assert done.returncode == 0, done.stderr
    # January 2027's Tuesdays: 5 (鈴木 already works 18:00–20:00), 12, 19, 26; none is a holiday.
    assert done.stdout.splitlines() == [
        "3 draft shifts made; 1 skipped: 1 where the teacher already has a shift",
        "  Tue 5 Jan 2027, 鈴木: already has a shift at that time"]
    listed = shiftcast(home, "shifts", "--classroom", "本校", "--month", "2027-01", "--json")
    assert listed.stdout.count('"draft"') == 4
    again = shiftcast(home, "fill", "--classroom", "本校", "--month", "2027-01", "--lang", "ja")
    assert again.stdout.splitlines()[0].startswith("下書きのシフトを0件作成し、4件は作成しませんでした（同じ時間にシフトあり 4件）。")


def test_fill_from_last_month_by_weekday_occurrence(home: Path) -> None:
    done = shiftcast(home, "fill", "--from-last-month", "--classroom", "本校", "--month", "2027-01", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "下書きのシフトを1件作成し、1件は作成しませんでした（今月にない週の曜日 1件）。",
        "  2026年12月29日(火) 佐藤: 今月には同じ週の曜日がありません。"]
    listed = shiftcast(home, "shifts", "--classroom", "本校", "--month", "2027-01")
    assert "2027-01-05  17:00–21:00  draft" in listed.stdout


def test_fill_from_last_month_says_why_a_month_of_drafts_copied_nothing(home: Path) -> None:
    done = shiftcast(home, "fill", "--from-last-month", "--classroom", "本校", "--month", "2027-02", "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Nothing was copied: last month has no confirmed shifts, and only confirmed shifts are copied (it has 1 draft; "
        "confirm last month first to copy it)"]


def test_the_help_is_in_japanese(home: Path) -> None:
    helped = shiftcast(home, "fill", "--help", "--lang", "ja")
    assert "先月の確定したシフトをコピーします" in helped.stdout
    assert "講師の毎週の予定から" in shiftcast(home, "--help", "--lang", "ja").stdout
