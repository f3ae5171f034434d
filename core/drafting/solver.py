"""Solve a draft month (core/drafting/model.py) with HiGHS, one objective at a time.

The order of what matters is kept lexicographically, in stages: (1) fewest missing teacher-slots;
(2) promised minimum minutes, then wishes (○ and weekly patterns before unanswered-as-yes days);
(3) fairness toward each teacher's target share; (4) fewer, longer shifts. Each stage keeps what the
stages before it reached (never worse) and starts from their draft; coverage starts from the draft the
relaxation points to (`_restricted_start`). Classrooms that share no teacher are solved apart (`groups`).

Deterministic: one thread and a fixed seed, so the same problem solved to the same proof gives the same
draft. A stage that runs out of time keeps the best draft found; the result then says "feasible" and how
far coverage may be from the proven best. `Stopper.stop()` (from any thread) ends the search early the
same way; `progress` hears each better draft.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

import highspy
import numpy as np

from core.drafting.model import Model, Row, Term, build, day_needs
from core.drafting.problem import Problem

Status = Literal["optimal", "feasible", "infeasible"]
STAGES = ("coverage", "wishes", "fairness", "shape")
# The share of the time limit coverage may take; the stages after it share what is left.
COVERAGE_SHARE = 0.7
# Of the coverage stage's time, what the relaxation and the search over its shifts may each take at most
# (core/drafting/solver.py `_restricted_start`); the full search has the rest, and at least what they leave.
RELAXED_SHARE = 0.5
RESTRICTED_SHARE = 0.25
INFINITY = highspy.kHighsInf
# Coverage is solved to proof. Fairness and shape are sums of many small terms whose last few percent
# take far longer to prove than they are worth to anyone; a stage within this gap of its bound counts
# as done.
LATER_GAP = 0.05


@dataclass(frozen=True)
class Shift:
    teacher: str
    classroom: str
    day: dt.date
    start: int
    end: int


@dataclass(frozen=True)
class Progress:
    stage: str  # one of STAGES
    objective: float  # the best found so far in this stage (coverage: teacher-slots left uncovered)
    bound: float  # the proven best possible in this stage
    seconds: float


@dataclass(frozen=True)
class Result:
    status: Status
    shifts: tuple[Shift, ...]
    missing: dict[tuple[str, dt.date, str], int]  # (classroom, day, slot) → teacher-slots left uncovered
    uncovered: int  # teacher-slots left uncovered in all
    bound: int  # no draft can leave fewer uncovered than this (proven)
    gap: float  # (uncovered − bound) / uncovered; 0 when proven
    seconds: float
    coverage_seconds: float  # time spent in the coverage stages
    variables: int  # the size of the model(s) solved
    rows: int


class Stopper:
    """Ends a running solve early from another thread; the solve returns the best draft found."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stopped = False
        self._highs: highspy.Highs | None = None

    @property
    def stopped(self) -> bool:
        return self._stopped

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._highs is not None:
                self._highs.cancelSolve()  # type: ignore[no-untyped-call]

    def _running(self, highs: highspy.Highs | None) -> bool:
        with self._lock:
            self._highs = highs
            return not self._stopped


def _silence_banner() -> None:
    """HiGHS writes its banner to the process's standard output (not Python's) when the first solver of
    the process is made, before any option can turn it off; `draft --json` must print nothing but JSON.
    So the first one is made here, once, with file descriptor 1 pointed at the null device."""
    if sys.stdout is not None:
        sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no standard output at all (a windowed program on Windows): nothing to keep clean
        highspy.Highs()  # type: ignore[no-untyped-call]
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
            highspy.Highs()  # type: ignore[no-untyped-call]
    finally:
        os.dup2(saved, 1)
        os.close(saved)


_silence_banner()


def _highs(model: Model) -> highspy.Highs:
    highs = highspy.Highs()  # type: ignore[no-untyped-call]
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("threads", 1)
    highs.setOptionValue("random_seed", 0)
    # The cut pool is what grows during a long search; a smaller one keeps a month of ten classrooms
    # under 300 MB at little cost to the bound.
    highs.setOptionValue("mip_pool_soft_limit", 100)
    highs.HandleUserInterrupt = True
    count = len(model.upper)
    highs.addVars(count, np.zeros(count), np.array(model.upper, dtype=float))
    whole = [i for i in range(count) if i not in model.continuous]
    highs.changeColsIntegrality(len(whole), np.array(whole, dtype=np.int32),
                                np.full(len(whole), highspy.HighsVarType.kInteger))
    for row in model.rows:
        _add(highs, row)
    return highs


