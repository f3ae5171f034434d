"""The status words of `shifts`, `teachers` and `deliveries` in the run's language: a Japanese listing
has no English state in it, and the English one keeps the words --json and the CSV files use."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

import main

# Every English state word these listings printed before they spoke the run's language.
ENGLISH = re.compile(r"\b(draft|confirmed|canceled|pending|queued|processing|sent|failed|dead_letters|active|"
                     r"line_opt_in|email_opt_in|LINE group)\b")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main.main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.fixture
def listed(capsys: pytest.CaptureFixture[str], db, tmp_path: Path) -> None:
    """A teacher on LINE with a confirmed shift, its reminder pending, and a draft shift."""
    from tests.linefixtures import make_reminders

    make_reminders(db, 1, now=dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.UTC))
    shifts = tmp_path / "shifts.csv"
    shifts.write_text("classroom,teacher,date,start,end\n本校,講師00001,2026-12-09,16:00,21:00\n", encoding="utf-8")
    run(capsys, "import", "shifts", str(shifts))


def test_the_japanese_listings_say_every_state_in_japanese(capsys, listed: None) -> None:
    shifts = run(capsys, "--lang", "ja", "shifts", "--classroom", "本校", "--month", "2026-12")
    teachers = run(capsys, "--lang", "ja", "teachers")
    deliveries = run(capsys, "--lang", "ja", "deliveries")
    for out in (shifts, teachers, deliveries):
        assert not ENGLISH.search(out), out
    assert "確定" in shifts and "下書き" in shifts and "[LINE通知,在籍]" in teachers
    assert "送信待ち: 1" in deliveries and "配信不能: 0" in deliveries


def test_the_columns_stay_lined_up_with_japanese_words(capsys, listed: None) -> None:
    from cli import words

    rows = [line for line in run(capsys, "--lang", "ja", "shifts", "--classroom", "本校", "--month", "2026-12")
            .splitlines() if " v1 " in line]
    assert len(rows) == 2  # 確定 and 下書き, two words of different widths
    assert {words.columns(line.split(" v")[0]) for line in rows} == {words.columns(rows[0].split(" v")[0])}


def test_the_english_listings_keep_the_words_of_json_and_csv(capsys, listed: None) -> None:
    assert "confirmed" in run(capsys, "--lang", "en", "shifts", "--classroom", "本校", "--month", "2026-12")
    assert "[line_opt_in,active]" in run(capsys, "--lang", "en", "teachers")
    assert "queued: 1" in run(capsys, "--lang", "en", "deliveries")
