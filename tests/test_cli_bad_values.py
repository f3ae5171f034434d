"""Bad values on the command line, as a real process: one clear line, exit 1, nothing changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every test here starts real processes

ROOT = Path(__file__).resolve().parent.parent


def shiftcast(home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {"SHIFTCAST_HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    return subprocess.run([sys.executable, "main.py", *argv], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    assert shiftcast(home, "add-classroom", "本校").returncode == 0
    teachers = tmp_path / "teachers.csv"
    teachers.write_text("name,line_user_id\n佐藤,\n", encoding="utf-8")
    assert shiftcast(home, "import", "teachers", str(teachers)).returncode == 0
    return home


def listing(home: Path, what: str) -> list[dict[str, object]]:
    if what == "shifts":
        done = shiftcast(home, "shifts", "--classroom", "本校", "--month", "2026-12", "--json")
    else:
        done = shiftcast(home, "teachers", "--json")
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


def assert_one_clear_failure(done: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "unexpected error" not in done.stderr
    for needle in needles:
        assert needle in done.stderr, done.stderr


@pytest.mark.parametrize("month", ["9999-12", "0001-01"])
def test_a_month_out_of_range_is_a_bad_month(home: Path, month: str) -> None:
    done = shiftcast(home, "shifts", "--classroom", "本校", "--month", month)
    assert_one_clear_failure(done, f"bad month {month}")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31"])
def test_a_date_out_of_range_in_a_csv_is_a_bad_value_with_its_line(home: Path, tmp_path: Path, day: str) -> None:
    shifts = tmp_path / "shifts.csv"
    shifts.write_text(f"classroom,teacher,date,start,end\n本校,佐藤,2026-12-01,16:00,21:00\n本校,佐藤,{day},16:00,21:00\n",
                      encoding="utf-8")
    done = shiftcast(home, "import", "shifts", str(shifts))
    assert_one_clear_failure(done, "nothing was imported", f"line 3: bad date {day}")
    assert listing(home, "shifts") == []


def test_an_unterminated_quote_is_refused_with_its_line(home: Path, tmp_path: Path) -> None:
    teachers = tmp_path / "broken.csv"
    teachers.write_text('name,line_user_id\n"unterminated,U123\n', encoding="utf-8")
    done = shiftcast(home, "import", "teachers", str(teachers))
    assert_one_clear_failure(done, "nothing was imported", "line 2: a quoted cell opened on this line is never closed")
    assert [t["name"] for t in listing(home, "teachers")] == ["佐藤"]


def one_line(done: subprocess.CompletedProcess[str], *needles: str) -> str:
    """Exit 1 with exactly one line on stderr holding every needle."""
    assert_one_clear_failure(done, *needles)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr[:3000]
    return lines[0]


HEADER_TOO_WIDE = {"en": "line 1: the header has 200,001 columns; a file of teachers or shifts has at most 100",
                   "ja": "1行目: 見出しが200,001列あります。講師やシフトのファイルは100列までです。"}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("cell", ["", "c{n}"])
def test_a_header_of_200000_columns_is_refused_at_once(home: Path, tmp_path: Path, lang: str, cell: str) -> None:
    # Counting each name among all the others took minutes for 64,000 named columns; now the width is
    # refused before the names are looked at, and the duplicate check is linear.
    wide = tmp_path / "wide.csv"
    wide.write_text("name," + ",".join(cell.format(n=n) for n in range(200_000)) + "\n鈴木\n", encoding="utf-8")
    one_line(shiftcast(home, "--lang", lang, "import", "teachers", str(wide)), str(wide), HEADER_TOO_WIDE[lang])
    assert [t["name"] for t in listing(home, "teachers")] == ["佐藤"]


@pytest.mark.parametrize(("lang", "says"), [
    ("en", ["line 3: the line is 50,001 characters long; a row of teachers or shifts has at most 10,000",
            "line 3: a cell is longer than 131,072 characters"]),
    ("ja", ["3行目: この行は50,001文字あります。講師やシフトの1行は10,000文字までです。",
            "3行目: 131,072文字を超えるセルがあります。"]),
])
def test_a_line_far_longer_than_any_row_is_refused_with_its_number(home: Path, tmp_path: Path, lang: str,
                                                                   says: list[str]) -> None:
    for length, said in zip((50_000, 200_000), says, strict=True):
        teachers = tmp_path / f"long{length}.csv"
        teachers.write_text(f"name,email\n鈴木,\n{'x' * length},\n", encoding="utf-8")
        one_line(shiftcast(home, "--lang", lang, "import", "teachers", str(teachers)), said)
    assert [t["name"] for t in listing(home, "teachers")] == ["佐藤"]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "line 3: bad date '99999999999999999999-01-01'"),
    ("ja", "3行目: 「99999999999999999999-01-01」は日付として読めません。"),
])
def test_a_year_of_twenty_digits_in_a_csv_is_a_bad_date(home: Path, tmp_path: Path, lang: str, said: str) -> None:
    shifts = tmp_path / "shifts.csv"
    shifts.write_text("classroom,teacher,date,start,end\n本校,佐藤,2026-12-01,16:00,21:00\n"
                      "本校,佐藤,99999999999999999999-01-01,16:00,21:00\n", encoding="utf-8")
    one_line(shiftcast(home, "--lang", lang, "import", "shifts", str(shifts)), str(shifts), said)
    assert listing(home, "shifts") == []


HUGE = "99999999999999999999"


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("argv", [["deliveries", "--limit", HUGE], ["retry", HUGE], ["cancel", HUGE],
                                  ["emulator", "--port", HUGE]])
def test_a_number_of_twenty_digits_is_out_of_range_in_one_line(home: Path, lang: str, argv: list[str]) -> None:
    done = shiftcast(home, "--lang", lang, *argv)
    assert done.returncode == 2 and "OverflowError" not in done.stderr and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and HUGE in lines[0], done.stderr[:3000]
    assert ("is out of range" if lang == "en" else "は範囲外です") in lines[0]


SHORTENED = {"en": "… (100,000 characters)", "ja": "…（100,000文字）"}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_value_of_100000_characters_is_echoed_by_its_start_and_length(home: Path, lang: str) -> None:
    month = "2" * 100_000
    line = one_line(shiftcast(home, "--lang", lang, "shifts", "--classroom", "本校", "--month", month),
                    "2" * 60 + SHORTENED[lang])
    assert "2" * 61 not in line and len(line) < 300


@pytest.mark.parametrize(("lang", "said"), [("en", "active must be yes or no, not 'yyy"),
                                            ("ja", "有効 は yes か no で入力してください（「yyy")])
def test_a_long_bad_cell_is_echoed_by_its_start_and_length(home: Path, tmp_path: Path, lang: str, said: str) -> None:
    teachers = tmp_path / "teachers.csv"
    teachers.write_text(f"name,active\n鈴木,{'y' * 5_000}\n", encoding="utf-8")
    line = one_line(shiftcast(home, "--lang", lang, "import", "teachers", str(teachers)), said,
                    "y" * 60 + SHORTENED[lang].replace("100,000", "5,000"))
    assert "y" * 61 not in line and len(line) < 400


@pytest.mark.parametrize(("lang", "choices"), [("en", "(choose from 'teachers', 'shifts')"),
                                               ("ja", "'teachers', 'shifts' から選んでください")])
def test_a_refused_choice_of_100000_characters_is_shortened_and_the_choices_still_shown(
        home: Path, lang: str, choices: str) -> None:
    done = shiftcast(home, "--lang", lang, "import", "x" * 100_000, "teachers.csv")
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "x" * 60 + SHORTENED[lang] in lines[0] and choices in lines[0], done.stderr[:3000]


@pytest.mark.parametrize(("lang", "said"), [("en", f"bad month {HUGE}-01"), ("ja", f"{HUGE}-01 は指定できません")])
@pytest.mark.parametrize("verb", [["shifts", "--classroom", "本校"], ["export", "shifts"], ["confirm", "--classroom", "本校"],
                                  ["render", "--classroom", "本校", "--out", "month.png"]])
def test_a_month_of_a_twenty_digit_year_is_a_bad_month_in_every_verb(home: Path, lang: str, said: str,
                                                                     verb: list[str]) -> None:
    one_line(shiftcast(home, "--lang", lang, *verb, "--month", f"{HUGE}-01"), said)
