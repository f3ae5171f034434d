"""The one way widgets run database and network work off the UI thread.

    ctx.tasks.run(lambda: slow_call(), on_done=self.show, on_error=self.complain, owner=self)

`fn` runs on a pool thread and must not touch widgets; `on_done` / `on_error` run on the UI thread.
One pool for all such work (why: SQLite and LINE calls are short and I/O bound; two cores gain
nothing from more than a few threads, and a bounded pool keeps a burst from starving the sender).

Every widget passes itself as `owner`: a window may be closed while its work still runs, and the late
answer must not touch the deleted widget, so it is dropped here — widgets write no guards of their own.
Work that a newer request makes pointless (the preview of a month the pickers already left) also
names a kind, `latest="preview"`: only the newest task of that owner and kind answers.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Hashable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

log = logging.getLogger(__name__)


class _Relay(QObject):
    done = Signal(object)
    failed = Signal(object)
    job: QRunnable | None = None


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
        self._newest: dict[tuple[int | None, Hashable], int] = {}  # (owner, kind) → its newest task
        self._numbers = itertools.count(1)
        self.error_handler: Callable[[BaseException], None] | None = None

    def run(
        self,
        fn: Callable[[], Any],
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        *,
        owner: QObject | None = None,
        latest: Hashable | None = None,
    ) -> None:
        """Run `fn` on the pool; hand its result to `on_done`, or what it raised to `on_error`.

        `fn` runs on a pool thread and must not touch widgets. The callbacks run on the UI thread,
        and only if `owner` (the widget that asked) has not been deleted meanwhile. With `latest`,
        a key naming a kind of request, they also run only for the newest such task of `owner`;
        the answers of older ones still running are dropped, errors included. An error without
        `on_error` goes to `error_handler`, or to the log. A dropped error is logged, never raised.
        """
        relay = _Relay()  # created on the UI thread, so its signals are delivered there
        self._relays.add(relay)
        kind = (self._key(owner), latest) if latest is not None else None
        number = next(self._numbers)
        if kind is not None:
            self._newest[kind] = number

        def wanted() -> bool:
            self._relays.discard(relay)
            if kind is not None:
                if self._newest.get(kind) != number:
                    return False  # superseded by a newer request of the same kind
                del self._newest[kind]
            return owner is None or shiboken6.isValid(owner)

        def finished(result: Any) -> None:
            if wanted() and on_done is not None:
                on_done(result)

        def failed(exc: BaseException) -> None:
            if not wanted():
                log.info("dropped the error of a background task nobody waits for any more: %r", exc)
                return
            handler = on_error or self.error_handler
            if handler is not None:
                handler(exc)
            else:
                log.error("background task failed: %r", exc)

        relay.done.connect(finished)
        relay.failed.connect(failed)
        job = _Job(fn, relay)
        # Python owns the job until its answer is handled (the relay lives in self._relays until then),
        # not the pool: a wrapper collected before a pool thread took it would never run.
        job.setAutoDelete(False)
        relay.job = job
        self.pool.start(job)

    def supersede(self, owner: QObject | None, latest: Hashable) -> None:
        """Drop the answers of `owner`'s tasks of kind `latest` still running, as a newer request
        would (for a widget that has nothing to ask any more, e.g. no classroom is picked)."""
        self._newest.pop((self._key(owner), latest), None)

    @staticmethod
    def _key(owner: QObject | None) -> int | None:
        # id() is safe: an entry lives only while its task runs, and the task's callbacks hold the owner.
        return id(owner) if owner is not None else None

    def wait(self, msecs: int = 30_000) -> bool:
        """Wait for every queued task (tests and shutdown)."""
        return self.pool.waitForDone(msecs)

    @property
    def pending(self) -> int:
        return len(self._relays)
