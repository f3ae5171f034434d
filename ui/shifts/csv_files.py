"""CSV import and export of teachers and shifts from the Shifts area (core.roster.csv_files does the work).

Reading the file and importing it happen on the pool in one job, inside one write transaction: an
import is all or nothing, and a rejected file lists every bad line so the manager can fix them all
in Excel at once. A long import shows how far it is once it has run for a few seconds (core's rule,
core/roster/progress.py, as on the terminal) and can be stopped: stopping rolls the transaction
back, so nothing of the file is imported. An export is written beside its place and moved in whole
(core/store/exports.py), so a failed one leaves no half file.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QMessageBox,
    QPlainTextEdit,
    QProgressDialog,
    QVBoxLayout,
    QWidget,
)

from core.roster import csv_transfer
from core.roster.csv_files import CsvImportError, ImportResult
from core.roster.progress import Progress, progress_due
from core.store.db import Database
from core.store.exports import write_export
from ui.common import i18n
from ui.common.errors import show_error
from ui.common.phrases import PhraseLabel
from ui.services import file_places, ui_thread
from ui.services.context import AppContext

CSV_FILTER = "CSV (*.csv);;*"


class CsvProblemsDialog(QDialog):
    """Every problem line of a rejected import, selectable so it can be copied."""

    def __init__(self, what: str, error: CsvImportError, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Nothing was imported"))
        self.resize(620, 380)
        intro = PhraseLabel(self.tr("The {0} file has %n problems. Nothing was imported; fix these lines "
                               "and import the file again.", "", len(error.problems)).format(what), self)
        intro.setWordWrap(True)
        self.problems = QPlainTextEdit("\n".join(i18n.render(p.text) for p in error.problems), self)
        self.problems.setReadOnly(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.problems, 1)
        layout.addWidget(buttons)


class ImportStopped(Exception):
    """The manager stopped a long import; raised inside its transaction, so nothing is imported."""


class ImportProgress:
    """The import's `Progress` callback, on the pool's thread: tells the window how far it is when the
    rule says so, and stops the import (by raising) once the manager asked to."""

    def __init__(self, tell: Callable[[int, int], None], clock: Callable[[], float]) -> None:
        self.tell = tell
        self.clock = clock
        self.started = clock()
        self.shown_at: float | None = None
        self.stop = threading.Event()

    def __call__(self, line: int, lines: int) -> None:
        if self.stop.is_set():
            raise ImportStopped
        now = self.clock()
        if progress_due(self.started, self.shown_at, now):
            self.shown_at = now
            self.tell(line, lines)


class CsvActions(QObject):
    """The four CSV actions. `scope()` tells which classroom and month the shift export covers."""

    imported = Signal()  # something was imported: the roster must be read again
    # (line, lines), emitted on the window's thread (posted from the pool's, see ui_thread).
    progressed = Signal(int, int)

    def __init__(self, ctx: AppContext, parent: QWidget,
                 scope: Callable[[], tuple[int | None, str, int, int]]) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.widget = parent
        self.scope = scope
        self.last_dialog: QDialog | None = None  # what the last action showed (for keyboard users and tests)
        self.progress_dialog: QProgressDialog | None = None  # while a long import shows how far it is
        self.clock: Callable[[], float] = time.monotonic  # the import's progress clock (tests step it)
        self._running: ImportProgress | None = None
        self.progressed.connect(self._show_progress)

    # ----- import -----

    def import_teachers(self) -> None:
        self._import(self.tr("teachers"),
                     lambda db, data, now, progress: csv_transfer.import_teachers(db, data, progress=progress).value)

    def import_shifts(self) -> None:
        self._import(self.tr("shifts"), lambda db, data, now, progress:
                     csv_transfer.import_shifts(db, data, now=now, progress=progress).value)

    def _import(self, what: str, run: Callable[[Database, bytes, dt.datetime, Progress], ImportResult]) -> None:
        path, _ = QFileDialog.getOpenFileName(self.widget, self.tr("Import {0} from CSV").format(what),
                                              file_places.start_in(self.ctx), CSV_FILTER)
        if not path:
            return
        file_places.remember(self.ctx, path, owner=self)
        db, now = self.ctx.db, self.ctx.clock()
        progress = self._running = ImportProgress(
            lambda line, lines: ui_thread.post(self.progressed.emit, line, lines, owner=self), self.clock)

        def work() -> ImportResult:
            return run(db, Path(path).read_bytes(), now, progress)

        def done(result: ImportResult) -> None:
            self._end_progress()
            self.imported.emit()
            self._show(QMessageBox(QMessageBox.Icon.Information, self.tr("Import finished"),
                                   self.tr("Imported {0}: {1} added, {2} updated.").format(what, result.created, result.updated),
                                   QMessageBox.StandardButton.Ok, self.widget))

        def failed(exc: BaseException) -> None:
            self._end_progress()
            if isinstance(exc, ImportStopped):
                self._show(QMessageBox(QMessageBox.Icon.Information, self.tr("Import stopped"),
                                       self.tr("The import was stopped. Nothing was imported."),
                                       QMessageBox.StandardButton.Ok, self.widget))
            elif isinstance(exc, CsvImportError):
                self._show(CsvProblemsDialog(what, exc, self.widget))
            else:
                show_error(self.widget, exc, paths=self.ctx.paths)

        self.ctx.tasks.run(work, done, failed, owner=self)

    def _show_progress(self, line: int, lines: int) -> None:
        running = self._running
        if running is None:
            return  # a late signal from an import that already ended
        dialog = self.progress_dialog
        if dialog is None:
            dialog = QProgressDialog(self.widget)
            dialog.setWindowTitle(self.tr("Importing"))
            dialog.setCancelButtonText(self.tr("Stop"))
            # Not modal: a modal progress dialog runs the event loop inside setValue(), which would
            # take the next progress signal while this one is half shown.
            dialog.setWindowModality(Qt.WindowModality.NonModal)
            dialog.setMinimumDuration(0)  # core's rule already waited the first seconds
            dialog.setAutoClose(False)
            dialog.setAutoReset(False)
            dialog.canceled.connect(running.stop.set)
            self.progress_dialog = dialog
        dialog.setMaximum(max(lines, 1))
        dialog.setValue(min(line, max(lines, 1)))
        dialog.setLabelText(self.tr("Reading line {0} of {1}…").format(f"{line:,}", f"{lines:,}"))
        dialog.show()

    def _end_progress(self) -> None:
        self._running = None
        if self.progress_dialog is not None:
            self.progress_dialog.canceled.disconnect()
            self.progress_dialog.close()
            self.progress_dialog.deleteLater()
            self.progress_dialog = None

    # ----- export -----

    def export_teachers(self) -> None:
        self._export(self.tr("Export teachers to CSV"), "teachers.csv", csv_transfer.export_teachers)

    def export_shifts(self) -> None:
        classroom_id, name, year, month = self.scope()
        if classroom_id is None:
            return
        self._export(self.tr("Export shifts to CSV"), f"shifts-{name}-{year}-{month:02d}.csv",
                     lambda db: csv_transfer.export_shifts(db, classroom_id=classroom_id, month=(year, month)))

    def _export(self, title: str, suggested: str, run: Callable[[Database], str]) -> None:
        path, _ = QFileDialog.getSaveFileName(self.widget, title, file_places.start_in(self.ctx, suggested), CSV_FILTER)
        if not path:
            return
        file_places.remember(self.ctx, path, owner=self)
        db = self.ctx.db

        def work() -> int:
            text = run(db)
            # UTF-8 with a BOM, so Japanese Excel opens it without garbling.
            write_export(Path(path), lambda: text.encode("utf-8-sig"))
            return max(text.count("\n") - 1, 0)

        def done(rows: int) -> None:
            self._show(QMessageBox(QMessageBox.Icon.Information, self.tr("Export finished"),
                                   self.tr("%n rows written to {0}", "", rows).format(path),
                                   QMessageBox.StandardButton.Ok, self.widget))

        self.ctx.tasks.run(work, done, lambda exc: show_error(self.widget, exc, paths=self.ctx.paths), owner=self)

    def _show(self, dialog: QDialog) -> None:
        # open(), not exec(): window-modal without a nested event loop, so background results keep arriving.
        self.last_dialog = dialog
        dialog.open()