def _add(highs: highspy.Highs, row: Row) -> None:
    highs.addRow(-INFINITY if row.low is None else row.low, INFINITY if row.high is None else row.high,
                 len(row.terms), np.array([v for v, _ in row.terms], dtype=np.int32),
                 np.array([c for _, c in row.terms], dtype=float))


def _objective(highs: highspy.Highs, count: int, terms: list[Term]) -> None:
    cost = np.zeros(count)
    for variable, coefficient in terms:
        cost[variable] += coefficient
    highs.changeColsCost(count, np.arange(count, dtype=np.int32), cost)


def solve(problem: Problem, *, progress: Callable[[Progress], None] | None = None, stopper: Stopper | None = None,
          time_limit: float | None = None) -> Result:
    """The draft. Groups of classrooms that share no teacher are solved one after another, each with a
    share of the time by its needs: smaller models, found and proven sooner, in less memory."""
    started = time.perf_counter()
    limit = problem.time_limit_seconds if time_limit is None else time_limit
    stopper = stopper or Stopper()
    parts = groups(problem)
    if len(parts) == 1:
        return _solve_one(problem, progress, stopper, limit)
    needs = [sum(day_needs(part).values()) for part in parts]
    results: list[Result] = []
    for index, part in enumerate(parts):
        left = limit - (time.perf_counter() - started)
        share = left * needs[index] / max(sum(needs[index:]), 1)
        before = sum(r.uncovered for r in results)
        waiting = sum(needs[index + 1:])
        bounded = sum(r.bound for r in results)

        def told(report: Progress, before: int = before, waiting: int = waiting, bounded: int = bounded) -> None:
            # The whole month's figures: groups done, this one so far, groups not begun as all missing.
            if progress is not None:
                coverage = report.stage == "coverage"
                progress(Progress(report.stage, report.objective + (before + waiting if coverage else 0),
                                  report.bound + (bounded if coverage else 0), time.perf_counter() - started))

        results.append(_solve_one(part, told, stopper, max(share, 0.05)))
    missing = {k: v for r in results for k, v in r.missing.items()}
    uncovered = sum(r.uncovered for r in results)
    bound = sum(r.bound for r in results)
    return Result("infeasible" if any(r.status == "infeasible" for r in results) else
                  "optimal" if all(r.status == "optimal" for r in results) else "feasible",
                  tuple(sorted((s for r in results for s in r.shifts), key=lambda s: (s.day, s.classroom, s.start,
                                                                                      s.teacher))),
                  missing, uncovered, bound, 0.0 if uncovered == 0 else (uncovered - bound) / uncovered,
                  time.perf_counter() - started, sum(r.coverage_seconds for r in results),
                  sum(r.variables for r in results), sum(r.rows for r in results))


def groups(problem: Problem) -> list[Problem]:
    """The problem split into groups of classrooms that share no teacher (one group when all do)."""
    rooms = problem.classrooms()
    parent = {room: room for room in rooms}

    def root(room: str) -> str:
        while parent[room] != room:
            room = parent[room]
        return room

    for teacher in problem.teachers:
        theirs = [room for room in rooms if teacher.classrooms is None or room in teacher.classrooms]
        for room in theirs[1:]:
            parent[root(room)] = root(theirs[0])
    together: dict[str, list[str]] = {}
    for room in rooms:
        together.setdefault(root(room), []).append(room)
    if len(together) == 1:
        return [problem]
    parts = []
    for members in together.values():
        inside = set(members)
        teachers = tuple(t for t in problem.teachers if t.classrooms is None or t.classrooms & inside)
        ids = {t.id for t in teachers}
        parts.append(replace(problem, slots=tuple(s for s in problem.slots if s.classroom in inside),
                             needs=tuple(n for n in problem.needs if n.classroom in inside), teachers=teachers,
                             locked=tuple(f for f in problem.locked if f.teacher in ids or f.classroom in inside)))
    return parts


