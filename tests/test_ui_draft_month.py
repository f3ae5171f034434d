"""Draft the month… in the Shifts area: the solver runs on the task pool with its progress shown, Stop keeps the
best found, the review lists what the draft changes against the current drafts and each uncovered need with
why and a button to act on it, Apply writes it as one undo step and Ctrl+Z takes the whole draft back."""

from __future__ import annotations

import datetime as dt
import threading

from PySide6.QtWidgets import QPushButton, QTableWidget
from sqlalchemy import select

from core.planning import from_roster
from core.planning.drafted import Act, MonthDraft
from core.roster import availability, lesson_slots, limits, membership, needs
from core.roster.availability_text import DayAnswer
from core.roster.lesson_slots import LessonSlot
from core.store.db import Database
from core.store.models import Shift, ShiftStatus, Teacher
from tests import factories as f
from tests.test_ui_shifts import idle, open_view
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.shifts.draft_dialog import DraftDialog
from ui.shifts.view import ShiftsView

D, T = dt.date, dt.time
SLOTS = [LessonSlot("1限", T(16, 50), T(18, 10)), LessonSlot("2限", T(18, 20), T(19, 40)),
         LessonSlot("3限", T(19, 50), T(21, 10))]


def _drafts(db: Database) -> list[tuple[str, dt.date, dt.time, dt.time]]:
    with db.read() as s:
        rows = s.scalars(select(Shift).where(Shift.status == ShiftStatus.DRAFT)
                         .order_by(Shift.local_date, Shift.start_time, Shift.teacher_id)).all()
        return [(r.teacher.display_name, r.local_date, r.start_time, r.end_time) for r in rows]


def _month(db: Database, now: dt.datetime, *, teachers: int = 3, need: int = 1) -> None:
    """December 2026 of one classroom: every slot needs `need` teachers on weekdays; 佐藤 can work Mondays
    (at most 2 shifts), the others every day; one draft there now is replaced."""
    with db.write() as s:
        room = f.classroom(s)
        lesson_slots.set_slots(s, room.id, SLOTS)
        for slot in SLOTS:
            for weekday in range(5):
                needs.set_need(s, room.id, needs.Need(slot.name, need, weekday=weekday))
        people = [f.teacher(s, name, n + 1) for n, name in enumerate(["佐藤", "伊藤", "加藤", "工藤", "遠藤",
                                                                      "後藤", "斎藤", "須藤"][:teachers])]
        for who in people:
            membership.join(s, room.id, who.id, now=now)
        limits.set_limits(s, people[0].id, limits.Limits(max_shifts=2))
        request = availability.ask(s, room.id, 2026, 12, D(2026, 11, 25), [p.id for p in people], now=now)
        days = [D(2026, 12, d) for d in range(1, 32)]
        availability.record(s, request, people[0].id, [DayAnswer(d, "yes" if d.weekday() == 0 else "no") for d in days],
                            source="text", at=now)
        for who in people[1:]:
            availability.record(s, request, who.id, [DayAnswer(d, "yes") for d in days if d.weekday() < 5],
                                source="text", at=now)
        f.shift(s, room, people[0], D(2026, 12, 5), "10:00", "12:00", now=now)  # a Saturday draft, replaced


def _text(table: QTableWidget, row: int, column: int) -> str:
    item = table.item(row, column)
    assert item is not None, (row, column)
    return item.text()


def _open(qtbot, ctx: AppContext, view: ShiftsView) -> DraftDialog:
    assert view.draft_action.isVisible() and view.draft_action.isEnabled()
    view.draft_action.trigger()
    dialog = view.draft_dialog
    assert isinstance(dialog, DraftDialog)
    settle(qtbot, ctx)
    return dialog


