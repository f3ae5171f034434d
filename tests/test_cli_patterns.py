"""`shiftcast patterns list|add|remove`: a teacher's weekly patterns with the dates they hold between,
as real processes; `shiftcast fill` makes drafts only inside those dates; Japanese lines and help."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_cli_language import shiftcast

pytestmark = pytest.mark.slow  # every test here starts real processes


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    for room in ("本校", "駅前"):
        assert shiftcast(home, "add-classroom", room).returncode == 0
    teachers = tmp_path / "teachers.csv"
    teachers.write_text("name\n佐藤\n", encoding="utf-8")
    assert shiftcast(home, "import", "teachers", str(teachers)).returncode == 0
    return home


def _ok(home: Path, *argv: str) -> list[str]:
    done = shiftcast(home, *argv)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_patterns_with_dates_are_added_listed_filled_inside_their_dates_and_removed(home: Path) -> None:
    _ok(home, "patterns", "add", "--teacher", "佐藤", "--classroom", "本校", "--weekday", "tue", "--start", "17:00",
        "--end", "21:00", "--until", "2027-01-15", "--lang", "en")
    _ok(home, "patterns", "add", "--teacher", "佐藤", "--classroom", "駅前", "--weekday", "火曜日", "--start", "16:00",
        "--end", "20:00", "--from", "2027-01-16", "--lang", "en")
    assert _ok(home, "patterns", "list", "--teacher", "佐藤", "--lang", "en") == [
        "1. Tue 16:00–20:00 at 駅前 from Sat 16 Jan 2027",
        "2. Tue 17:00–21:00 at 本校 until Fri 15 Jan 2027",
        "2 weekly patterns for 佐藤"]
    assert _ok(home, "patterns", "list", "--teacher", "佐藤", "--lang", "ja") == [
        "1. 火 16:00〜20:00（駅前） 2027年1月16日(土)から",
        "2. 火 17:00〜21:00（本校） 2027年1月15日(金)まで",
        "佐藤の毎週の予定: 2件"]

    # January 2027's Tuesdays are the 5th, 12th, 19th and 26th: 本校 gets the first two, 駅前 the last two.
    for room in ("本校", "駅前"):
        _ok(home, "fill", "--classroom", room, "--month", "2027-01")
    main = _ok(home, "shifts", "--classroom", "本校", "--month", "2027-01")
    station = _ok(home, "shifts", "--classroom", "駅前", "--month", "2027-01")
    assert [line.split()[1] for line in main if "draft" in line] == ["2027-01-05", "2027-01-12"]
    assert [line.split()[1] for line in station if "draft" in line] == ["2027-01-19", "2027-01-26"]

    assert _ok(home, "patterns", "remove", "--teacher", "佐藤", "2", "--lang", "en") == [
        "1. Tue 16:00–20:00 at 駅前 from Sat 16 Jan 2027", "1 weekly pattern for 佐藤"]


def test_what_cannot_be_a_pattern_is_refused_in_one_line(home: Path) -> None:
    cases = [
        (["--weekday", "someday", "--start", "17:00", "--end", "21:00"], "bad weekday 'someday'"),
        (["--weekday", "wed", "--start", "17:00", "--end", "21:00", "--from", "2027-02-01", "--until", "2027-01-01"],
         "cannot end (Fri 1 Jan 2027) before it starts (Mon 1 Feb 2027)"),
        (["--weekday", "wed", "--start", "17:00", "--end", "21:00", "--from", "1st of May"], "bad date '1st of May'"),
    ]
    for extra, said in cases:
        done = shiftcast(home, "patterns", "add", "--teacher", "佐藤", "--classroom", "本校", *extra, "--lang", "en")
        assert done.returncode != 0 and said in done.stderr and "Traceback" not in done.stderr, done.stderr
    gone = shiftcast(home, "patterns", "remove", "--teacher", "佐藤", "1", "--lang", "ja")
    assert gone.returncode != 0 and "番号 1 の毎週の予定はありません" in gone.stderr, gone.stderr
    assert _ok(home, "patterns", "list", "--teacher", "佐藤", "--lang", "en") == ["0 weekly patterns for 佐藤"]


def test_the_help_is_in_japanese(home: Path) -> None:
    assert "講師の毎週の予定を一覧表示します" in shiftcast(home, "--help", "--lang", "ja").stdout
    helped = shiftcast(home, "patterns", "add", "--help", "--lang", "ja").stdout
    assert "予定が有効になる最初の日" in helped and "予定が有効な最後の日" in helped
