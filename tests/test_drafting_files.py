"""A draft month as a JSON file (core/drafting/files.py): the issue's example read as written, the
optional fields, the solution written back, one line naming the field for every kind of mistake, and
`shiftcast draft --problem` end to end."""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from core.drafting import files
from core.drafting.problem import Fixed, Need, Slot, Window
from core.drafting.solver import solve
from core.texts import render
from tests.test_cli_language import shiftcast

EXAMPLE = """{"slots": [{"name": "1限", "start": "16:50", "end": "18:10"}],
 "days": ["2027-01-04"],
 "unanswered": "no",
 "needs": [{"day": "2027-01-04", "slot": "1限", "count": 2}],
 "teachers": [{"id": "t1", "max_shifts": 8, "max_minutes": 2400, "max_days_in_a_row": 3,
               "available": {"2027-01-04": "yes", "2027-01-05": "no",
                             "2027-01-06": {"from": "17:00", "to": "21:00"}}}],
 "locked": [{"teacher": "t1", "day": "2027-01-04", "start": "16:50", "end": "18:10"}]}"""

MONDAY = dt.date(2027, 1, 4)

FULL: dict[str, Any] = {
    "slots": [{"name": "1限", "start": "16:50", "end": "18:10", "classroom": "本校"},
              {"name": "2限", "start": "18:20", "end": "19:40", "classroom": "本校"},
              {"name": "1限", "start": "17:00", "end": "18:20", "classroom": "駅前"}],
    "days": ["2027-01-04", "2027-01-05"],
    "unanswered": "yes",
    "time_limit": 20,
    "needs": [{"classroom": "本校", "day": "2027-01-04", "slot": "1限", "count": 1},
              {"classroom": "本校", "day": "2027-01-04", "slot": "2限", "count": 1},
              {"classroom": "駅前", "day": "2027-01-05", "slot": "1限", "count": 3}],
    "teachers": [
        {"id": "佐藤", "max_shifts": 4, "max_minutes": 600, "min_minutes": 60, "max_days_in_a_row": 2,
         "max_weekend_days": 1, "target_share": 2, "classrooms": ["本校"], "slots": ["1限", "2限"],
         "available": {"2027-01-04": "yes", "2027-01-05": {"from": "17:00", "to": "21:00"}},
         "wishes": [{"classroom": "本校", "day": "2027-01-04", "slot": "1限"}]},
        {"id": "Ben", "classrooms": ["本校", "駅前"], "available": {"2027-01-05": "yes"}}],
    "locked": [{"teacher": "Ben", "classroom": "駅前", "day": "2027-01-05", "start": "17:00", "end": "18:20"}],
}


def test_the_issue_example_is_read_as_written() -> None:
    problem = files.read(EXAMPLE)
    assert problem.slots == (Slot("1限", 16 * 60 + 50, 18 * 60 + 10),)
    assert problem.days == (MONDAY,) and problem.unanswered == "no"
    assert problem.needs == (Need("", MONDAY, "1限", 2),)
    [teacher] = problem.teachers
    assert (teacher.id, teacher.max_shifts, teacher.max_minutes, teacher.max_days_in_a_row) == ("t1", 8, 2400, 3)
    assert teacher.available == {MONDAY: "yes", dt.date(2027, 1, 5): "no", dt.date(2027, 1, 6): Window(1020, 1260)}
    assert problem.locked == (Fixed("t1", MONDAY, 1010, 1090),)


def test_every_optional_field_is_read() -> None:
    problem = files.read(json.dumps(FULL))
    assert problem.classrooms() == ("本校", "駅前") and problem.time_limit_seconds == 20
    sato = problem.teachers[0]
    assert (sato.min_minutes, sato.max_weekend_days, sato.target_share) == (60, 1, 2)
    assert sato.classrooms == frozenset({"本校"}) and sato.slots == frozenset({"1限", "2限"})
    assert sato.wishes == frozenset({("本校", MONDAY, "1限")})
    assert problem.locked == (Fixed("Ben", dt.date(2027, 1, 5), 1020, 1100, "駅前"),)


def test_the_solution_is_written_as_json_with_every_gap_explained() -> None:
    problem = files.read(json.dumps(FULL))
    solution = files.solution(solve(problem), problem, "en")
    assert json.loads(json.dumps(solution, ensure_ascii=False)) == solution
    assert solution["status"] == "optimal" and solution["gap"] == 0
    # 佐藤 takes both of 本校's slots on Monday as one shift; Ben's confirmed shift is one of 駅前's three,
    # and only Ben teaches there.
    assert solution["shifts"] == [{"teacher": "佐藤", "classroom": "本校", "day": "2027-01-04", "start": "16:50",
                                   "end": "19:40"}]
    assert solution["uncovered"] == [{"day": "2027-01-05", "slot": "1限", "classroom": "駅前", "missing": 2,
                                      "why": "everyone who can teach it is on it already",
                                      "reasons": [{"reason": "all_on_it", "teachers": []}]}]
    assert solution["uncovered_total"] == solution["bound"] == 2
    japanese = files.solution(solve(problem), problem, "ja")
    assert japanese["uncovered"][0]["why"] == "担当できる講師は全員すでに入っています。"