def _solve_one(problem: Problem, progress: Callable[[Progress], None] | None, stopper: Stopper,
               limit: float) -> Result:
    started = time.perf_counter()
    model = build(problem)
    highs = _highs(model)
    count = len(model.upper)
    levels = [model.uncovered, _weighted(model.shortfall, model.wishes), model.fairness, model.shape]
    stage_now = [STAGES[0]]
    offset = [float(model.total_need)]

    def improved(event: Any) -> None:
        if progress is not None:
            out = event.data_out
            # Every objective counts something (missing slots, costs, deviations): a bound not known yet
            # (HiGHS says -inf) is 0.
            progress(Progress(stage_now[0], offset[0] + out.objective_function_value,
                              max(offset[0] + out.mip_dual_bound, 0.0), time.perf_counter() - started))

    highs.cbMipImprovingSolution.subscribe(improved)
    values = np.zeros(count)
    proven, found = True, False
    bound, coverage_seconds = 0, 0.0
    for index, (stage, terms) in enumerate(zip(STAGES, levels, strict=True)):
        if not terms:
            continue
        left = limit - (time.perf_counter() - started)
        if index > 0 and (left <= 0.05 or stopper.stopped):
            proven = False
            break
        stage_now[0], offset[0] = stage, float(model.total_need) if index == 0 else 0.0
        if stage == "fairness":
            for row in model.fairness_rows:
                _add(highs, row)
        _objective(highs, count, terms)
        if found:
            highs.clearSolver()  # frees the last stage's search before the next begins
            _start_from(highs, values, model)
        budget = left * COVERAGE_SHARE if index == 0 else left / (len(STAGES) - index)
        highs.setOptionValue("mip_rel_gap", 0.0 if index == 0 else LATER_GAP)
        if index == 0:
            first = _restricted_start(highs, model, terms, budget, stopper)
            if first is not None:
                values, bound = first.values, first.bound
                budget -= first.seconds
        highs.setOptionValue("time_limit", max(budget, 0.05))
        if not _search(highs, stopper):
            proven = False
            break
        status = highs.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            return _result("infeasible", model, problem, np.zeros(count), 0, started, coverage_seconds)
        info = highs.getInfo()
        if info.primal_solution_status != 2:  # no feasible draft in this stage
            proven = False
            break
        found = True
        values = np.array(highs.getSolution().col_value)
        value = info.objective_function_value
        if status != highspy.HighsModelStatus.kOptimal:
            proven = False
        if index == 0:
            dual = info.mip_dual_bound
            bound = max(bound, model.total_need + int(np.ceil(dual - 1e-6)) if np.isfinite(dual) else 0)
            coverage_seconds = time.perf_counter() - started
        _keep(highs, terms, value, cap_exact=index == 0)
    return _result("optimal" if proven else "feasible", model, problem, values, bound, started, coverage_seconds)


def _keep(highs: highspy.Highs, terms: list[Term], value: float, *, cap_exact: bool) -> None:
    """Later stages may not undo what this one reached (a hair of room for rounding)."""
    cap = float(np.floor(value + 1e-6)) if cap_exact else value + 1e-6 * max(1.0, abs(value))
    highs.addRow(-INFINITY, cap, len(terms), np.array([v for v, _ in terms], dtype=np.int32),
                 np.array([c for _, c in terms], dtype=float))


@dataclass(frozen=True)
class _Start:
    values: np.ndarray[Any, Any]
    objective: float
    bound: int  # teacher-slots uncovered that no draft can go below (the relaxation's, rounded up)
    proven: bool  # the draft meets that bound: proven best
    seconds: float


