"""The draft month as a 0-1 linear model, written once and handed to a solver library.

Variables: `x` (teacher, classroom, day, slot) for each place a teacher may be put; `b` marks the slot
where a block of consecutive slots starts (a block is one shift); `w` a day worked; `short` the minutes a
teacher stays under their promised minimum. Every hard rule is a linear row, so the same model runs on
HiGHS (core/drafting/solver.py) and on CP-SAT (the benchmark's comparison).

Only places a teacher may legally take get an `x`: × days, time windows, the slots and classrooms they
teach and their fixed shifts' times are settled here, before any solver sees the model.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from core.drafting.problem import Fixed, Problem, Slot, Teacher, Window

Term = tuple[int, int]  # (variable index, coefficient)
WEEKEND = (5, 6)


@dataclass(frozen=True)
class Place:
    """One shift a teacher may be given: a run of consecutive slots of one classroom on one day."""

    teacher: str
    classroom: str
    day: dt.date
    slots: tuple[Slot, ...]
    # How much the teacher wants it, summed over its slots: per slot 0 an answered ○ that a weekly
    # pattern also asks for, 1 answered ○ (or a window), 2 unanswered-as-yes that a pattern asks for,
    # 3 unanswered-as-yes only.
    wish_cost: int

    @property
    def start(self) -> int:
        return self.slots[0].start

    @property
    def end(self) -> int:
        return self.slots[-1].end

    @property
    def minutes(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class Row:
    terms: tuple[Term, ...]
    low: int | None
    high: int | None


@dataclass
class Model:
    upper: list[int] = field(default_factory=list)  # each variable's upper bound (lower is 0)
    continuous: set[int] = field(default_factory=set)
    rows: list[Row] = field(default_factory=list)
    # Only the fairness stage needs these: the stages before it solve faster without them.
    fairness_rows: list[Row] = field(default_factory=list)
    places: list[Place] = field(default_factory=list)  # x's index is its place's index
    x: list[int] = field(default_factory=list)
    # Objectives in the order they matter; each minimised.
    uncovered: list[Term] = field(default_factory=list)  # minus covered teacher-slots (+ the total need)
    shortfall: list[Term] = field(default_factory=list)
    wishes: list[Term] = field(default_factory=list)
    fairness: list[Term] = field(default_factory=list)
    shape: list[Term] = field(default_factory=list)  # blocks and days: fewer, longer shifts
    total_need: int = 0

    def var(self, upper: int = 1, *, whole: bool = True) -> int:
        """A new variable in [0, upper]; `whole=False` for one that others determine (loads, deviations)."""
        self.upper.append(upper)
        if not whole:
            self.continuous.add(len(self.upper) - 1)
        return len(self.upper) - 1

    def row(self, terms: list[Term], low: int | None = None, high: int | None = None) -> None:
        merged: dict[int, int] = defaultdict(int)  # one term per variable: MIP solvers refuse repeats
        for variable, coefficient in terms:
            merged[variable] += coefficient
        if merged:
            self.rows.append(Row(tuple((v, c) for v, c in merged.items() if c), low, high))


def fixed_of(problem: Problem, teacher: str) -> list[Fixed]:
    return [f for f in problem.locked if f.teacher == teacher]


def day_needs(problem: Problem) -> dict[tuple[str, dt.date, str], int]:
    """Teachers still needed per (classroom, day, slot): the needs less the fixed shifts that hold the slot."""
    needs: dict[tuple[str, dt.date, str], int] = defaultdict(int)
    days = set(problem.days)
    for need in problem.needs:
        if need.day in days:
            needs[(need.classroom, need.day, need.slot)] += need.count
    for fixed in problem.locked:
        for slot in problem.slots_of(fixed.classroom):
            key = (fixed.classroom, fixed.day, slot.name)
            if needs.get(key) and fixed.start <= slot.start and slot.end <= fixed.end:
                needs[key] -= 1
    return needs


def allowed(problem: Problem, teacher: Teacher, day: dt.date, slot: Slot) -> int | None:
    """The wish cost of putting the teacher on this slot, or None when a hard rule forbids it."""
    if not teacher.teaches(slot):
        return None
    answer = teacher.available.get(day)
    if answer is None:
        if problem.unanswered != "yes":
            return None
        base = 2
    elif answer == "no":
        return None
    else:
        if isinstance(answer, Window) and not answer.holds(slot.start, slot.end):
            return None
        base = 0
    for fixed in fixed_of(problem, teacher.id):
        if fixed.day == day and fixed.start < slot.end and slot.start < fixed.end:
            return None
    return base + (0 if (slot.classroom, day, slot.name) in teacher.wishes else 1)


def build(problem: Problem) -> Model:
    model = Model()
    needs = day_needs(problem)
    model.total_need = sum(needs.values())
    covering: dict[tuple[str, dt.date, str], list[Term]] = defaultdict(list)
    shares = {t.id: max(t.target_share if t.target_share is not None else 1, 0) for t in problem.teachers}
    loads: dict[str, list[Term]] = {}
    load_constants: dict[str, int] = {}
    for teacher in problem.teachers:
        fixed = fixed_of(problem, teacher.id)
        fixed_minutes = sum(f.end - f.start for f in fixed)
        fixed_days = {f.day for f in fixed}
        shifts: list[Term] = []
        minutes: list[Term] = []
        by_day: dict[dt.date, list[int]] = defaultdict(list)
        on_day: dict[dt.date, list[tuple[int, Place]]] = defaultdict(list)
        for day in problem.days:
            for classroom in problem.classrooms():
                order = problem.slots_of(classroom)
                costs = [allowed(problem, teacher, day, slot) if needs.get((classroom, day, slot.name)) else None
                         for slot in order]
                touching: dict[int, list[Term]] = defaultdict(list)  # slot index → shifts holding it or the next
                for first in range(len(order)):
                    for last in range(first, len(order)):
                        cost = costs[last]
                        if cost is None:
                            break
                        x = model.var()
                        place = Place(teacher.id, classroom, day, order[first:last + 1],
                                      sum(c for c in costs[first:last + 1] if c is not None))
                        model.x.append(x)
                        model.places.append(place)
                        for slot in place.slots:
                            covering[(classroom, day, slot.name)].append((x, 1))
                        model.uncovered.append((x, -len(place.slots)))
                        model.wishes.append((x, place.wish_cost))
                        minutes.append((x, place.minutes))
                        shifts.append((x, 1))
                        by_day[day].append(x)
                        on_day[day].append((x, place))
                        for k in range(max(first - 1, 0), last + 1):
                            touching[k].append((x, 1))
                # Shifts never overlap, and never meet end to start: two runs that meet are one shift.
                for held in touching.values():
                    if len(held) > 1:
                        model.row(held, high=1)
        # Never in two places at once: at each start time, at most one shift that holds it.
        for placed in on_day.values():
            if len({place.classroom for _, place in placed}) > 1:
                for start in sorted({place.start for _, place in placed}):
                    at = [(x, place) for x, place in placed if place.start <= start < place.end]
                    if len({place.classroom for _, place in at}) > 1:
                        model.row([(x, 1) for x, _ in at], high=1)
        worked: dict[dt.date, int] = {}
        for day, xs in by_day.items():
            if day in fixed_days:
                continue
            w = model.var()
            worked[day] = w
            for x in xs:
                model.row([(w, 1), (x, -1)], low=0)
            model.row([(w, 1)] + [(x, -1) for x in xs], high=0)
        model.shape += shifts + [(w, 1) for w in worked.values()]
        if teacher.max_shifts is not None:
            model.row(shifts, high=max(teacher.max_shifts - len(fixed), 0))
        if teacher.max_minutes is not None:
            model.row(minutes, high=max(teacher.max_minutes - fixed_minutes, 0))
        if teacher.min_minutes is not None and teacher.min_minutes > fixed_minutes and minutes:
            short = model.var(teacher.min_minutes - fixed_minutes, whole=False)
            model.row(minutes + [(short, 1)], low=teacher.min_minutes - fixed_minutes)
            model.shortfall.append((short, 1))
        if teacher.max_weekend_days is not None:
            weekend = [(w, 1) for day, w in worked.items() if day.weekday() in WEEKEND]
            taken = sum(1 for day in fixed_days if day.weekday() in WEEKEND)
            model.row(weekend, high=max(teacher.max_weekend_days - taken, 0))
        if teacher.max_days_in_a_row is not None and worked:
            _days_in_a_row(model, teacher.max_days_in_a_row, worked, fixed_days)
        if minutes or fixed_minutes:
            loads[teacher.id] = minutes
            load_constants[teacher.id] = fixed_minutes
    for key, terms in covering.items():
        model.row(terms, high=needs[key])
    _fairness(model, loads, load_constants, shares)
    return model


def _days_in_a_row(model: Model, most: int, worked: dict[dt.date, int], fixed_days: set[dt.date]) -> None:
    """Any most+1 calendar days in a row hold at most `most` days worked (fixed shifts' days included)."""
    every = sorted(set(worked) | fixed_days)
    first, last = every[0], every[-1]
    start = first - dt.timedelta(days=most)
    while start <= last:
        window = [start + dt.timedelta(days=k) for k in range(most + 1)]
        terms = [(worked[d], 1) for d in window if d in worked]
        taken = sum(1 for d in window if d in fixed_days)
        if terms and len(terms) + taken > most:
            model.row(terms, high=max(most - taken, 0))
        start += dt.timedelta(days=1)


def _fairness(model: Model, loads: dict[str, list[Term]], constants: dict[str, int], shares: dict[str, int]) -> None:
    """Each teacher's minutes against their share of everyone's: |S·load − share·total|, summed. Loads
    and the total are variables of their own, which keeps every row short."""
    total_share = sum(shares[t] for t in loads)
    if total_share <= 0 or len(loads) < 2:
        return
    most = sum(c for terms in loads.values() for _, c in terms if c > 0) + sum(constants.values())
    load_of: dict[str, int] = {}
    for teacher, terms in loads.items():
        load = model.var(most, whole=False)
        load_of[teacher] = load
        model.fairness_rows.append(Row(tuple([(load, 1)] + [(x, -c) for x, c in terms]), constants[teacher],
                                       constants[teacher]))
    total = model.var(most, whole=False)
    model.fairness_rows.append(Row(tuple([(total, 1)] + [(load, -1) for load in load_of.values()]), 0, 0))
    for teacher, load in load_of.items():
        share = shares[teacher]
        deviation = model.var(total_share * most, whole=False)
        model.fairness_rows.append(Row(((deviation, 1), (load, -total_share), (total, share)), 0, None))
        model.fairness_rows.append(Row(((deviation, 1), (load, total_share), (total, -share)), 0, None))
        model.fairness.append((deviation, 1))
