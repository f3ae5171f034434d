"""A teacher's limits and wishes in the teacher dialog's Limits tab: shown as set, saved with the teacher in
one transaction, bad values refused beside the fields with nothing saved; the tab fits 1366×768."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import delete

from core.roster import lesson_slots, limits, rules
from core.roster.lesson_slots import LessonSlot
from core.roster.limits import Limits
from core.store.db import Database
from core.store.models import LessonSlot as SlotRow
from tests import factories as f
from tests.test_i18n import japanese  # noqa: F401
from tests.test_ui_shifts import open_teachers, open_view
from tests.test_ui_wrapped_text import language  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.teachers.dialog import TeachersDialog
from ui.teachers.edit_dialog import TeacherEditDialog

T = dt.time


def _setup(db: Database) -> dict[str, int]:
    with db.write() as s:
        main = f.classroom(s, "本校").id
        lesson_slots.set_slots(s, main, [LessonSlot(f"{n}限", T(15 + n), T(16 + n)) for n in (1, 2, 3)])
        sato = f.teacher(s, "佐藤", 1, classroom_ids=[main]).id
        limits.set_limits(s, sato, Limits(max_shifts=8))
        slots = {slot.name: slot.id for slot in limits.slot_names(s)}
    return {"main": main, "sato": sato, **slots}


def _editor(qtbot, ctx: AppContext, now: dt.datetime, teacher_id: int) -> tuple[TeachersDialog, TeacherEditDialog]:
    view = open_view(qtbot, ctx, now)
    dialog = open_teachers(qtbot, ctx, view)
    dialog.select(teacher_id)
    dialog.edit_selected()
    editor = dialog.edit_dialog
    assert isinstance(editor, TeacherEditDialog)
    return dialog, editor


def _limits(db: Database, teacher_id: int) -> Limits:
    with db.read() as s:
        return limits.limits_of(s, [teacher_id])[teacher_id]


def test_the_limits_tab_shows_and_saves_the_teacher_s_limits(qtbot, ctx: AppContext, db: Database,
                                                           now: dt.datetime) -> None:
    ids = _setup(db)
    dialog, editor = _editor(qtbot, ctx, now, ids["sato"])
    tab = editor.limits_editor
    assert tab.max_shifts.value() == 8 and tab.max_hours.text() == "" and tab.share.text() == "Like everyone (1)"
    assert not any(box.isChecked() for box in tab.slot_boxes.values())
    tab.max_hours.setText("40:30")
    tab.min_hours.setText("10.5")
    tab.max_days_in_a_row.setValue(3)
    tab.max_weekend_days.setValue(4)
    tab.share.setValue(2)
    tab.slot_boxes[ids["1限"]].setChecked(True)
    tab.slot_boxes[ids["3限"]].setChecked(True)
    editor.name.setText("佐藤 花子")
    editor.accept()
    qtbot.waitUntil(lambda: dialog.status.text() == "Saved 佐藤 花子.", timeout=10_000)
    assert _limits(db, ids["sato"]) == Limits(8, 40 * 60 + 30, 10 * 60 + 30, 3, 4, 2,
                                              frozenset({ids["1限"], ids["3限"]}))
    qtbot.waitUntil(lambda: dialog.limits.get(ids["sato"], limits.NONE).max_days_in_a_row == 3, timeout=10_000)
    dialog.select(ids["sato"])
    dialog.edit_selected()  # opened again: as saved; "no limit" clears
    again = dialog.edit_dialog
    assert isinstance(again, TeacherEditDialog) and again is not editor
    assert again.limits_editor.max_hours.text() == "40:30" and again.limits_editor.slot_boxes[ids["3限"]].isChecked()
    again.limits_editor.max_shifts.setValue(again.limits_editor.max_shifts.minimum())
    assert again.limits_editor.max_shifts.text() == "No limit"
    again.accept()
    qtbot.waitUntil(lambda: _limits(db, ids["sato"]).max_shifts is None, timeout=10_000)


def test_bad_limits_are_refused_on_their_tab_and_nothing_is_saved(qtbot, ctx: AppContext, db: Database,
                                                                now: dt.datetime) -> None:
    ids = _setup(db)
    _dialog, editor = _editor(qtbot, ctx, now, ids["sato"])
    editor.name.setText("佐藤 花子")
    editor.limits_editor.max_hours.setText("10")
    editor.limits_editor.min_hours.setText("20")
    editor.accept()
    assert editor.isVisible() and editor.tabs.currentWidget() is editor.limits_editor
    assert editor.error.text() == "the fewest hours a month (20:00) are more than the most hours a month (10:00)"
    editor.limits_editor.max_hours.setText("forty")
    editor.accept()
    assert "'forty' is not hours" in editor.error.text()
    with db.read() as s:
        assert rules.get_teacher(s, ids["sato"]).name == "佐藤"
    assert _limits(db, ids["sato"]) == Limits(max_shifts=8)


def test_the_teacher_and_the_limits_are_saved_in_one_transaction(qtbot, ctx: AppContext, db: Database,
                                                                now: dt.datetime) -> None:
    ids = _setup(db)
    _dialog, editor = _editor(qtbot, ctx, now, ids["sato"])
    editor.name.setText("佐藤 花子")
    editor.limits_editor.slot_boxes[ids["2限"]].setChecked(True)
    with db.write() as s:  # the slot goes while the dialog is open: the save is refused as a whole
        s.execute(delete(SlotRow).where(SlotRow.id == ids["2限"]))
    editor.accept()
    qtbot.waitUntil(lambda: bool(editor.error.text()), timeout=10_000)
    assert editor.isVisible() and f"no lesson slot #{ids['2限']}" in editor.error.text()
    with db.read() as s:
        assert rules.get_teacher(s, ids["sato"]).name == "佐藤"


def test_the_limits_tab_fits_a_small_screen(qtbot, ctx: AppContext, db: Database, language: str) -> None:
    with db.write() as s:
        for room in ("本校", "駅前", "北口"):
            lesson_slots.set_slots(s, f.classroom(s, room).id,
                                   [LessonSlot(f"{n}限", T(9 + n), T(10 + n)) for n in range(1, 9)])
    with db.read() as s:
        slots = limits.slot_names(s)
    editor = TeacherEditDialog(ctx, slots=slots, limits=Limits(max_shifts=8, max_minutes=2400))
    qtbot.addWidget(editor)
    editor.tabs.setCurrentWidget(editor.limits_editor)
    editor.show()
    qtbot.waitExposed(editor)
    assert editor.minimumSizeHint().width() <= 1366 and editor.minimumSizeHint().height() <= 768 - 60
    assert (language == "ja") == (editor.tabs.tabText(1) == "上限と希望")


def test_the_grid_warns_on_the_teacher_whose_month_goes_over_their_limits(qtbot, ctx: AppContext, db: Database,
                                                                         now: dt.datetime) -> None:
    from PySide6.QtCore import Qt

    ids = _setup(db)
    with db.write() as s:
        room, sato = rules.get_classroom(s, ids["main"]), rules.get_teacher(s, ids["sato"])
        limits.set_limits(s, ids["sato"], Limits(max_shifts=1, max_days_in_a_row=1))
        for day in (3, 4):
            f.shift(s, room, sato, dt.date(2026, 12, day), now=now)
    view = open_view(qtbot, ctx, now)
    view.set_classroom(ids["main"])
    qtbot.waitUntil(lambda: ids["sato"] in view.model.snapshot.over_limits, timeout=10_000)
    tip = view.model.headerData(0, Qt.Orientation.Vertical, Qt.ItemDataRole.ToolTipRole)
    assert tip == ("佐藤's month goes over their limits:\n• 2 shifts this month, above the most of 1\n"
                   "• 2 days in a row, above the most of 1")
    assert view.model.headerData(0, Qt.Orientation.Vertical, Qt.ItemDataRole.DecorationRole) is not None
    with db.write() as s:
        limits.set_limits(s, ids["sato"], Limits(max_shifts=2))
    view.reload()
    qtbot.waitUntil(lambda: not view.model.snapshot.over_limits, timeout=10_000)
    assert view.model.headerData(0, Qt.Orientation.Vertical, Qt.ItemDataRole.ToolTipRole) is None
