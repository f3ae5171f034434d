"""The draft months the benchmark solves: 30 teachers × 31 days × 6 slots, made the same way every run.

normal: 2 teachers needed per slot, which the teachers can give; shortage: 8 per slot, more than they
can; classrooms: 10 classrooms, 30 teachers, a fifth of them teaching in two classrooms.
"""

from __future__ import annotations

import datetime as dt
import random

from core.drafting.problem import Need, Problem, Slot, Teacher, Window

FIRST_DAY = dt.date(2027, 1, 1)
SLOT_TIMES = ((16 * 60 + 50, 18 * 60 + 10), (18 * 60 + 20, 19 * 60 + 40), (19 * 60 + 50, 21 * 60 + 10),
              (13 * 60, 14 * 60 + 20), (14 * 60 + 30, 15 * 60 + 50), (15 * 60 + 50, 16 * 60 + 50))


def _slots(classroom: str) -> tuple[Slot, ...]:
    times = sorted(SLOT_TIMES)
    return tuple(Slot(f"{i + 1}限", start, end, classroom) for i, (start, end) in enumerate(times))


def _teacher(rng: random.Random, name: str, days: tuple[dt.date, ...], classrooms: frozenset[str] | None) -> Teacher:
    answers: dict[dt.date, Window | str] = {}
    for day in days:
        roll = rng.random()
        if roll < 0.55:
            answers[day] = "yes"
        elif roll < 0.7:
            answers[day] = Window(16 * 60 + 30, 21 * 60 + 30)
        elif roll < 0.9:
            answers[day] = "no"
    return Teacher(name, available=answers,  # type: ignore[arg-type]
                   max_shifts=rng.choice((12, 16, 20)), max_minutes=rng.choice((1800, 2400, 3000)),
                   max_days_in_a_row=rng.choice((3, 4, 5)), max_weekend_days=rng.choice((2, 4, 8)),
                   min_minutes=rng.choice((None, 600)), target_share=rng.choice((1, 1, 2)),
                   classrooms=classrooms)


def month(per_slot: int, *, classrooms: int = 1, teachers: int = 30, days: int = 31, seed: int = 36) -> Problem:
    rng = random.Random(seed)
    dates = tuple(FIRST_DAY + dt.timedelta(days=k) for k in range(days))
    names = [f"c{k + 1}" if classrooms > 1 else "" for k in range(classrooms)]
    slots = tuple(slot for name in names for slot in _slots(name))
    people = []
    for k in range(teachers):
        if classrooms == 1:
            teaches = None
        elif k % 5 == 0:  # a fifth teach in two classrooms
            teaches = frozenset({names[k % classrooms], names[(k + 1) % classrooms]})
        else:
            teaches = frozenset({names[k % classrooms]})
        people.append(_teacher(rng, f"t{k + 1:02d}", dates, teaches))
    needs = tuple(Need(slot.classroom, day, slot.name, per_slot) for day in dates for slot in slots)
    return Problem(slots, dates, needs, tuple(people))
