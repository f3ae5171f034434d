"""The teachers' dialog moves a teacher up and down the list and sorts it by reading again; the Shifts
grid follows at once, and the buttons fit a 1280×720 screen in English and Japanese."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from core.store.db import Database
from tests import factories as f
from tests.test_i18n import japanese  # noqa: F401
from tests.test_ui_shifts import answer_yes, idle, open_teachers, open_view
from tests.test_ui_teacher_reading import listed
from tests.test_ui_wrapped_text import language  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.shifts.view import ShiftsView
from ui.teachers.dialog import TeachersDialog

CLICK = Qt.MouseButton.LeftButton
BY_READING = ["伊藤", "佐藤", "中村"]


@pytest.fixture
def teachers(db: Database, now: dt.datetime) -> dict[str, int]:
    """Three teachers with readings, each with a shift in December, so each is a row of the grid."""
    with db.write() as s:
        room = f.classroom(s, "本校")
        ids = {}
        for n, (name, said) in enumerate((("中村", "なかむら"), ("伊藤", "いとう"), ("佐藤", "さとう")), start=1):
            teacher = f.teacher(s, name, n, reading=said)
            f.shift(s, room, teacher, dt.date(2026, 12, n), now=now)
            ids[name] = teacher.id
    return ids


def rows(view: ShiftsView) -> list[str]:
    return [t.name for t in view.model.snapshot.rows]


def test_moving_a_teacher_reorders_the_list_and_the_grid_at_once(qtbot, ctx: AppContext, now: dt.datetime,
                                                                  teachers: dict[str, int],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    asked = answer_yes(monkeypatch)
    view = open_view(qtbot, ctx, now)
    dialog = open_teachers(qtbot, ctx, view)
    assert listed(dialog) == rows(view) == BY_READING
    assert not dialog.reading_button.isEnabled()  # nothing to forget yet

    dialog.select(teachers["中村"])
    assert dialog.up_button.isEnabled() and not dialog.down_button.isEnabled()  # the last one
    qtbot.mouseClick(dialog.up_button, CLICK)
    idle(qtbot, ctx, view)
    assert listed(dialog) == rows(view) == ["伊藤", "中村", "佐藤"]
    assert dialog.selected_id() == teachers["中村"]  # still chosen, for the next step
    assert "中村" in dialog.status.text() and "2" in dialog.status.text()
    qtbot.mouseClick(dialog.up_button, CLICK)
    idle(qtbot, ctx, view)
    assert listed(dialog) == rows(view) == ["中村", "伊藤", "佐藤"]
    assert not dialog.up_button.isEnabled() and dialog.down_button.isEnabled()  # the first one

    dialog.select(teachers["伊藤"])
    qtbot.mouseClick(dialog.down_button, CLICK)
    idle(qtbot, ctx, view)
    assert listed(dialog) == rows(view) == ["中村", "佐藤", "伊藤"]
    dialog.table.setFocus()
    qtbot.keyClick(dialog.table, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    idle(qtbot, ctx, view)
    assert listed(dialog) == rows(view) == ["中村", "伊藤", "佐藤"]
    qtbot.keyClick(dialog.table, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    idle(qtbot, ctx, view)
    assert listed(dialog) == rows(view) == ["中村", "佐藤", "伊藤"]

    assert dialog.reading_button.isEnabled()
    qtbot.mouseClick(dialog.reading_button, CLICK)
    idle(qtbot, ctx, view)
    assert asked and "forgotten" in asked[-1]
    assert listed(dialog) == rows(view) == BY_READING
    assert not dialog.reading_button.isEnabled()


def test_the_order_buttons_fit_a_small_screen(qtbot, ctx: AppContext, language: str, teachers: dict[str, int]) -> None:
    dialog = TeachersDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    settle(qtbot, ctx)
    buttons = (dialog.add_button, dialog.edit_button, dialog.delete_button, dialog.up_button, dialog.down_button,
               dialog.reading_button)
    assert (language == "ja") == ("ふりがな順" in dialog.reading_button.text())  # really translated
    hint = dialog.minimumSizeHint()
    assert hint.width() <= 1280 and hint.height() <= 720 - 60  # inside the screen with the title bar
    assert dialog.width() <= 1280 and dialog.height() <= 720 - 60
    for button in buttons:  # at the size it opens with, every button shows its whole label
        metrics = QFontMetrics(button.font())
        assert button.width() >= metrics.horizontalAdvance(button.text().replace("&", "")), button.text()
        assert button.geometry().right() <= dialog.contentsRect().right(), button.text()
