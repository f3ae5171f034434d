"""Reminders not acknowledged, on screen: the classroom's setting and the manager's LINE user ID are
saved from Settings, and the readiness panel's button opens the Shifts area on the shift's day."""

from __future__ import annotations

import datetime as dt
from typing import cast

import pytest
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from core.planning import unacknowledged
from core.roster import rules
from core.setup import email as email_setup
from core.store import setting_keys as keys
from core.store.db import Database
from tests.test_ui_email import click, open_settings
from tests.test_unacknowledged import NOW, _sent_reminder
from tests.ui_fixtures import ctx, settle  # noqa: F401 - a fixture
from tests.waiting import PATIENCE_MS
from ui.services.context import AppContext

MANAGER = "U" + "0123456789abcdef" * 2


def test_a_classroom_asks_to_be_told_and_sets_its_window(qtbot, ctx: AppContext, db: Database) -> None:
    with db.write() as s:
        room_id = rules.create_classroom(s, name="本校").id
    view = open_settings(qtbot, ctx)
    section = view.classrooms
    assert (section.nudge.isChecked(), section.nudge_hours.value()) == (False, 3)
    section.nudge.setChecked(True)
    section.nudge_hours.setValue(5)
    click(qtbot, ctx, section.save)
    assert not section.status.problem_shown, section.status.text()
    with db.read() as s:
        assert unacknowledged.settings_of(s, room_id) == unacknowledged.NudgeSettings(True, 5)
    second = open_settings(qtbot, ctx)  # what was saved is what a new Settings tab shows
    reopened = second.classrooms
    assert (reopened.nudge.isChecked(), reopened.nudge_hours.value()) == (True, 5)


def test_the_managers_line_user_id_is_saved_with_the_alerts(qtbot, ctx: AppContext) -> None:
    view = open_settings(qtbot, ctx)
    section = view.alerts
    section.manager_line.setText("U123")
    click(qtbot, ctx, section.save)
    assert section.status.problem_shown and "LINE user ID" in section.status.text()
    assert email_setup.email_state(ctx.db).manager_line_user_id is None

    section.manager_line.setText(MANAGER)
    click(qtbot, ctx, section.save)
    assert not section.status.problem_shown, section.status.text()
    assert email_setup.email_state(ctx.db).manager_line_user_id == MANAGER


def test_show_the_shift_opens_the_shifts_area_on_its_day(qtbot, ctx: AppContext, db: Database,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.shell import app as ui_app

    ctx.clock = lambda: NOW
    _sent_reminder(db, "佐藤", 1, "17:00")
    with db.write() as s:
        keys.LINE_ACK_BUTTON.write(s, True)
    monkeypatch.setattr(QMessageBox, "exec", lambda self: 0)
    shell = ui_app.Shell(cast(QApplication, QApplication.instance()), ctx, QIcon(), tray_available=False)
    window = shell.open_window()
    qtbot.addWidget(window)
    window.tabs.setCurrentWidget(window.settings)
    panel = window.settings.readiness
    qtbot.waitUntil(lambda: panel.findChild(QPushButton, "fix_acknowledged") is not None, timeout=PATIENCE_MS)
    button = panel.findChild(QPushButton, "fix_acknowledged")
    assert button is not None and button.text() == "Show the shift"
    button.click()
    assert window.tabs.currentWidget() is window.shifts
    shifts = window.shifts
    day = NOW.astimezone(dt.timezone(dt.timedelta(hours=9))).date()
    qtbot.waitUntil(lambda: shifts._cell_key(shifts.table.currentIndex()) is not None, timeout=PATIENCE_MS)
    teacher_id, shown = shifts._cell_key(shifts.table.currentIndex()) or (0, None)
    assert shown == day and (shifts.year, shifts.month) == (day.year, day.month)
    with db.read() as s:
        assert rules.get_teacher(s, teacher_id).name == "佐藤"
    settle(qtbot, ctx)
