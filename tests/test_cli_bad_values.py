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
