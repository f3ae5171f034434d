"""The draft month's solver (core/drafting): hard rules kept on random problems, the exact optimum on small
ones, a month a day-by-day fill gets wrong, the same draft every time, an early stop, and every reason
an uncovered need is given."""

from __future__ import annotations

import datetime as dt
import itertools
import random
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.drafting import explain as explaining
from core.drafting import solver as solving
from core.drafting.model import build
from core.drafting.problem import DayAnswer, Fixed, Need, Problem, Slot, Teacher, Window
from core.drafting.solver import Progress, Result, Shift, Stopper, groups, solve
from core.texts import render
from tests.drafting_check import best_coverage, broken_rules
from tests.perf.drafting_months import month

MONDAY = dt.date(2027, 1, 4)
SLOTS = (Slot("1限", 1010, 1090), Slot("2限", 1100, 1180), Slot("3限", 1190, 1270))


def _days(count: int, first: dt.date = MONDAY) -> tuple[dt.date, ...]:
    return tuple(first + dt.timedelta(days=k) for k in range(count))


def _answers(draw: st.DrawFn, days: tuple[dt.date, ...]) -> dict[dt.date, DayAnswer]:
    answers: dict[dt.date, DayAnswer] = {}
    for day in days:
        kind = draw(st.sampled_from(["yes", "no", "window", "none"]))
        if kind == "window":
            start = draw(st.sampled_from([1000, 1100, 1190]))
            answers[day] = Window(start, draw(st.sampled_from([start + 90, start + 180, 1300])))
        elif kind != "none":
            answers[day] = "yes" if kind == "yes" else "no"
    return answers


