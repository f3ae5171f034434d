"""Garbage collection for a process with a window: only on the UI thread, and never a stutter.

Only the UI thread collects. CPython's collector runs on whichever thread happens to allocate when
a threshold is crossed: the sender's, a background task's. A cycle holding a Qt object (a widget
with its closures, a connection's receiver) collected there destroys that object on the wrong
thread, while the UI thread may be delivering an event to it: a crash, or an answer that never
arrives and a view that waits for ever. So the automatic collector stays off in the window's
process, and a timer on the UI thread collects instead (as Anki does for the same reason).

And without a stutter: a full collection walks every container object; with the Deliveries view
holding tens of thousands of rows it took 50–90 ms (measured by `make bench`). Objects alive after
start-up (modules, widgets, the loaded rows) are moved out of the collector's sight, the young
generations are collected often and cheaply, and the whole heap rarely. Reference counting still
frees almost everything at once; only cycles wait a little.
"""

from __future__ import annotations

import gc

import shiboken6
from PySide6.QtCore import QObject, QTimer

from core.startup import resume_collector

YOUNG_EVERY_MS = 1_000
YOUNG_AFTER = 10_000  # allocations since the last collection; CPython's own threshold is 700
FULL_EVERY = 300  # young rounds, so about five minutes


class UiThreadCollector(QObject):
    """Collects cycles on the UI thread, with the automatic collector off."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rounds = 0
        self._timer = QTimer(self)
        self._timer.setInterval(YOUNG_EVERY_MS)
        self._timer.timeout.connect(self.collect)

    def start(self) -> None:
        gc.collect()
        gc.freeze()
        resume_collector(automatic=False)  # the start-up pause ends here, handed to this timer
        gc.disable()
        self._timer.start()

    def collect(self) -> None:
        self._rounds += 1
        if self._rounds >= FULL_EVERY:
            self._rounds = 0
            gc.collect()
        elif gc.get_count()[0] >= YOUNG_AFTER:
            gc.collect(1)


_collector: UiThreadCollector | None = None


def tune_for_interactivity(parent: QObject) -> UiThreadCollector:
    """Once per process (a window opened again in the same process keeps the one collector)."""
    global _collector
    if _collector is None or not shiboken6.isValid(_collector):
        _collector = UiThreadCollector(parent)
    _collector.start()
    return _collector
