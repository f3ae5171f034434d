"""The Shifts area against the real database (and the local LINE emulator over HTTP for teachers'
LINE IDs): the grid, editing by dialog and keyboard, copying, confirming, undo/redo, teachers, CSV."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox
from sqlalchemy import func, select

from core.channels.line import LineApiError
from core.emulator import LineEmulator
from core.roster import rules
from core.store.db import Database
from core.store.models import Channel, Delivery, DeliveryKind, DeliveryStatus, Shift, ShiftStatus, SubjectType, Teacher
from tests import factories as f
from tests.linefixtures import emulator, line_ready  # noqa: F401
from tests.ui_fixtures import computer_zone, ctx, documents, settle  # noqa: F401
from ui.common.month_picker import default_month, month_title
from ui.services.context import AppContext
from ui.shifts.copy_dialog import CopyDaysDialog
from ui.shifts.csv_files import CsvProblemsDialog
from ui.shifts.grid import DAY_KIND_ROLE, TODAY_ROLE
from ui.shifts.shift_dialog import ShiftDialog
from ui.shifts.view import ShiftsView
from ui.teachers.line import explain

D = dt.date
YES = QMessageBox.StandardButton.Yes


@pytest.fixture
def data(db: Database, now: dt.datetime) -> dict[str, int]:
    """Two classrooms, two active teachers and one inactive, shifts in December and January."""
    with db.write() as s:
        honkou, ekimae = f.classroom(s, "本校"), f.classroom(s, "駅前")
        sato, suzuki = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        resting = f.teacher(s, "休職中", 3)
        ids = {
            "honkou": honkou.id, "ekimae": ekimae.id, "sato": sato.id, "suzuki": suzuki.id, "resting": resting.id,
            "draft": f.shift(s, honkou, sato, D(2026, 12, 3), now=now).id,
            "confirmed": f.shift(s, honkou, suzuki, D(2026, 12, 5), now=now, status=ShiftStatus.CONFIRMED).id,
            "late": f.shift(s, honkou, sato, D(2026, 12, 17), "20:00", "22:00", now=now).id,
            "january": f.shift(s, honkou, sato, D(2027, 1, 4), now=now).id,
            "ekimae_shift": f.shift(s, ekimae, suzuki, D(2026, 12, 10), now=now).id,
            "resting_shift": f.shift(s, honkou, resting, D(2026, 12, 8), now=now, status=ShiftStatus.CONFIRMED).id,
        }
        rules.update_teacher(s, resting.id, active=False)
    return ids


def idle(qtbot, ctx: AppContext, view: ShiftsView) -> None:
    settle(qtbot, ctx)
    qtbot.waitUntil(lambda: ctx.tasks.pending == 0 and not view.busy, timeout=5000)


def open_view(qtbot, ctx: AppContext, now: dt.datetime) -> ShiftsView:
    ctx.clock = lambda: now
    view = ShiftsView(ctx)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    idle(qtbot, ctx, view)
    return view


def cell_text(view: ShiftsView, teacher_id: int, day: dt.date) -> str:
    index = view.model.index_of(teacher_id, day)
    assert index.isValid(), (teacher_id, day)
    return index.data()


def focus(view: ShiftsView, teacher_id: int, day: dt.date) -> None:
    index = view.model.index_of(teacher_id, day)
    assert index.isValid()
    view.table.setCurrentIndex(index)
    view.table.setFocus()


def shift_row(db: Database, shift_id: int) -> Shift | None:
    with db.read() as s:
        return s.get(Shift, shift_id)


def shift_status(db: Database, shift_id: int) -> ShiftStatus:
    row = shift_row(db, shift_id)
    assert row is not None, shift_id
    return row.status


def shifts_on(db: Database, teacher_id: int, day: dt.date) -> list[Shift]:
    with db.read() as s:
        return list(s.scalars(select(Shift).where(Shift.teacher_id == teacher_id, Shift.local_date == day)))


def count_shifts(db: Database) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Shift)) or 0


def answer_yes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    asked: list[str] = []

    def question(parent, title, text, *args, **kwargs):
        asked.append(text)
        return YES

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def capture_warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a, **k: shown.append(text))
    return shown


# ----- the grid ---------------------------------------------------------------------------------


def test_default_month_turns_to_next_month_after_the_20th() -> None:
    assert default_month(D(2026, 12, 20)) == (2026, 12)
    assert default_month(D(2026, 12, 21)) == (2027, 1)
    assert default_month(D(2026, 3, 31)) == (2026, 4)


def test_grid_shows_the_chosen_month_and_classroom(qtbot, ctx: AppContext, data: dict[str, int], now: dt.datetime) -> None:
    view = open_view(qtbot, ctx, now)
    assert view.month_label.text() == month_title(2026, 12)
    assert view.classroom_combo.currentText() == "本校"
    assert view.model.columnCount() == 31
    # Active teachers, plus the inactive one only because she has a shift this month.
    assert [t.name for t in view.model.snapshot.rows] == ["佐藤", "鈴木", "休職中"]
    assert cell_text(view, data["sato"], D(2026, 12, 3)) == "16:00\n21:00"
    assert cell_text(view, data["suzuki"], D(2026, 12, 5)) == "16:00\n21:00"
    assert cell_text(view, data["suzuki"], D(2026, 12, 10)) == ""  # that shift is at 駅前
    sat, sun = view.model.index_of(data["sato"], D(2026, 12, 5)), view.model.index_of(data["sato"], D(2026, 12, 6))
    assert (sat.data(DAY_KIND_ROLE), sun.data(DAY_KIND_ROLE)) == ("sat", "sun")
    assert view.model.index_of(data["sato"], D(2026, 12, 1)).data(TODAY_ROLE) is True
    assert "\n" in view.model.headerData(0, Qt.Orientation.Horizontal)  # day number over weekday

    view.classroom_combo.setCurrentIndex(view.classroom_combo.findText("駅前"))
    view.classroom_combo.activated.emit(view.classroom_combo.currentIndex())
    idle(qtbot, ctx, view)
    assert cell_text(view, data["suzuki"], D(2026, 12, 10)) == "16:00\n21:00"
    # 駅前 lists its own teachers: 鈴木 works there; 佐藤 only at 本校, where her shifts made her a member.
    assert [t.name for t in view.model.snapshot.rows] == ["鈴木"]
    assert not view.model.index_of(data["sato"], D(2026, 12, 3)).isValid()

    view.classroom_combo.setCurrentIndex(view.classroom_combo.findText("本校"))
    view.classroom_combo.activated.emit(view.classroom_combo.currentIndex())
    view.next_action.trigger()
    idle(qtbot, ctx, view)
    assert view.month_label.text() == month_title(2027, 1)
    assert cell_text(view, data["sato"], D(2027, 1, 4)) == "16:00\n21:00"
    assert view.model.index_of(data["sato"], D(2027, 1, 1)).data(DAY_KIND_ROLE) == "holiday"  # 元日


def test_no_classroom_shows_a_friendly_start_and_adds_one(qtbot, ctx: AppContext, now: dt.datetime) -> None:
    view = open_view(qtbot, ctx, now)
    assert view.pages.currentWidget() is view.no_classroom
    qtbot.mouseClick(view.no_classroom.button, Qt.MouseButton.LeftButton)
    dialog = view.classroom_dialog
    assert dialog is not None and dialog.timezone.currentText() == "Asia/Tokyo"
    dialog.name.setText("本校")
    dialog.group.setText("C123")
    dialog.accept()
    idle(qtbot, ctx, view)
    assert dialog.isVisible() and "group ID" in dialog.error.text()  # core's reason, dialog kept open
    dialog.group.clear()
    dialog.accept()
    idle(qtbot, ctx, view)
    assert view.classroom_combo.currentText() == "本校"
    assert view.pages.currentWidget() is view.no_teacher  # next step: teachers


# ----- editing ----------------------------------------------------------------------------------


def test_editing_in_the_dialog_changes_the_database(qtbot, ctx: AppContext, data: dict[str, int], now: dt.datetime) -> None:
    view = open_view(qtbot, ctx, now)
    focus(view, data["sato"], D(2026, 12, 3))
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    dialog = view.editor.dialog
    assert isinstance(dialog, ShiftDialog) and dialog.shift is not None and dialog.isVisible()

    dialog.end.setText("15:00")  # before the start: core refuses, the dialog stays open with the reason
    dialog.accept()
    idle(qtbot, ctx, view)
    assert dialog.isVisible() and "end after it starts" in dialog.error.text()

    dialog.start.setText("22:00")
    dialog.end.setText("26:30")  # after midnight, the Japanese way
    dialog.note.setText("教材を持参")
    dialog.accept()
    idle(qtbot, ctx, view)
    row = shift_row(ctx.db, data["draft"])
    assert row is not None
    assert (row.start_time, row.end_time, row.ends_next_day, row.note) == (dt.time(22), dt.time(2, 30), True, "教材を持参")
    assert cell_text(view, data["sato"], D(2026, 12, 3)) == "22:00\n26:30"


def test_the_status_line_names_the_edited_shift_as_saved(qtbot, ctx: AppContext, data: dict[str, int],
                                                         now: dt.datetime) -> None:
    view = open_view(qtbot, ctx, now)
    focus(view, data["sato"], D(2026, 12, 3))
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    dialog = view.editor.dialog
    assert isinstance(dialog, ShiftDialog)
    dialog.teacher.setCurrentIndex(dialog.teacher.findData(data["suzuki"]))
    dialog.start.setText("17:30")
    dialog.end.setText("25:00")
    dialog.accept()
    idle(qtbot, ctx, view)
    said = view.status_label.text()
    assert said.startswith("Saved 鈴木 ") and said.endswith(" 17:30–25:00."), said
    assert "16:00" not in said and "佐藤" not in said  # not the shift as it was before the edit


def test_the_acknowledgement_tooltip_is_on_the_classrooms_clock(qtbot, ctx: AppContext, data: dict[str, int],
                                                                now: dt.datetime,
                                                                computer_zone: Callable[[str], None]) -> None:
    computer_zone("America/New_York")
    tapped = dt.datetime(2026, 12, 4, 12, 0, tzinfo=dt.UTC)  # 21:00 on 4 Dec in Tokyo, 07:00 in New York
    with ctx.db.write() as s:
        shift = s.get(Shift, data["confirmed"])
        assert shift is not None
        s.add(Delivery(kind=DeliveryKind.SHIFT_REMINDER, dedup_key="tapped", status=DeliveryStatus.SENT,
                       channel=Channel.LINE, teacher_id=data["suzuki"], classroom_id=data["honkou"],
                       subject_type=SubjectType.SHIFT, subject_id=shift.id, subject_version=shift.version,
                       due_at=now, next_attempt_at=now, created_at=now, updated_at=now, acknowledged_at=tapped))
    view = open_view(qtbot, ctx, now)
    tip = view.model.index_of(data["suzuki"], D(2026, 12, 5)).data(Qt.ItemDataRole.ToolTipRole)
    assert "✓ 鈴木 tapped 了解 on Fri 4 Dec 2026 21:00" in tip, tip


def test_delete_key_deletes_a_draft(qtbot, ctx: AppContext, data: dict[str, int], now: dt.datetime) -> None:
    view = open_view(qtbot, ctx, now)
    focus(view, data["sato"], D(2026, 12, 3))
    qtbot.keyClick(view.table, Qt.Key.Key_Delete)
    idle(qtbot, ctx, view)
    assert shift_row(ctx.db, data["draft"]) is None
    assert cell_text(view, data["sato"], D(2026, 12, 3)) == ""


def test_delete_key_on_a_confirmed_shift_cancels_it_after_asking(qtbot, ctx: AppContext, data: dict[str, int],
                                                                  now: dt.datetime, monkeypatch: pytest.MonkeyPatch,
                                                                  line_ready: LineEmulator) -> None:
    # LINE is connected and the teacher is paired: the question may promise to tell them.
    asked = answer_yes(monkeypatch)
    view = open_view(qtbot, ctx, now)
    focus(view, data["suzuki"], D(2026, 12, 5))
    qtbot.keyClick(view.table, Qt.Key.Key_Delete)
    idle(qtbot, ctx, view)
    assert len(asked) == 1 and "tell the teacher" in asked[0]
    row = shift_row(ctx.db, data["confirmed"])
    assert row is not None and row.status == ShiftStatus.CANCELED and row.version == 2
    assert cell_text(view, data["suzuki"], D(2026, 12, 5)) == "16:00\n21:00"  # still shown, struck through

    view.undo_action.trigger()  # undoing a cancel confirms the shift again, as a new version
    idle(qtbot, ctx, view)
    row = shift_row(ctx.db, data["confirmed"])
    assert row is not None and row.status == ShiftStatus.CONFIRMED and row.version == 3


def test_canceling_the_shift_of_a_teacher_who_cannot_be_told_does_not_promise_to_tell_them(
        qtbot, ctx: AppContext, data: dict[str, int], now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = answer_yes(monkeypatch)  # LINE is not connected here: nothing can reach 鈴木
    statuses: list[str] = []
    view = open_view(qtbot, ctx, now)
    view.editor.status.connect(statuses.append)
    focus(view, data["suzuki"], D(2026, 12, 5))
    qtbot.keyClick(view.table, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: bool(asked), timeout=5000)
    idle(qtbot, ctx, view)
    assert "tell the teacher?" not in asked[0]
    assert "cannot tell 鈴木 that it is canceled: LINE is not set up" in asked[0], asked[0]
    row = shift_row(ctx.db, data["confirmed"])
    assert row is not None and row.status == ShiftStatus.CANCELED  # the roster is the manager's: it is canceled
    assert statuses[-1] == "Canceled 鈴木 Sat 5 Dec 16:00–21:00. 鈴木 was not told: LINE is not set up.", statuses


def test_copy_to_other_days_is_all_or_nothing(qtbot, ctx: AppContext, data: dict[str, int], now: dt.datetime) -> None:
    view = open_view(qtbot, ctx, now)
    menu = view.editor.cell_menu(view.model.index_of(data["sato"], D(2026, 12, 3)))
    next(a for a in menu.actions() if a.text().startswith("Copy to other")).trigger()
    dialog = view.editor.dialog
    assert isinstance(dialog, CopyDaysDialog)
    before = count_shifts(ctx.db)

    # Dec 17 already has 20:00–22:00, which a 16:00–21:00 copy overlaps: nothing may be copied.
    dialog.set_checked({D(2026, 12, 10), D(2026, 12, 17), D(2026, 12, 24)})
    dialog.accept()
    idle(qtbot, ctx, view)
    assert dialog.isVisible()
    assert "Nothing was copied" in dialog.error.text() and "overlaps" in dialog.error.text()
    assert count_shifts(ctx.db) == before
    assert shifts_on(ctx.db, data["sato"], D(2026, 12, 10)) == []

    dialog.set_checked({D(2026, 12, 10), D(2026, 12, 24)})
    dialog.accept()
    idle(qtbot, ctx, view)
    copies = shifts_on(ctx.db, data["sato"], D(2026, 12, 10)) + shifts_on(ctx.db, data["sato"], D(2026, 12, 24))
    assert [(c.start_time, c.end_time, c.status) for c in copies] == [(dt.time(16), dt.time(21), ShiftStatus.DRAFT)] * 2
    assert cell_text(view, data["sato"], D(2026, 12, 24)) == "16:00\n21:00"

    view.undo_action.trigger()
    idle(qtbot, ctx, view)
    assert count_shifts(ctx.db) == before
    view.redo_action.trigger()
    idle(qtbot, ctx, view)
    assert count_shifts(ctx.db) == before + 2


def test_confirm_month_confirms_every_draft_and_its_undo_is_refused(qtbot, ctx: AppContext, data: dict[str, int],
                                                                    now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = answer_yes(monkeypatch)
    warnings = capture_warnings(monkeypatch)
    view = open_view(qtbot, ctx, now)
    view.confirm_action.trigger()
    idle(qtbot, ctx, view)
    assert len(asked) == 1 and "Confirm 2 draft shifts" in asked[0]
    for key in ("draft", "late"):
        assert shift_status(ctx.db, data[key]) == ShiftStatus.CONFIRMED
    assert shift_status(ctx.db, data["january"]) == ShiftStatus.DRAFT
    assert shift_status(ctx.db, data["ekimae_shift"]) == ShiftStatus.DRAFT
    assert view.runner.stack.count() == 1

    view.undo_action.trigger()
    idle(qtbot, ctx, view)
    assert len(warnings) == 1 and "back to draft" in warnings[0]
    assert shift_status(ctx.db, data["draft"]) == ShiftStatus.CONFIRMED
    assert view.runner.stack.count() == 0 and not view.undo_action.isEnabled()


def test_confirm_month_names_the_teachers_who_will_not_be_told(qtbot, ctx: AppContext, data: dict[str, int],
                                                               now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    answer_yes(monkeypatch)
    statuses: list[str] = []
    view = open_view(qtbot, ctx, now)
    view.editor.status.connect(statuses.append)
    view.confirm_action.trigger()
    qtbot.waitUntil(lambda: any("Not told" in said for said in statuses), timeout=5000)
    idle(qtbot, ctx, view)
    assert statuses[-1] == ("Confirmed 2 shifts. Not told (nothing can reach them now): 佐藤: LINE is not set up"), \
        statuses
    assert shift_status(ctx.db, data["draft"]) == ShiftStatus.CONFIRMED  # confirmed all the same


def test_confirming_when_nobody_can_be_reached_says_so_before_and_the_result_stays_clear_of_the_counter(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    """LINE is not set up: none of the four teachers can be told. The question says so instead of
    promising that they are told, and the result, naming all four, wraps beside the month's counter
    on a 1366-pixel screen instead of running into it."""
    with db.write() as s:
        room = f.classroom(s, "本校")
        for n, name in enumerate(("佐藤 花子", "鈴木 一郎", "小林 陽菜", "田中 美咲"), 1):
            f.shift(s, room, f.teacher(s, name, n), D(2026, 12, 2 + n), now=now)
    asked = answer_yes(monkeypatch)
    view = open_view(qtbot, ctx, now)
    view.resize(1366, 640)
    view.confirm_action.trigger()
    qtbot.waitUntil(lambda: "Not told" in view.status_label.text(), timeout=5000)
    idle(qtbot, ctx, view)
    [question] = asked
    assert question.startswith("Confirm 4 draft shifts of December 2026 at 本校?"), question
    assert "None of the 4 teachers can be told yet." in question and "佐藤 花子: LINE is not set up" in question, question
    assert "are told" not in question and "will be told" not in question, question
    status, counter = view.status_label, view.summary_label
    # Every line of the result shows, once the layout has given it the height its text needs.
    qtbot.waitUntil(lambda: status.height() >= status.heightForWidth(status.width()), timeout=5000)
    assert status.geometry().right() < counter.geometry().left()
    assert counter.width() >= counter.sizeHint().width()  # the counter is whole


def test_confirming_says_how_many_of_the_teachers_can_be_told(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, monkeypatch: pytest.MonkeyPatch,
        line_ready: LineEmulator) -> None:
    with db.write() as s:
        room = f.classroom(s, "本校")
        f.shift(s, room, f.teacher(s, "佐藤", 1), D(2026, 12, 3), now=now)
        f.shift(s, room, f.teacher(s, "鈴木", 2, line_user_id=None), D(2026, 12, 4), now=now)
    asked = answer_yes(monkeypatch)
    view = open_view(qtbot, ctx, now)
    view.confirm_action.trigger()
    idle(qtbot, ctx, view)
    assert "1 of the 2 teachers cannot be told yet; the others are told" in asked[0], asked[0]
    assert "\n鈴木: " in asked[0] and "佐藤" not in asked[0], asked[0]


def test_undo_and_redo_of_add_and_edit(qtbot, ctx: AppContext, data: dict[str, int], now: dt.datetime) -> None:
    view = open_view(qtbot, ctx, now)
    day = D(2026, 12, 9)
    focus(view, data["sato"], day)
    qtbot.keyClick(view.table, Qt.Key.Key_N)
    add = view.editor.dialog
    assert isinstance(add, ShiftDialog) and add.shift is None
    add.start.setText("10:00")
    add.end.setText("12:00")
    add.accept()
    idle(qtbot, ctx, view)
    assert [(s.start_time, s.end_time) for s in shifts_on(ctx.db, data["sato"], day)] == [(dt.time(10), dt.time(12))]

    focus(view, data["sato"], day)
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    edit = view.editor.dialog
    assert isinstance(edit, ShiftDialog) and edit.shift is not None
    edit.end.setText("13:00")
    edit.accept()
    idle(qtbot, ctx, view)
    assert [s.end_time for s in shifts_on(ctx.db, data["sato"], day)] == [dt.time(13)]

    def step(action) -> list[dt.time]:
        assert action.isEnabled()
        action.trigger()
        idle(qtbot, ctx, view)
        return [s.end_time for s in shifts_on(ctx.db, data["sato"], day)]

    assert step(view.undo_action) == [dt.time(12)]  # the edit, undone
    assert step(view.undo_action) == []  # the add, undone: the draft is deleted
    assert cell_text(view, data["sato"], day) == ""
    assert step(view.redo_action) == [dt.time(12)]  # added again (a new row)
    assert step(view.redo_action) == [dt.time(13)]  # the edit finds the new row
    assert not view.redo_action.isEnabled()
    assert cell_text(view, data["sato"], day) == "10:00\n13:00"


def test_a_redo_core_refuses_is_shown_and_dropped_from_the_stack(qtbot, ctx: AppContext, data: dict[str, int],
                                                                  now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    warnings = capture_warnings(monkeypatch)
    view = open_view(qtbot, ctx, now)
    focus(view, data["sato"], D(2026, 12, 3))
    qtbot.keyClick(view.table, Qt.Key.Key_Delete)  # delete the draft: one undoable step
    idle(qtbot, ctx, view)
    view.undo_action.trigger()  # the draft is back
    idle(qtbot, ctx, view)
    assert len(shifts_on(ctx.db, data["sato"], D(2026, 12, 3))) == 1
    with ctx.db.write() as s:  # meanwhile it is confirmed elsewhere, so it can no longer be deleted
        rules.confirm_month(s, data["honkou"], 2026, 12, now=now)
    assert view.runner.stack.count() == 1 and view.redo_action.isEnabled()

    view.redo_action.trigger()
    idle(qtbot, ctx, view)
    assert len(warnings) == 1 and "cannot be deleted" in warnings[0]
    assert [s.status for s in shifts_on(ctx.db, data["sato"], D(2026, 12, 3))] == [ShiftStatus.CONFIRMED]
    assert view.runner.stack.count() == 0
    assert not view.undo_action.isEnabled() and not view.redo_action.isEnabled()


# ----- teachers ---------------------------------------------------------------------------------


def open_teachers(qtbot, ctx: AppContext, view: ShiftsView):
    view.teachers_action.trigger()
    dialog = view.teachers_dialog
    assert dialog is not None
    idle(qtbot, ctx, view)
    return dialog


def test_teachers_add_edit_and_erase(qtbot, ctx: AppContext, data: dict[str, int], now: dt.datetime,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    asked = answer_yes(monkeypatch)
    view = open_view(qtbot, ctx, now)
    dialog = open_teachers(qtbot, ctx, view)
    assert dialog.table.rowCount() == 3

    dialog.add()
    editor = dialog.edit_dialog
    assert editor is not None
    editor.name.setText("佐藤")  # taken: core says so, the form stays
    editor.accept()
    idle(qtbot, ctx, view)
    assert editor.isVisible() and "already exists" in editor.error.text()
    editor.name.setText("高橋")
    editor.email.setText("takahashi@example.com")
    editor.email_opt_in.setChecked(True)
    editor.accept()
    idle(qtbot, ctx, view)
    with ctx.db.read() as s:
        added = s.scalar(select(Teacher).where(Teacher.name == "高橋"))
        assert added is not None and (f.reach(added).email, f.reach(added).email_opt_in, added.active) == ("takahashi@example.com", True, True)
    assert "高橋" in [t.name for t in view.model.snapshot.rows]  # the grid was read again

    dialog.select(added.id)
    dialog.edit_selected()
    editor = dialog.edit_dialog
    assert editor is not None and editor.name.text() == "高橋"
    editor.email.setText("t.takahashi@example.com")
    editor.accept()
    idle(qtbot, ctx, view)
    with ctx.db.read() as s:
        assert f.reach_of(s, added.id).email == "t.takahashi@example.com"

    dialog.select(data["sato"])
    dialog.erase_selected()
    idle(qtbot, ctx, view)
    assert "Erased now" in asked[-1] and "Kept" in asked[-1]
    with ctx.db.read() as s:
        erased = s.get(Teacher, data["sato"])
        assert erased is not None and erased.name is None and erased.erased_at is not None
    assert shift_status(ctx.db, data["draft"]) == ShiftStatus.CANCELED
    assert "佐藤" not in [dialog.table.item(r, 0).text() for r in range(dialog.table.rowCount())]


def test_line_check_shows_the_display_name(qtbot, ctx: AppContext, data: dict[str, int], now: dt.datetime,
                                           line_ready: LineEmulator) -> None:
    known, stranger = "U" + "a1" * 16, "U" + "b2" * 16
    line_ready.add_user(known, "山田 花子")
    view = open_view(qtbot, ctx, now)
    dialog = open_teachers(qtbot, ctx, view)
    dialog.add()
    editor = dialog.edit_dialog
    assert editor is not None
    editor.line_id.setText(known)
    editor.check()
    idle(qtbot, ctx, view)
    assert editor.line_result.text().endswith("山田 花子")
    editor.line_id.setText(stranger)
    editor.check()
    idle(qtbot, ctx, view)
    assert "not know this user as a friend" in editor.line_result.text()


def test_friends_picker_lists_the_accounts_friends(qtbot, ctx: AppContext, data: dict[str, int], now: dt.datetime,
                                                   line_ready: LineEmulator, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ui.teachers.friends_dialog.BATCH", 2)  # three batches for five friends
    friends = {f"U{n:032x}": name for n, name in enumerate(["佐藤", "山田", "田中", "中村", "小林"], start=1)}
    for user_id, name in friends.items():
        line_ready.add_user(user_id, name)
    line_ready.add_user("U" + "f" * 32, "ブロック中", friend=False)
    view = open_view(qtbot, ctx, now)
    dialog = open_teachers(qtbot, ctx, view)
    dialog.add()
    editor = dialog.edit_dialog
    assert editor is not None
    editor.pick()
    picker = editor.friends_dialog
    assert picker is not None
    qtbot.waitUntil(lambda: not picker.loading, timeout=5000)
    assert sorted(picker.friends()) == sorted(friends.values())
    picker.choose(f"U{1:032x}")  # 佐藤 already has this ID in Shiftcast: not pickable
    assert not picker.buttons.button(picker.buttons.StandardButton.Ok).isEnabled()
    picker.choose(f"U{4:032x}")
    picker.accept()
    assert editor.line_id.text() == f"U{4:032x}"
    assert editor.name.text() == "中村"


def test_when_line_will_not_list_friends_the_alternatives_are_explained(qtbot, ctx: AppContext, data: dict[str, int],
                                                                        now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    # The emulator lists friends for every account, so LINE's 403 for unverified ones is raised here.
    refusal = LineApiError(403, "Access to this API is not available for your account")
    text = explain(refusal) or ""
    for words in ("verified and premium", "webhook", "LINE Login", "group", "e-mail"):
        assert words in text

    def refuse(db: Database) -> list[str]:
        raise refusal

    monkeypatch.setattr("ui.teachers.friends_dialog.friend_ids", refuse)
    view = open_view(qtbot, ctx, now)
    dialog = open_teachers(qtbot, ctx, view)
    dialog.add()
    editor = dialog.edit_dialog
    assert editor is not None
    editor.pick()
    picker = editor.friends_dialog
    assert picker is not None
    qtbot.waitUntil(lambda: not picker.loading, timeout=5000)
    assert picker.message.text() == text and picker.list.isHidden()


# ----- CSV --------------------------------------------------------------------------------------


def test_csv_import_refuses_unknown_columns_by_name(qtbot, ctx: AppContext, now: dt.datetime, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    view = open_view(qtbot, ctx, now)
    unknown = tmp_path / "teachers.csv"
    unknown.write_text("Name,LINE,Mail\n新人,U" + "0" * 32 + ",new@example.com\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(unknown), ""))
    view.csv.import_teachers()
    idle(qtbot, ctx, view)
    problems = view.csv.last_dialog
    assert isinstance(problems, CsvProblemsDialog)
    said = problems.problems.toPlainText()
    assert "line 1" in said and "LINE, Mail" in said
    with ctx.db.read() as s:
        assert s.scalar(select(Teacher).where(Teacher.name == "新人")) is None


def test_csv_import_lists_every_problem_or_reports_counts(qtbot, ctx: AppContext, data: dict[str, int], now: dt.datetime,
                                                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    view = open_view(qtbot, ctx, now)
    bad = tmp_path / "bad.csv"
    bad.write_text("classroom,teacher,date,start,end\n本校,佐藤,2026-12-20,16:00,21:00\n"
                   "本校,誰か,2026-12-21,16:00,21:00\n本校,鈴木,2026-12-22,25:00,21:00\n", encoding="utf-8")
    good = tmp_path / "good.csv"
    good.write_text("classroom,teacher,date,start,end\n本校,佐藤,2026-12-20,16:00,21:00\n", encoding="utf-8")
    chosen = [str(bad)]
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (chosen[0], ""))
    before = count_shifts(ctx.db)

    view.csv.import_shifts()
    idle(qtbot, ctx, view)
    problems = view.csv.last_dialog
    assert isinstance(problems, CsvProblemsDialog)
    assert "line 3" in problems.problems.toPlainText() and "line 4" in problems.problems.toPlainText()
    assert count_shifts(ctx.db) == before

    chosen[0] = str(good)
    view.csv.import_shifts()
    idle(qtbot, ctx, view)
    assert isinstance(view.csv.last_dialog, QMessageBox) and "1 added" in view.csv.last_dialog.text()
    assert cell_text(view, data["sato"], D(2026, 12, 20)) == "16:00\n21:00"

    exported = tmp_path / "out.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(exported), ""))
    view.csv.export_shifts()
    idle(qtbot, ctx, view)
    raw = exported.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM, for Excel
    lines = raw.decode("utf-8-sig").splitlines()
    assert "本校,佐藤,2026-12-20,16:00,21:00,draft," in lines
    assert not any("2027-01" in line or "駅前" in line for line in lines)  # this classroom and month only


def test_csv_dialogs_open_in_documents_then_in_the_last_folder_used(qtbot, ctx: AppContext, data: dict[str, int],
                                                                     now: dt.datetime, tmp_path: Path, documents: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    view = open_view(qtbot, ctx, now)
    given: list[str] = []  # the folder or file each dialog was told to open at
    elsewhere = tmp_path / "exports"
    elsewhere.mkdir()

    def save(_parent: object, _title: str, directory: str, *_args: object) -> tuple[str, str]:
        given.append(directory)
        return str(elsewhere / Path(directory).name), ""

    def open_file(_parent: object, _title: str, directory: str, *_args: object) -> tuple[str, str]:
        given.append(directory)
        return "", ""  # canceled

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", open_file)
    view.csv.export_teachers()
    idle(qtbot, ctx, view)
    assert given == [str(documents / "teachers.csv")]  # the first time: Documents, not the program's folder
    assert (elsewhere / "teachers.csv").exists()
    view.csv.import_shifts()
    view.csv.export_shifts()
    idle(qtbot, ctx, view)
    assert given[1:] == [str(elsewhere), str(elsewhere / "shifts-本校-2026-12.csv")]  # where the manager went last
    for made in list(elsewhere.iterdir()):
        made.unlink()
    elsewhere.rmdir()  # a folder that is gone (or another computer's): Documents again
    view.csv.import_teachers()
    assert given[-1] == str(documents)

