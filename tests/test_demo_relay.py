"""The demo's relay, all real: the bundled Worker under `wrangler dev` on loopback (core/app/demo_relay.py),
the demo's LINE simulator as LINE for the app and the relay, the demo's sending engine, and the demo
inbox window. The PC sleeps, the relay sends, the inbox marks what it sent, and once the PC wakes
Deliveries shows the attempt as the relay's; closing the demo ends wrangler and its workerd."""

from __future__ import annotations

import argparse
import datetime as dt
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLabel
from sqlalchemy import select

from core.app import demo as demo_data
from core.relay import local
from core.relay import settings as relay_settings
from core.store.db import Database
from core.store.models import Delivery, DeliveryAttempt
from tests.ui_fixtures import ctx, settle  # noqa: F401
from tests.waiting import PATIENCE_S, wait_until
from ui.deliveries.view import DeliveriesView
from ui.demo.inbox import InboxWindow
from ui.services.context import AppContext
from ui.services.sending import start_engine
from ui.shell import app as ui_app
from ui.shell.main_window import MainWindow

SLOW = pytest.mark.slow  # a test that starts the relay with wrangler


@pytest.fixture
def demo(db: Database, tmp_path: Path) -> Iterator[demo_data.DemoEnvironment]:
    why = local.missing()
    if why is not None:
        pytest.skip(str(why))
    assert demo_data.seed(db, now=dt.datetime.now(dt.UTC))  # the relay keeps real time: so does the demo here
    environment = demo_data.DemoEnvironment(tmp_path / "demo").start(db)
    yield environment
    environment.stop()


def _gone(pid: int) -> bool:
    """No process is left in the group wrangler led (wrangler and the workerd it started), zombies aside."""
    if not Path("/proc").is_dir():  # not Linux: wrangler itself, at least
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # it ended while we looked
            if int(fields[2]) == pid and fields[0] != "Z":
                return False
    return True


def _relay_sent(db: Database) -> list[tuple[int, str, str | None]]:
    with db.read() as s:
        return [(a.delivery_id, a.outcome, a.request_id) for a in s.scalars(
            select(DeliveryAttempt).where(DeliveryAttempt.via == "relay"))]


@SLOW
def test_the_pc_sleeps_the_relay_sends_the_inbox_marks_it_and_deliveries_say_by_the_relay(
        qtbot, ctx: AppContext, db: Database, demo: demo_data.DemoEnvironment) -> None:
    ctx.demo = demo
    assert start_engine(ctx, mode="demo")
    relay = demo.start_relay()
    window = InboxWindow(ctx)  # opened while wrangler starts (it takes seconds): the window follows it
    qtbot.addWidget(window)
    window.show()
    assert window.relay_label.text() == "The relay is starting on this computer…"
    assert not window.sleep_button.isEnabled()
    assert wait_until(relay.ready.is_set, PATIENCE_S * 2) and relay.running, relay.off
    assert relay_settings.attached(db) is not None  # attached to the demo's database
    qtbot.waitUntil(lambda: window.sleep_button.isVisible() and window.sleep_button.isEnabled())
    assert "runs on this computer" in window.relay_label.text()

    window.sleep_button.click()
    qtbot.waitUntil(lambda: relay.asleep and window.sleep_button.isEnabled())
    assert ctx.engine is None  # the PC sleeps: no sender
    assert "the relay sent 1 message in its place" in window.relay_label.text(), window.relay_label.text()
    qtbot.waitUntil(lambda: any(m.by_relay for b in window._boxes for m in b.messages))
    box = next(i for i, b in enumerate(window._boxes) if any(m.by_relay for m in b.messages))
    window.recipients.setCurrentRow(box)
    marks = window.findChildren(QLabel, "relayMark")
    assert [m.text() for m in marks] == ["Sent by the relay while the computer slept"]
    assert _relay_sent(db) == []  # the sleeping app knows nothing of it yet

    window.sleep_button.click()  # wake
    assert ctx.engine is not None and not relay.asleep
    assert wait_until(lambda: len(_relay_sent(db)) == 1)
    [(delivery_id, outcome, request_id)] = _relay_sent(db)
    assert outcome == "sent" and request_id in {m.request_id for m in demo.emulator.all_inbox()}

    def status() -> str:
        with db.read() as s:
            return s.get_one(Delivery, delivery_id).status.value

    # The woken sender may claim the delivery just before its first sync records the relay's attempt; it
    # then sends with the same retry key, LINE answers 409, and the delivery is sent: seen once all the same.
    assert wait_until(lambda: status() == "sent"), status()
    assert [m.request_id for m in demo.emulator.all_inbox()].count(request_id) == 1
    settle(qtbot, ctx)
    assert [m.text() for m in window.findChildren(QLabel, "relayMark")] == ["Sent by the relay while the computer slept"]

    view = DeliveriesView(ctx)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: view.select(delivery_id))
    qtbot.waitUntil(lambda: view.detail.attempts.topLevelItemCount() >= 1)
    outcomes = [view.detail.attempts.topLevelItem(i).text(5) for i in range(view.detail.attempts.topLevelItemCount())]
    assert "Sent (by the relay)" in outcomes, outcomes
    ctx.engine.stop()
    ctx.set_engine(None)

    pid = relay.pid
    assert pid is not None and not _gone(pid)
    demo.stop()
    assert _gone(pid)


