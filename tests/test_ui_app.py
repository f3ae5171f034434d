"""The app shell: tray or no tray, single instance, smoke start."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from core.sending.engine import Engine
from core.store import setting_keys as keys
from core.store import settings
from core.store.paths import DataPaths
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.app import Shell, run_gui
from ui.context import AppContext
from ui.single_instance import SingleInstance


class _Quit:
    def __init__(self, app: QApplication, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        monkeypatch.setattr(app, "quit", self)

    def __call__(self) -> None:
        self.calls += 1


def test_without_a_tray_closing_the_window_quits(qtbot, ctx: AppContext, monkeypatch: pytest.MonkeyPatch) -> None:
    app = QApplication.instance()
    quit_calls = _Quit(app, monkeypatch)
    shell = Shell(app, ctx, QIcon(), tray_available=False)
    window = shell.open_window()
    qtbot.addWidget(window)
    window.close()
    assert quit_calls.calls == 1 and shell.quitting


def test_with_a_tray_closing_hides_and_keeps_sending(qtbot, ctx: AppContext, monkeypatch: pytest.MonkeyPatch) -> None:
    app = QApplication.instance()
    quit_calls = _Quit(app, monkeypatch)
    ctx.engine = Engine(ctx.db, ctx.paths)  # an engine that would send (not started: no threads needed)
    shell = Shell(app, ctx, QIcon(), tray_available=True)
    hints: list[int] = []
    assert shell.tray is not None
    monkeypatch.setattr(shell.tray, "say_still_running", lambda: hints.append(1))
    window = shell.open_window()
    qtbot.addWidget(window)
    window.close()
    assert quit_calls.calls == 0 and not window.isVisible()
    shell.open_window()
    window.close()
    assert hints == [1]  # said once, the first time only
    with ctx.db.read() as s:
        assert settings.get(s, keys.UI_TRAY_HINT_SHOWN.name) == "yes"
    shell.tray.quit_action.trigger()
    assert quit_calls.calls == 1
    settle(qtbot, ctx)


def test_tray_menu_pause_send_now_and_counts(qtbot, ctx: AppContext) -> None:
    from ui.tray import Tray

    tray = Tray(ctx, QIcon(), open_window=lambda: None, quit_app=lambda: None)
    settle(qtbot, ctx)
    assert tray.counts_action.text().startswith("Waiting 0")
    assert not tray.pause_action.isEnabled()  # nothing sends in this context


def test_second_launch_hands_over_to_the_first(qtbot, paths: DataPaths) -> None:
    first = SingleInstance(paths)
    assert first.listen()
    try:
        with qtbot.waitSignal(first.activated, timeout=5000):
            assert SingleInstance(paths).hand_over()
    finally:
        first.close()
    assert not SingleInstance(paths).hand_over()  # nobody listens any more


def test_smoke_start_prints_one_json_line(qtbot, paths: DataPaths, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_gui(argparse.Namespace(home=paths.home, smoke=True, command=None)) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    report = json.loads(line)
    assert report["smoke"] == "ok" and report["tabs"] == 4 and report["startup_ms"] > 0
    assert paths.database.exists()


def test_the_demo_process_gets_a_demo_folder_inside_this_windows_data_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import QProcess

    from core.app import demo
    from ui import app as ui_app

    started: list[tuple[str, list[str]]] = []

    def start_detached(program: str, arguments: list[str]) -> tuple[bool, int]:
        started.append((program, arguments))
        return True, 1

    monkeypatch.setattr(QProcess, "startDetached", start_detached)
    chosen = tmp_path / "chosen home"
    assert ui_app.start_demo_process(chosen)
    [(_, arguments)] = started
    assert arguments[-3:] == ["--home", str(chosen), "demo"]
    assert demo.demo_home(chosen) == chosen / "demo"  # where that process then keeps its data


def test_the_tray_offers_sending_once_the_engine_has_started(qtbot, ctx: AppContext) -> None:
    from ui.app import start_engine
    from ui.tray import Tray

    ctx.engine_starting = True  # the window and the tray come first, the engine right after them
    tray = Tray(ctx, QIcon(), open_window=lambda: None, quit_app=lambda: None)
    assert not tray.pause_action.isEnabled() and not tray.send_action.isEnabled()
    engine = Engine(ctx.db, ctx.paths)
    try:
        assert start_engine(ctx, engine)
        assert tray.pause_action.isEnabled() and tray.send_action.isEnabled()
    finally:
        engine.stop()
    settle(qtbot, ctx)
