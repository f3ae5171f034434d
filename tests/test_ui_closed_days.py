"""Closed days in the Shifts area: a closed day's column is shaded and headed 休/closed, its heading's
menu marks it closed or open, and the shift dialog warns (without refusing) on a closed day; in
Japanese on a 1280×720 screen the heading fits its column."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDate, QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu

from core.planning.month_grid import TeacherItem
from core.roster import closed_days
from core.store.db import Database
from tests import factories as f
from tests.test_i18n import japanese  # noqa: F401
from tests.test_ui_shifts import idle, open_view
from tests.test_ui_wrapped_text import language  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.shifts.grid import CLOSED_ROLE
from ui.shifts.shift_dialog import ShiftDialog
from ui.shifts.view import ShiftsView

D = dt.date
TRAINING = D(2026, 12, 10)


def _room(db: Database, now: dt.datetime) -> int:
    with db.write() as s:
        room = f.classroom(s, "本校")
        f.shift(s, room, f.teacher(s, "佐藤", 1), D(2026, 12, 3), now=now)
        closed_days.mark_closed(s, room.id, TRAINING, "研修")
        return room.id


def _column(view: ShiftsView, day: dt.date) -> int:
    return view.model.snapshot.days.index(day)


def _heading(view: ShiftsView, day: dt.date, role: Qt.ItemDataRole | int = Qt.ItemDataRole.DisplayRole) -> object:
    return view.model.headerData(_column(view, day), Qt.Orientation.Horizontal, role)


def test_a_closed_day_is_shaded_and_headed_closed(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    _room(db, now)
    view = open_view(qtbot, ctx, now)
    assert _heading(view, TRAINING) == "10\nThu\nclosed"
    assert _heading(view, D(2026, 12, 11)) == "11\nFri"
    assert _heading(view, TRAINING, CLOSED_ROLE) is True
    assert "Closed: 研修" in str(_heading(view, TRAINING, Qt.ItemDataRole.ToolTipRole))
    row = view.model.index(0, _column(view, TRAINING))
    assert row.data(CLOSED_ROLE) is True and view.model.index(0, _column(view, D(2026, 12, 11))).data(CLOSED_ROLE) is False


def test_the_headings_menu_marks_a_day_closed_and_open_again(qtbot, ctx: AppContext, db: Database,
                                                            now: dt.datetime) -> None:
    room = _room(db, now)
    view = open_view(qtbot, ctx, now)
    header = view.table.horizontalHeader()
    day = D(2026, 12, 17)
    where = QPoint(header.sectionViewportPosition(_column(view, day)) + 5, 5)
    with qtbot.waitSignal(view.table.day_menu_requested, timeout=5000) as asked:
        QApplication.sendEvent(header.viewport(), QContextMenuEvent(QContextMenuEvent.Reason.Mouse, where,
                                                                     header.viewport().mapToGlobal(where)))
    assert asked.args[0] == _column(view, day)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu), timeout=5000)
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    assert [a.text() for a in menu.actions()] == ["Mark Thu 17 Dec closed"]
    menu.actions()[0].trigger()
    menu.close()
    qtbot.waitUntil(lambda: day in view.model.snapshot.closed, timeout=5000)
    idle(qtbot, ctx, view)
    assert _heading(view, day) == "17\nThu\nclosed"
    assert view.status_label.text() == "Thu 17 Dec is now closed."
    with db.read() as s:
        assert day in closed_days.read_month(s, room, 2026, 12)

    opening = view.closed_days.day_menu(_column(view, day))
    assert opening is not None and [a.text() for a in opening.actions()] == ["Mark Thu 17 Dec open"]
    opening.actions()[0].trigger()
    qtbot.waitUntil(lambda: day not in view.model.snapshot.closed, timeout=5000)
    idle(qtbot, ctx, view)
    assert _heading(view, day) == "17\nThu"
    with db.read() as s:
        assert day not in closed_days.read_month(s, room, 2026, 12)


def test_the_shift_dialog_warns_on_a_closed_day_and_still_saves(qtbot, ctx: AppContext, db: Database,
                                                                now: dt.datetime) -> None:
    _room(db, now)
    view = open_view(qtbot, ctx, now)
    dialog = ShiftDialog([TeacherItem(1, "佐藤", True)], day=TRAINING, closed=view.model.snapshot.closed)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.closed_warning.isVisible()
    assert "closed this day (研修)" in dialog.closed_warning.text()
    dialog.date.setDate(QDate(2026, 12, 11))
    assert not dialog.closed_warning.isVisible()
    dialog.date.setDate(QDate(2026, 12, 10))
    assert dialog.closed_warning.isVisible()
    assert dialog.collect().local_date == TRAINING  # a warning, not a refusal


def test_the_closed_heading_fits_its_column_at_1280_by_720(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                          language: str) -> None:
    _room(db, now)
    view = open_view(qtbot, ctx, now)
    view.resize(1280, 720)
    idle(qtbot, ctx, view)
    word = "休" if language == "ja" else "closed"
    assert str(_heading(view, TRAINING)).splitlines()[-1] == word
    header = view.table.horizontalHeader()
    column = _column(view, TRAINING)
    needed = header.fontMetrics().horizontalAdvance(word)
    assert needed < header.sectionSize(column)
    assert header.height() >= 3 * header.fontMetrics().height()  # the third line is not cut off
    settle(qtbot, ctx)


def test_the_first_january_shown_has_room_for_new_years_heading(qtbot, ctx: AppContext, db: Database,
                                                                japanese) -> None:
    """December has no closed day here; January opens with 元日, whose heading takes a third line (休).
    Stepping from the one to the other, the header grows to hold it, the first time as every time."""
    december = dt.datetime(2026, 12, 6, 3, 0, tzinfo=dt.UTC)
    with db.write() as s:
        f.teacher(s, "佐藤", 1)
        f.classroom(s, "本校")
    view = open_view(qtbot, ctx, december)
    header = view.table.horizontalHeader()
    view.step_month(1)
    idle(qtbot, ctx, view)
    assert _heading(view, D(2027, 1, 1)) == "1\n金\n休"
    lines = header.fontMetrics().lineSpacing() * 3
    qtbot.waitUntil(lambda: header.height() >= lines, timeout=5000)
    assert header.height() >= header.sizeHint().height()
