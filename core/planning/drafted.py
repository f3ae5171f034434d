"""What drafting a month gives the manager to review: the shifts proposed (one per run of slots), the needs left
uncovered each with why and what to do about it, how good the draft is (optimal, or how far from the best it
may be), and, on the way, the solver's progress (stopped with core.drafting.solver.Stopper).

Plain values, made on a worker thread and read on the UI thread or printed by the CLI.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum

from core.roster import rules
from core.texts import Text


class Act(StrEnum):
    """What the manager can do about an uncovered need."""

    AVAILABILITY = "availability"  # ask again, or enter the teachers' answers
    LIMITS = "limits"  # raise a named teacher's limits


@dataclass(frozen=True)
class Gap:
    """One need of one slot left short: where, by how many, why in words, and what to do (for whom)."""

    classroom_id: int
    day: dt.date
    slot: str
    missing: int
    why: Text
    act: Act
    teacher_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class Step:
    """The solver on its way: the fewest missing teacher-slots found so far, the proven bound, seconds spent."""

    best: int | None
    bound: int | None
    seconds: float


@dataclass(frozen=True)
class MonthDraft:
    status: str  # "optimal", "feasible" or "infeasible"
    gap: float | None  # how far from proven best the draft may be (0.02: 2 %); None when not known
    proposed: tuple[rules.ShiftDraft, ...]
    gaps: tuple[Gap, ...]
    stopped: bool = False  # the manager stopped it: the best found by then

    @property
    def missing(self) -> int:
        return sum(g.missing for g in self.gaps)
