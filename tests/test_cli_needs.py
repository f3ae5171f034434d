"""`shiftcast needs`: a classroom's staffing needs set on a weekday (English or Japanese names) and on a
date, listed as a weekly table with the month's dates and closed days, cleared; bad input told in one line in
the run's language, with nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_cli_language import shiftcast

pytestmark = pytest.mark.slow  # every test here starts real processes


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    assert shiftcast(home, "add-classroom", "本校").returncode == 0
    for name, start, end in (("1限", "16:50", "18:10"), ("2限", "18:20", "19:40")):
        done = shiftcast(home, "lesson-slots", "--classroom", "本校", "--add", name, "--start", start, "--end", end)
        assert done.returncode == 0, done.stderr
    return home


def needs(home: Path, *args: str, lang: str = "en") -> list[str]:
    done = shiftcast(home, "needs", *args, "--lang", lang)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_needs_are_set_listed_and_cleared(home: Path) -> None:
    assert needs(home, "set", "--classroom", "本校", "--slot", "1限", "--weekday", "mon", "--count", "2")[0] == \
        "本校 needs 2 in 1限 on Mon"
    assert needs(home, "set", "--classroom", "本校", "--slot", "1限", "--weekday", "火", "--count", "3",
                 lang="ja")[0] == "本校の火の1限の必要人数を3人にしました。"
    needs(home, "set", "--classroom", "本校", "--slot", "2限", "--weekday", "tuesday", "--count", "1")
    needs(home, "set", "--classroom", "本校", "--slot", "1限", "--date", "2027-01-12", "--count", "4")
    listed = needs(home, "list", "--classroom", "本校", "--month", "2027-01")
    assert listed == ["      Mon  Tue  Wed  Thu  Fri  Sat  Sun",
                      "1限   2    3    -    -    -    -    -",
                      "2限   -    1    -    -    -    -    -",
                      "Tue 12 Jan 2027  1限: 4",
                      "Fri 1 Jan 2027  closed, needs nobody  New Year's Day",
                      "Mon 11 Jan 2027  closed, needs nobody  Coming of Age Day",
                      "4 staffing needs set at 本校 (a date's number wins over its weekday's)"]
    japanese = needs(home, "list", "--classroom", "本校", lang="ja")
    assert japanese[0] == "      月   火   水   木   金   土   日"
    assert japanese[3] == "2027年1月12日(火)  1限: 4人"
    assert needs(home, "clear", "--classroom", "本校", "--weekday", "火")[0] == "2 staffing needs cleared at 本校"
    assert needs(home, "clear", "--classroom", "本校", "--slot", "1限")[0] == "2 staffing needs cleared at 本校"
    assert needs(home, "list", "--classroom", "本校")[-1] == \
        "0 staffing needs set at 本校 (a date's number wins over its weekday's)"


@pytest.mark.parametrize(("args", "told"), [
    (("--slot", "3限", "--weekday", "mon", "--count", "1"), "「3限」という名前のコマはありません。"),
    (("--slot", "1限", "--weekday", "mon", "--count", "-1"), "必要人数 -1 は範囲外です。"),
    (("--slot", "1限", "--weekday", "mon", "--count", "two"), "人数「two」を読み取れません。"),
    (("--slot", "1限", "--weekday", "月曜", "--count", "100"), "必要人数 100 は範囲外です。"),
    (("--slot", "1限", "--weekday", "moon", "--count", "1"), "曜日「moon」を読み取れません。"),
    (("--slot", "1限", "--date", "2100-01-01", "--count", "1"), "日付 2100-01-01 は使えません。"),
    (("--slot", "1限", "--date", "12/1", "--count", "1"), "日付「12/1」を読み取れません。"),
    (("--slot", "1限", "--count", "1"), "--weekday か --date を指定してください。"),
])
def test_bad_input_is_told_in_one_line_and_changes_nothing(home: Path, args: tuple[str, ...], told: str) -> None:
    needs(home, "set", "--classroom", "本校", "--slot", "1限", "--weekday", "mon", "--count", "2")
    bad = shiftcast(home, "needs", "set", "--classroom", "本校", *args, "--lang", "ja")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    assert told in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    assert needs(home, "list", "--classroom", "本校")[1:3] == ["1限   2    -    -    -    -    -    -",
                                                               "2限   -    -    -    -    -    -    -"]