def test_draft_review_apply_and_undo(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    _month(db, now, teachers=2)
    view = open_view(qtbot, ctx, now)
    before = _drafts(db)
    dialog = _open(qtbot, ctx, view)
    dialog.draft_button.click()
    qtbot.waitUntil(lambda: dialog.review is not None, timeout=60_000)
    review = dialog.review
    assert review is not None and review.draft.status == "optimal"
    # Two teachers for 23 weekdays × 3 slots, one of them free on Mondays only and for two shifts at most.
    assert len(review.changes.removed) == 1 and review.changes.removed[0][1].local_date == D(2026, 12, 5)
    assert len(review.changes.added) == 23  # one shift a weekday: a run of slots is one shift
    assert all((d.start_time, d.end_time) == (T(16, 50), T(21, 10)) for d in review.changes.added)
    assert dialog.changes_table.rowCount() == 24
    assert _text(dialog.changes_table, 0, 0) == "Added"
    assert dialog.summary.text().startswith("The best possible draft (proven).")
    # The month as the draft makes it: new shifts marked +, the replaced draft struck through.
    rows = {dialog.preview.verticalHeaderItem(r).text(): r for r in range(dialog.preview.rowCount())}
    assert _text(dialog.preview, rows["伊藤"], 0) == "+16:50\n21:10"
    removed = dialog.preview.item(rows["佐藤"], 4)
    assert removed is not None and removed.text() == "10:00\n12:00" and removed.font().strikeOut()
    assert not dialog.gaps_table.isVisible() and dialog.gaps_label.text() == "Every staffing need is covered."

    dialog.apply_button.click()
    qtbot.waitUntil(lambda: len(_drafts(db)) == 23, timeout=10_000)
    idle(qtbot, ctx, view)
    after = _drafts(db)
    assert view.runner.stack.count() == 1
    view.undo_action.trigger()  # Ctrl+Z: the whole draft at once, the replaced draft back
    qtbot.waitUntil(lambda: _drafts(db) == before, timeout=10_000)
    idle(qtbot, ctx, view)
    view.redo_action.trigger()
    qtbot.waitUntil(lambda: _drafts(db) == after, timeout=10_000)
    idle(qtbot, ctx, view)


def test_progress_arrives_and_stop_keeps_the_best(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    _month(db, now, teachers=8, need=4)  # more needed than the teachers can give: a search, not a shortcut
    view = open_view(qtbot, ctx, now)
    pressed = threading.Event()

    def held(month, seconds, progress, stopper):  # the real solver, holding at its first progress until Stop
        def heard(step):
            progress(step)
            pressed.wait(timeout=60)
        return from_roster.draft(month, seconds, heard, stopper)

    view.drafter = held
    dialog = _open(qtbot, ctx, view)
    dialog.time_limit.setValue(600)
    dialog.draft_button.click()
    qtbot.waitUntil(lambda: "missing in the best so far" in dialog.progress_label.text(), timeout=60_000)
    assert dialog.pages.currentIndex() == 1 and dialog.stop_button.isEnabled()
    dialog.stop_button.click()
    pressed.set()
    qtbot.waitUntil(lambda: dialog.review is not None, timeout=60_000)
    review = dialog.review
    assert review is not None and review.draft.stopped and review.draft.status == "feasible"
    assert review.draft.proposed and dialog.summary.text().startswith("Stopped: the best draft found by then.")
    assert dialog.apply_button.isEnabled()


def test_an_uncovered_need_says_why_and_opens_what_fixes_it(qtbot, ctx: AppContext, db: Database,
                                                             now: dt.datetime) -> None:
    _month(db, now, teachers=1)  # 佐藤 alone: Mondays only, two shifts at most
    view = open_view(qtbot, ctx, now)
    dialog = _open(qtbot, ctx, view)
    dialog.draft_button.click()
    qtbot.waitUntil(lambda: dialog.review is not None, timeout=60_000)
    review = dialog.review
    assert review is not None
    gaps = {(g.day, g.slot): g for g in review.draft.gaps}
    monday, tuesday = gaps[(D(2026, 12, 21), "1限")], gaps[(D(2026, 12, 1), "1限")]
    assert monday.act == Act.LIMITS and tuesday.act == Act.AVAILABILITY
    assert dialog.gaps_table.rowCount() == len(review.draft.gaps)
    table = dialog.gaps_table
    row = next(r for r in range(table.rowCount()) if _text(table, r, 0) == "12/21 (Mon)" and _text(table, r, 1) == "1限")
    assert "佐藤" in _text(table, row, 3)
    button = table.cellWidget(row, 4)
    assert isinstance(button, QPushButton) and button.text() == "Edit 佐藤's limits…"
    button.click()
    qtbot.waitUntil(lambda: view.teachers_dialog is not None, timeout=5000)
    assert view.teachers_dialog is not None
    teachers = view.teachers_dialog
    qtbot.waitUntil(lambda: teachers.selected_id() == monday.teacher_ids[0], timeout=5000)  # 佐藤, ready to edit
    view.teachers_dialog.reject()


def test_classrooms_sharing_teachers_can_be_drafted_together(qtbot, ctx: AppContext, db: Database,
                                                             now: dt.datetime) -> None:
    _month(db, now, teachers=2)
    with db.write() as s:
        branch = f.classroom(s, "駅前校")
        lesson_slots.set_slots(s, branch.id, SLOTS[:1])
        needs.set_need(s, branch.id, needs.Need("1限", 1, weekday=2))
        ito = s.scalar(select(Teacher).where(Teacher.name == "伊藤"))
        assert ito is not None
        membership.join(s, branch.id, ito.id, now=now)
    view = open_view(qtbot, ctx, now)
    dialog = _open(qtbot, ctx, view)
    qtbot.waitUntil(lambda: dialog.shared.isVisibleTo(dialog), timeout=5000)
    assert "駅前校" in dialog.shared.text()
    dialog.shared.setChecked(True)
    dialog.draft_button.click()
    qtbot.waitUntil(lambda: dialog.review is not None, timeout=60_000)
    review = dialog.review
    assert review is not None and [room.name for room in review.month.rooms] == ["本校", "駅前校"]
    # 伊藤 is at one classroom at a time: never two shifts that overlap on one day.
    mine = sorted((d.local_date, d.start_time, d.end_time) for d in review.draft.proposed if d.teacher_id == ito.id)
    assert all(a[0] != b[0] or a[2] <= b[1] for a, b in zip(mine, mine[1:], strict=False))
    assert any(d.classroom_id == branch.id for d in review.draft.proposed)
    assert not dialog.changes_table.isColumnHidden(4)  # the classroom of each change is shown


def _refused(qtbot, ctx: AppContext, view: ShiftsView) -> DraftDialog:
    """Draft the month… on a month that cannot be drafted: the reason is shown at once, never options or a
    review."""
    solved: list[object] = []

    def drafter(*args: object) -> MonthDraft:  # the solver is not even started
        solved.append(args)
        raise AssertionError("solved a month that cannot be drafted")

    view.drafter = drafter
    dialog = _open(qtbot, ctx, view)
    qtbot.waitUntil(lambda: dialog.refusal is not None, timeout=60_000)
    assert not dialog.draft_button.isVisible()
    assert dialog.pages.currentWidget() is dialog.refusal_label.parentWidget()
    assert dialog.review is None and not solved
    assert not dialog.summary.isVisible() and not dialog.gaps_label.isVisible()
    assert dialog.refusal_label.isVisible() and dialog.fix_button.isVisible()
    return dialog


def test_a_classroom_without_slots_is_told_where_to_add_them(qtbot, ctx: AppContext, db: Database,
                                                              now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        membership.join(s, room.id, f.teacher(s, "佐藤", 1).id, now=now)
    view = open_view(qtbot, ctx, now)
    dialog = _refused(qtbot, ctx, view)
    assert dialog.refusal_label.text() == ("The draft cannot be made: this classroom has no lesson slots (コマ). Add "
                                           "them first: Classroom setup → Lesson slots…")
    assert dialog.fix_button.text() == "Open Lesson slots…"
    dialog.fix_button.click()
    qtbot.waitUntil(lambda: view.slots_dialog is not None and view.slots_dialog.isVisible(), timeout=10_000)
    assert not dialog.isVisible()


def test_a_classroom_without_needs_is_told_what_to_set_first(qtbot, ctx: AppContext, db: Database,
                                                              now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        lesson_slots.set_slots(s, room.id, SLOTS)
        membership.join(s, room.id, f.teacher(s, "佐藤", 1).id, now=now)
    view = open_view(qtbot, ctx, now)
    dialog = _refused(qtbot, ctx, view)
    assert dialog.refusal_label.text() == ("Nothing to draft yet: no staffing needs are set, so no lesson slot needs "
                                           "a teacher. Set how many teachers each slot needs: Classroom setup → "
                                           "Staffing needs…")
    assert dialog.fix_button.text() == "Open Staffing needs…"
    dialog.fix_button.click()
    qtbot.waitUntil(lambda: view.needs_dialog is not None and view.needs_dialog.isVisible(), timeout=10_000)
    assert not dialog.isVisible()


def test_closing_the_dialog_stops_the_solver(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    _month(db, now, teachers=8, need=4)
    view = open_view(qtbot, ctx, now)
    heard = threading.Event()

    def held(month, seconds, progress, stopper):  # the real solver, held at its first progress until stopped
        def told(step):
            heard.set()
            while not stopper.stopped and not pressed.wait(0.05):
                pass
        return from_roster.draft(month, seconds, told, stopper)

    pressed = threading.Event()
    view.drafter = held
    dialog = _open(qtbot, ctx, view)
    dialog.time_limit.setValue(600)
    dialog.draft_button.click()
    qtbot.waitUntil(heard.is_set, timeout=60_000)
    dialog.reject()
    try:
        qtbot.waitUntil(lambda: ctx.tasks.pending == 0, timeout=60_000)  # the solve ended well before its 600 s
        assert dialog.stop.stopped
    finally:
        pressed.set()
