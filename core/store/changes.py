"""Hearing what other processes committed: their changes become this process's events within seconds.

A shift confirmed from the command line, or on another computer sharing a PostgreSQL server, must
be planned by the sender that is already running, and shown by an open window, without waiting for
their next timed run. Every transaction that emits an event other processes care about bumps that
topic's counter in the `changes` table (core/store/events.py, core/store/db.py). A watcher here
compares the counters with the values it saw last and delivers the topic's event, with the coarse
payload "some" (`ShiftsChanged(shift_ids=None)`), to the same listeners this process's own commits
reach.

Looking is cheap. On SQLite, `PRAGMA data_version` on one connection kept for it changes only when
another connection committed, so most looks read nothing else; it moves for this process's other
connections too, which is why the counters, not data_version, decide: a value this process's own
commit reached (the bus remembers them) is not heard again. On PostgreSQL a bump also sends NOTIFY
on `shiftcast_changes`, which wakes the watcher at once; the counters are read on every look too, so
a lost listening connection only makes it hear a change at the next look.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from typing import Any

from core.store import events as store_events
from core.store.db import CHANGES_CHANNEL, COUNTERS, Database, Listener, change_counters, sqlite_file_of

log = logging.getLogger(__name__)
LOOK_EVERY_S = 1.0  # how soon another process's change is heard at the latest


class ChangeWatcher:
    """Looks for other processes' changes to `db` (`look`, or every `every` seconds on its own thread)."""

    def __init__(self, db: Database, *, every: float = LOOK_EVERY_S) -> None:
        self.db = db
        self.every = every
        self.heard = 0  # events delivered from elsewhere: how a test knows they came this way
        self._file = sqlite_file_of(db.url) if db.is_sqlite else None
        self._version_connection: sqlite3.Connection | None = None
        self._data_version: int | None = None
        self._seen: dict[str, int] | None = None
        self._look_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._listener: Listener | None = None
        db.events.watched()

    def look(self) -> list[Any]:
        """Deliver the events of what others committed since the last look; returns them. The first
        look only learns where the counters stand."""
        with self._look_lock:
            if not self._moved():
                return []
            current = self._counters()
            seen, self._seen = self._seen, current
            if seen is None:
                return []
            heard = [store_events.TOPICS[topic]() for topic, value in sorted(current.items())
                     if topic in store_events.TOPICS and value != seen.get(topic, 0)
                     and self.db.events.foreign(topic, seen.get(topic, 0), value)]
        if heard:
            log.info("heard changes from another process: %s", ", ".join(type(e).__name__ for e in heard))
            self.heard += len(heard)
            self.db.events.deliver(heard)
        return heard

    def _moved(self) -> bool:
        """Could anything have been committed since the last look? (SQLite can tell cheaply.)"""
        if self._file is None:
            return True
        if self._version_connection is None:
            self._version_connection = sqlite3.connect(self._file, isolation_level=None, check_same_thread=False)
        version = int(self._version_connection.execute("PRAGMA data_version").fetchone()[0])
        moved = version != self._data_version
        self._data_version = version
        return moved

    def _counters(self) -> dict[str, int]:
        if self._version_connection is not None:
            return change_counters(self._version_connection.execute(COUNTERS))
        with self.db.engine.connect() as connection:
            return change_counters(connection.exec_driver_sql(COUNTERS))

    # ----- on its own thread -----

    def start(self) -> ChangeWatcher:
        self._stop.clear()
        try:
            self.look()  # where the counters stand now: what comes later is news
        except Exception as exc:  # noqa: BLE001 - a server away at start-up: the thread's looks try again
            log.warning("could not look for other processes' changes: %s", exc)
        self._thread = threading.Thread(target=self._run, name="shiftcast-changes", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        with self._look_lock:
            if self._version_connection is not None:
                self._version_connection.close()
                self._version_connection = None
        self._close_listener()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wait()
            if self._stop.is_set():
                break
            try:
                self.look()
            except Exception as exc:  # noqa: BLE001 - a server away for a while, a busy file: the next look tries again
                log.warning("could not look for other processes' changes: %s", exc)

    def _wait(self) -> None:
        """Until the next look: NOTIFY or `every` seconds on PostgreSQL, `every` seconds on SQLite."""
        if self.db.is_sqlite:
            self._stop.wait(self.every)
            return
        try:
            if self._listener is None:
                self._listener = Listener(self.db.connect_url, CHANGES_CHANNEL)
            self._listener.wait(self.every)
        except Exception as exc:  # noqa: BLE001 - listen again at the next wait; the counters still tell
            log.info("not listening for other processes' changes (%s); looking every %.1f s", exc, self.every)
            self._close_listener()
            self._stop.wait(self.every)

    def _close_listener(self) -> None:
        if self._listener is not None:
            try:
                self._listener.close()
            except Exception:  # noqa: BLE001 - it is gone either way
                pass
            self._listener = None
