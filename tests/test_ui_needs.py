"""The Staffing needs dialog (slots × weekdays, Tab across, dates that win over their weekday) saves through
core in one step, and the Shifts grid's needs strip shows assigned against needed per day and slot, short and
over marked, as shifts are added; nothing shows for a classroom with no needs."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDate, Qt
from PySide6.QtGui import QFont

from core.roster import lesson_slots as ls
from core.roster import needs as nd
from core.roster.lesson_slots import LessonSlot
from core.roster.needs import Need
from core.store.db import Database
from tests import factories as f
from tests.test_i18n import japanese  # noqa: F401
from tests.test_ui_shifts import idle, open_view
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.shifts.needs_dialog import StaffingNeedsDialog
from ui.shifts.needs_strip import OVER_INK, SHORT_INK
from ui.shifts.shift_dialog import ShiftDialog

T = dt.time
SLOTS = [LessonSlot("1限", T(16, 50), T(18, 10)), LessonSlot("2限", T(18, 20), T(19, 40))]
TUESDAY = dt.date(2026, 12, 1)


def _room(db: Database) -> tuple[int, int]:
    with db.write() as s:
        room = f.classroom(s, "本校").id
        ls.set_slots(s, room, SLOTS)
        return room, f.teacher(s, "佐藤", 1).id


def test_the_dialog_saves_the_weekly_table_and_the_dates(qtbot, ctx: AppContext, db: Database,
                                                         now: dt.datetime) -> None:
    room, _ = _room(db)
    view = open_view(qtbot, ctx, now)
    assert view.needs_strip.isHidden()  # no needs: nothing shows
    assert view.needs_action.isEnabled()
    view.needs_action.trigger()
    dialog = view.needs_dialog
    assert isinstance(dialog, StaffingNeedsDialog) and dialog.windowTitle() == "Staffing needs of 本校"
    first = dialog.boxes[("1限", 0)]
    first.setFocus()
    qtbot.waitUntil(lambda: first.lineEdit().selectedText() == "–", timeout=5000)  # typing replaces the dash
    qtbot.keyClicks(first.lineEdit(), "2")
    qtbot.keyClick(first, Qt.Key.Key_Tab)
    second = dialog.boxes[("1限", 1)]
    assert second.hasFocus()  # Tab moves across the weekdays
    qtbot.waitUntil(lambda: second.lineEdit().selectedText() == "–", timeout=5000)
    qtbot.keyClicks(second.lineEdit(), "3")
    dialog.date.setDate(QDate(2026, 12, 8))
    dialog.slot.setCurrentText("2限")
    dialog.count.setValue(4)
    dialog.overrides.add_button.click()
    dialog.overrides.add_button.click()  # the same date and slot again: refused under the fields
    assert dialog.overrides.list.count() == 1 and "given twice" in dialog.overrides.problem.text()
    dialog.accept()
    qtbot.waitUntil(lambda: bool(view.model.snapshot.stored_needs), timeout=5000)
    idle(qtbot, ctx, view)
    with db.read() as s:
        assert nd.classroom_needs(s, room) == [Need("1限", 2, weekday=0), Need("1限", 3, weekday=1),
                                               Need("2限", 4, day=dt.date(2026, 12, 8))]
    assert view.needs_strip.isVisible()
    view.needs_action.trigger()  # opened again: what is stored
    again = view.needs_dialog
    assert again is not None and again is not dialog
    assert again.boxes[("1限", 1)].value() == 3 and again.boxes[("2限", 1)].text() == "–"
    assert again.overrides.list.item(0).text() == "Tue 8 Dec 2026  2限: 4"
    again.reject()
    settle(qtbot, ctx)


def test_the_grid_shows_short_then_met_then_over_as_shifts_are_added(qtbot, ctx: AppContext, db: Database,
                                                                      now: dt.datetime) -> None:
    room, sato = _room(db)
    with db.write() as s:
        nd.set_needs(s, room, [Need("1限", 1, weekday=1), Need("2限", 1, weekday=1)])
        suzuki = f.teacher(s, "鈴木", 2).id
    view = open_view(qtbot, ctx, now)
    strip = view.needs_strip.model
    assert view.needs_strip.isVisible() and strip.rowCount() == 2 and strip.columnCount() == 31
    short = strip.index(0, 0)  # 1限 on Tuesday 1 December
    assert short.data() == "0/1" and short.data(Qt.ItemDataRole.ForegroundRole).color() == SHORT_INK
    assert "Short by 1" in short.data(Qt.ItemDataRole.ToolTipRole) and "1限 16:50–18:10" in \
        short.data(Qt.ItemDataRole.ToolTipRole)
    assert strip.index(0, 1).data() == ""  # a Wednesday needs nobody
    # a shift added through the grid: 1限 and 2限 covered
    view.table.setCurrentIndex(view.model.index_of(sato, TUESDAY))
    qtbot.keyClick(view.table, Qt.Key.Key_N)
    dialog = view.editor.dialog
    assert isinstance(dialog, ShiftDialog)
    dialog.start.setText("16:50")
    dialog.end.setText("19:40")
    dialog.accept()
    qtbot.waitUntil(lambda: strip.index(0, 0).data() == "1/1", timeout=5000)
    assert strip.index(0, 0).data(Qt.ItemDataRole.ForegroundRole) is None
    view.table.setCurrentIndex(view.model.index_of(suzuki, TUESDAY))
    qtbot.keyClick(view.table, Qt.Key.Key_N)
    second = view.editor.dialog
    assert isinstance(second, ShiftDialog) and second is not dialog
    second.start.setText("18:00")  # 2限 only: it starts after 1限 starts
    second.end.setText("21:00")
    second.accept()
    qtbot.waitUntil(lambda: strip.index(1, 0).data() == "2/1", timeout=5000)
    over = strip.index(1, 0)
    assert over.data(Qt.ItemDataRole.ForegroundRole).color() == OVER_INK
    font = over.data(Qt.ItemDataRole.FontRole)
    assert isinstance(font, QFont) and font.italic()  # over reads without colour too
    assert strip.index(0, 0).data() == "1/1"
    idle(qtbot, ctx, view)


def test_the_strip_speaks_japanese(qtbot, ctx: AppContext, db: Database, now: dt.datetime, japanese) -> None:
    room, _ = _room(db)
    with db.write() as s:
        nd.set_needs(s, room, [Need("1限", 2, weekday=1)])
    view = open_view(qtbot, ctx, now)
    tip = view.needs_strip.model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "必要" in tip and "不足" in tip
    assert view.needs_action.text() == "必要人数…"


def test_each_day_of_the_strip_sits_under_its_column_of_the_grid(qtbot, ctx: AppContext, db: Database,
                                                                 now: dt.datetime) -> None:
    room, _ = _room(db)
    with db.write() as s:
        nd.set_needs(s, room, [Need("1限", 2, weekday=1)])
        for n in range(2, 30):  # more teachers than fit: the grid scrolls up and down, and its headings widen
            f.teacher(s, f"講師 名前の長い先生{n}", n)
    view = open_view(qtbot, ctx, now)
    strip, grid = view.needs_strip.view, view.table
    assert view.needs_strip.model.rowCount() == 1  # 2限: nobody needed, nobody working, so no row

    def lined_up() -> bool:
        return all(strip.viewport().mapTo(view, strip.visualRect(strip.model().index(0, c)).topLeft()).x()
                   == grid.viewport().mapTo(view, grid.visualRect(view.model.index(0, c)).topLeft()).x()
                   for c in range(31) if grid.visualRect(view.model.index(0, c)).isValid())

    qtbot.waitUntil(lined_up, timeout=5000)
    grid.horizontalScrollBar().setValue(grid.horizontalScrollBar().maximum())  # to the month's end
    assert strip.horizontalScrollBar().value() == grid.horizontalScrollBar().value() > 0
    qtbot.waitUntil(lined_up, timeout=5000)
