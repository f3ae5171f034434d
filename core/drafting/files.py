"""A draft month as a JSON file (docs/drafting.md), and a solution as JSON.

Reading checks every field and stops at the first that is wrong, naming it the way the file does
(`teachers[2].available["2027-01-05"]`), so support can fix a file from one line. Unknown fields are
refused too: a misspelt limit silently ignored would make a draft that breaks it.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from core.drafting.explain import Reason, explain
from core.drafting.problem import DayAnswer, Fixed, Need, Problem, Slot, Teacher, Window, clock, minutes
from core.drafting.solver import Result
from core.errors import ValidationError
from core.texts import Text, render, t
from core.texts.formats import Language

T = TypeVar("T")
TOP = {"slots", "days", "unanswered", "needs", "teachers", "locked", "time_limit"}
SLOT = {"name", "start", "end", "classroom"}
NEED = {"day", "slot", "count", "classroom"}
LOCKED = {"teacher", "day", "start", "end", "classroom"}
WISH = {"day", "slot", "classroom"}
LIMITS = ("max_shifts", "max_minutes", "min_minutes", "max_days_in_a_row", "max_weekend_days", "target_share")
TEACHER = {"id", "available", "classrooms", "slots", "wishes", *LIMITS}


class ProblemFileError(ValidationError):
    """A problem file that cannot be read: one line naming the field."""


def _bad(where: str, expected: str, **params: Any) -> ProblemFileError:
    return ProblemFileError(t("draft.file.bad", field=where, expected=t(f"draft.expect.{expected}", **params)))


def _get(value: Any, kind: type[T], where: str, expected: str) -> T:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _bad(where, expected)
    return value


def _fields(value: Any, where: str, known: set[str], required: set[str]) -> dict[str, Any]:
    found = _get(value, dict, where, "object")
    for key in found:
        if key not in known:
            raise _bad(f"{where}.{key}" if where else key, "known_field", fields=", ".join(sorted(known)))
    for key in sorted(required):
        if key not in found:
            raise _bad(f"{where}.{key}" if where else key, "present")
    return found


def _list(value: Any, where: str, item: Callable[[Any, str], T]) -> list[T]:
    return [item(entry, f"{where}[{i}]") for i, entry in enumerate(_get(value, list, where, "list"))]


def _day(value: Any, where: str) -> dt.date:
    text = _get(value, str, where, "date")
    try:
        return dt.date.fromisoformat(text) if len(text) == 10 else _raise(where, "date")
    except ValueError:
        raise _bad(where, "date") from None


def _raise(where: str, expected: str) -> dt.date:
    raise _bad(where, expected)


def _time(value: Any, where: str) -> int:
    try:
        return minutes(_get(value, str, where, "time"))
    except ValueError:
        raise _bad(where, "time") from None


def _count(value: Any, where: str) -> int:
    number = _get(value, int, where, "count")
    if number < 0:
        raise _bad(where, "count")
    return number


def _name(value: Any, where: str) -> str:
    text = _get(value, str, where, "text")
    if not text.strip():
        raise _bad(where, "text")
    return text


def _span(found: Mapping[str, Any], where: str) -> tuple[int, int]:
    start, end = _time(found["start"], f"{where}.start"), _time(found["end"], f"{where}.end")
    if end <= start:
        raise _bad(f"{where}.end", "after_start")
    return start, end


def read(text: str) -> Problem:
    """The problem a JSON file holds; ProblemFileError naming the first wrong field."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _bad(f"line {exc.lineno}", "json") from None
    top = _fields(data, "", TOP, {"slots", "days", "needs", "teachers"})
    slots = _list(top["slots"], "slots", _slot)
    names = {(s.classroom, s.name) for s in slots}
    for i, slot in enumerate(slots):
        if (slot.classroom, slot.name) in {(s.classroom, s.name) for s in slots[:i]}:
            raise _bad(f"slots[{i}].name", "unique")
    days = _list(top["days"], "days", _day)
    known_days = set(days)

    def known_day(value: Any, where: str) -> dt.date:
        day = _day(value, where)
        if day not in known_days:
            raise _bad(where, "listed_day")
        return day

    def known_slot(classroom: str, value: Any, where: str) -> str:
        name = _name(value, where)
        if (classroom, name) not in names:
            raise _bad(where, "listed_slot")
        return name

    def need(value: Any, where: str) -> Need:
        found = _fields(value, where, NEED, {"day", "slot", "count"})
        classroom = _classroom(found, where)
        return Need(classroom, known_day(found["day"], f"{where}.day"),
                    known_slot(classroom, found["slot"], f"{where}.slot"), _count(found["count"], f"{where}.count"))

    def teacher(value: Any, where: str) -> Teacher:
        found = _fields(value, where, TEACHER, {"id"})
        limits = {key: _count(found[key], f"{where}.{key}") if found.get(key) is not None else None for key in LIMITS}
        available: dict[dt.date, DayAnswer] = {}
        answers = _get(found.get("available", {}), dict, f"{where}.available", "object")
        for key, answer in answers.items():
            place = f'{where}.available["{key}"]'
            # Answers for days outside the month are allowed (a whole answer sheet pasted in) and unused.
            available[_day(key, place)] = _answer(answer, place)
        wishes = frozenset(_list(found.get("wishes", []), f"{where}.wishes", wish))
        classrooms = found.get("classrooms")
        slot_names = found.get("slots")
        return Teacher(_name(found["id"], f"{where}.id"), available, classrooms=None if classrooms is None else
                       frozenset(_list(classrooms, f"{where}.classrooms", _any_text)),
                       slots=None if slot_names is None else frozenset(_list(slot_names, f"{where}.slots", _name)),
                       wishes=wishes, **limits)

    def wish(value: Any, where: str) -> tuple[str, dt.date, str]:
        found = _fields(value, where, WISH, {"day", "slot"})
        classroom = _classroom(found, where)
        return classroom, known_day(found["day"], f"{where}.day"), known_slot(classroom, found["slot"], f"{where}.slot")

    needs = _list(top["needs"], "needs", need)
    teachers = _list(top["teachers"], "teachers", teacher)
    ids = [x.id for x in teachers]
    for i, teacher_id in enumerate(ids):
        if teacher_id in ids[:i]:
            raise _bad(f"teachers[{i}].id", "unique")

    def fixed(value: Any, where: str) -> Fixed:
        found = _fields(value, where, LOCKED, {"teacher", "day", "start", "end"})
        who = _name(found["teacher"], f"{where}.teacher")
        if who not in ids:
            raise _bad(f"{where}.teacher", "listed_teacher")
        start, end = _span(found, where)
        return Fixed(who, _day(found["day"], f"{where}.day"), start, end, _classroom(found, where))

    locked = _list(top.get("locked", []), "locked", fixed)
    unanswered = top.get("unanswered", "no")
    if unanswered not in ("no", "yes"):
        raise _bad("unanswered", "policy")
    limit = top.get("time_limit", 10)
    if isinstance(limit, bool) or not isinstance(limit, int | float) or not 0 < limit <= 3600:
        raise _bad("time_limit", "seconds")
    return Problem(tuple(slots), tuple(days), tuple(needs), tuple(teachers), tuple(locked), unanswered, float(limit))


