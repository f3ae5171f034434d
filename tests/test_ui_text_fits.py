"""Sentences a new manager met cut off on a 1366×768 screen are shown whole, in English and Japanese:
the shift dialog's status line and the Publish area's dry run and list of changes (the Deliveries
area's Status column is in tests/test_ui_deliveries.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt

from core.planning.month_grid import ShiftItem, TeacherItem
from core.store.kinds import ShiftStatus
from tests.test_i18n import japanese  # noqa: F401
from tests.test_ui_wrapped_text import language, shows_whole  # noqa: F401
from ui.shifts.shift_dialog import ShiftDialog

DAY = dt.date(2026, 12, 3)


@pytest.mark.parametrize("status", list(ShiftStatus))
def test_the_shift_dialogs_status_line_is_shown_whole(qtbot, language: str, status: ShiftStatus) -> None:
    shift = ShiftItem(1, 1, 1, DAY, dt.time(16), dt.time(21), False, "", status, 1)
    dialog = ShiftDialog([TeacherItem(1, "佐藤", True)], shift=shift, day=DAY)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert (language == "ja") == any("\u3040" <= c <= "\u30ff" for c in dialog.status.text())  # really translated
    dialog.resize(dialog.minimumWidth(), 1)  # as small as the manager may make it
    label = dialog.status
    qtbot.waitUntil(lambda: shows_whole(dialog, label), timeout=5000)
    lines = label.fontMetrics().boundingRect(0, 0, label.width(), 10_000, int(Qt.TextFlag.TextWordWrap), label.text())
    assert lines.width() <= label.width() and lines.height() <= label.height()
