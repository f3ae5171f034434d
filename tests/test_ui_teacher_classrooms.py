"""Classrooms' own teachers in the window: the Shifts grid lists the classroom's, the teachers' table shows
each one's classrooms, the teacher dialog ticks them (a new teacher starts in the classroom shown), a
shift for someone else's teacher makes them a member and the status line says so; the dialogs fit a
1280×720 screen in Japanese."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt

from core.roster import membership, rules
from core.store.db import Database
from core.texts import formats
from tests import factories as f
from tests.test_i18n import japanese  # noqa: F401
from tests.test_ui_shifts import focus, idle, open_teachers, open_view
from tests.test_ui_wrapped_text import language  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.shifts.shift_dialog import ShiftDialog
from ui.shifts.view import ShiftsView
from ui.teachers.dialog import CLASSROOMS_COLUMN, TeachersDialog
from ui.teachers.edit_dialog import TeacherEditDialog

D = dt.date


@pytest.fixture
def chain(db: Database) -> dict[str, int]:
    """Two classrooms (本校 first by the grid's choice), 佐藤 of 本校, 伊藤 of 北校."""
    with db.write() as s:
        main, north = f.classroom(s, "本校"), f.classroom(s, "北校")
        sato = f.teacher(s, "佐藤", 1, reading="さとう", classroom_ids=[main.id])
        ito = f.teacher(s, "伊藤", 2, reading="いとう", classroom_ids=[north.id])
        return {"main": main.id, "north": north.id, "sato": sato.id, "ito": ito.id}


def rows(view: ShiftsView) -> list[str]:
    return [t.name for t in view.model.snapshot.rows]


def classrooms_cell(dialog: TeachersDialog, name: str) -> str:
    cells = [(dialog.table.item(r, 0), dialog.table.item(r, CLASSROOMS_COLUMN)) for r in range(dialog.table.rowCount())]
    return next(rooms.text() for who, rooms in cells if who is not None and rooms is not None and who.text() == name)


def test_the_grid_the_table_and_the_dialog_follow_the_classrooms(qtbot, ctx: AppContext, chain: dict[str, int],
                                                                now: dt.datetime) -> None:
    view = open_view(qtbot, ctx, now)
    view.set_classroom(chain["main"])
    idle(qtbot, ctx, view)
    assert rows(view) == ["佐藤"]
    dialog = open_teachers(qtbot, ctx, view)
    heading = dialog.table.horizontalHeaderItem(CLASSROOMS_COLUMN)
    assert heading is not None and heading.text() == "Classrooms"
    assert (classrooms_cell(dialog, "佐藤"), classrooms_cell(dialog, "伊藤")) == ("本校", "北校")

    dialog.add()  # a new teacher starts in the classroom the Shifts area shows
    editor = dialog.edit_dialog
    assert isinstance(editor, TeacherEditDialog)
    assert {editor.classroom_boxes[c].isChecked() for c in (chain["main"], chain["north"])} == {True, False}
    assert editor.classroom_boxes[chain["main"]].isChecked()
    editor.name.setText("高橋")
    editor.accept()
    idle(qtbot, ctx, view)
    assert rows(view) == ["佐藤", "高橋"]

    dialog.select(chain["ito"])
    dialog.edit_selected()
    editor = dialog.edit_dialog
    assert isinstance(editor, TeacherEditDialog) and editor.classroom_boxes[chain["north"]].isChecked()
    editor.classroom_boxes[chain["main"]].setChecked(True)
    editor.accept()
    idle(qtbot, ctx, view)
    assert classrooms_cell(dialog, "伊藤") == formats.join(["北校", "本校"], "en")  # by name, as the Classrooms list
    assert rows(view) == ["伊藤", "佐藤", "高橋"]
    with ctx.db.read() as s:
        assert membership.classroom_ids(s, chain["ito"]) == {chain["main"], chain["north"]}


def test_leaving_with_shifts_to_come_is_refused_in_the_dialog(qtbot, ctx: AppContext, chain: dict[str, int],
                                                              now: dt.datetime) -> None:
    from core.store.models import ShiftStatus

    with ctx.db.write() as s:
        f.shift(s, rules.get_classroom(s, chain["main"]), rules.get_teacher(s, chain["sato"]), D(2026, 12, 20),
                now=now, status=ShiftStatus.CONFIRMED)
    view = open_view(qtbot, ctx, now)
    dialog = open_teachers(qtbot, ctx, view)
    dialog.select(chain["sato"])
    dialog.edit_selected()
    editor = dialog.edit_dialog
    assert isinstance(editor, TeacherEditDialog)
    editor.classroom_boxes[chain["main"]].setChecked(False)
    editor.accept()
    idle(qtbot, ctx, view)
    assert editor.isVisible() and "confirmed shift to come at 本校" in editor.error.text()
    with ctx.db.read() as s:
        assert membership.classroom_ids(s, chain["sato"]) == {chain["main"]}


def test_a_shift_for_another_classroom_s_teacher_makes_them_a_member_and_says_so(
        qtbot, ctx: AppContext, chain: dict[str, int], now: dt.datetime) -> None:
    view = open_view(qtbot, ctx, now)
    view.set_classroom(chain["main"])
    idle(qtbot, ctx, view)
    focus(view, chain["sato"], D(2026, 12, 3))
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    shift_dialog = view.editor.dialog
    assert isinstance(shift_dialog, ShiftDialog)
    offered = [shift_dialog.teacher.itemText(n) for n in range(shift_dialog.teacher.count())]
    assert offered == ["佐藤", "伊藤"]  # every active teacher, the classroom's own first
    shift_dialog.teacher.setCurrentIndex(shift_dialog.teacher.findData(chain["ito"]))
    shift_dialog.accept()
    idle(qtbot, ctx, view)
    said = view.status_label.text()
    assert said.startswith("Added 伊藤 ") and said.endswith(" 伊藤 is now one of 本校's teachers."), said
    assert rows(view) == ["伊藤", "佐藤"]
    with ctx.db.read() as s:
        assert chain["ito"] in membership.member_ids(s, chain["main"])


def test_the_teacher_dialogs_fit_a_small_screen_with_a_chain_of_classrooms(
        qtbot, ctx: AppContext, db: Database, language: str) -> None:
    with db.write() as s:
        rooms = [f.classroom(s, f"{name}教室") for name in ("本校", "駅前", "北口", "南口", "中央", "東町", "西町", "新町",
                                                             "みなと", "さくら台")]
        f.teacher(s, "佐藤", 1, classroom_ids=[r.id for r in rooms])
    dialog = TeachersDialog(ctx, classroom_id=rooms[0].id)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    settle(qtbot, ctx)
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1, timeout=10_000)
    heading = dialog.table.horizontalHeaderItem(CLASSROOMS_COLUMN)
    assert heading is not None and (language == "ja") == (heading.text() == "所属教室")
    assert dialog.minimumSizeHint().width() <= 1280 and dialog.minimumSizeHint().height() <= 720 - 60
    dialog.select(dialog.records[0].id)
    dialog.edit_selected()
    editor = dialog.edit_dialog
    assert isinstance(editor, TeacherEditDialog)
    qtbot.waitExposed(editor)
    hint = editor.minimumSizeHint()
    assert hint.width() <= 1280 and hint.height() <= 720 - 60, (hint.width(), hint.height())
    assert all(box.isChecked() for box in editor.classroom_boxes.values())
    for box in editor.classroom_boxes.values():  # every classroom's name shows whole
        assert box.width() >= box.sizeHint().width() - 1, box.text()


def test_a_new_classroom_of_a_chain_says_how_to_give_it_teachers(qtbot, ctx: AppContext, chain: dict[str, int],
                                                                  now: dt.datetime) -> None:
    with ctx.db.write() as s:
        new_room = f.classroom(s, "南校").id
    view = open_view(qtbot, ctx, now)
    view.set_classroom(new_room)
    idle(qtbot, ctx, view)
    assert view.pages.currentWidget() is view.no_member and rows(view) == []
    with ctx.db.write() as s:
        rules.update_teacher(s, chain["sato"], classroom_ids=[chain["main"], new_room])
    view.reload()
    idle(qtbot, ctx, view)
    assert view.pages.currentWidget() is view.grid_page and rows(view) == ["佐藤"]
