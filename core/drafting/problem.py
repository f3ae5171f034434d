"""A draft month as a problem: lesson slots, days, staffing needs, teachers with their limits and
answers, and the shifts already fixed. Plain frozen data with no database, so the solver, the JSON
problem files and the benchmark all speak it; building one from the roster is the caller's business.

Times are minutes from midnight; days are dates. A classroom is a name ("" when there is only one).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Literal

Unanswered = Literal["no", "yes"]
Answer = Literal["yes", "no"]


@dataclass(frozen=True)
class Window:
    """A day answered with a time window: only the slots wholly inside it."""

    start: int
    end: int

    def holds(self, start: int, end: int) -> bool:
        return self.start <= start and end <= self.end


DayAnswer = Answer | Window


@dataclass(frozen=True)
class Slot:
    """One lesson slot (コマ) of a classroom, in the classroom's order."""

    name: str
    start: int
    end: int
    classroom: str = ""

    @property
    def minutes(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class Need:
    classroom: str
    day: dt.date
    slot: str
    count: int


@dataclass(frozen=True)
class Fixed:
    """A shift that stays as it is (a confirmed one, or a draft the manager keeps): it takes the teacher's
    time and counts toward their limits."""

    teacher: str
    day: dt.date
    start: int
    end: int
    classroom: str = ""


@dataclass(frozen=True)
class Teacher:
    id: str
    available: dict[dt.date, DayAnswer] = field(default_factory=dict, hash=False)
    max_shifts: int | None = None
    max_minutes: int | None = None
    # A promised minimum: a strong wish right after coverage, never a hard rule (a month with too few
    # needs could not keep it).
    min_minutes: int | None = None
    max_days_in_a_row: int | None = None
    max_weekend_days: int | None = None
    target_share: int | None = None
    classrooms: frozenset[str] | None = None  # None: every classroom
    slots: frozenset[str] | None = None  # slot names they can teach; None: every slot
    # Weekly patterns as wishes: (classroom, day, slot name).
    wishes: frozenset[tuple[str, dt.date, str]] = frozenset()

    def teaches(self, slot: Slot) -> bool:
        return (self.classrooms is None or slot.classroom in self.classrooms) and (
            self.slots is None or slot.name in self.slots)


@dataclass(frozen=True)
class Problem:
    slots: tuple[Slot, ...]
    days: tuple[dt.date, ...]
    needs: tuple[Need, ...]
    teachers: tuple[Teacher, ...]
    locked: tuple[Fixed, ...] = ()
    unanswered: Unanswered = "no"
    time_limit_seconds: float = 10.0

    def classrooms(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(slot.classroom for slot in self.slots))

    def slots_of(self, classroom: str) -> tuple[Slot, ...]:
        """A classroom's slots in their order (the order they are given in)."""
        return tuple(slot for slot in self.slots if slot.classroom == classroom)

    def answer(self, teacher: Teacher, day: dt.date) -> DayAnswer | None:
        return teacher.available.get(day)


def minutes(text: str) -> int:
    """"16:50" → 1010. Raises ValueError for anything else."""
    hours, _, mins = text.partition(":")
    if not (hours.isdigit() and mins.isdigit() and len(mins) == 2 and len(hours) in (1, 2)):
        raise ValueError(text)
    value = int(hours) * 60 + int(mins)
    if int(hours) > 24 or int(mins) > 59 or value > 24 * 60:
        raise ValueError(text)
    return value


def clock(value: int) -> str:
    return f"{value // 60:02d}:{value % 60:02d}"
