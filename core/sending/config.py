"""What the sender's parts share: its configuration, its counters and its callbacks.

A module of its own so that the parts (turn, prepare, submit, record) can name them without
importing the sender that composes them; core/sending/sender.py re-exports all three.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field, fields

from sqlalchemy.orm import Session

from core.outbox.policy import BackoffPolicy
from core.store import setting_keys as keys
from core.texts import Text

# Rounds of requests a sender keeps in flight (its concurrency times this).
IN_FLIGHT_ROUNDS = 8


@dataclass(frozen=True)
class SenderConfig:
    concurrency: int = 16
    lease: dt.timedelta = dt.timedelta(minutes=2)  # well above the HTTP client's timeouts
    poll_interval: float = 2.0  # how soon another process's enqueue is noticed
    backoff: BackoffPolicy = BackoffPolicy()
    # While the pool still has sends waiting for a thread, the loop pauses this long between turns
    # so results gather into fewer, larger transactions; the waiting sends keep every thread busy.
    batch_window: float = 0.05

    @classmethod
    def from_settings(cls, session: Session) -> SenderConfig:
        """Overrides kept in the settings table (for support and tests); defaults otherwise."""
        backoff = BackoffPolicy()
        base, retries = keys.SENDER_BACKOFF_BASE_SECONDS.read(session), keys.SENDER_MAX_RETRIES.read(session)
        if base is not None:
            backoff = BackoffPolicy(base=dt.timedelta(seconds=base), max_retries=backoff.max_retries,
                                    throttle_delay=dt.timedelta(seconds=min(5.0, base)))
        if retries is not None:
            backoff = BackoffPolicy(base=backoff.base, max_retries=retries, throttle_delay=backoff.throttle_delay)
        lease, poll = keys.SENDER_LEASE_SECONDS.read(session), keys.SENDER_POLL_SECONDS.read(session)
        conc = keys.SENDER_CONCURRENCY.read(session)
        return cls(
            concurrency=conc if conc is not None else cls.concurrency,
            lease=dt.timedelta(seconds=lease) if lease is not None else cls.lease,
            poll_interval=poll if poll is not None else cls.poll_interval,
            backoff=backoff,
        )


@dataclass
class SenderStats:
    sent: int = 0
    retried: int = 0
    failed: int = 0
    canceled: int = 0
    throttled: int = 0
    lost_leases: int = 0
    turns: int = 0

    def absorb(self, turn: SenderStats) -> None:
        """Add what a committed turn counted, and clear it for the next turn."""
        for counter in fields(self):
            setattr(self, counter.name, getattr(self, counter.name) + getattr(turn, counter.name))
        turn.clear()

    def clear(self) -> None:
        for counter in fields(self):
            setattr(self, counter.name, 0)


@dataclass
class SenderEvents:
    """Plain callbacks (the UI bridges them to Qt signals). Called on the sender thread; `alert` also
    on the scheduler's, for incidents its minute watch opens (core/alerts.py)."""

    deliveries_changed: list[Callable[[list[int]], None]] = field(default_factory=list)
    hold_changed: list[Callable[[str | None], None]] = field(default_factory=list)
    alert: list[Callable[[str, Text | str], None]] = field(default_factory=list)

    def emit_changed(self, ids: list[int]) -> None:
        for cb in self.deliveries_changed:
            cb(ids)

    def emit_hold(self, reason: str | None) -> None:
        for cb in self.hold_changed:
            cb(reason)

    def emit_alert(self, code: str, text: Text | str) -> None:
        for cb in self.alert:
            cb(code, text)
