"""Availability in the window: the Shifts grid shades the days each teacher said they can work and
hatches the days they cannot (and says so in the cell's tooltip), the shift dialog warns while a
shift is put on a day its teacher said no, and the Availability dialog lists who answered, late or
not, reminds exactly those who have not, and enters a teacher's reply for them."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import QDate, Qt, QTimer
from PySide6.QtWidgets import QMessageBox
from sqlalchemy import select

from core.roster import availability
from core.roster.availability_text import HOURS, NO, YES, DayAnswer
from core.sending.kinds import availability_request as kind
from core.store.db import Database
from core.store.models import AvailabilityRequest, Delivery
from tests import factories as f
from tests.test_ui_acknowledge import _paint  # a cell painted by the grid's delegate alone
from tests.test_ui_deliveries import language  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.availability.dialog import AvailabilityDialog, EnterDialog
from ui.services.context import AppContext
from ui.shifts.grid import AVAILABILITY_ROLE
from ui.shifts.shift_dialog import ShiftDialog
from ui.shifts.view import ShiftsView

DEADLINE = dt.date(2026, 11, 25)


def _asked(db: Database, now: dt.datetime) -> dict[str, int]:
    """December asked of 佐藤 (○ Tue 8th, × Wed 9th, 17:00– Thu 10th), 鈴木 (late: ○ the 8th) and 高橋 (silent)."""
    with db.write() as s:
        room = f.classroom(s, "本校")
        ids = {name: f.teacher(s, name, n).id for n, name in enumerate(("佐藤", "鈴木", "高橋"), start=1)}
        asking = kind.ask(s, room.id, 2026, 12, DEADLINE, None, now=now - dt.timedelta(days=20))
        request = s.get(AvailabilityRequest, asking.request_id)
        assert request is not None
        availability.record(s, request, ids["佐藤"], [
            DayAnswer(dt.date(2026, 12, 8), YES), DayAnswer(dt.date(2026, 12, 9), NO),
            DayAnswer(dt.date(2026, 12, 10), HOURS, dt.time(17))], source="buttons", at=now - dt.timedelta(days=10))
        availability.record(s, request, ids["鈴木"], [DayAnswer(dt.date(2026, 12, 8), YES)], source="text", at=now)
    return ids


def _view(qtbot, ctx: AppContext, now: dt.datetime) -> ShiftsView:
    ctx.clock = lambda: now
    view = ShiftsView(ctx)
    qtbot.addWidget(view)
    view.resize(1200, 600)
    view.show()
    settle(qtbot, ctx)
    qtbot.waitUntil(lambda: ctx.tasks.pending == 0 and not view.busy, timeout=5000)
    assert (view.year, view.month) == (2026, 12)
    return view


def _cell(dialog: AvailabilityDialog, row: int, column: int) -> str:
    item = dialog.table.item(row, column)
    assert item is not None
    return item.text()


def test_the_grid_shades_the_days_a_teacher_can_work_and_hatches_the_days_they_cannot(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    ids = _asked(db, now)
    view = _view(qtbot, ctx, now)
    model = view.model
    can, cannot, hours, unsaid = (model.index_of(ids["佐藤"], dt.date(2026, 12, day)) for day in (8, 9, 10, 14))
    assert can.data(AVAILABILITY_ROLE) == DayAnswer(dt.date(2026, 12, 8), YES)
    assert cannot.data(AVAILABILITY_ROLE).answer == NO
    assert hours.data(AVAILABILITY_ROLE).start == dt.time(17)
    assert unsaid.data(AVAILABILITY_ROLE) is None
    assert model.index_of(ids["高橋"], dt.date(2026, 12, 8)).data(AVAILABILITY_ROLE) is None
    assert "Said they can work" in can.data(Qt.ItemDataRole.ToolTipRole)
    assert "Said they cannot work" in cannot.data(Qt.ItemDataRole.ToolTipRole)
    assert "Said they can work 17:00–" in hours.data(Qt.ItemDataRole.ToolTipRole)
    # Three different looks, none of them the plain cell (all four are weekdays, none today).
    painted = [_paint(view, index) for index in (can, cannot, unsaid)]
    assert painted[0] != painted[2] and painted[1] != painted[2] and painted[0] != painted[1]
    assert _paint(view, hours) == painted[0]  # some hours is a day they can work


def test_the_shift_dialog_warns_while_the_teacher_said_they_cannot_work_that_day(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    ids = _asked(db, now)
    view = _view(qtbot, ctx, now)
    snapshot = view.model.snapshot
    dialog = ShiftDialog(snapshot.active_teachers, teacher_id=ids["佐藤"], day=dt.date(2026, 12, 9),
                         said_no=snapshot.said_no)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.unavailable.isVisible() and "佐藤 said they cannot work on this day" in dialog.unavailable.text()
    dialog.date.setDate(QDate(2026, 12, 8))
    assert not dialog.unavailable.isVisible()
    dialog.date.setDate(QDate(2026, 12, 9))
    assert dialog.unavailable.isVisible()
    dialog.teacher.setCurrentIndex(dialog.teacher.findData(ids["鈴木"]))  # 鈴木 said nothing of the 9th
    assert not dialog.unavailable.isVisible()


def test_the_availability_dialog_lists_who_answered_and_reminds_only_the_silent(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = _asked(db, now)
    with db.read() as s:
        room_id = s.scalars(select(AvailabilityRequest.classroom_id)).one()
    ctx.clock = lambda: now
    dialog = AvailabilityDialog(ctx, room_id, "本校", 2026, 12)
    qtbot.addWidget(dialog)
    dialog.show()
    settle(qtbot, ctx)
    rows = {_cell(dialog, r, 0): _cell(dialog, r, 1) for r in range(dialog.table.rowCount())}
    assert rows == {"佐藤": "Answered", "鈴木": "Answered late", "高橋": "Not answered"}
    assert "2 of 3 teachers answered" in dialog.summary.text()
    assert dialog.remind_button.isEnabled()

    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Yes)
    dialog.remind_button.click()
    settle(qtbot, ctx)
    qtbot.waitUntil(lambda: "Reminded 1 teacher" in dialog.status.text(), timeout=5000)
    with db.read() as s:
        reminders = s.scalars(select(Delivery.teacher_id).where(Delivery.kind == kind.KEY,
                                                                Delivery.subject_version == 2)).all()
    assert reminders == [ids["高橋"]]
    settle(qtbot, ctx)
    assert _cell(dialog, 2, 1) == "Not answered (reminded)"


def test_an_answer_arriving_while_the_month_is_shown_shades_the_grid_and_updates_the_dialog(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    ids = _asked(db, now)
    view = _view(qtbot, ctx, now)
    cell = view.model.index_of(ids["高橋"], dt.date(2026, 12, 15))
    assert cell.data(AVAILABILITY_ROLE) is None
    dialog = AvailabilityDialog(ctx, view.classroom_id or 0, "本校", 2026, 12)
    qtbot.addWidget(dialog)
    dialog.show()
    settle(qtbot, ctx)
    assert _cell(dialog, 2, 1) == "Not answered"
    with db.write() as s:  # 高橋's answer, as the receiver records it
        request = s.scalars(select(AvailabilityRequest)).one()
        availability.record(s, request, ids["高橋"], [DayAnswer(dt.date(2026, 12, 15), NO)], source="text", at=now)
    qtbot.waitUntil(lambda: view.model.index_of(ids["高橋"], dt.date(2026, 12, 15)).data(AVAILABILITY_ROLE)
                    is not None, timeout=10_000)
    qtbot.waitUntil(lambda: _cell(dialog, 2, 1) == "Answered late", timeout=10_000)


def test_the_manager_enters_a_teacher_s_reply_in_the_dialog_and_the_grid_shades_it(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    ids = _asked(db, now)
    view = _view(qtbot, ctx, now)
    dialog = AvailabilityDialog(ctx, view.classroom_id or 0, "本校", 2026, 12)
    qtbot.addWidget(dialog)
    dialog.show()
    settle(qtbot, ctx)
    assert dialog.enter_button.isEnabled()
    seen: list[object] = []

    def fill() -> None:  # runs inside the form's own event loop
        form = dialog.findChild(EnterDialog)
        assert form is not None
        seen.append(form.teacher.currentText())  # the first who has not answered
        form.text.setPlainText("たぶん大丈夫")
        form.accept()  # cannot be read: the form says so and stays open
        seen.append((form.isVisible(), form.problem.isVisible()))
        form.text.setPlainText("12/15(火) ×\n12/16(水)\n12/17(木) 18時まで")  # the e-mailed list, one day left blank
        form.accept()

    QTimer.singleShot(0, fill)
    dialog.enter_button.click()
    assert seen == ["高橋", (True, True)]
    qtbot.waitUntil(lambda: "Entered 2 days for 高橋" in dialog.status.text(), timeout=10_000)
    qtbot.waitUntil(lambda: _cell(dialog, 2, 1) == "Answered late (entered by you)", timeout=10_000)
    assert _cell(dialog, 0, 1) == "Answered"  # 佐藤 answered on LINE
    qtbot.waitUntil(lambda: view.model.index_of(ids["高橋"], dt.date(2026, 12, 15)).data(AVAILABILITY_ROLE)
                    is not None, timeout=10_000)
    model = view.model
    assert model.index_of(ids["高橋"], dt.date(2026, 12, 15)).data(AVAILABILITY_ROLE).answer == NO
    assert model.index_of(ids["高橋"], dt.date(2026, 12, 17)).data(AVAILABILITY_ROLE).end == dt.time(18)
    assert model.index_of(ids["高橋"], dt.date(2026, 12, 16)).data(AVAILABILITY_ROLE) is None
    with db.read() as s:
        request = s.scalars(select(AvailabilityRequest)).one()
        assert {h.source for h in availability.history(s, request.id, ids["高橋"])} == {availability.MANAGER}


def test_the_legend_explains_the_availability_marks_and_fits_a_small_screen(qtbot, language: str) -> None:
    from PySide6.QtWidgets import QLabel

    from ui.shifts.legend import RosterLegend

    legend = RosterLegend()
    qtbot.addWidget(legend)
    texts = [label.text() for label in legend.findChildren(QLabel)]
    expected = {"en": ["Can work (availability)", "Cannot work"], "ja": ["出勤可（シフト希望）", "出勤不可"]}[language]
    assert texts[-2:] == expected
    assert legend.sizeHint().width() <= 1366 - 40  # the Shifts area's width on a 1366×768 screen, margins aside
