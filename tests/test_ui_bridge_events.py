"""The window's bridge carries the database's events as Qt signals, with their payload, whether the
change was made in this process or heard from another one."""

from __future__ import annotations

import argparse
import datetime as dt

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from core.sending.engine import Engine
from core.store import events
from core.store import setting_keys as keys
from core.store.changes import ChangeWatcher
from core.store.db import Database
from core.store.paths import DataPaths
from tests import factories as f
from tests.test_store_events import _commit_in_another_process
from tests.ui_fixtures import ctx  # noqa: F401
from tests.waiting import PATIENCE_MS
from ui.services.context import AppContext
from ui.shell.app import run_gui


def test_a_shift_edit_reaches_the_window_with_which_shift_it_was(qtbot, ctx: AppContext,
                                                                 now: dt.datetime) -> None:
    with qtbot.waitSignal(ctx.bridge.shifts_changed) as signal, ctx.db.write() as s:
        room, teacher = f.classroom(s), f.teacher(s)
        shift = f.shift(s, room, teacher, dt.date(2026, 12, 5), now=now)
    assert signal.args == [events.ShiftsChanged(frozenset({shift.id}), frozenset({teacher.id}), frozenset({room.id}))]


def test_a_tap_reaches_the_window_with_its_delivery(qtbot, ctx: AppContext) -> None:
    with qtbot.waitSignal(ctx.bridge.acknowledged) as signal, ctx.db.write() as s:
        events.emit(s, events.DeliveriesAcknowledged(frozenset({7})))
    assert signal.args == [events.DeliveriesAcknowledged(frozenset({7}))]


def test_another_process_s_shift_change_reaches_the_window(qtbot, ctx: AppContext, db: Database) -> None:
    watcher = ChangeWatcher(db)
    watcher.look()
    _commit_in_another_process(db)
    with qtbot.waitSignal(ctx.bridge.shifts_changed) as signal:
        watcher.look()
    assert signal.args == [events.ShiftsChanged()]  # "some shifts": the screens read the month again
    watcher.stop()


def test_a_window_that_does_not_send_still_hears_another_process(qtbot, paths: DataPaths, db: Database,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process sends for the folder (this window's engine is refused); a shift confirmed from
    the command line still reaches the window's screens as ShiftsChanged."""
    from ui.shell import app as ui_app

    with db.write() as s:
        keys.UI_FIRST_RUN_DONE.write(s, True)  # no welcome dialog: straight to the window
    heard: list[object] = []
    # Not heard: the test fails below. A timer this test owns and stops: a static single shot would
    # still fire after the test, and its exit outside exec() would end every later test's event loops.
    give_up = QTimer(singleShot=True, interval=PATIENCE_MS)
    give_up.timeout.connect(lambda: QApplication.exit(1))

    def refused(ctx: AppContext, engine: Engine | None = None, mode: str = "gui") -> bool:
        ctx.set_engine(None)  # as when another process holds the folder's sender lock
        def hear(event: object) -> None:
            heard.append(event)
            QApplication.exit(0)

        ctx.bridge.shifts_changed.connect(hear)
        _commit_in_another_process(ctx.db)
        give_up.start()
        return False

    monkeypatch.setattr(ui_app, "start_engine", refused)
    try:
        assert run_gui(argparse.Namespace(home=paths.home, smoke=False, command=None)) == 0
    finally:
        give_up.stop()
    assert heard == [events.ShiftsChanged()]
