"""The one way widgets run database and network work off the UI thread.

    ctx.tasks.run(lambda: slow_call(), on_done=show, on_error=complain)

`fn` runs on a pool thread and must not touch widgets; `on_done` / `on_error` run on the UI thread.
One pool for all such work (why: SQLite and LINE calls are short and I/O bound; two cores gain
nothing from more than a few threads, and a bounded pool keeps a burst from starving the sender).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

log = logging.getLogger(__name__)


class _Relay(QObject):
    done = Signal(object)
    failed = Signal(object)


class _Job(QRunnable):
    def __init__(self, fn: Callable[[], Any], relay: _Relay) -> None:
        super().__init__()
        self.fn = fn
        self.relay = relay

    def run(self) -> None:
        try:
            result = self.fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the UI thread, never lost
            self.relay.failed.emit(exc)
        else:
            self.relay.done.emit(result)


class Tasks(QObject):
    def __init__(self, parent: QObject | None = None, *, max_threads: int = 4) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max_threads)
        self._relays: set[_Relay] = set()
        self.error_handler: Callable[[BaseException], None] | None = None

    def run(
        self,
        fn: Callable[[], Any],
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        *,
        owner: QObject | None = None,
    ) -> None:
        """With `owner`, the callbacks are dropped if that widget was deleted meanwhile (a window
        closed while its load was still running must not be touched by the late result)."""
        relay = _Relay()  # created on the UI thread, so its signals are delivered there
        self._relays.add(relay)

        def gone() -> bool:
            return owner is not None and not shiboken6.isValid(owner)

        def finished(result: Any) -> None:
            self._relays.discard(relay)
            if on_done is not None and not gone():
                on_done(result)

        def failed(exc: BaseException) -> None:
            self._relays.discard(relay)
            if gone():
                return
            handler = on_error or self.error_handler
            if handler is not None:
                handler(exc)
            else:
                log.error("background task failed: %r", exc)

        relay.done.connect(finished)
        relay.failed.connect(failed)
        self.pool.start(_Job(fn, relay))

    def wait(self, msecs: int = 30_000) -> bool:
        """Wait for every queued task (tests and shutdown)."""
        return self.pool.waitForDone(msecs)

    @property
    def pending(self) -> int:
        return len(self._relays)
