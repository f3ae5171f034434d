"""Other threads reach the UI thread without calling Qt (ui/services/ui_thread.py).

A Python thread that emits a Qt signal holds the GIL while Qt takes its locks; the UI thread can hold
such a lock with the GIL released and wait for the GIL. These tests record every call a core or pool
thread makes into PySide while the window's bridges and tasks run, and require none."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import QObject

from core.sending.config import SenderEvents
from core.store import events as store_events
from core.store.db import Database
from tests.qt_threads import QtCallsOffTheUiThread, qt_calls  # noqa: F401
from ui.services import ui_thread
from ui.services.bridge import CoreBridge
from ui.services.tasks import Tasks

WAIT = 10_000


def on_a_core_thread(fn: Callable[[], None]) -> None:
    thread = threading.Thread(target=fn, name="core-like")
    thread.start()
    thread.join()


def test_the_profiler_sees_a_signal_emitted_on_another_thread(qapp, qt_calls: QtCallsOffTheUiThread) -> None:
    """The check below can fail: an emit from a thread, as the bridge used to do, is seen."""
    from PySide6.QtCore import Signal

    class Emitter(QObject):
        fired = Signal()

    emitter = Emitter()
    on_a_core_thread(emitter.fired.emit)
    assert qt_calls.seen == ["SignalInstance.emit on core-like"]


def test_core_callbacks_and_task_answers_reach_the_ui_thread_without_calling_qt(
        qtbot, qapp, db: Database, qt_calls: QtCallsOffTheUiThread) -> None:
    bridge = CoreBridge(db.events)
    sender_events = SenderEvents()
    bridge.attach(sender_events)
    receiving: list[Callable[[Any], None]] = []
    bridge.attach_receiving(receiving)
    tasks = Tasks()
    arrived: list[tuple[str, bool]] = []

    def note(name: str) -> Callable[..., None]:
        return lambda *_: arrived.append((name, threading.current_thread() is threading.main_thread()))

    bridge.shifts_changed.connect(note("shifts"))
    bridge.deliveries_changed.connect(note("deliveries"))
    bridge.hold_changed.connect(note("hold"))
    bridge.alert.connect(note("alert"))
    bridge.receiving_changed.connect(note("receiving"))

    def core_work() -> None:
        db.events.deliver([store_events.ShiftsChanged(frozenset({1}))])
        sender_events.emit_changed([7])
        sender_events.emit_hold("paused")
        sender_events.emit_alert("DEAD_LETTER", "a delivery failed for good")
        for listener in receiving:
            listener("state")

    try:
        on_a_core_thread(core_work)
        tasks.run(lambda: 42, note("task"))
        qtbot.waitUntil(lambda: {name for name, _ in arrived} == {"shifts", "deliveries", "hold", "alert", "receiving",
                                                                    "task"}, timeout=WAIT)
    finally:
        tasks.wait()
        tasks.shutdown()
        bridge.detach()
    assert all(on_ui for _, on_ui in arrived), arrived
    assert qt_calls.seen == []


def test_posts_run_in_order_on_the_ui_thread_and_one_failure_keeps_none_back(
        qtbot, qapp, monkeypatch: pytest.MonkeyPatch) -> None:
    ui_thread.install()
    ran: list[tuple[int, int]] = []
    reported: list[BaseException] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, exc, tb: reported.append(exc))

    def fail() -> None:
        raise ValueError("a posted call that fails")

    def poster(n: int) -> None:
        for i in range(2_000):  # a burst far beyond the socket's buffer: posting never blocks
            ui_thread.post(ran.append, (n, i))
            if n == 0 and i == 1_000:
                ui_thread.post(fail)

    threads = [threading.Thread(target=poster, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()  # every post is made while the UI thread does not run its loop
    qtbot.waitUntil(lambda: len(ran) == 6_000, timeout=WAIT)
    for n in range(3):
        assert [i for m, i in ran if m == n] == list(range(2_000))
    assert [str(exc) for exc in reported] == ["a posted call that fails"]


def test_a_post_for_a_deleted_owner_is_dropped(qtbot, qapp) -> None:
    import shiboken6

    ui_thread.install()
    owner = QObject()
    ran: list[str] = []
    on_a_core_thread(lambda: ui_thread.post(ran.append, "gone", owner=owner))
    shiboken6.delete(owner)
    on_a_core_thread(lambda: ui_thread.post(ran.append, "kept"))
    qtbot.waitUntil(lambda: ran == ["kept"], timeout=WAIT)


def test_posts_made_while_the_ui_thread_drains_are_never_stranded(qtbot, qapp) -> None:
    """Posters race the UI thread's drain: every post must still run (a wake-up read while its flag
    stayed set once left every later post waiting for ever)."""
    ui_thread.install()
    arrived: list[int] = []
    total = 4 * 5_000

    def poster(n: int) -> None:
        for i in range(5_000):
            ui_thread.post(arrived.append, n)
            if i % 7 == 0:
                time.sleep(0)  # let the UI thread in between posts

    threads = [threading.Thread(target=poster, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    qtbot.waitUntil(lambda: len(arrived) == total, timeout=60_000)
    for thread in threads:
        thread.join()
