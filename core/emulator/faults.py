"""Planned failures of the send endpoints, drawn from a seeded generator so tests are repeatable."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

# Names as they appear in RequestRecord.fault and /_emulator/stats.
Fault = Literal["error", "accept_then_error", "timeout_before_accept", "timeout_after_accept", "reset"]

_EXCLUSIVE_RATES: tuple[tuple[str, Fault], ...] = (
    ("error_rate", "error"),
    ("accept_then_error_rate", "accept_then_error"),
    ("timeout_before_accept_rate", "timeout_before_accept"),
    ("timeout_after_accept_rate", "timeout_after_accept"),
    ("reset_rate", "reset"),
)


@dataclass(frozen=True, slots=True)
class FaultPlan:
    """All defaults mean "no fault". The five *_rate kinds exclude each other (one draw picks at most
    one), so their sum may not exceed 1; latency and slowness add to any of them."""

    fail_next: int = 0
    error_rate: float = 0.0
    accept_then_error_rate: float = 0.0
    timeout_before_accept_rate: float = 0.0
    timeout_after_accept_rate: float = 0.0
    reset_rate: float = 0.0
    hang_seconds: float = 30.0
    latency_ms: float = 0.0
    slow_rate: float = 0.0
    slow_ms: float = 0.0
    seed: int | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "seed":
                if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                    raise ValueError("seed must be an integer or null")
                continue
            # bool is an int in Python; True as a rate is surely a mistake in a JSON body.
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ValueError(f"{f.name} must be a finite number")
            if value < 0:
                raise ValueError(f"{f.name} must not be negative")
            if f.name.endswith("_rate") and value > 1:
                raise ValueError(f"{f.name} must be between 0 and 1")
        if not isinstance(self.fail_next, int):
            raise ValueError("fail_next must be an integer")
        if sum(getattr(self, name) for name, _ in _EXCLUSIVE_RATES) > 1 + 1e-9:
            raise ValueError("the five *_rate faults exclude each other: their sum must not exceed 1")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FaultPlan:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown fault plan fields: {', '.join(unknown)}")
        return cls(**dict(data))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class FaultDice:
    """The running state of a plan: how many forced failures remain, and the generator.

    Not thread-safe by itself; the emulator calls it under its state lock.
    """

    def __init__(self, plan: FaultPlan | None = None) -> None:
        self.plan = plan or FaultPlan()
        self._fail_left = self.plan.fail_next
        self._rng = random.Random(self.plan.seed)
        self._any_rate = any(getattr(self.plan, name) > 0 for name, _ in _EXCLUSIVE_RATES)

    def extra_delay(self) -> float:
        """Seconds to wait before handling a request (latency for all, plus the slow share)."""
        plan = self.plan
        delay = plan.latency_ms
        if plan.slow_rate > 0 and self._rng.random() < plan.slow_rate:
            delay += plan.slow_ms
        return delay / 1000.0

    def draw(self) -> Fault | None:
        """The fault for one send that got past validation, 409 and the rate limit."""
        if self._fail_left > 0:
            self._fail_left -= 1
            return "error"
        if not self._any_rate:
            return None
        # One draw over stacked intervals keeps the kinds exclusive and the sequence reproducible.
        point = self._rng.random()
        edge = 0.0
        for name, fault in _EXCLUSIVE_RATES:
            edge += getattr(self.plan, name)
            if point < edge:
                return fault
        return None