@st.composite
def problems(draw: st.DrawFn) -> Problem:
    two_rooms = draw(st.booleans())
    rooms = ("a", "b") if two_rooms else ("",)
    # The second classroom's slots are shifted in time, so they overlap the first's.
    slots = tuple(Slot(s.name, s.start + 40 * k, s.end + 40 * k, room) for k, room in enumerate(rooms)
                  for s in SLOTS[:draw(st.integers(2, 3))])
    days = _days(draw(st.integers(2, 6)), MONDAY + dt.timedelta(days=draw(st.integers(0, 6))))
    maybe = st.none() | st.integers(0, 4)
    teachers = tuple(Teacher(
        f"t{k}", _answers(draw, days), max_shifts=draw(maybe), max_minutes=draw(st.none() | st.integers(0, 500)),
        min_minutes=draw(st.none() | st.integers(0, 300)), max_days_in_a_row=draw(st.none() | st.integers(1, 3)),
        max_weekend_days=draw(st.none() | st.integers(0, 2)), target_share=draw(st.none() | st.integers(0, 3)),
        classrooms=draw(st.none() | st.sets(st.sampled_from(rooms), max_size=2).map(frozenset)),
        slots=draw(st.none() | st.sets(st.sampled_from([s.name for s in SLOTS]), max_size=3).map(frozenset)),
        wishes=frozenset({(slots[0].classroom, days[0], slots[0].name)}) if draw(st.booleans()) else frozenset())
        for k in range(draw(st.integers(1, 4))))
    needs = tuple(Need(s.classroom, d, s.name, draw(st.integers(0, 3))) for d in days for s in slots)
    locked = tuple(Fixed(f"t{draw(st.integers(0, len(teachers) - 1))}", draw(st.sampled_from(days)), 1100, 1180,
                         draw(st.sampled_from(rooms))) for _ in range(draw(st.integers(0, 2))))
    return Problem(slots, days, needs, teachers, locked, draw(st.sampled_from(["no", "yes"])), 5.0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_no_draft_breaks_a_hard_rule(problem: Problem) -> None:
    result = solve(problem)
    assert broken_rules(problem, result.shifts) == []
    assert result.uncovered == sum(result.missing.values())


def _small(seed: int) -> Problem:
    rng = random.Random(seed)
    days = _days(2, MONDAY + dt.timedelta(days=rng.randrange(7)))
    teachers = tuple(Teacher(
        f"t{k}", {d: rng.choice(["yes", "yes", "no", Window(1000, 1190)]) for d in days},
        max_shifts=rng.choice([None, 1, 2]), max_minutes=rng.choice([None, 80, 170, 260]),
        max_days_in_a_row=rng.choice([None, 1]), max_weekend_days=rng.choice([None, 0, 1]))
        for k in range(2))
    needs = tuple(Need("", d, s.name, rng.randrange(3)) for d in days for s in SLOTS)
    locked = (Fixed("t0", days[0], 1100, 1180),) if rng.random() < 0.3 else ()
    return Problem(SLOTS, days, needs, teachers, locked)


def test_the_relaxations_first_draft_keeps_every_rule_and_its_bound_is_never_above_the_best() -> None:
    for seed in range(12):
        problem = _small(seed)
        model = build(problem)
        first = solving._restricted_start(solving._highs(model), model, model.uncovered, 30.0, Stopper())
        assert first is not None, seed
        fewest = model.total_need - best_coverage(problem)
        uncovered = model.total_need + round(first.objective)
        assert first.bound <= fewest <= uncovered, seed
        assert first.proven == (uncovered == first.bound), seed
        draft = solving._result("feasible", model, problem, first.values, first.bound, 0.0, 0.0)
        assert draft.uncovered == uncovered and broken_rules(problem, draft.shifts) == [], seed


def test_the_covered_count_is_the_exact_optimum_on_small_problems() -> None:
    for seed in range(12):
        problem = _small(seed)
        result = solve(problem)
        covered = sum(n.count for n in problem.needs) - result.uncovered - sum(
            1 for f in problem.locked for s in SLOTS
            if f.start <= s.start and s.end <= f.end and any(n.day == f.day and n.slot == s.name and n.count
                                                            for n in problem.needs))
        assert result.status == "optimal"
        assert covered == best_coverage(problem), seed
        assert result.bound == result.uncovered and result.gap == 0


def _greedy_day_by_day(problem: Problem) -> int:
    """Fill each day in turn with the first teachers who can still come: what a hand-made month does."""
    left = {t.id: t.max_shifts if t.max_shifts is not None else 99 for t in problem.teachers}
    covered = 0
    for day in problem.days:
        for need in (n for n in problem.needs if n.day == day):
            for teacher in problem.teachers:
                if need.count and teacher.available.get(day) == "yes" and left[teacher.id] > 0:
                    left[teacher.id] -= 1
                    covered += 1
                    break
    return covered


def test_a_month_filled_day_by_day_leaves_a_gap_the_solver_does_not() -> None:
    """Ana can come either day, Ben only on Monday: Monday's first pick (Ana) leaves Tuesday empty."""
    days = _days(2)
    slot = SLOTS[:1]
    problem = Problem(slot, days, tuple(Need("", d, "1限", 1) for d in days), (
        Teacher("Ana", {days[0]: "yes", days[1]: "yes"}, max_shifts=1),
        Teacher("Ben", {days[0]: "yes", days[1]: "no"}, max_shifts=1)))
    assert _greedy_day_by_day(problem) == 1
    result = solve(problem)
    assert (result.status, result.uncovered) == ("optimal", 0)
    assert {(s.teacher, s.day) for s in result.shifts} == {("Ben", days[0]), ("Ana", days[1])}


def test_consecutive_slots_are_one_shift_and_a_wish_is_kept() -> None:
    day = MONDAY
    problem = Problem(SLOTS, (day,), tuple(Need("", day, s.name, 1) for s in SLOTS), (
        Teacher("Ana", {day: "yes"}),
        Teacher("Ben", {day: "yes"}, wishes=frozenset({("", day, "1限"), ("", day, "2限"), ("", day, "3限")}))))
    result = solve(problem)
    # Ben asked for the slots in his weekly pattern; one shift from 1限's start to 3限's end.
    assert result.shifts == (Shift("Ben", "", day, 1010, 1270),)


def test_fairness_spreads_the_work_toward_each_target_share() -> None:
    days = _days(4)
    problem = Problem(SLOTS[:1], days, tuple(Need("", d, "1限", 1) for d in days), (
        Teacher("Ana", dict.fromkeys(days, "yes"), target_share=1),
        Teacher("Ben", dict.fromkeys(days, "yes"), target_share=3)))
    result = solve(problem)
    assert sorted(s.teacher for s in result.shifts) == ["Ana", "Ben", "Ben", "Ben"]


def test_the_same_problem_gives_the_same_draft() -> None:
    problem = month(2, days=3, teachers=6)
    first, second = solve(problem, time_limit=120), solve(problem, time_limit=120)
    assert first.status == second.status == "optimal"
    assert first.shifts == second.shifts


def test_stopping_early_returns_the_best_draft_found_as_feasible() -> None:
    problem = month(8)  # a shortage month: its proof takes far longer than this test waits
    stopper = Stopper()
    heard: list[Progress] = []
    improved = threading.Event()
    done: list[Result] = []

    def progress(report: Progress) -> None:
        heard.append(report)
        if report.objective < problem_need(problem):
            improved.set()

    worker = threading.Thread(target=lambda: done.append(solve(problem, progress=progress, stopper=stopper,
                                                                time_limit=600)))
    worker.start()
    assert improved.wait(300)
    stopper.stop()  # from this thread, while the solver runs in the other
    worker.join(300)
    assert not worker.is_alive()
    [result] = done
    assert result.status == "feasible"
    assert result.shifts and result.uncovered < problem_need(problem)
    assert result.bound <= result.uncovered and 0 <= result.gap <= 1
    assert heard[0].stage == "coverage" and all(a.seconds <= b.seconds for a, b in itertools.pairwise(heard))
    assert all(0 <= report.bound <= report.objective for report in heard)
    assert broken_rules(problem, result.shifts) == []


def problem_need(problem: Problem) -> int:
    return sum(n.count for n in problem.needs)


def _why(problem: Problem, result: Result | None = None) -> list[explaining.Reason]:
    result = result or solve(problem)
    [reasons] = explaining.explain(problem, result).values()
    return reasons


ONE_DAY = (MONDAY,)
NEED_ONE = (Need("", MONDAY, "1限", 1),)


def test_each_uncovered_need_says_why() -> None:
    monday, tuesday = MONDAY, MONDAY + dt.timedelta(days=1)
    slot = SLOTS[:1]
    assert _why(Problem(slot, ONE_DAY, NEED_ONE, (Teacher("Ana", {monday: "yes"}, slots=frozenset({"2限"})),))) == [
        explaining.Reason("nobody_teaches")]
    assert _why(Problem(slot, ONE_DAY, NEED_ONE, (Teacher("Ana", {monday: "no"}), Teacher("Ben", {})))) == [
        explaining.Reason("nobody_yes")]
    assert _why(Problem(slot, ONE_DAY, NEED_ONE, (Teacher("Ana", {monday: "yes"}, max_shifts=0),
                                                  Teacher("Ben", {monday: "no"})))) == [
        explaining.Reason("at_limit", ("Ana",)), explaining.Reason("said_no", ("Ben",))]
    assert _why(Problem(slot, ONE_DAY, NEED_ONE, (Teacher("Ana", {monday: "yes"}, max_minutes=60),
                                                  Teacher("Ben", {})))) == [
        explaining.Reason("at_limit", ("Ana",)), explaining.Reason("no_answer", ("Ben",))]
    assert _why(Problem(slot, ONE_DAY, NEED_ONE, (Teacher("Ana", {monday: Window(1100, 1300)}),))) == [
        explaining.Reason("outside_window", ("Ana",))]
    # Confirmed on Sunday and Tuesday with at most 2 days in a row: Monday would make 3.
    sunday = monday - dt.timedelta(days=1)
    assert _why(Problem(slot, ONE_DAY, NEED_ONE, (Teacher("Ana", {monday: "yes"}, max_days_in_a_row=2),),
                        locked=(Fixed("Ana", sunday, 600, 700), Fixed("Ana", tuesday, 600, 700)))) == [
        explaining.Reason("days_in_a_row", ("Ana",))]
    saturday = monday + dt.timedelta(days=5)
    assert _why(Problem(slot, (saturday,), (Need("", saturday, "1限", 1),),
                        (Teacher("Ana", {saturday: "yes"}, max_weekend_days=1),),
                        locked=(Fixed("Ana", saturday + dt.timedelta(days=1), 600, 700),))) == [
        explaining.Reason("weekend_days", ("Ana",))]
    # Confirmed elsewhere at that time.
    assert _why(Problem(slot, ONE_DAY, NEED_ONE, (Teacher("Ana", {monday: "yes"}),),
                        locked=(Fixed("Ana", monday, 1000, 1050, "other"),))) == [explaining.Reason("busy", ("Ana",))]
    assert _why(Problem(slot, ONE_DAY, (Need("", monday, "1限", 2),), (Teacher("Ana", {monday: "yes"}),))) == [
        explaining.Reason("all_on_it")]
    # A search stopped before it put Ana on the slot: she could still take it.
    problem = Problem(slot, ONE_DAY, NEED_ONE, (Teacher("Ana", {monday: "yes"}),))
    empty = Result("feasible", (), {("", monday, "1限"): 1}, 1, 0, 1.0, 0.0, 0.0, 1, 0)
    assert _why(problem, empty) == [explaining.Reason("could", ("Ana",))]


def test_a_reason_reads_in_both_languages() -> None:
    reason = explaining.Reason("at_limit", ("佐藤", "Ben"))
    assert render(reason.text(), "en") == "at their monthly limit: 佐藤, Ben"
    assert render(reason.text(), "ja") == "月の上限に達しています：佐藤、Ben"
    for code in explaining.CODES:
        for lang in ("en", "ja"):
            assert "{" not in render(explaining.Reason(code, ("Ana",)).text(), lang)


def test_classrooms_that_share_no_teacher_are_solved_apart_and_together_the_same() -> None:
    rooms = ("a", "b", "c")
    slots = tuple(Slot(s.name, s.start, s.end, room) for room in rooms for s in SLOTS[:2])
    days = _days(3)
    teachers = (Teacher("Ana", dict.fromkeys(days, "yes"), classrooms=frozenset({"a"}), max_shifts=2),
                Teacher("Ben", dict.fromkeys(days, "yes"), classrooms=frozenset({"b", "c"}), max_minutes=400),
                Teacher("Cho", dict.fromkeys(days, "yes"), classrooms=frozenset({"c"})))
    problem = Problem(slots, days, tuple(Need(s.classroom, d, s.name, 1) for d in days for s in slots), teachers)
    assert [p.classrooms() for p in groups(problem)] == [("a",), ("b", "c")]
    assert [tuple(t.id for t in p.teachers) for p in groups(problem)] == [("Ana",), ("Ben", "Cho")]
    result = solve(problem)
    assert result.status == "optimal" and broken_rules(problem, result.shifts) == []
    # a: Ana's 2 shifts of 2 slots; b and c: Cho all of c (6), Ben 400 minutes of b (two shifts of 2 slots)
    assert result.uncovered == 18 - 4 - 6 - 4
    shared = replace(problem, teachers=(*teachers, Teacher("Dan", {}, classrooms=frozenset({"a", "c"}))))
    assert len(groups(shared)) == 1
    assert solve(shared).uncovered == result.uncovered


def test_the_solver_loads_without_a_standard_output() -> None:
    """A windowed program on Windows has no file descriptor 1: loading the solver must not fail there."""
    code = ("import os, sys\nos.close(1)\nsys.stdout = None\nfrom core.drafting import solver\n"
            "print('loaded', file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parent.parent,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr.strip() == "loaded", done.stderr


def test_the_benchmarks_recorded_fewest_uncovered_lies_between_a_drafts_bound_and_the_draft() -> None:
    from tests.perf.drafting_bench import FEWEST_UNCOVERED, against_fewest

    result = solve(month(8), time_limit=3)
    assert result.bound <= FEWEST_UNCOVERED["shortage"] <= result.uncovered
    assert against_fewest("shortage", 535) == {"fewest_uncovered": 530, "above_fewest": 0.0094}
    assert against_fewest("normal", 0) == {}
