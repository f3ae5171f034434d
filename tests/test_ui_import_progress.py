"""A long CSV import in the window shows how far it is past its first seconds, and Stop imports nothing.

The progress clock is stepped by the test (half a second a reading), so nothing waits for time to pass;
the stop is made deterministic by holding the import's thread until the window has handled Stop.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox, QPushButton
from sqlalchemy import func, select

from core.store.db import Database
from core.store.models import Teacher
from tests.qt_threads import QtCallsOffTheUiThread, qt_calls  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.shifts.csv_files import CsvActions


class SteppingClock:
    """Half a second more at every reading; after `hold_after` readings it waits for `release`."""

    def __init__(self, hold_after: int | None = None) -> None:
        self.now = 0.0
        self.readings = 0
        self.hold_after = hold_after
        self.release = threading.Event()

    def __call__(self) -> float:
        self.readings += 1
        if self.hold_after is not None and self.readings > self.hold_after:
            assert self.release.wait(120), "the window never handled Stop"
        self.now += 0.5
        return self.now


def teachers_file(tmp_path: Path, rows: int) -> Path:
    path = tmp_path / "teachers.csv"
    lines = ["name,line_user_id"] + [f"講師{n:04d},U{n:032x}" for n in range(1, rows + 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def teachers(db: Database) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Teacher)) or 0


@pytest.fixture
def actions(qtbot, ctx: AppContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CsvActions:
    from PySide6.QtWidgets import QWidget

    host = QWidget()
    qtbot.addWidget(host)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(teachers_file(tmp_path, 40)), ""))
    return CsvActions(ctx, host, lambda: (None, "", 2026, 12))


def test_a_long_import_shows_its_progress_then_closes_it(qtbot, ctx: AppContext, actions: CsvActions,
                                                        qt_calls: QtCallsOffTheUiThread) -> None:
    actions.clock = SteppingClock()
    shown: list[str] = []
    on_ui_thread: list[bool] = []
    actions.progressed.connect(lambda line, lines: shown.append(actions.progress_dialog.labelText()))  # type: ignore[union-attr]
    actions.progressed.connect(lambda line, lines: on_ui_thread.append(threading.current_thread() is threading.main_thread()))

    actions.import_teachers()
    settle(qtbot, ctx)
    assert qt_calls.seen == []  # the pool's thread tells the window without calling Qt (ui_thread)
    assert on_ui_thread and all(on_ui_thread)

    # Quiet for the first 3 s (six readings), then every second (two readings) of the stepped clock.
    assert shown and shown[0] == "Reading line 7 of 41…"
    assert len(shown) == len(set(shown)) and len(shown) < 40
    assert actions.progress_dialog is None  # closed when the import ended
    assert isinstance(actions.last_dialog, QMessageBox) and "40 added" in actions.last_dialog.text()
    assert teachers(ctx.db) == 40


def test_a_short_import_shows_no_progress(qtbot, ctx: AppContext, actions: CsvActions) -> None:
    actions.clock = lambda: 0.0  # no time passes: the import ends within its quiet seconds
    told: list[int] = []
    actions.progressed.connect(lambda line, lines: told.append(line))

    actions.import_teachers()
    settle(qtbot, ctx)

    assert told == [] and actions.progress_dialog is None
    assert teachers(ctx.db) == 40


def test_stop_imports_nothing_and_says_so(qtbot, ctx: AppContext, actions: CsvActions) -> None:
    clock = actions.clock = SteppingClock(hold_after=7)  # the reading after the first progress waits for Stop

    def press_stop(line: int, lines: int) -> None:
        assert actions.progress_dialog is not None and actions.progress_dialog.isVisible()
        stop = actions.progress_dialog.findChild(QPushButton)
        assert stop is not None and stop.text() == "Stop"
        stop.click()
        clock.release.set()

    actions.progressed.connect(press_stop)
    actions.import_teachers()
    settle(qtbot, ctx, timeout=120_000)

    assert clock.release.is_set()
    assert teachers(ctx.db) == 0  # the rows read before Stop were rolled back with the rest
    assert isinstance(actions.last_dialog, QMessageBox)
    assert actions.last_dialog.text() == "The import was stopped. Nothing was imported."
    assert actions.progress_dialog is None