def test_one_classroom_leaves_the_classroom_out_of_the_solution() -> None:
    problem = files.read(EXAMPLE)
    solution = files.solution(solve(problem), problem, "en")
    assert solution == {"status": "optimal", "shifts": [], "uncovered": [
        {"day": "2027-01-04", "slot": "1限", "missing": 1, "why": "everyone who can teach it is on it already",
         "reasons": [{"reason": "all_on_it", "teachers": []}]}], "uncovered_total": 1, "bound": 1, "gap": 0.0,
        "seconds": solution["seconds"]}


def _changed(path: tuple[Any, ...], value: Any) -> str:
    data = json.loads(EXAMPLE)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return json.dumps(data)


BAD = [
    ("not json", "{", 'line 1: expected JSON (the file cannot be read as JSON here)'),
    ("top is a list", "[]", ': expected a JSON object'),
    (("slots",), KeyError, "slots: expected a value (it is missing)"),
    (("slots",), {}, "slots: expected a JSON list"),
    (("slots", 0, "start"), "4:50pm", "slots[0].start: expected a time such as \"16:50\""),
    (("slots", 0, "end"), "16:00", "slots[0].end: expected a time after the start"),
    (("slots", 0, "name"), " ", "slots[0].name: expected a name (text)"),
    (("slots", 0, "colour"), "red", "slots[0].colour: expected one of classroom, end, name, start (this field is "
                                    "unknown)"),
    (("days", 0), "2027-1-4", "days[0]: expected a date such as \"2027-01-04\""),
    (("unanswered",), "maybe", "unanswered: expected \"no\" or \"yes\""),
    (("needs", 0, "count"), -1, "needs[0].count: expected a whole number, 0 or more"),
    (("needs", 0, "count"), True, "needs[0].count: expected a whole number, 0 or more"),
    (("needs", 0, "day"), "2027-01-05", "needs[0].day: expected one of the days in \"days\""),
    (("needs", 0, "slot"), "9限", "needs[0].slot: expected one of the slots in \"slots\" (of the same classroom)"),
    (("teachers", 0, "max_minutes"), 1.5, "teachers[0].max_minutes: expected a whole number, 0 or more"),
    (("teachers", 0, "available", "2027-01-05"), "maybe",
     "teachers[0].available[\"2027-01-05\"]: expected \"yes\", \"no\" or a time window with \"from\" and \"to\""),
    (("teachers", 0, "available", "2027-01-06", "to"), "16:00",
     "teachers[0].available[\"2027-01-06\"].to: expected a time after the start"),
    (("teachers", 0, "classrooms"), "本校", "teachers[0].classrooms: expected a JSON list"),
    (("locked", 0, "teacher"), "t9", "locked[0].teacher: expected one of the teachers' ids"),
    (("time_limit",), 0, "time_limit: expected seconds, more than 0 and at most 3600"),
]


@pytest.mark.parametrize(("where", "value", "line"), BAD, ids=[b[2].split(":")[0] or "top" for b in BAD])
def test_a_bad_file_gets_one_line_naming_the_field(where: Any, value: Any, line: str) -> None:
    text = value if where in ("not json", "top is a list") else _changed(where, value)
    with pytest.raises(files.ProblemFileError) as caught:
        files.read(text)
    assert render(caught.value.text, "en") == line
    japanese = render(caught.value.text, "ja")
    assert japanese.startswith("項目 " + line.split(":")[0]) and "\n" not in japanese


def test_a_teacher_named_twice_is_refused() -> None:
    data = copy.deepcopy(FULL)
    data["teachers"][1]["id"] = "佐藤"
    with pytest.raises(files.ProblemFileError) as caught:
        files.read(json.dumps(data))
    assert str(caught.value) == "teachers[1].id: expected a name used once only"


@pytest.mark.slow  # starts real processes
def test_the_command_prints_the_solution_and_refuses_a_bad_file(tmp_path: Path) -> None:
    problem = tmp_path / "month.json"
    problem.write_text(json.dumps(FULL, ensure_ascii=False), encoding="utf-8")
    done = shiftcast(tmp_path / "home", "draft", "--problem", str(problem), "--json")
    assert done.returncode == 0, done.stderr
    solution = json.loads(done.stdout)  # nothing but the JSON on standard output
    assert solution["status"] == "optimal" and solution["uncovered_total"] == 2
    assert not (tmp_path / "home" / "shiftcast.db").exists()  # a problem file needs no database
    done = shiftcast(tmp_path / "home", "draft", "--problem", str(problem), "--lang", "en")
    assert done.stdout.splitlines() == [
        "1 shift drafted, 2 teacher-slots left uncovered (proven best)",
        "2027-01-04 16:50–19:40 佐藤 本校",
        "2027-01-05 駅前 1限: 2 teachers missing: everyone who can teach it is on it already"]
    problem.write_text(_changed(("teachers", 0, "available", "2027-01-05"), "maybe"), encoding="utf-8")
    done = shiftcast(tmp_path / "home", "draft", "--problem", str(problem), "--json", "--lang", "en")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ('shiftcast: month.json: teachers[0].available["2027-01-05"]: expected "yes", "no" or a '
                           'time window with "from" and "to"\n')


def test_the_draft_help_is_in_japanese_headings_included() -> None:
    from cli import commands, words

    with words.argparse_in("ja"):
        words.settle("ja", None)
        try:
            [sub] = [a for a in commands.build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
            shown = sub.choices["draft"].format_help()
        finally:
            words.settle("en", None)
    assert "下書きする対象:" in shown and "出力:" in shown and "what to draft" not in shown
