from __future__ import annotations

import argparse

from PySide6.QtWidgets import QLabel

from core.paths import DataPaths
from ui.main_window import MainWindow


def test_placeholder_window_opens_offscreen(qtbot, paths: DataPaths) -> None:
    window = MainWindow(paths, "1 classroom(s), 2 teacher(s)")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.isVisible()
    assert window.findChild(QLabel, "summary").text() == "1 classroom(s), 2 teacher(s)"
    assert str(paths.home) in window.statusBar().currentMessage()


def test_gui_mode_smoke_starts_and_quits(qtbot, paths: DataPaths) -> None:
    from ui.app import run_gui

    assert run_gui(argparse.Namespace(home=paths.home, smoke=True)) == 0
    assert paths.database.exists()
