"""A roster's month as the solver's problem, and the solver's answer as the roster's draft shifts.

Classrooms and teachers are named in the problem by their ids (the problem's names are text); the lesson
slots by their names within their classroom. A day answered with hours open at one end counts from the
start or to the end of the day. What comes back is the proposal in the roster's own terms (one shift per run
of slots, as the solver places them) and each uncovered need with its reasons in words, the teachers named.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable

from core.drafting import explain, problem, solver
from core.planning.draft_month import Answer, DraftMonth
from core.planning.drafted import Act, Gap, MonthDraft, Step
from core.roster import rules
from core.texts import Text, t

DAY = 24 * 60
# Reasons a teacher's limits give: raising them is what the manager can do.
LIMIT_REASONS = frozenset({"at_limit", "days_in_a_row", "weekend_days"})


def _minutes(time: dt.time, next_day: bool = False) -> int:
    return time.hour * 60 + time.minute + (DAY if next_day else 0)


def _time(minutes: int) -> tuple[dt.time, bool]:
    return dt.time(minutes % DAY // 60, minutes % 60), minutes >= DAY


def _answer(answer: Answer) -> problem.DayAnswer:
    if isinstance(answer, tuple):
        start, end = answer
        return problem.Window(0 if start is None else _minutes(start), DAY if end is None else _minutes(end))
    return "yes" if answer == "yes" else "no"


def to_problem(month: DraftMonth, *, seconds: float = 30.0) -> problem.Problem:
    slots = tuple(problem.Slot(slot.name, _minutes(slot.start_time), _minutes(slot.end_time), str(room.classroom_id))
                  for room in month.rooms for slot in room.slots)
    days = tuple(sorted({day for room in month.rooms for day in room.days}))
    needs = tuple(problem.Need(str(room.classroom_id), day, name, count)
                  for room in month.rooms for (day, name), count in sorted(room.needs.items())
                  if count > 0 and day in room.days)
    teachers = tuple(problem.Teacher(
        str(teacher.teacher_id), {day: _answer(a) for day, a in teacher.answers.items()},
        max_shifts=teacher.limits.max_shifts, max_minutes=teacher.limits.max_minutes,
        min_minutes=teacher.limits.min_minutes, max_days_in_a_row=teacher.limits.max_days_in_a_row,
        max_weekend_days=teacher.limits.max_weekend_days, target_share=teacher.limits.target_share,
        classrooms=frozenset(str(c) for c in teacher.classroom_ids),
        slots=None if teacher.slots is None else frozenset(name for _, name in teacher.slots),
        wishes=frozenset((str(c), day, name) for c, day, name in teacher.wishes)) for teacher in month.teachers)
    locked = tuple(problem.Fixed(str(p.teacher_id), p.day, _minutes(p.start), _minutes(p.end, p.ends_next_day),
                                 str(p.classroom_id)) for p in month.placed)
    unanswered: problem.Unanswered = "yes" if month.unanswered == "yes" else "no"
    return problem.Problem(slots, days, needs, teachers, locked, unanswered, seconds)


def proposed(result: solver.Result) -> tuple[rules.ShiftDraft, ...]:
    found = []
    for shift in result.shifts:
        (start, _), (end, next_day) = _time(shift.start), _time(shift.end)
        found.append(rules.ShiftDraft(classroom_id=int(shift.classroom), teacher_id=int(shift.teacher),
                                      local_date=shift.day, start_time=start, end_time=end, ends_next_day=next_day))
    return tuple(found)


def gaps(month: DraftMonth, wanted: problem.Problem, result: solver.Result) -> tuple[Gap, ...]:
    """Each uncovered need, its most telling reason in words with the teachers named, and what to do."""
    names = {str(teacher.teacher_id): teacher.name for teacher in month.teachers}
    reasons = explain.explain(wanted, result)
    found = []
    for key, missing in sorted(result.missing.items(), key=lambda item: (item[0][1], item[0][0], item[0][2])):
        classroom, day, slot = key
        told = reasons.get(key, [])
        why = t("drafting.reasons", reasons=tuple(_words(r, names) for r in told)) if told \
            else t("draft.reason.all_on_it")
        limited = next((r for r in told if r.code in LIMIT_REASONS), None)
        act, who = (Act.LIMITS, tuple(int(i) for i in limited.teachers)) if limited else (Act.AVAILABILITY, ())
        found.append(Gap(int(classroom), day, slot, missing, why, act, who))
    return tuple(found)


def _words(reason: explain.Reason, names: dict[str, str]) -> Text:
    if reason.teachers:
        return t(f"draft.reason.{reason.code}", teachers=tuple(names.get(i, i) for i in reason.teachers),
                 count=len(reason.teachers))
    return t(f"draft.reason.{reason.code}")


def draft(month: DraftMonth, seconds: float, progress: Callable[[Step], None], stopper: solver.Stopper) -> MonthDraft:
    """Solve the month within `seconds` (or until stopped: the best found then); progress is told on this thread."""
    def heard(step: solver.Progress) -> None:
        coverage = step.stage == solver.STAGES[0]
        known = coverage and math.isfinite(step.bound)  # no bound proven yet: -inf
        progress(Step(round(step.objective) if coverage and math.isfinite(step.objective) else None,
                      max(math.ceil(step.bound - 1e-6), 0) if known else None, step.seconds))

    wanted = to_problem(month, seconds=seconds)
    result = solver.solve(wanted, progress=heard, stopper=stopper, time_limit=seconds)
    gap = None if result.status == "infeasible" else result.gap
    return MonthDraft(result.status, gap, proposed(result), gaps(month, wanted, result), stopper.stopped)
