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
import weakref
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from dataclasses import dataclass
from typing import Any

import shiboken6
from PySide6.QtCore import QObject

from ui.services import ui_thread

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Waiting:
    """What the UI thread does with one task's answer."""
    owner: QObject | None
    kind: tuple[int | None, Hashable] | None
    on_done: Callable[[Any], None] | None
    on_error: Callable[[BaseException], None] | None
    future: Future[None]


# A task's function and its answer travel in a one-item list, the carry, that only the UI thread
# empties: whatever they hold (a view's closure, a traceback's frames) is released there, never on a
# pool thread, where freeing the last reference to a Qt object would destroy it on the wrong thread.
_Carry = list[Any]


def _answer(tasks_ref: weakref.ref[Tasks], number: int, carry: _Carry) -> None:
    """On the UI thread: hand one task's answer to its callbacks."""
    tasks = tasks_ref()
    try:
        if tasks is not None:
            tasks._handle(number, carry)
    finally:
        carry.clear()


def _perform(tasks_ref: weakref.ref[Tasks], number: int, carry: _Carry) -> None:
    """On a pool thread: run the function, leave its answer in the carry, and post it to the UI
    thread (ui_thread: a pool thread never calls Qt, so it can never hold the GIL in a Qt lock)."""
    try:
        carry.append((True, carry[0]()))
    except BaseException as exc:  # noqa: BLE001 - handed to the UI thread, never lost
        carry.append((False, exc))
    ui_thread.post(_answer, tasks_ref, number, carry)


class Tasks(QObject):
    def __init__(self, parent: QObject | None = None, *, max_threads: int = 4) -> None:
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_threads, thread_name_prefix="shiftcast-task")
        ui_thread.install()
        self._waiting: dict[int, _Waiting] = {}
        self._newest: dict[tuple[int | None, Hashable], int] = {}  # (owner, kind) → its newest task
        self._numbers = itertools.count(1)
        self.error_handler: Callable[[BaseException], None] | None = None
        self._closed = False

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
        if self._closed:
            log.info("a task asked for after the pool was shut down was not run: %r", fn)
            return  # the window is closing: a widget's late refresh has nobody to show it to
        kind = (self._key(owner), latest) if latest is not None else None
        number = next(self._numbers)
        if kind is not None:
            self._newest[kind] = number
        future = self._pool.submit(_perform, weakref.ref(self), number, [fn])
        self._waiting[number] = _Waiting(owner, kind, on_done, on_error, future)

    def _handle(self, number: int, carry: _Carry) -> None:
        waiting = self._waiting.pop(number, None)
        if waiting is None:
            return
        if self._closed:
            log.info("dropped the answer of a background task that finished after the pool was shut down")
            return  # its window is gone or closing: a late callback (a quit, an error box) must not run
        ok, value = carry[1]
        wanted = True
        if waiting.kind is not None:
            if self._newest.get(waiting.kind) != number:
                wanted = False  # superseded by a newer request of the same kind
            else:
                del self._newest[waiting.kind]
        if wanted and waiting.owner is not None:
            wanted = shiboken6.isValid(waiting.owner)
        if ok:
            if wanted and waiting.on_done is not None:
                waiting.on_done(value)
            return
        if not wanted:
            log.info("dropped the error of a background task nobody waits for any more: %r", value)
            return
        handler = waiting.on_error or self.error_handler
        if handler is not None:
            handler(value)
        else:
            log.error("background task failed: %r", value)

    def supersede(self, owner: QObject | None, latest: Hashable) -> None:
        """Drop the answers of `owner`'s tasks of kind `latest` still running, as a newer request
        would (for a widget that has nothing to ask any more, e.g. no classroom is picked)."""
        self._newest.pop((self._key(owner), latest), None)

    @staticmethod
    def _key(owner: QObject | None) -> int | None:
        # id() is safe: an entry lives only while its task runs, and the task's callbacks hold the owner.
        return id(owner) if owner is not None else None

    def wait(self, msecs: int = 30_000) -> bool:
        """Wait for every queued task to finish its work (tests and shutdown); the answers still
        reach the UI thread through its event loop."""
        futures = [w.future for w in self._waiting.values()]
        return not wait_for(futures, timeout=msecs / 1000).not_done

    def shutdown(self) -> None:
        """Let the pool's threads end once their work is done. A task asked for later is not run, and
        the answers not yet handled are dropped: nobody waits for them any more."""
        self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=False)

    @property
    def pending(self) -> int:
        return len(self._waiting)
