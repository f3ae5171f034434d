"""The monthly message quota and its consumption, which starts again each calendar month (UTC)."""

from __future__ import annotations

import datetime as dt


class MonthlyQuota:
    """limit None is LINE's type "none" (no target limit). Called under the emulator's state lock."""

    def __init__(self) -> None:
        self.limit: int | None = None
        self._used = 0
        self._month: tuple[int, int] | None = None

    def set_limit(self, limit: int | None) -> None:
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
            raise ValueError("the quota limit must be a non-negative integer or None")
        self.limit = limit

    def used(self, now: dt.datetime) -> int:
        self._roll(now)
        return self._used

    def allows(self, cost: int, now: dt.datetime) -> bool:
        self._roll(now)
        return self.limit is None or self._used + cost <= self.limit

    def charge(self, cost: int, now: dt.datetime) -> None:
        self._roll(now)
        self._used += cost

    def clear(self) -> None:
        self._used = 0
        self._month = None

    def to_json(self) -> dict[str, object]:
        return {"type": "none"} if self.limit is None else {"type": "limited", "value": self.limit}

    def _roll(self, now: dt.datetime) -> None:
        utc = now.astimezone(dt.UTC)
        month = (utc.year, utc.month)
        if month != self._month:
            # A clock moved backwards into an earlier month also starts afresh: simpler, and no test
            # needs the old month's number back.
            if self._month is not None:
                self._used = 0
            self._month = month
