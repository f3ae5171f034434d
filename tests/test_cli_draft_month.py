"""`shiftcast draft --classroom NAME --month YYYY-MM`: the month drafted from the database and printed per teacher
with the uncovered needs and why; --json the same as JSON; --apply writes it as drafts (runs of slots as one
shift), replacing the month's drafts or keeping them; bad input told in one line with nothing written."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from sqlalchemy import select

from tests.test_cli_language import shiftcast

pytestmark = pytest.mark.slow  # every test here starts real processes

D, T = dt.date, dt.time


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """January 2027 at 本校: 1限 and 2限 need one teacher each on Mondays; 佐藤 answered ○ on the 4th and the
    18th, × on the 11th (成人の日 anyway), and has a Monday draft at 10:00 the draft replaces."""
    from core.roster import availability, lesson_slots, membership, needs, rules
    from core.roster.availability_text import DayAnswer
    from core.store.bootstrap import open_database
    from core.store.paths import DataPaths

    home = tmp_path / "home"
    assert shiftcast(home, "add-classroom", "本校").returncode == 0
    db = open_database(DataPaths(home))
    at = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    with db.write() as s:
        room = rules.classroom_by_name(s, "本校").id
        lesson_slots.set_slots(s, room, [lesson_slots.LessonSlot("1限", T(16, 50), T(18, 10)),
                                         lesson_slots.LessonSlot("2限", T(18, 20), T(19, 40))])
        for slot in ("1限", "2限"):
            needs.set_need(s, room, needs.Need(slot, 1, weekday=0))
        sato = rules.create_teacher(s, name="佐藤")
        membership.join(s, room, sato.id, now=at)
        request = availability.ask(s, room, 2027, 1, D(2026, 12, 20), [sato.id], now=at)
        availability.record(s, request, sato.id, [DayAnswer(D(2027, 1, 4), "yes"), DayAnswer(D(2027, 1, 18), "yes"),
                                                  DayAnswer(D(2027, 1, 11), "no")], source="text", at=at)
        rules.add_shift(s, rules.ShiftDraft(classroom_id=room, teacher_id=sato.id, local_date=D(2027, 1, 25),
                                            start_time=T(10), end_time=T(12)), now=at)
    db.dispose()
    return home


def _drafts(home: Path) -> list[tuple[dt.date, dt.time, dt.time]]:
    from core.store.bootstrap import open_database
    from core.store.models import Shift
    from core.store.paths import DataPaths

    db = open_database(DataPaths(home))
    with db.read() as s:
        found = [(r.local_date, r.start_time, r.end_time) for r in s.scalars(select(Shift).order_by(Shift.local_date))]
    db.dispose()
    return found


def test_a_month_drafted_printed_then_applied(home: Path) -> None:
    shown = shiftcast(home, "draft", "--classroom", "本校", "--month", "2027-01", "--lang", "en")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == "2 shifts drafted, 2 teacher-slots left uncovered (proven best)"
    assert lines[1] == "佐藤: 2 shifts"
    assert lines[2].endswith("16:50–19:40 (new)") and "4 Jan 2027" in lines[2]
    assert lines[4] == "against the current drafts: 2 added, 1 removed, 0 unchanged"
    assert any(line.startswith("Mon 25 Jan 2027 1限: 1 teacher missing: ") for line in lines[5:])
    assert _drafts(home)[0][0] == D(2027, 1, 25)  # printing writes nothing

    as_json = shiftcast(home, "draft", "--classroom", "本校", "--month", "2027-01", "--json", "--apply")
    assert as_json.returncode == 0, as_json.stderr
    solution = json.loads(as_json.stdout)
    assert solution["status"] == "optimal" and solution["applied"] is True and solution["uncovered_total"] == 2
    assert [(s["day"], s["start"], s["end"], s["new"]) for s in solution["shifts"]] == [
        ("2027-01-04", "16:50", "19:40", True), ("2027-01-18", "16:50", "19:40", True)]
    assert [s["day"] for s in solution["removed"]] == ["2027-01-25"]
    assert _drafts(home) == [(D(2027, 1, 4), T(16, 50), T(19, 40)), (D(2027, 1, 18), T(16, 50), T(19, 40))]


def test_kept_drafts_stay_and_japanese_is_spoken(home: Path) -> None:
    done = shiftcast(home, "draft", "--classroom", "本校", "--month", "2027-01", "--keep-drafts", "--apply",
                     "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert "今ある下書きとの違い：追加 2件、削除 0件、変更なし 1件" in done.stdout
    assert len(_drafts(home)) == 3


def test_bad_input_is_one_line_and_writes_nothing(home: Path) -> None:
    for argv in (["--month", "2027-01"], ["--classroom", "本校", "--month", "2027-13"],
                 ["--classroom", "無い校", "--month", "2027-01"], ["--problem", "x.json", "--classroom", "本校"]):
        done = shiftcast(home, "draft", *argv, "--apply", "--lang", "en")
        assert done.returncode != 0 and len(done.stderr.strip().splitlines()) == 1, (argv, done.stderr)
        assert "Traceback" not in done.stderr
    assert _drafts(home) == [(D(2027, 1, 25), T(10), T(12))]