def _any_text(value: Any, where: str) -> str:
    return _get(value, str, where, "text")


def _classroom(found: Mapping[str, Any], where: str) -> str:
    return _any_text(found.get("classroom", ""), f"{where}.classroom")


def _slot(value: Any, where: str) -> Slot:
    found = _fields(value, where, SLOT, {"name", "start", "end"})
    start, end = _span(found, where)
    return Slot(_name(found["name"], f"{where}.name"), start, end, _classroom(found, where))


def _answer(value: Any, where: str) -> DayAnswer:
    if value in ("yes", "no"):
        return "yes" if value == "yes" else "no"
    if isinstance(value, dict) and set(value) == {"from", "to"}:
        start, end = _time(value["from"], f"{where}.from"), _time(value["to"], f"{where}.to")
        if end <= start:
            raise _bad(f"{where}.to", "after_start")
        return Window(start, end)
    raise _bad(where, "answer")


def solution(result: Result, problem: Problem, lang: Language) -> dict[str, Any]:
    """The solution as JSON: shifts, what is left uncovered and why (in `lang`), how sure it is."""
    several = len(problem.classrooms()) > 1 or any(s.classroom for s in problem.slots)

    def room(classroom: str) -> dict[str, str]:
        return {"classroom": classroom} if several else {}

    reasons = explain(problem, result)
    return {
        "status": result.status,
        "shifts": [{"teacher": s.teacher, **room(s.classroom), "day": s.day.isoformat(), "start": clock(s.start),
                    "end": clock(s.end)} for s in result.shifts],
        "uncovered": [{"day": day.isoformat(), "slot": slot, **room(classroom), "missing": missing,
                       "why": render(_why(reasons[(classroom, day, slot)]), lang),
                       "reasons": [_reason_json(r) for r in reasons[(classroom, day, slot)]]}
                      for (classroom, day, slot), missing in sorted(result.missing.items(),
                                                                    key=lambda item: (item[0][1], item[0][0]))],
        "uncovered_total": result.uncovered,
        "bound": result.bound,
        "gap": round(result.gap, 4),
        "seconds": round(result.seconds, 2),
    }


def _why(reasons: list[Reason]) -> Text:
    return t("text.plain", text="") if not reasons else t("draft.why", parts=tuple(r.text() for r in reasons))


def _reason_json(reason: Reason) -> dict[str, Any]:
    return {"reason": reason.code, "teachers": list(reason.teachers)}
