"""A classroom's lesson slots (コマ): kept per classroom by start time, checked, and entering a shift by
slot in the shift dialog fills its start and end; `shiftcast lesson-slots` lists, adds and removes them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from core.errors import NotFoundError, ValidationError
from core.planning.month_grid import ShiftItem, TeacherItem, load_month
from core.roster import lesson_slots as ls
from core.roster.lesson_slots import LessonSlot
from core.store.db import Database
from core.store.kinds import ShiftStatus
from tests import factories as f
from tests.test_cli_language import shiftcast
from tests.test_i18n import japanese  # noqa: F401
from tests.test_ui_shifts import idle, open_view
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.shifts.shift_dialog import ShiftDialog

T = dt.time
FIRST, SECOND = LessonSlot("1限", T(16, 50), T(18, 10)), LessonSlot("2限", T(18, 20), T(19, 40))
DAY = dt.date(2026, 12, 3)


@pytest.mark.backends("sqlite", "postgresql")
def test_slots_are_kept_per_classroom_by_start(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        main, station = f.classroom(s, "本校").id, f.classroom(s, "駅前").id
        ls.add_slot(s, main, SECOND)
        ls.add_slot(s, main, LessonSlot(" 1限 ", T(16), T(17)))
        ls.add_slot(s, main, FIRST)  # the same name: new times
        ls.add_slot(s, station, LessonSlot("A", T(10), T(11)))
    with db.read() as s:
        assert ls.classroom_slots(s, main) == [FIRST, SECOND]
    assert load_month(db, main, 2026, 12, now=now).slots == (FIRST, SECOND)
    with db.write() as s:
        ls.remove_slot(s, main, "2限")
        with pytest.raises(NotFoundError):
            ls.remove_slot(s, main, "2限")
        ls.set_slots(s, station, [SECOND])
    with db.read() as s:
        assert ls.classroom_slots(s, main) == [FIRST] and ls.classroom_slots(s, station) == [SECOND]


def test_a_slot_needs_a_name_that_fits_and_an_end_after_its_start(db: Database) -> None:
    for bad, said in ((LessonSlot(" ", T(16), T(17)), "needs a name"), (LessonSlot("x" * 41, T(16), T(17)), "40"),
                      (LessonSlot("1限", T(17), T(16)), "must end after it starts")):
        with pytest.raises(ValidationError, match=said):
            ls.check(bad)
    with db.write() as s, pytest.raises(ValidationError, match="two lesson slots named 1限"):
        ls.set_slots(s, f.classroom(s).id, [FIRST, FIRST])


def test_the_shift_dialog_enters_a_shift_by_slot(qtbot) -> None:
    dialog = ShiftDialog([TeacherItem(1, "佐藤", True)], day=DAY, slots=[FIRST, SECOND])
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.slot.isVisible() and [dialog.slot.itemText(i) for i in range(3)] == [
        "(times as typed)", "1限  16:50–18:10", "2限  18:20–19:40"]
    dialog.slot.setCurrentIndex(2)
    dialog.slot.activated.emit(2)
    values = dialog.collect()
    assert (values.start_time, values.end_time, values.ends_next_day) == (T(18, 20), T(19, 40), False)
    shift = ShiftItem(1, 1, 1, DAY, T(16, 50), T(18, 10), False, "", ShiftStatus.DRAFT, 1)
    editing = ShiftDialog([TeacherItem(1, "佐藤", True)], shift=shift, day=DAY, slots=[FIRST, SECOND])
    qtbot.addWidget(editing)
    assert editing.slot.currentIndex() == 1  # a shift at a slot's times shows that slot
    plain = ShiftDialog([TeacherItem(1, "佐藤", True)], day=DAY)
    qtbot.addWidget(plain)
    plain.show()
    assert not plain.slot.isVisible()  # a classroom without slots: the dialog as before


def test_the_slot_row_is_in_japanese(qtbot, japanese) -> None:
    dialog = ShiftDialog([TeacherItem(1, "佐藤", True)], day=DAY, slots=[FIRST])
    qtbot.addWidget(dialog)
    assert dialog.slot.itemText(0) == "（入力した時刻）"


def test_the_lesson_slots_dialog_saves_the_classrooms_slots_and_the_shift_dialog_offers_them(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s, "本校").id
        f.teacher(s, "佐藤", 1)
        ls.add_slot(s, room, SECOND)
    view = open_view(qtbot, ctx, now)
    assert view.slots_action.isEnabled()
    view.slots_action.trigger()
    dialog = view.slots_dialog
    assert dialog is not None and dialog.windowTitle() == "Lesson slots of 本校"
    assert [dialog.rows.list.item(i).text() for i in range(dialog.rows.list.count())] == ["2限  18:20–19:40"]
    dialog.name.setText("1限")
    dialog.start.setText("1650")
    dialog.end.setText("18時10分")
    dialog.rows.add_button.click()
    dialog.name.setText("3限")
    dialog.start.setText("21:00")
    dialog.end.setText("20:00")
    dialog.rows.add_button.click()  # refused under the fields, not added
    assert "must end after it starts" in dialog.rows.problem.text() and dialog.rows.list.count() == 2
    dialog.accept()
    qtbot.waitUntil(lambda: view.model.snapshot.slots == (FIRST, SECOND), timeout=5000)
    idle(qtbot, ctx, view)
    with db.read() as s:
        assert ls.classroom_slots(s, room) == [FIRST, SECOND]
    view.editor.add_at(view.model.index(0, 2))
    shift_dialog = view.editor.dialog
    assert isinstance(shift_dialog, ShiftDialog)
    assert [shift_dialog.slot.itemText(i) for i in range(1, 3)] == ["1限  16:50–18:10", "2限  18:20–19:40"]
    shift_dialog.reject()
    settle(qtbot, ctx)


@pytest.mark.slow
def test_the_lesson_slots_verb(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert shiftcast(home, "add-classroom", "本校").returncode == 0
    added = shiftcast(home, "lesson-slots", "--classroom", "本校", "--add", "1限", "--start", "1650", "--end", "18:10",
                      "--lang", "ja")
    assert added.returncode == 0, added.stderr
    assert added.stdout.splitlines() == ["1限  16:50〜18:10", "本校のコマ: 1件"]
    missing = shiftcast(home, "lesson-slots", "--classroom", "本校", "--add", "2限", "--lang", "en")
    assert missing.returncode != 0 and missing.stderr.strip() == "shiftcast: --add needs --start and --end"
    removed = shiftcast(home, "lesson-slots", "--classroom", "本校", "--remove", "1限", "--lang", "en")
    assert removed.stdout.splitlines() == ["0 lesson slots at 本校"]
    helped = shiftcast(home, "--help", "--lang", "ja")
    assert "教室のコマを一覧表示します" in helped.stdout
