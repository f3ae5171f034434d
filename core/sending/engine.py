"""The sending engine of one data folder: the sender, the scheduler and the watcher of other processes'
changes, started together by every mode that sends (window, tray, headless `main.py sender`), behind
the one-sender-per-folder lock on SQLite (on a PostgreSQL server several senders share the work;
core/sending/lock.py). The watcher is what makes a shift confirmed from the command line or another
computer planned within seconds: it delivers their ShiftsChanged to the scheduler as if made here.
The window runs the watcher itself, sending or not, and starts its engine without one."""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from core.channels import line_reach
from core.planning import forecast
from core.sending.lock import SenderLock, one_sender_only
from core.sending.scheduler import Scheduler
from core.sending.sender import Sender, SenderConfig, SenderEvents
from core.store.changes import ChangeWatcher
from core.store.db import Database
from core.store.models import utcnow
from core.store.paths import DataPaths

log = logging.getLogger(__name__)
# In the window and the tray, sending threads compete with the UI thread for Python's lock. Measured
# with the Deliveries view open while 5,000 deliveries drained: 16 threads stalled the window up to
# 64 ms, 4 threads at most 28 ms, in the same total time (docs/performance.md). A classroom sends
# dozens of messages at a time, not thousands, so four are plenty there; `main.py sender` keeps 16.
WINDOW_SEND_THREADS = 4


class Companion(Protocol):
    """Work that runs beside a started sender and ends before it (the relay's sync, core/relay/syncer.py),
    made by a layer above sending, which the engine cannot import."""

    def start(self, sender: str) -> None: ...  # `sender`: the sender's name, as its heartbeats give it

    def stop(self) -> None: ...


@dataclass
class Engine:
    db: Database
    paths: DataPaths
    events: SenderEvents = field(default_factory=SenderEvents)
    sender: Sender | None = None
    scheduler: Scheduler | None = None
    lock: SenderLock | None = None
    watcher: ChangeWatcher | None = None
    started_at: dt.datetime | None = None  # sending since (None while paused)
    # None: the sender's own default. The window passes a smaller number (see WINDOW_SEND_THREADS).
    send_threads: int | None = None
    app: str = "sender"  # which part of Shiftcast sends, as the other senders see it (core/sending/presence.py)
    # Hear other processes' changes while sending. The window runs its own watcher, sending or not.
    watch: bool = True
    companions: Sequence[Companion] = ()

    def start(self) -> bool:
        """Start sending unless another process already sends from this folder. True if started."""
        if one_sender_only(self.db):
            self.lock = SenderLock(self.paths.home / "sender.lock")
            if not self.lock.acquire():
                log.info("another Shiftcast process is already sending from %s", self.paths.home)
                return False
        with self.db.read() as session:
            config = SenderConfig.from_settings(session)
        if self.send_threads is not None:
            config = dataclasses.replace(config, concurrency=self.send_threads)
        self.sender = Sender(self.db, paths=self.paths, events=self.events, config=config, app=self.app).start()
        self.started_at = utcnow()
        self.scheduler = Scheduler(self.db, wake_sender=self.sender.wake, refresh_quota=self._refresh_quota,
                                   on_alert=self.events.emit_alert, sending_since=self._sending_since,
                                   check_line_reach=self._check_line_reach).start()
        if self.watch:
            self.watcher = ChangeWatcher(self.db).start()
        for companion in self.companions:
            companion.start(self.sender.owner)
        return True

    def _sending_since(self) -> dt.datetime | None:
        """Since when the sender has been sending without a pause (the stall alert counts from then).
        A pause is the manager's choice, not a stall; a backlog it left starts counting at resume."""
        if self.sender is None or self.sender.paused:
            self.started_at = None
            return None
        if self.started_at is None:
            self.started_at = utcnow()
        return self.started_at

    def _check_line_reach(self) -> None:
        try:
            line_reach.check_all(self.db, now=utcnow())
        except Exception as exc:  # noqa: BLE001 - a daily check; the next day tries again
            log.warning("could not check which LINE IDs LINE can reach: %s", exc)

    @property
    def sending(self) -> bool:
        return self.sender is not None

    def _refresh_quota(self) -> None:
        try:
            forecast.refresh_quota(self.db)
        except Exception as exc:  # noqa: BLE001 - the quota is informative; never stop sending for it
            log.warning("could not refresh the LINE quota: %s", exc)

    def stop(self) -> None:
        if self.sender is not None:
            for companion in self.companions:
                companion.stop()
        if self.watcher is not None:
            self.watcher.stop()
        if self.scheduler is not None:
            self.scheduler.shutdown()
        if self.sender is not None:
            self.sender.stop()
        if self.lock is not None:
            self.lock.release()
        self.sender = self.scheduler = self.watcher = None
