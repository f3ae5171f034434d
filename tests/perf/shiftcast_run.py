"""Shiftcast's own sender draining the outbox, started as the app starts it (its background thread)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from core.channels.line import LineAccess, LineClient
from core.sending.sender import Sender, SenderConfig, SenderEvents
from core.store.db import Database
from core.store.secrets import fingerprint
from tests.perf.figures import RunFigures, Stopwatch
from tests.perf.workload import paths_of


def line_access(base_url: str, token: str) -> LineAccess:
    return LineAccess(LineClient(token, base_url=base_url), fingerprint(token))


def drain(db: Database, base_url: str, token: str, *, count: int, concurrency: int,
          ready: Callable[[], None], timeout: float = 300.0) -> RunFigures:
    """Start a Sender, stop the clock when the turn that records the last send has committed."""
    done = threading.Event()
    watch = Stopwatch()
    sender: Sender

    def changed(_ids: list[int]) -> None:
        # Called on the sender thread after each turn's transaction committed.
        if sender.stats.sent >= count and not done.is_set():
            watch.stop()
            done.set()

    access = line_access(base_url, token)
    sender = Sender(db, connect={"line": lambda: access}, paths=paths_of(db), config=SenderConfig(concurrency=concurrency),
                    events=SenderEvents(deliveries_changed=[changed]))
    # Running, as in the app, before the work comes due: paused until the clock starts, so the
    # sender's start (once per app start) is not counted as sending time.
    sender.pause()
    sender.start()
    if not sender.ready.wait(30):
        raise TimeoutError("the sender did not start")
    ready()
    watch.start()
    sender.pause(False)
    finished = done.wait(timeout)
    sender.stop()
    if not finished:
        raise TimeoutError(f"the sender sent {sender.stats.sent} of {count} in {timeout:.0f} s: {sender.stats}")
    if sender.stats.sent != count or sender.stats.retried or sender.stats.failed:
        raise AssertionError(f"unexpected sender outcome: {sender.stats}")
    turns = sender.stats.turns
    return watch.figures(count, turns=turns, deliveries_per_turn=round(count / turns, 1))
