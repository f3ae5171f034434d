"""Typing times the way managers write them, and dates that read one way only, in both languages."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication

from core.planning.month_grid import ClassroomItem, MonthSnapshot, TeacherItem
from core.publication.history import CellChange
from core.roster import rules
from core.store.db import Database
from core.store.models import Classroom
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.common import dates, i18n
from ui.common.month_picker import month_title
from ui.publish.view import PublishView
from ui.services.context import AppContext
from ui.settings.view import SettingsView
from ui.shifts.grid import RosterGridModel, date_label
from ui.shifts.shift_dialog import ShiftDialog

CLICK = Qt.MouseButton.LeftButton
WEDNESDAY = dt.date(2026, 12, 2)


@pytest.fixture
def japanese(qapp: QApplication, tmp_path: Path) -> Iterator[None]:
    """The Japanese interface for one test; English again afterwards."""
    assert i18n.install(qapp, "ja", tmp_path) == "ja"
    try:
        yield
    finally:
        i18n.install(qapp, "en", tmp_path)


def type_into(qtbot, field, text: str) -> None:
    """Type over the field's text, then leave it (what tidies it). The text arrives as an input
    method commits it, so full-width digits and kanji come in the way a Japanese keyboard sends them."""
    field.setFocus()
    field.selectAll()
    qtbot.keyClick(field, Qt.Key.Key_Delete)
    event = QInputMethodEvent()
    event.setCommitString(text)
    QApplication.sendEvent(field, event)
    field.editingFinished.emit()


# ----- times ------------------------------------------------------------------------------------


def test_quiet_hours_take_the_times_as_typed(qtbot, ctx: AppContext, db: Database) -> None:
    with db.write() as s:
        room_id = rules.create_classroom(s, name="本校").id
    view = SettingsView(ctx)
    qtbot.addWidget(view)
    view.resize(1000, 900)
    view.show()
    settle(qtbot, ctx)
    section = view.classrooms
    section.quiet.setChecked(True)
    type_into(qtbot, section.quiet_start, "２１３０")
    type_into(qtbot, section.quiet_end, "6時45分")
    assert (section.quiet_start.text(), section.quiet_end.text()) == ("21:30", "06:45")
    qtbot.mouseClick(section.save, CLICK)
    settle(qtbot, ctx)
    assert not section.status.problem_shown, section.status.text()
    with db.read() as s:
        room = s.get(Classroom, room_id)
        assert room is not None and (room.quiet_start, room.quiet_end) == (dt.time(21, 30), dt.time(6, 45))

    type_into(qtbot, section.quiet_end, "25:00")
    assert section.quiet_end.text() == "25:00"  # left as typed, for the manager to correct
    qtbot.mouseClick(section.save, CLICK)
    settle(qtbot, ctx)
    assert section.status.problem_shown
    assert section.status.text().startswith("Bad time '25:00': hours must be 00–23")
    with db.read() as s:
        room = s.get(Classroom, room_id)
        assert room is not None and room.quiet_end == dt.time(6, 45)


def test_the_shift_dialog_takes_the_times_as_typed(qtbot) -> None:
    dialog = ShiftDialog([TeacherItem(1, "佐藤", True)], day=WEDNESDAY)
    qtbot.addWidget(dialog)
    type_into(qtbot, dialog.start, "1700")
    type_into(qtbot, dialog.end, "２６時")
    assert (dialog.start.text(), dialog.end.text(), dialog.next_day.isChecked()) == ("17:00", "02:00", True)
    values = dialog.collect()
    assert (values.start_time, values.end_time, values.ends_next_day) == (dt.time(17), dt.time(2), True)

    type_into(qtbot, dialog.start, "17時30分")
    type_into(qtbot, dialog.end, "9:30 pm")
    dialog.next_day.setChecked(False)
    assert (dialog.start.text(), dialog.end.text()) == ("17:30", "21:30")

    type_into(qtbot, dialog.start, "17")
    assert dialog.start.text() == "17"
    dialog.accept()
    assert not dialog.error.isHidden() and "bad time '17': write it like 17:00, 1700 or 17時30分" in dialog.error.text()


# ----- dates ------------------------------------------------------------------------------------


def _column_header(day: dt.date, role: Qt.ItemDataRole) -> str:
    model = RosterGridModel()
    model.set_snapshot(MonthSnapshot(year=day.year, month=day.month, classroom=ClassroomItem(1, "本校", "Asia/Tokyo")))
    return str(model.headerData(day.day - 1, Qt.Orientation.Horizontal, role))


def _change_line(qtbot, ctx: AppContext) -> str:
    view = PublishView(ctx)
    qtbot.addWidget(view)
    try:
        state = SimpleNamespace(year=2026, month=12)
        return view._describe_change(state, CellChange("佐藤", 2, ("16:00-21:00",), ()))  # type: ignore[arg-type]
    finally:
        settle(qtbot, ctx)


def _dialog_date(qtbot) -> str:
    dialog = ShiftDialog([TeacherItem(1, "佐藤", True)], day=WEDNESDAY)
    qtbot.addWidget(dialog)
    return dialog.date.text()


def test_dates_read_one_way_in_english(qtbot, ctx: AppContext) -> None:
    assert dates.day_text(WEDNESDAY) == "Wed 2 Dec 2026"
    assert dates.day_short(WEDNESDAY) == date_label(WEDNESDAY) == "Wed 2 Dec"
    assert dates.moment_text(dt.datetime(2026, 12, 2, 15, 0).astimezone()) == "Wed 2 Dec 2026 15:00"
    assert _dialog_date(qtbot) == "Wed 2 Dec 2026"
    assert _column_header(WEDNESDAY, Qt.ItemDataRole.DisplayRole) == "2\nWed"
    assert _column_header(WEDNESDAY, Qt.ItemDataRole.ToolTipRole) == "Wed 2 Dec 2026"
    assert month_title(2026, 12) == "December 2026"
    assert _change_line(qtbot, ctx) == "佐藤 — Wed 2 Dec: 16:00-21:00 → no shift"


def test_dates_read_one_way_in_japanese(qtbot, ctx: AppContext, japanese: None) -> None:
    assert dates.day_text(WEDNESDAY) == "2026年12月2日(水)"
    assert dates.day_short(WEDNESDAY) == date_label(WEDNESDAY) == "12月2日(水)"
    assert dates.moment_text(dt.datetime(2026, 12, 2, 15, 0).astimezone()) == "2026年12月2日(水) 15:00"
    assert _dialog_date(qtbot) == "2026年12月2日(水)"
    assert _column_header(WEDNESDAY, Qt.ItemDataRole.DisplayRole) == "2\n水"
    assert _column_header(WEDNESDAY, Qt.ItemDataRole.ToolTipRole) == "2026年12月2日(水)"
    assert month_title(2026, 12) == "2026年12月"
    assert _change_line(qtbot, ctx).startswith("佐藤 — 12月2日(水): 16:00-21:00 → ")


def test_the_date_field_stays_in_the_roster_years(qtbot) -> None:
    dialog = ShiftDialog([TeacherItem(1, "佐藤", True)], day=WEDNESDAY)
    qtbot.addWidget(dialog)
    first, last = dialog.date.minimumDate(), dialog.date.maximumDate()
    assert (first.year(), first.month(), first.day()) == (2000, 1, 1)
    assert (last.year(), last.month(), last.day()) == (2099, 12, 31)
