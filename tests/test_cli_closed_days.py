"""`shiftcast closed-days`: a classroom's closed days of a month listed, a day closed with a note, a
holiday opened, in the run's language; --note without --add refused."""

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
    return home


def test_holidays_are_listed_a_day_closed_and_a_holiday_opened(home: Path) -> None:
    listed = shiftcast(home, "closed-days", "--classroom", "本校", "--month", "2026-11", "--lang", "en")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == ["Tue 3 Nov 2026  Culture Day (national holiday)",
                                          "Mon 23 Nov 2026  Labor Thanksgiving Day (national holiday)",
                                          "2 closed days in 2026-11 at 本校"]
    added = shiftcast(home, "closed-days", "--classroom", "本校", "--month", "2026-11", "--add", "2026-11-05",
                      "--note", "研修", "--lang", "ja")
    assert added.returncode == 0, added.stderr
    assert added.stdout.splitlines() == ["本校の2026年11月5日(木)を休業日にしました。",
                                         "2026年11月3日(火)  Culture Day（祝日）",
                                         "2026年11月5日(木)  研修",
                                         "2026年11月23日(月)  Labor Thanksgiving Day（祝日）",
                                         "本校の2026-11の休業日: 3日"]
    opened = shiftcast(home, "closed-days", "--classroom", "本校", "--month", "2026-11", "--remove", "2026-11-03",
                       "--lang", "en")
    assert opened.returncode == 0, opened.stderr
    assert opened.stdout.splitlines()[0] == "Tue 3 Nov 2026 is now open at 本校"
    assert opened.stdout.splitlines()[-1] == "2 closed days in 2026-11 at 本校"
    other = shiftcast(home, "closed-days", "--classroom", "駅前", "--month", "2026-11", "--lang", "en")
    assert other.stdout.splitlines()[-1] == "2 closed days in 2026-11 at 駅前"  # the other classroom's are its own


def test_a_bad_date_or_a_note_without_add_is_told_in_one_line(home: Path) -> None:
    bad = shiftcast(home, "closed-days", "--classroom", "本校", "--month", "2026-11", "--add", "11/5", "--lang", "ja")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    assert "YYYY-MM-DD" in bad.stderr and "日付「11/5」を読み取れません。" in bad.stderr
    note = shiftcast(home, "closed-days", "--classroom", "本校", "--month", "2026-11", "--note", "研修", "--lang", "en")
    assert note.returncode != 0 and note.stderr.strip() == "shiftcast: --note goes with --add"


def test_the_help_is_in_japanese(home: Path) -> None:
    helped = shiftcast(home, "closed-days", "--help", "--lang", "ja")
    assert helped.returncode == 0
    assert "この日を休業日にします" in helped.stdout and "休業の理由" in helped.stdout
    assert "教室の1か月分の休業日" in shiftcast(home, "--help", "--lang", "ja").stdout
