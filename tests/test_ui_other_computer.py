"""The window's alerts banner says so when another computer sent from this database lately."""

from __future__ import annotations

import datetime as dt

import pytest

from core.sending.scheduler import Scheduler
from core.store import identity
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.shell import alerts_banner
from ui.shell.alerts_banner import AlertsBanner

NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def test_the_banner_warns_of_another_computer_sending_from_this_data_folder(qtbot, ctx: AppContext,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(alerts_banner, "DEBOUNCE_MS", 50)
    banner = AlertsBanner(ctx)
    qtbot.addWidget(banner)
    settle(qtbot, ctx)
    assert banner.isHidden()
    with ctx.db.write() as s:  # what a copy of this folder carries from the computer it came from
        identity.stamp(s, identity.Machine("11111111-1111-4111-8111-111111111111", "office-pc"), now=NOW)
    now = NOW + dt.timedelta(minutes=30)
    # The window's minute watch, as its engine runs it, with its alerts reaching the window's bridge.
    watch = Scheduler(ctx.db, wake_sender=lambda: None, clock=lambda: now, on_alert=ctx.bridge.raise_alert)
    report = watch.run_watch()
    assert [code for code, _ in report.opened] == ["OTHER_COMPUTER"]
    qtbot.waitUntil(banner.isVisible, timeout=5000)
    settle(qtbot, ctx)
    [shown] = banner.alerts
    assert "another computer (office-pc)" in shown.text and "stop one of the two" in shown.text

    now = NOW + dt.timedelta(hours=24, seconds=1)  # a day after its last send: over
    assert watch.run_watch().cleared
    ctx.bridge.deliveries_changed.emit([])  # the banner reads again a little after the outbox moves
    qtbot.waitUntil(banner.isHidden, timeout=5000)
