"""The demo's relay, all real: the bundled Worker under `wrangler dev` on loopback (core/app/demo_relay.py);
closing the demo ends wrangler and its workerd."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from core.relay import local
from tests.ui_fixtures import ctx, settle  # noqa: F401
from tests.waiting import PATIENCE_S
from ui.shell import app as ui_app
from ui.shell.main_window import MainWindow

SLOW = pytest.mark.slow  # a test that starts the relay with wrangler


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
