"""Shiftcast's own sender draining the outbox, started as the app starts it (its background thread)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

from core.channels.line import LineAccess, LineClient
from core.sending.sender import Sender, SenderConfig, SenderEvents
from core.store.db import Database
from core.store.secrets import fingerprint
from tests.perf.figures import RunFigures, Stopwatch


def line_access(base_url: str, token: str) -> LineAccess:
    return LineAccess(LineClient(token, base_url=base_url), fingerprint(token))


def process_cpu_seconds(pid: int | None) -> float:
    """User + system CPU of another process so far (Linux /proc; 0 where unknown)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def drain(db: Database, base_url: str, token: str, *, count: int, concurrency: int,
          ready: Callable[[], None], courier: bool = True, timeout: float = 300.0) -> RunFigures:
    """Start a Sender, stop the clock when the turn that records the last send has committed.

    With `courier` (as `main.py sender` runs), LINE requests go out from the courier process; its
    CPU is added to this process's, so cpu_ms_per_delivery is the whole sender's."""
    done = threading.Event()
    watch = Stopwatch()
    courier_cpu = [0.0, 0.0]
    sender: Sender

    def changed(_ids: list[int]) -> None:
        # Called on the sender thread after each turn's transaction committed.
        if sender.stats.sent >= count and not done.is_set():
            watch.stop()
            courier_cpu[1] = process_cpu_seconds(sender.courier_pid)
            done.set()

    access = line_access(base_url, token)
    sender = Sender(db, lambda: access, config=SenderConfig(concurrency=concurrency, courier=courier),
                    events=SenderEvents(deliveries_changed=[changed]))
    # Running, as in the app, before the work comes due: paused until the clock starts, so the
    # courier's start (a process, once per app start) is not counted as sending time.
    sender.pause()
    sender.start()
    if not sender.ready.wait(30):
        raise TimeoutError("the sender did not start")
    if courier and sender.courier_pid is None:
        raise AssertionError("the courier did not start")
    ready()
    courier_cpu[0] = process_cpu_seconds(sender.courier_pid)
    watch.start()
    sender.pause(False)
    finished = done.wait(timeout)
    sender.stop()
    if not finished:
        raise TimeoutError(f"the sender sent {sender.stats.sent} of {count} in {timeout:.0f} s: {sender.stats}")
    if sender.stats.sent != count or sender.stats.retried or sender.stats.failed:
        raise AssertionError(f"unexpected sender outcome: {sender.stats}")
    if courier and sender.stats.by_courier != count:
        raise AssertionError(f"the courier sent {sender.stats.by_courier} of {count}")
    turns = sender.stats.turns
    used = courier_cpu[1] - courier_cpu[0]
    figures = watch.figures(count, turns=turns, deliveries_per_turn=round(count / turns, 1))
    if not courier:
        return figures
    return RunFigures(figures.deliveries, figures.seconds, figures.cpu_seconds + used, figures.extra | {
        "sender_process_cpu_ms_per_delivery": round(figures.cpu_seconds / count * 1000, 3),
        "courier_cpu_ms_per_delivery": round(used / count * 1000, 3)})
