"""Waiting for what the program does, never for time to pass.

A test waits for a signal the program gives (a line it prints, a row it writes, a widget that shows),
and fails only when that signal has not come for a long while. The deadline is generous on purpose:
the suite runs on slow 2-core machines shared with other work, where a step that takes a tenth of a
second alone can take many seconds. Waiting costs nothing when the signal comes sooner.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import cast

from pytestqt.qtbot import QtBot

# How long a test waits for a signal before it fails.
PATIENCE_S = 60.0
PATIENCE_MS = int(PATIENCE_S * 1000)


def wait_until(condition: Callable[[], bool], timeout: float = PATIENCE_S, pause: float = 0.02) -> bool:
    """Is `condition()` true within `timeout` seconds? Asked every `pause` seconds; True at once if it
    already is, and the last answer once the time is up (the caller asserts it, with its own message)."""
    deadline = time.monotonic() + timeout
    gate = threading.Event()  # a pause that no signal handler can cut short into a busy loop
    while not condition():
        if time.monotonic() >= deadline:
            return condition()
        gate.wait(pause)
    return True


class PatientQtBot(QtBot):
    """pytest-qt's bot whose waits that fail a test give the window at least PATIENCE_MS.

    The tests' own timeouts (and pytest-qt's 5 s default) were written for an idle machine; on a busy
    one a layout or a background task's answer comes later, and the wait would fail the test for
    being slow instead of wrong. A wait that does not fail (`raising=False`, `qtbot.wait(ms)`,
    `assertNotEmitted`) keeps its time: there the time is what is tested. (QtBot binds its pep-8
    aliases, `wait_until` and the others, to these in its constructor.)"""

    def waitUntil(self, callback: Callable[[], bool | None], *, timeout: int = PATIENCE_MS) -> None:
        __tracebackhide__ = True
        super().waitUntil(callback, timeout=max(timeout, PATIENCE_MS))


    def waitSignal(self, signal=None, *, timeout=PATIENCE_MS, raising=None, check_params_cb=None):
        return super().waitSignal(signal, timeout=_patient(timeout, raising), raising=raising,
                                  check_params_cb=check_params_cb)


    def waitSignals(self, signals=None, *, timeout=PATIENCE_MS, raising=None, check_params_cbs=None,
                    order="none"):
        return super().waitSignals(signals, timeout=_patient(timeout, raising), raising=raising,
                                   check_params_cbs=check_params_cbs, order=order)


    def waitExposed(self, widget, *, timeout=PATIENCE_MS):
        return super().waitExposed(widget, timeout=max(timeout, PATIENCE_MS))


    def waitActive(self, widget, *, timeout=PATIENCE_MS):
        return super().waitActive(widget, timeout=max(timeout, PATIENCE_MS))


    def waitCallback(self, *, timeout=PATIENCE_MS, raising=None):
        return super().waitCallback(timeout=_patient(timeout, raising), raising=raising)



def _patient(timeout: int | None, raising: bool | None) -> int:
    """A wait that fails the test on timeout gets PATIENCE_MS at least (None: no timeout at all)."""
    if timeout is None or raising is False:
        # pytest-qt waits without a timer for None, though its annotations say only int
        return cast(int, timeout)
    return max(timeout, PATIENCE_MS)
