"""The window's bridge carries the database's events as Qt signals, with their payload, whether the
change was made in this process or heard from another one."""

from __future__ import annotations

import datetime as dt

from core.store import events
from core.store.changes import ChangeWatcher
from core.store.db import Database
from tests import factories as f
from tests.test_store_events import _commit_in_another_process
from tests.ui_fixtures import ctx  # noqa: F401
from ui.context import AppContext


def test_a_shift_edit_reaches_the_window_with_which_shift_it_was(qtbot, ctx: AppContext,
                                                                 now: dt.datetime) -> None:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(ctx.bridge.shifts_changed) as signal, ctx.db.write() as s:
        room, teacher = f.classroom(s), f.teacher(s)
        shift = f.shift(s, room, teacher, dt.date(2026, 12, 5), now=now)
    assert signal.args == [events.ShiftsChanged(frozenset({shift.id}), frozenset({teacher.id}), frozenset({room.id}))]


def test_a_tap_reaches_the_window_with_its_delivery(qtbot, ctx: AppContext) -> None:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(ctx.bridge.acknowledged) as signal, ctx.db.write() as s:
        events.emit(s, events.DeliveriesAcknowledged(frozenset({7})))
    assert signal.args == [events.DeliveriesAcknowledged(frozenset({7}))]


def test_another_process_s_shift_change_reaches_the_window(qtbot, ctx: AppContext, db: Database) -> None:  # type: ignore[no-untyped-def]
    watcher = ChangeWatcher(db)
    watcher.look()
    _commit_in_another_process(db)
    with qtbot.waitSignal(ctx.bridge.shifts_changed) as signal:
        watcher.look()
    assert signal.args == [events.ShiftsChanged()]  # "some shifts": the screens read the month again
    watcher.stop()
