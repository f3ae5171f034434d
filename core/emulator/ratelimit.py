"""LINE's per-endpoint rate limits as token buckets (real monotonic time, not the emulator clock:
the injected clock jumps days at a time in tests, which would refill every bucket)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

Endpoint = Literal["push", "multicast", "other"]
ENDPOINTS: tuple[Endpoint, ...] = ("push", "multicast", "other")
# From LINE's rate-limit table: push 2,000 req/s, multicast 200 req/s, the read endpoints 2,000 req/s.
DEFAULT_RATES: dict[Endpoint, float | None] = {"push": 2000.0, "multicast": 200.0, "other": 2000.0}


class TokenBucket:
    """Burst of one second's worth (at least one request), refilled continuously."""

    __slots__ = ("_now", "_stamp", "_tokens", "capacity", "rate")

    def __init__(self, rate: float, now: Callable[[], float] = time.monotonic) -> None:
        if not rate > 0:
            raise ValueError("a rate limit must be positive (use None for no limit)")
        self.rate = rate
        self.capacity = max(rate, 1.0)
        self._now = now
        self._tokens = self.capacity
        self._stamp = now()

    def take(self) -> bool:
        stamp = self._now()
        tokens = min(self.capacity, self._tokens + (stamp - self._stamp) * self.rate)
        self._stamp = stamp
        if tokens >= 1.0:
            self._tokens = tokens - 1.0
            return True
        self._tokens = tokens
        return False


class RateLimits:
    """One bucket per endpoint class; None means unlimited. Called under the emulator's state lock."""

    def __init__(self) -> None:
        self._rates: dict[Endpoint, float | None] = dict(DEFAULT_RATES)
        self._buckets: dict[Endpoint, TokenBucket | None] = {}
        self.refill()

    def set(self, endpoint: str, per_second: float | None) -> None:
        if endpoint not in ENDPOINTS:
            raise ValueError(f"unknown rate-limit endpoint {endpoint!r}: use one of {', '.join(ENDPOINTS)}")
        if per_second is not None and (isinstance(per_second, bool) or not per_second > 0):
            raise ValueError("per_second must be a positive number or None")
        name: Endpoint = endpoint
        self._rates[name] = None if per_second is None else float(per_second)
        self._buckets[name] = self._bucket(name)

    def refill(self) -> None:
        self._buckets = {name: self._bucket(name) for name in ENDPOINTS}

    def take(self, endpoint: Endpoint) -> bool:
        bucket = self._buckets[endpoint]
        return True if bucket is None else bucket.take()

    def rates(self) -> dict[Endpoint, float | None]:
        return dict(self._rates)

    def _bucket(self, name: Endpoint) -> TokenBucket | None:
        rate = self._rates[name]
        return None if rate is None else TokenBucket(rate)
