"""Why a need is left uncovered, in words the manager can act on.

For each uncovered (classroom, day, slot), every teacher who teaches that slot is sorted into the first
reason that keeps them off it: they answered ×, did not answer, answered only a window that leaves the
slot out, are on another shift then, are at a monthly limit, would work more days in a row or more weekend
days than allowed. Whoever is left could still take it (the search stopped before finding it).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.drafting.model import WEEKEND
from core.drafting.problem import Problem, Slot, Teacher, Window
from core.texts import Text, t

if TYPE_CHECKING:
    from core.drafting.solver import Result

# In the order they are told.
CODES = ("nobody_teaches", "all_on_it", "nobody_yes", "at_limit", "days_in_a_row", "weekend_days", "outside_window", "busy",
         "said_no", "no_answer", "could")


@dataclass(frozen=True)
class Reason:
    code: str  # one of CODES
    teachers: tuple[str, ...] = ()

    def text(self) -> Text:
        if self.teachers:
            return t(f"draft.reason.{self.code}", teachers=self.teachers, count=len(self.teachers))
        return t(f"draft.reason.{self.code}")


@dataclass
class _Month:
    """What one teacher has in the draft (fixed shifts included)."""

    shifts: int = 0
    minutes: int = 0
    days: set[dt.date] | None = None
    busy: list[tuple[dt.date, int, int, str]] | None = None


def _months(problem: Problem, result: Result) -> dict[str, _Month]:
    months = {teacher.id: _Month(days=set(), busy=[]) for teacher in problem.teachers}
    spans = [(f.teacher, f.day, f.start, f.end, f.classroom) for f in problem.locked]
    spans += [(s.teacher, s.day, s.start, s.end, s.classroom) for s in result.shifts]
    for teacher, day, start, end, classroom in spans:
        month = months.get(teacher)
        if month is None or month.days is None or month.busy is None:
            continue
        month.shifts += 1
        month.minutes += end - start
        month.days.add(day)
        month.busy.append((day, start, end, classroom))
    return months


def _run_with(days: set[dt.date], day: dt.date) -> int:
    """The days in a row that working `day` too would make."""
    length = 1
    for step in (-1, 1):
        other = day + dt.timedelta(days=step)
        while other in days:
            length += 1
            other += dt.timedelta(days=step)
    return length


def _why_not(problem: Problem, teacher: Teacher, month: _Month, day: dt.date, slot: Slot) -> str | None:
    """The first reason the teacher is not on this slot, or None when they are on it already."""
    answer = teacher.available.get(day)
    if answer == "no":
        return "said_no"
    if answer is None and problem.unanswered != "yes":
        return "no_answer"
    if isinstance(answer, Window) and not answer.holds(slot.start, slot.end):
        return "outside_window"
    assert month.busy is not None and month.days is not None
    for busy_day, start, end, classroom in month.busy:
        if busy_day == day and start < slot.end and slot.start < end:
            return None if classroom == slot.classroom and start <= slot.start and slot.end <= end else "busy"
    extends = any(busy_day == day and classroom == slot.classroom and (end == slot.start or slot.end == start)
                  for busy_day, start, end, classroom in month.busy)
    if (teacher.max_shifts is not None and month.shifts >= teacher.max_shifts and not extends) or (
            teacher.max_minutes is not None and month.minutes + slot.minutes > teacher.max_minutes):
        return "at_limit"
    if day not in month.days:
        if teacher.max_days_in_a_row is not None and _run_with(month.days, day) > teacher.max_days_in_a_row:
            return "days_in_a_row"
        if teacher.max_weekend_days is not None and day.weekday() in WEEKEND and sum(
                1 for d in month.days if d.weekday() in WEEKEND) >= teacher.max_weekend_days:
            return "weekend_days"
    return "could"


def explain(problem: Problem, result: Result) -> dict[tuple[str, dt.date, str], list[Reason]]:
    """Each uncovered need's reasons, most telling first."""
    months = _months(problem, result)
    slots = {(s.classroom, s.name): s for s in problem.slots}
    explained: dict[tuple[str, dt.date, str], list[Reason]] = {}
    for key in result.missing:
        classroom, day, name = key
        slot = slots[(classroom, name)]
        able = [teacher for teacher in problem.teachers if teacher.teaches(slot)]
        if not able:
            explained[key] = [Reason("nobody_teaches")]
            continue
        found: dict[str, list[str]] = defaultdict(list)
        for teacher in able:
            code = _why_not(problem, teacher, months[teacher.id], day, slot)
            if code is not None:
                found[code].append(teacher.id)
        reasons: list[Reason] = []
        nobody_yes = not any(isinstance(x.available.get(day), Window) or x.available.get(day) == "yes" for x in able)
        if nobody_yes:
            reasons.append(Reason("nobody_yes"))
        for code in CODES:
            # "Nobody answered ○" says it all for those who answered × or not at all.
            if code in found and not (nobody_yes and code in ("said_no", "no_answer")):
                reasons.append(Reason(code, tuple(found[code])))
        explained[key] = reasons or [Reason("all_on_it")]
    return explained
