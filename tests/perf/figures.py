"""What one throughput run measured, and the stopwatch every contender is timed with."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RunFigures:
    deliveries: int
    seconds: float
    cpu_seconds: float  # this process (the code under test; the emulator runs in another one)
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def per_second(self) -> float:
        return self.deliveries / self.seconds

    def to_json(self) -> dict[str, float]:
        return {
            "deliveries_per_s": round(self.per_second, 1),
            "seconds": round(self.seconds, 3),
            "cpu_ms_per_delivery": round(self.cpu_seconds / self.deliveries * 1000, 3),
        } | self.extra


def percentile(values: list[float], fraction: float) -> float:
    """The sample at `fraction` of the sorted values (nearest rank; 0.5 is the median)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


class Stopwatch:
    """Wall and CPU time between start() and stop()."""

    def __init__(self) -> None:
        self._wall = self._cpu = 0.0
        self.wall = self.cpu = 0.0

    def start(self) -> Stopwatch:
        self._wall, self._cpu = time.perf_counter(), time.process_time()
        return self

    def stop(self) -> Stopwatch:
        self.wall = time.perf_counter() - self._wall
        self.cpu = time.process_time() - self._cpu
        return self

    def figures(self, deliveries: int, **extra: float) -> RunFigures:
        return RunFigures(deliveries, self.wall, self.cpu, extra)
