"""Settings → LINE WORKS says the callback address to enter for the bot in the Developer Console: where
Shiftcast receives (the owner's own address, or the address its receiving is reachable at now) followed
by LINE WORKS' callback path; until Shiftcast receives, it says how it comes to."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication

from core.emulator.line_works import WorksStandIn
from core.planning import month_grid
from core.receiving import line_works_callback
from core.receiving.address import QuickTunnel
from core.setup import receiving
from core.setup.receiving import Receiving, ReceivingState
from core.store import setting_keys as keys
from core.store.db import Database
from tests.linefixtures import FakeClock
from tests.test_line_works_only import clock, reminded  # noqa: F401 - fixture
from tests.test_receiving_service import _fake_cloudflared
from tests.test_ui_settings import open_view
from tests.test_webhook_cli import _free_port
from tests.ui_fixtures import ctx, settle  # noqa: F401 - fixtures
from tests.waiting import PATIENCE_MS
from tests.worksfixtures import member, works, works_ready  # noqa: F401 - fixture
from ui.services.context import AppContext
from ui.settings.line_works import LineWorksSection

PATH = line_works_callback.PATH


def test_the_callback_address_is_the_receiving_s_own_address_or_the_one_it_runs_at(db: Database) -> None:
    assert receiving.callback_address(db, PATH) is None  # nowhere chosen: not receiving
    # Nothing chosen, but a receiver runs (the demo's, on loopback): that is where the callback goes.
    demo = ReceivingState("http://127.0.0.1:39789/line/webhook")
    assert receiving.callback_address(db, PATH, demo) == "http://127.0.0.1:39789/line-works/callback"
    with db.write() as s:
        keys.LINE_RECEIVE_ADDRESS.write(s, "own")
        keys.LINE_RECEIVE_OWN_URL.write(s, "https://shifts.example.jp/hook/")
    assert receiving.callback_address(db, PATH) == "https://shifts.example.jp/hook/line-works/callback"
    with db.write() as s:
        keys.LINE_RECEIVE_ADDRESS.write(s, QuickTunnel.name)
    assert receiving.callback_address(db, PATH) is None  # a tunnel's address is known once it runs
    running = ReceivingState("https://a-b-c.trycloudflare.com/line/webhook")
    assert receiving.callback_address(db, PATH, running) == "https://a-b-c.trycloudflare.com/line-works/callback"


def test_settings_shows_the_callback_address_to_enter(qtbot, ctx: AppContext, db: Database) -> None:
    view = open_view(qtbot, ctx)
    section: LineWorksSection = view.line_works
    qtbot.waitUntil(lambda: section.isVisible() and section.callback.text() != "", timeout=PATIENCE_MS)
    assert section.callback.text().startswith("Not known yet: Shiftcast is not receiving.")
    with db.write() as s:
        keys.LINE_RECEIVE_ADDRESS.write(s, "own")
        keys.LINE_RECEIVE_OWN_URL.write(s, "https://shifts.example.jp")
    section.reload()
    qtbot.waitUntil(lambda: section.callback.text() == "https://shifts.example.jp/line-works/callback",
                    timeout=PATIENCE_MS)


def test_receiving_chosen_in_settings_takes_a_tap_at_the_own_address(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, clock: FakeClock, works: WorksStandIn) -> None:
    """A classroom on LINE WORKS alone: no Connect LINE, no LINE secret. The own address chosen in
    Settings → LINE WORKS is kept where Connect LINE keeps it, the window's receiving restarts at it,
    the callback URL to enter is shown, and a 了解 tap the proxy forwards to its port is recorded."""
    room_id, shifts = reminded(db, now, clock, works)
    service = Receiving(db, handlers=[], clock=clock)
    ctx.bridge.attach_receiving(service.listeners)
    ctx.receiving = service  # as the window has it: not receiving, nowhere chosen
    view = open_view(qtbot, ctx)
    section: LineWorksSection = view.line_works
    qtbot.waitUntil(lambda: section.isVisible() and section.callback.text() != "", timeout=PATIENCE_MS)
    assert not section.copy.isEnabled()

    section.receive_own.setChecked(True)
    section.own_url.setText("http://shifts.example.jp")  # LINE WORKS calls https only: refused, nothing kept
    section.receive.click()
    assert "https" in section.receive_status.text() and receiving.address_from_settings(db) is None

    port = _free_port()
    section.own_url.setText("https://shifts.example.jp/works")
    section.own_port.setValue(port)
    section.receive.click()
    try:
        qtbot.waitUntil(lambda: service.state.receiving, timeout=PATIENCE_MS)
        expected = "https://shifts.example.jp/works/line-works/callback"
        qtbot.waitUntil(lambda: section.callback.text() == expected, timeout=PATIENCE_MS)
        assert section.copy.isEnabled()
        section.copy.click()
        assert QGuiApplication.clipboard().text() == expected
        with db.read() as s:  # where Connect LINE keeps it: the app's receiving starts there each time
            assert keys.LINE_RECEIVE_ADDRESS.read(s) == "own" and keys.LINE_RECEIVE_PORT.read(s) == port
        works.callback_url = f"http://127.0.0.1:{port}{PATH}"  # the owner's proxy forwards to this port
        assert works.tap(member(1), "了解") == 200
    finally:
        service.stop()
    month = month_grid.load_month(db, room_id, 2026, 12, now=now)
    marks = {item.id: item.acknowledged_at for item in month.shifts}
    assert marks[shifts[0]] is not None and marks[shifts[1]] is None


@pytest.mark.skipif(not Path("/bin/sh").exists(), reason="a fake cloudflared shell script")
def test_a_quick_tunnel_chosen_in_settings_gives_a_new_callback_url_at_each_start(
        qtbot, ctx: AppContext, db: Database, works_ready: WorksStandIn, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _fake_cloudflared(tmp_path / "bin")  # prints river-1, then river-2, … at each start
    monkeypatch.setenv("PATH", f"{fake.parent}:/usr/bin:/bin")
    service = Receiving(db, handlers=[])
    ctx.bridge.attach_receiving(service.listeners)
    ctx.receiving = service
    view = open_view(qtbot, ctx)
    section: LineWorksSection = view.line_works
    qtbot.waitUntil(lambda: section.isVisible() and section.callback.text() != "", timeout=PATIENCE_MS)
    assert section.receive_tunnel.isChecked()
    try:
        for n in (1, 2):  # choosing again restarts the receiving: the tunnel, and its address, are new
            qtbot.waitUntil(section.receive.isEnabled, timeout=PATIENCE_MS)
            section.receive.click()
            expected = f"https://river-{n}.trycloudflare.com/line-works/callback"
            qtbot.waitUntil(lambda: section.callback.text() == expected, timeout=PATIENCE_MS)  # noqa: B023
            qtbot.waitUntil(lambda: section.receive_status.text().startswith("✓ Shiftcast receives the taps now"),
                            timeout=PATIENCE_MS)
        assert receiving.address_from_settings(db) is not None
        with db.read() as s:
            assert keys.LINE_RECEIVE_ADDRESS.read(s) == QuickTunnel.name
    finally:
        service.stop()
    settle(qtbot, ctx)


def test_a_missing_cloudflared_is_said_where_receiving_was_chosen(
        qtbot, ctx: AppContext, db: Database, works_ready: WorksStandIn, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no cloudflared anywhere
    service = Receiving(db, handlers=[])
    ctx.bridge.attach_receiving(service.listeners)
    ctx.receiving = service
    view = open_view(qtbot, ctx)
    section: LineWorksSection = view.line_works
    qtbot.waitUntil(lambda: section.isVisible() and section.receive.isEnabled(), timeout=PATIENCE_MS)
    try:
        section.receive.click()
        qtbot.waitUntil(lambda: "cloudflared" in section.receive_status.text(), timeout=PATIENCE_MS)
        assert not service.state.receiving
        assert section.callback.text().startswith("Not known yet")
    finally:
        service.stop()
    settle(qtbot, ctx)
