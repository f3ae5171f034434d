"""The running sender's syncs with the relay: after each planning change and every minute, on a thread
of their own, so the send loop never waits for the relay.

Nothing happens while no relay is attached (looked up at every round, so attaching or detaching
takes effect without a restart). A failed sync is logged once, then again only when its reason
changes, and its first moment is kept (`relay.unreachable_since`): the minute watch opens an alert
once that is old enough (core/alerts.py) and clears it after the next sync that succeeds.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable

from core.errors import ShiftcastError
from core.relay import images as _images  # noqa: F401 - a sender with a relay sends the month's pictures through it
from core.relay import settings, sync
from core.store import events
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.paths import DataPaths

log = logging.getLogger(__name__)
EVERY_S = 60.0
Clock = Callable[[], dt.datetime]


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class RelaySyncer:
    """A companion of the sending engine (core/sending/engine.py `Companion`)."""

    def __init__(self, db: Database, paths: DataPaths, *, every: float = EVERY_S, clock: Clock = _utc_now) -> None:
        self._db, self._paths, self._every, self._clock = db, paths, every, clock
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._stop_listening: list[Callable[[], None]] = []
        self._problem: str | None = None  # the failure last logged
        self.rounds = 0  # syncs tried since the start (tests wait on it)

    def start(self, sender: str) -> None:
        for kind in (events.ShiftsChanged, events.DeliveriesEnqueued):
            self._stop_listening.append(self._db.events.listen(kind, lambda _event: self._wake.set()))
        self._thread = threading.Thread(target=self._run, args=(sender,), name="relay-sync", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 30.0) -> None:
        for remove in self._stop_listening:
            remove()
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self, sender: str) -> None:
        while not self._stopping.is_set():
            self._wake.clear()
            self.round(sender)
            self._wake.wait(self._every)

    def round(self, sender: str) -> sync.Summary | None:
        """One sync if a relay is attached; None when none is, or when it failed (logged)."""
        now = self._clock()
        try:
            relay = settings.client(self._db)
            if relay is None:
                self._reachable(now, attached=False)
                return None
            with relay:
                summary = sync.sync(self._db, relay, now=now, paths=self._paths, sender=sender)
            settings.remember_sync(self._db, {"at": now.isoformat(), **summary.as_dict()})
        except Exception as exc:  # noqa: BLE001 - the relay, the network or the keyring: the sender goes on
            self._unreachable(now, exc)
            return None
        finally:
            self.rounds += 1
        self._reachable(now, attached=True)
        return summary

    def _unreachable(self, now: dt.datetime, exc: Exception) -> None:
        problem = str(exc.text) if isinstance(exc, ShiftcastError) else f"{type(exc).__name__}: {exc}"
        if problem != self._problem:
            log.warning("relay sync failed: %s", problem)
            self._problem = problem
        try:
            with self._db.write() as session:
                if keys.RELAY_UNREACHABLE_SINCE.read(session) is None:
                    keys.RELAY_UNREACHABLE_SINCE.write(session, now.astimezone(dt.UTC).isoformat())
        except ShiftcastError as stored:  # the database itself: the sender says so on its own
            log.warning("could not record the relay's failure: %s", stored)

    def _reachable(self, now: dt.datetime, *, attached: bool) -> None:
        if self._problem is not None:
            log.info("relay sync %s", "works again" if attached else "stopped: no relay is attached")
            self._problem = None
        with self._db.read() as session:
            failing = keys.RELAY_UNREACHABLE_SINCE.read(session) is not None
        if failing:
            with self._db.write() as session:
                keys.RELAY_UNREACHABLE_SINCE.write(session, None)


def companions(db: Database, paths: DataPaths) -> list[RelaySyncer]:
    """What a sending engine runs beside its sender for the relay (Engine(companions=…))."""
    return [RelaySyncer(db, paths)]
