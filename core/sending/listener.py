"""Wake on enqueue across processes and computers: a thread LISTENing for the outbox's NOTIFY.

On PostgreSQL every enqueue signals `shiftcast_outbox` as its transaction commits (core/outbox/queue.py),
so a shift edited on one computer is sent by a sender on another at once instead of at its next poll.
The listener keeps a connection of its own; when that connection drops (a server restart, a network
blip) it connects again after a short, growing pause, LISTENs again, and wakes the sender once,
since anything enqueued meanwhile went unheard. The sender's poll stays as the backup for all of it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from core.store.db import OUTBOX_CHANNEL, Listener

log = logging.getLogger(__name__)
WAIT_S = 1.0  # how often the thread looks at its stop flag while nothing is signalled
RETRY_S = (0.5, 1.0, 2.0, 5.0, 10.0)  # pauses before connecting again, the last one repeated


class OutboxListener:
    def __init__(self, url: Any, on_notify: Callable[[], None], *, channel: str = OUTBOX_CHANNEL) -> None:
        self.url = url
        self.channel = channel
        self.on_notify = on_notify
        self.notified = 0  # notifications received: how a test knows the wake came from one
        self.connects = 0  # successful LISTENs; more than one means it listened again after a drop
        self.listening = threading.Event()  # set while a connection listens
        self.backend_pid: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> OutboxListener:
        self._thread = threading.Thread(target=self._run, name="shiftcast-listener", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                listener = Listener(self.url, self.channel)
            except Exception as exc:  # noqa: BLE001 - the server may be away for a while; the poll still runs
                pause = RETRY_S[min(failures, len(RETRY_S) - 1)]
                failures += 1
                log.warning("cannot listen for new deliveries (%s); trying again in %.1f s", exc, pause)
                self._stop.wait(pause)
                continue
            self.backend_pid = listener.backend_pid
            self.connects += 1
            self.listening.set()
            if self.connects > 1:
                self.on_notify()  # what was enqueued while nobody listened
            failures = 0
            try:
                while not self._stop.is_set():
                    if listener.wait(WAIT_S):
                        self.notified += 1
                        self.on_notify()
            except Exception as exc:  # noqa: BLE001 - a dropped connection: listen again on a new one
                log.info("the listening connection was lost (%s); listening again", exc)
            finally:
                self.listening.clear()
                try:
                    listener.close()
                except Exception:  # noqa: BLE001 - it is gone either way
                    pass
