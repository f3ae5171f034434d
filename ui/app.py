"""Starting the desktop app: QApplication, the database, the main window."""

from __future__ import annotations

import argparse
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from core import roster
from core.bootstrap import open_database
from core.errors import ShiftcastError
from core.logs import configure_logging
from core.paths import data_paths
from ui.main_window import MainWindow


def summary_text(classrooms: int, teachers: int) -> str:
    return QApplication.translate("app", "{0} classroom(s), {1} teacher(s)").format(classrooms, teachers)


def run_gui(args: argparse.Namespace) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Shiftcast")
    paths = data_paths(args.home)
    configure_logging(paths.logs)
    try:
        db = open_database(paths)
    except ShiftcastError as exc:
        QMessageBox.critical(None, "Shiftcast", str(exc))
        return 1
    try:
        with db.read() as session:
            text = summary_text(len(roster.list_classrooms(session)), len(roster.list_teachers(session)))
        window = MainWindow(paths, text)
        window.show()
        if getattr(args, "smoke", False):
            QTimer.singleShot(0, app.quit)
        return app.exec()
    finally:
        db.dispose()
