"""The sending engine of one data folder: the sender and the scheduler, started together by every
mode that sends (window, tray, headless `main.py sender`), behind the one-sender-per-folder lock."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from core import forecast
from core.channels.line import access_from_settings
from core.db import Database
from core.paths import DataPaths
from core.scheduler import Scheduler
from core.sender import Sender, SenderEvents
from core.sender_lock import SenderLock

log = logging.getLogger(__name__)


@dataclass
class Engine:
    db: Database
    paths: DataPaths
    events: SenderEvents = field(default_factory=SenderEvents)
    sender: Sender | None = None
    scheduler: Scheduler | None = None
    lock: SenderLock | None = None

    def start(self) -> bool:
        """Start sending unless another process already sends from this folder. True if started."""
        self.lock = SenderLock(self.paths.home / "sender.lock")
        if not self.lock.acquire():
            log.info("another Shiftcast process is already sending from %s", self.paths.home)
            return False
        self.sender = Sender(self.db, lambda: access_from_settings(self.db), events=self.events).start()
        self.scheduler = Scheduler(self.db, wake_sender=self.sender.wake,
                                   refresh_quota=self._refresh_quota).start()
        return True

    @property
    def sending(self) -> bool:
        return self.sender is not None

    def _refresh_quota(self) -> None:
        try:
            forecast.refresh_quota(self.db)
        except Exception as exc:  # noqa: BLE001 - the quota is informative; never stop sending for it
            log.warning("could not refresh the LINE quota: %s", exc)

    def stop(self) -> None:
        if self.scheduler is not None:
            self.scheduler.shutdown()
        if self.sender is not None:
            self.sender.stop()
        if self.lock is not None:
            self.lock.release()
        self.sender = self.scheduler = None
