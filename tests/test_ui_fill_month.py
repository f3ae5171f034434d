"""Filling the shown month in the Shifts area: from the teachers' weekly patterns or from last month, as
drafts, in one step Ctrl+Z takes back and redo makes again; the status line says what was made and
skipped; the toolbar's new actions fit a 1280×720 screen in Japanese."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from core.roster import closed_days, patterns
from core.store.db import Database
from core.store.models import Shift, ShiftStatus
from tests import factories as f
from tests.test_i18n import japanese  # noqa: F401
from tests.test_ui_shifts import idle, open_view
from tests.test_ui_wrapped_text import language  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.shell.main_window import MainWindow
from ui.shifts.view import ShiftsView

D, T = dt.date, dt.time


def _drafts(db: Database) -> list[tuple[str, dt.date]]:
    with db.read() as s:
        rows = s.scalars(select(Shift).where(Shift.status == ShiftStatus.DRAFT).order_by(Shift.local_date)).all()
        return [(r.teacher.display_name, r.local_date) for r in rows]


def _wait_status(qtbot, view: ShiftsView, start: str) -> None:
    qtbot.waitUntil(lambda: view.status_label.text().startswith(start), timeout=5000)


def test_fill_from_patterns_is_one_undoable_step(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room, sato = f.classroom(s), f.teacher(s, "佐藤", 1)
        patterns.set_teacher_patterns(s, sato.id, [patterns.Pattern(sato.id, room.id, 1, T(17), T(21), D(2026, 12, 1))])
        closed_days.mark_closed(s, room.id, D(2026, 12, 29), "年末")
        f.shift(s, room, sato, D(2026, 12, 8), "18:00", "19:00", now=now, status=ShiftStatus.CONFIRMED)
    view = open_view(qtbot, ctx, now)
    assert view.fill_action.isEnabled()
    view.fill_action.trigger()
    _wait_status(qtbot, view, "3 draft shifts made; 2 skipped: 1 on a closed day, 1 where the teacher already")
    idle(qtbot, ctx, view)
    made = [("佐藤", D(2026, 12, d)) for d in (1, 15, 22)]
    assert _drafts(db) == made
    assert view.model.snapshot.drafts == 3

    view.undo_action.trigger()
    qtbot.waitUntil(lambda: _drafts(db) == [], timeout=5000)
    idle(qtbot, ctx, view)
    assert view.model.snapshot.drafts == 0
    view.redo_action.trigger()
    qtbot.waitUntil(lambda: _drafts(db) == made, timeout=5000)
    idle(qtbot, ctx, view)
    assert view.runner.stack.count() == 1


def test_nothing_to_fill_leaves_no_undo_step(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        f.classroom(s)
        f.teacher(s, "佐藤", 1)
    view = open_view(qtbot, ctx, now)
    view.fill_action.trigger()
    _wait_status(qtbot, view, "0 draft shifts made")
    idle(qtbot, ctx, view)
    assert view.runner.stack.count() == 0 and not view.undo_action.isEnabled()


def test_copy_last_month_by_weekday_occurrence(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room, sato = f.classroom(s), f.teacher(s, "佐藤", 1)
        for day in (3, 24):  # November's 1st and 4th Tuesdays
            f.shift(s, room, sato, D(2026, 11, day), now=now, status=ShiftStatus.CONFIRMED)
        f.shift(s, room, sato, D(2026, 11, 30), now=now, status=ShiftStatus.CONFIRMED)  # the 5th Monday
    view = open_view(qtbot, ctx, now)
    view.copy_last_action.trigger()
    _wait_status(qtbot, view, "2 draft shifts made; 1 skipped: 1 on a weekday this month does not have")
    idle(qtbot, ctx, view)
    assert _drafts(db) == [("佐藤", D(2026, 12, 1)), ("佐藤", D(2026, 12, 22))]
    view.undo_action.trigger()
    qtbot.waitUntil(lambda: _drafts(db) == [], timeout=5000)
    idle(qtbot, ctx, view)


def test_copying_a_month_of_drafts_says_only_confirmed_shifts_are_copied(qtbot, ctx: AppContext, db: Database,
                                                                         now: dt.datetime, japanese) -> None:
    with db.write() as s:
        room, sato = f.classroom(s), f.teacher(s, "佐藤", 1)
        for day in (3, 10, 17):  # November planned but never confirmed
            f.shift(s, room, sato, D(2026, 11, day), now=now)
    view = open_view(qtbot, ctx, now)
    view.copy_last_action.trigger()
    _wait_status(qtbot, view, "先月には確定したシフトがないため、何もコピーしていません。")
    idle(qtbot, ctx, view)
    assert "コピーされるのは確定したシフトだけです（先月の下書きは3件です。" in view.status_label.text()
    assert _drafts(db) == [("佐藤", D(2026, 11, d)) for d in (3, 10, 17)]  # nothing made in December


def test_the_toolbar_fits_1280_by_720_in_japanese(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                  japanese) -> None:
    view = _shown_at_1280_by_720(qtbot, ctx, db, now)
    assert view.fill_action.text() == "毎週の予定から作成" and view.copy_last_action.text() == "先月をコピー"


def test_the_toolbar_fits_1280_by_720_in_english(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    view = _shown_at_1280_by_720(qtbot, ctx, db, now)
    assert view.needs_action.text() == "Staffing needs…"


def _shown_at_1280_by_720(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> ShiftsView:
    """The Shifts area on a 1280×720 screen: every toolbar button in sight, none in the overflow menu."""
    with db.write() as s:
        f.classroom(s)
        f.teacher(s, "佐藤", 1)
    ctx.clock = lambda: now
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    settle(qtbot, ctx)
    view = window.shifts
    hint = window.minimumSizeHint()
    assert hint.width() <= 1280 and hint.height() <= 720
    bar = view.toolbar
    menu = bar.drafts_button.menu()
    assert menu is not None and {view.fill_action, view.copy_last_action} <= set(menu.actions())
    slots_menu = bar.classroom_button.menu()
    assert slots_menu is not None and {view.slots_action, view.needs_action} <= set(slots_menu.actions())
    for button in (bar.drafts_button, bar.classroom_button, bar.widgetForAction(view.confirm_action)):
        assert button is not None and button.isVisible(), button  # not pushed into the overflow menu
        assert bar.rect().contains(button.geometry())
    settle(qtbot, ctx)
    return view
