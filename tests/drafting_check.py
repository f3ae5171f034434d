"""An independent reading of a draft against a problem's hard rules, and an exact optimum by brute force:
written from the rules in docs/drafting.md, sharing nothing with core/drafting/model.py."""

from __future__ import annotations

import datetime as dt
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator

from core.drafting.problem import Problem, Slot, Window
from core.drafting.solver import Shift


def broken_rules(problem: Problem, shifts: Iterable[Shift]) -> list[str]:
    """Every hard rule the draft breaks, in words (empty when it keeps them all)."""
    broken: list[str] = []
    teachers = {t.id: t for t in problem.teachers}
    mine = list(shifts)
    everything = mine + [Shift(f.teacher, f.classroom, f.day, f.start, f.end) for f in problem.locked]
    need: Counter[tuple[str, dt.date, str]] = Counter()
    for n in problem.needs:
        need[(n.classroom, n.day, n.slot)] += n.count
    held: Counter[tuple[str, dt.date, str]] = Counter()
    for shift in mine:
        teacher = teachers[shift.teacher]
        order = problem.slots_of(shift.classroom)
        inside = [i for i, s in enumerate(order) if shift.start <= s.start and s.end <= shift.end]
        if not inside or order[inside[0]].start != shift.start or order[inside[-1]].end != shift.end:
            broken.append(f"{shift} is not a run of whole slots")
            continue
        for i in inside:
            slot = order[i]
            held[(shift.classroom, shift.day, slot.name)] += 1
            answer = teacher.available.get(shift.day)
            if answer == "no" or (answer is None and problem.unanswered != "yes"):
                broken.append(f"{shift}: {teacher.id} is not available that day")
            if isinstance(answer, Window) and not answer.holds(slot.start, slot.end):
                broken.append(f"{shift}: {slot.name} is outside {teacher.id}'s window")
            if not teacher.teaches(slot):
                broken.append(f"{shift}: {teacher.id} does not teach {slot.name} in {slot.classroom!r}")
    for key, count in held.items():
        if count > need[key]:
            broken.append(f"{key}: {count} teachers for a need of {need[key]}")
    for teacher in problem.teachers:
        theirs = [s for s in everything if s.teacher == teacher.id]
        drafted_count = sum(1 for s in mine if s.teacher == teacher.id)  # they come first in `everything`
        for (i, a), (_, b) in itertools.combinations(enumerate(theirs), 2):
            # Only a drafted shift can break it: fixed ones are as the file gives them.
            if i < drafted_count and a.day == b.day and a.start < b.end and b.start < a.end:
                broken.append(f"{teacher.id} is in two places at once: {a} and {b}")
            if a.day == b.day and a.classroom == b.classroom and (a.end == b.start or b.end == a.start) and (
                    a in mine and b in mine):
                broken.append(f"{teacher.id} has two shifts that meet: {a} and {b}")
        # Fixed shifts may break a limit on their own (confirmed before it was set): then the draft adds nothing.
        drafted = [s for s in mine if s.teacher == teacher.id]
        if not drafted:
            continue
        if teacher.max_shifts is not None and len(theirs) > teacher.max_shifts:
            broken.append(f"{teacher.id}: {len(theirs)} shifts, more than {teacher.max_shifts}")
        minutes = sum(s.end - s.start for s in theirs)
        if teacher.max_minutes is not None and minutes > teacher.max_minutes:
            broken.append(f"{teacher.id}: {minutes} minutes, more than {teacher.max_minutes}")
        days = {s.day for s in theirs}
        # A drafted shift on a day a fixed one already takes adds no day worked.
        drafted_days = {s.day for s in drafted} - {f.day for f in problem.locked if f.teacher == teacher.id}
        weekend = sum(1 for d in days if d.weekday() >= 5)
        if teacher.max_weekend_days is not None and weekend > teacher.max_weekend_days and any(
                d.weekday() >= 5 for d in drafted_days):
            broken.append(f"{teacher.id}: {weekend} weekend days, more than {teacher.max_weekend_days}")
        if teacher.max_days_in_a_row is not None:
            for day in days:
                run = [day]
                while run[-1] + dt.timedelta(days=1) in days:
                    run.append(run[-1] + dt.timedelta(days=1))
                if len(run) > teacher.max_days_in_a_row and drafted_days & set(run):
                    broken.append(f"{teacher.id}: {len(run)} days in a row from {day}, more than "
                                  f"{teacher.max_days_in_a_row}")
    return broken


def _runs(classroom: str, day: dt.date, teacher: str, order: tuple[Slot, ...], chosen: tuple[int, ...]) -> list[Shift]:
    shifts, run = [], []
    for i in range(len(order) + 1):
        if i in chosen:
            run.append(order[i])
        elif run:
            shifts.append(Shift(teacher, classroom, day, run[0].start, run[-1].end))
            run = []
    return shifts


def _choices(problem: Problem, teacher: str, day: dt.date) -> Iterator[list[Shift]]:
    """Every set of shifts one teacher could have on one day in a one-classroom problem."""
    order = problem.slots_of("")
    for size in range(len(order) + 1):
        for chosen in itertools.combinations(range(len(order)), size):
            yield _runs("", day, teacher, order, chosen)


def best_coverage(problem: Problem) -> int:
    """The most teacher-slots any draft that keeps every hard rule covers: every draft tried."""
    need: Counter[tuple[str, dt.date, str]] = Counter()
    for n in problem.needs:
        need[(n.classroom, n.day, n.slot)] += n.count
    for fixed in problem.locked:
        for slot in problem.slots_of(fixed.classroom):
            key = (fixed.classroom, fixed.day, slot.name)
            if need[key] and fixed.start <= slot.start and slot.end <= fixed.end:
                need[key] -= 1
    cells = [(t.id, d) for t in problem.teachers for d in problem.days]
    best = 0
    for combination in itertools.product(*(list(_choices(problem, t, d)) for t, d in cells)):
        shifts = [s for day_shifts in combination for s in day_shifts]
        covered: Counter[tuple[str, dt.date, str]] = Counter()
        for shift in shifts:
            for slot in problem.slots_of(shift.classroom):
                if shift.start <= slot.start and slot.end <= shift.end:
                    covered[(shift.classroom, shift.day, slot.name)] += 1
        if any(covered[k] > need[k] for k in covered):
            continue
        total = sum(covered.values())
        if total > best and not broken_rules(problem, shifts):
            best = total
    return best
