"""Scrolling a page never changes a value (ui/common/wheel_guard.py): a real wheel event over a spin box,
date box or combo box without the focus scrolls the page around it and leaves its value; one the manager
clicked into still answers the wheel. The Settings page's 了解の確認 hours are the case that was seen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QDate, QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDateEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core.roster import rules
from core.store.db import Database
from core.store.paths import DataPaths
from tests.ui_fixtures import ctx, running_app, settle  # noqa: F401
from ui.common import wheel_guard
from ui.services.context import AppContext
from ui.settings.view import SettingsView

DOWN = -120  # one notch of a mouse wheel turned towards the user


def turn_wheel(widget: QWidget, notches: int = 1) -> None:
    """A wheel turn over the middle of `widget`, as Qt delivers one from the mouse."""
    at = QPointF(widget.rect().center())
    event = QWheelEvent(at, QPointF(widget.mapToGlobal(at.toPoint())), QPoint(0, 0), QPoint(0, DOWN * notches),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


@pytest.fixture
def guarded() -> Iterator[wheel_guard.WheelGuard]:
    app = running_app()
    guard = wheel_guard.install(app)
    assert wheel_guard.install(app) is guard  # once, however often start-up asks
    yield guard
    app.removeEventFilter(guard)
    guard.deleteLater()


def _page(qtbot) -> tuple[QScrollArea, QSpinBox, QComboBox, QDateEdit]:
    area = QScrollArea()
    qtbot.addWidget(area)
    page = QWidget()
    column = QVBoxLayout(page)
    spin, combo, date = QSpinBox(), QComboBox(), QDateEdit(QDate(2026, 12, 1))
    spin.setRange(0, 48)
    spin.setValue(3)
    combo.addItems([str(n) for n in range(10)])
    column.addSpacing(600)
    for box in (spin, combo, date):
        column.addWidget(box)
    column.addSpacing(1200)
    area.setWidget(page)
    area.resize(300, 400)
    area.show()
    qtbot.waitExposed(area)
    area.ensureWidgetVisible(spin)
    return area, spin, combo, date


def test_the_wheel_over_a_box_without_focus_scrolls_the_page_and_changes_nothing(qtbot, guarded) -> None:
    area, spin, combo, date = _page(qtbot)
    bar = area.verticalScrollBar()
    for box in (spin, combo, date):
        before = bar.value()
        turn_wheel(box, 3)
        assert bar.value() > before, type(box).__name__  # the page moved down
        assert not box.hasFocus()
    assert (spin.value(), combo.currentIndex(), date.date()) == (3, 0, QDate(2026, 12, 1))


def test_a_box_the_manager_clicked_into_still_answers_the_wheel(qtbot, guarded) -> None:
    area, spin, _combo, _date = _page(qtbot)
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus, timeout=5000)
    turn_wheel(spin)
    assert spin.value() == 2


def test_scrolling_settings_leaves_the_acknowledgement_hours(qtbot, ctx: AppContext, db: Database, guarded) -> None:
    with db.write() as s:
        rules.create_classroom(s, name="本校")
    view = SettingsView(ctx)
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    settle(qtbot, ctx)
    hours = view.classrooms.nudge_hours
    before = hours.value()
    view.page_scroll.ensureWidgetVisible(hours)
    scrolled = view.page_scroll.verticalScrollBar().value()
    turn_wheel(hours, 5)
    assert hours.value() == before
    assert view.page_scroll.verticalScrollBar().value() > scrolled
    settle(qtbot, ctx)


def test_the_window_puts_the_guard_on_the_application_when_it_starts(qtbot, paths: DataPaths) -> None:
    import argparse

    from ui.shell.app import run_gui

    app = running_app()
    for earlier in app.findChildren(wheel_guard.WheelGuard):
        app.removeEventFilter(earlier)
        earlier.setParent(None)
    assert run_gui(argparse.Namespace(home=paths.home, smoke=True, command=None)) == 0
    guards = app.findChildren(wheel_guard.WheelGuard)
    assert len(guards) == 1
    app.removeEventFilter(guards[0])
    guards[0].setParent(None)
