"""`shiftcast tray` where the desktop has no system tray: it says so (stderr, log, a box beside the
window that holds nothing up) and opens the window; a tray that appears takes Shiftcast in instead (ui/shell/no_tray.py)."""

from __future__ import annotations

import logging

import pytest
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QMessageBox, QSystemTrayIcon

from tests.ui_fixtures import ctx, running_app, settle  # noqa: F401
from tests.waiting import PATIENCE_MS
from ui.services.context import AppContext
from ui.shell.app import Shell
from ui.shell.tray import Tray


def test_with_no_tray_the_tray_mode_says_so_and_opens_the_window(qtbot, ctx: AppContext,
                                                                  capsys: pytest.CaptureFixture[str],
                                                                  caplog: pytest.LogCaptureFixture,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(running_app(), "exit", lambda code=0: None)  # closing the window without a tray quits
    assert not QSystemTrayIcon.isSystemTrayAvailable()  # offscreen: a desktop with no tray
    shell = Shell(running_app(), ctx, QIcon(), tray_available=Tray.available())
    assert shell.tray is None
    with caplog.at_level(logging.INFO, logger="ui.shell.no_tray"):
        shell.wait_for_tray(Tray.available, patience_ms=0)
        qtbot.waitUntil(lambda: shell.window is not None and shell.window.isVisible(), timeout=PATIENCE_MS)
    assert shell.window is not None
    qtbot.addWidget(shell.window)
    box = shell.window.findChild(QMessageBox, "no_tray_box")
    assert box is not None and box.isVisible() and not box.isModal()
    said = box.text()
    assert "no system tray" in said and "Closing the window stops sending" in said
    assert f"shiftcast: {said}" in capsys.readouterr().err
    assert any("no system tray" in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records)
    assert shell.tray is None
    settle(qtbot, ctx)


def test_a_tray_that_appears_while_waiting_takes_shiftcast_in_without_a_window(qtbot, ctx: AppContext) -> None:
    appeared = [False]
    shell = Shell(running_app(), ctx, QIcon(), tray_available=False)
    wait = shell.wait_for_tray(lambda: appeared[0], patience_ms=10 * 60_000)
    qtbot.wait(0)  # one turn of the loop: still no tray, so nothing opens
    assert shell.tray is None and shell.window is None
    appeared[0] = True  # the desktop's panel started after Shiftcast
    qtbot.waitUntil(lambda: shell.tray is not None, timeout=PATIENCE_MS)
    assert shell.window is None and not wait.gave_up
    assert shell.tray is not None
    shell.tray.hide()
    settle(qtbot, ctx)


def test_a_tray_that_appears_after_the_window_opened_is_taken_up(qtbot, ctx: AppContext,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(running_app(), "exit", lambda code=0: None)
    appeared = [False]
    shell = Shell(running_app(), ctx, QIcon(), tray_available=False)
    wait = shell.wait_for_tray(lambda: appeared[0], patience_ms=0)
    qtbot.waitUntil(lambda: wait.gave_up and shell.window is not None, timeout=PATIENCE_MS)
    assert shell.window is not None
    qtbot.addWidget(shell.window)
    appeared[0] = True
    qtbot.waitUntil(lambda: shell.tray is not None, timeout=PATIENCE_MS)  # closing now hides it there
    assert shell.tray is not None
    shell.tray.hide()
    settle(qtbot, ctx)
