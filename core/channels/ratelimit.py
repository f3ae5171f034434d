"""Client-side token bucket per LINE endpoint, so Shiftcast stays under LINE's published limits."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class TokenBucket:
    """`rate` requests per second with bursts up to `burst`. Thread-safe; `acquire` blocks briefly.

    After a 429 `slow_down()` halves the rate; it climbs back to the published rate over `recovery`
    seconds, so one burst of throttling does not leave the sender slow for good.
    """

    def __init__(self, rate: float, *, burst: float | None = None, recovery: float = 30.0,
                 monotonic: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
        self.max_rate = rate
        self.rate = rate
        self.burst = burst if burst is not None else max(1.0, rate / 10)
        self.recovery = recovery
        self._tokens = self.burst
        self._monotonic = monotonic
        self._sleep = sleep
        self._last = monotonic()
        self._lock = threading.Lock()

    def _refill(self, now: float) -> None:
        elapsed = now - self._last
        self._last = now
        if self.rate < self.max_rate:
            self.rate = min(self.max_rate, self.rate + self.max_rate * elapsed / self.recovery)
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)

    def try_acquire(self) -> float:
        """Take a token and return 0, or return how long to wait for one."""
        with self._lock:
            self._refill(self._monotonic())
            if self._tokens >= 1:
                self._tokens -= 1
                return 0.0
            return (1 - self._tokens) / self.rate

    def acquire(self) -> None:
        while (wait := self.try_acquire()) > 0:
            self._sleep(wait)

    def slow_down(self) -> None:
        with self._lock:
            self.rate = max(self.max_rate / 64, self.rate / 2)