def _restricted_start(highs: highspy.Highs, model: Model, terms: list[Term], budget: float,
                      stopper: Stopper) -> _Start | None:
    """The coverage stage's first draft, by the relaxation: solve the model with fractions allowed, then
    the exact model again but only over the shifts the relaxed answer uses (a standard MIP heuristic,
    "RENS"). In a month with more needs than teachers the full search spends most of its seconds on cuts
    before its first good draft; the relaxation is solved in a fraction of that and leaves a few hundred
    shifts of twelve thousand, whose exact best is found and proven in under a second and lies within
    about 1 % of the month's best. The full search then starts from it, to improve it and prove the bound.
    None when either step runs out of time, is stopped or finds nothing: the full search runs as before."""
    started = time.perf_counter()
    count = len(model.upper)
    main, highs = highs, _highs(model)  # a solver of its own: the main one's state stays as it was
    _objective(highs, count, terms)
    whole = np.array([i for i in range(count) if i not in model.continuous], dtype=np.int32)
    xs = np.array(model.x, dtype=np.int32)
    highs.changeColsIntegrality(len(whole), whole, np.full(len(whole), highspy.HighsVarType.kContinuous))
    highs.setOptionValue("time_limit", max(budget * RELAXED_SHARE, 0.05))
    # The interior point method (with its crossover to a vertex) solves both benchmark months' relaxation
    # in 1–2 s; the simplex method takes as long on the shortage month and over 10 s on the normal one.
    highs.setOptionValue("solver", "ipm")
    relaxed = _run(highs, stopper)  # read before the model changes back: changing it forgets the solve
    highs.setOptionValue("solver", "choose")
    highs.changeColsIntegrality(len(whole), whole, np.full(len(whole), highspy.HighsVarType.kInteger))
    highs.clearSolver()
    if relaxed is None:
        return None
    bound = model.total_need + int(np.ceil(relaxed[1] - 1e-6))
    upper = np.array([model.upper[x] for x in xs], dtype=float)
    highs.changeColsBounds(len(xs), xs, np.zeros(len(xs)), np.where(relaxed[0][xs] > 1e-6, upper, 0.0))
    highs.setOptionValue("time_limit", max(budget * RESTRICTED_SHARE, 0.05))
    restricted = _run(highs, stopper, mip=True)
    del highs
    if restricted is None:
        return None
    values, objective = restricted
    # A draft that meets the bound is the best already, but the full search still runs, without it: it
    # proves such a month in a second or two by itself, and HiGHS, handed it as a start (or a later
    # stage handed it without that search), was seen to be slower or to return a draft that broke a row.
    proven = model.total_need + int(np.floor(objective + 1e-6)) <= bound
    if not proven:
        _start_from(main, values, model)
    return _Start(values, objective, bound, proven, time.perf_counter() - started)


def _search(highs: highspy.Highs, stopper: Stopper) -> bool:
    """One run of the search; False when stopped before it began."""
    if not stopper._running(highs):
        return False
    try:
        highs.run()
    finally:
        stopper._running(None)
    return True


def _run(highs: highspy.Highs, stopper: Stopper, *, mip: bool = False) -> tuple[np.ndarray[Any, Any], float] | None:
    """The solution and objective of one run: for the relaxation only when solved to the end, for a MIP
    the best draft found. None when stopped, out of time (the relaxation) or with nothing found."""
    if not _search(highs, stopper):
        return None
    if mip and highs.getInfo().primal_solution_status == 2 or (
            not mip and highs.getModelStatus() == highspy.HighsModelStatus.kOptimal):
        return np.array(highs.getSolution().col_value), float(highs.getInfo().objective_function_value)
    return None


def _start_from(highs: highspy.Highs, values: np.ndarray[Any, Any], model: Model) -> None:
    solution = highspy.HighsSolution()
    solution.col_value = [float(round(v)) if i not in model.continuous else float(v) for i, v in enumerate(values)]
    highs.setSolution(solution)


def _weighted(first: list[Term], second: list[Term]) -> list[Term]:
    """first before second: each unit of first outweighs all of second."""
    if not first:
        return second
    weight = sum(abs(c) for _, c in second) + 1
    return [(v, c * weight) for v, c in first] + second


def _result(status: Status, model: Model, problem: Problem, values: np.ndarray[Any, Any], bound: int,
            started: float, coverage_seconds: float) -> Result:
    assigned = frozenset(i for i, x in enumerate(model.x) if values[x] > 0.5)
    missing = dict(day_needs(problem))
    for i in assigned:
        place = model.places[i]
        for slot in place.slots:
            missing[(place.classroom, place.day, slot.name)] -= 1
    uncovered = sum(missing.values())
    bound = uncovered if status == "optimal" else max(min(bound, uncovered), 0)
    shifts = tuple(sorted((Shift(p.teacher, p.classroom, p.day, p.start, p.end)
                           for p in (model.places[i] for i in assigned)),
                          key=lambda s: (s.day, s.classroom, s.start, s.teacher)))
    gap = 0.0 if uncovered == 0 else (uncovered - bound) / uncovered
    return Result(status, shifts, {k: v for k, v in missing.items() if v > 0}, uncovered, bound, gap,
                  time.perf_counter() - started, coverage_seconds, len(model.upper), len(model.rows))