@pytest.mark.parametrize("checkout", [True, False], ids=["checkout without npm ci", "installed copy"])
def test_a_demo_that_cannot_run_the_relay_runs_on_and_says_why_in_one_line(
        qtbot, ctx: AppContext, db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checkout: bool) -> None:
    source = tmp_path / "relay"
    if checkout:  # relay/ is there, its node_modules not
        source.mkdir()
        (source / "wrangler.toml").write_text("", encoding="utf-8")
    monkeypatch.setattr(local, "SOURCE", source)
    relay_settings.attach(db, "http://127.0.0.1:9", "ab" * 32)  # an earlier demo's relay, gone now: to be forgotten
    environment = demo_data.DemoEnvironment(tmp_path / "demo").start(db)
    try:
        relay = environment.start_relay()
        assert relay.ready.is_set() and not relay.running and relay.off is not None and relay.pid is None
        assert relay_settings.attached(db) is None
        ctx.demo = environment
        window = InboxWindow(ctx)
        qtbot.addWidget(window)
        window.show()
        settle(qtbot, ctx)
        said = window.relay_label.text()
        assert said.startswith("The relay part of the demo is off: ") and window.relay_label.isVisible()
        assert ("npm ci" in said or "Node.js" in said) if checkout else "not the tools that run it" in said
        assert not window.sleep_button.isVisible()
    finally:
        environment.stop()


@SLOW
def test_closing_the_demo_window_ends_its_relay(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if local.missing() is not None:
        pytest.skip(str(local.missing()))
    monkeypatch.setattr(ui_app.Shell, "_quit_anyway", lambda _self, _count: True)  # reminders wait: quit all the same
    seen: dict[str, int] = {}
    deadline = time.monotonic() + PATIENCE_S * 2

    def close_once_the_relay_runs() -> None:
        window = next((w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()), None)
        relay = getattr(window.ctx.demo, "relay", None) if window is not None else None
        if window is not None and relay is not None and relay.running and relay.pid is not None:
            seen["pid"] = relay.pid
        elif time.monotonic() < deadline:
            QTimer.singleShot(100, close_once_the_relay_runs)  # the window and wrangler come up in their own time
            return
        if window is None:
            QApplication.exit(1)
        else:
            window.close()  # the relay runs, or never came up: the assertions below say which

    QTimer.singleShot(0, close_once_the_relay_runs)
    assert ui_app.run_gui(argparse.Namespace(home=tmp_path, smoke=False, command="demo", lang="en")) == 0
    assert "pid" in seen and _gone(seen["pid"])
    assert os.path.isdir(tmp_path / "demo" / "relay-local" / "state")
