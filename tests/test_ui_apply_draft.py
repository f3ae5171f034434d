"""Applying a drafted month in the Shifts area is one step of the roster's undo: Ctrl+Z takes the whole draft
back (the drafts it replaced return), redo makes it again; a run of slots is one shift."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from core.roster import rules
from core.store.db import Database
from core.store.models import Shift, ShiftStatus
from tests import factories as f
from tests.test_ui_shifts import idle, open_view
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.shifts.commands import ApplyDraft

D, T = dt.date, dt.time


def _drafts(db: Database) -> list[tuple[str, dt.date, dt.time, dt.time]]:
    with db.read() as s:
        rows = s.scalars(select(Shift).where(Shift.status == ShiftStatus.DRAFT)
                         .order_by(Shift.local_date, Shift.start_time)).all()
        return [(r.teacher.display_name, r.local_date, r.start_time, r.end_time) for r in rows]


def test_applying_a_draft_is_one_undo_step(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room, sato, ito = f.classroom(s), f.teacher(s, "佐藤", 1), f.teacher(s, "伊藤", 2)
        f.shift(s, room, ito, D(2026, 12, 3), "16:50", "18:10", now=now)  # a draft the new one replaces
        room_id, sato_id, ito_id = room.id, sato.id, ito.id
    view = open_view(qtbot, ctx, now)
    before = _drafts(db)
    proposed = [rules.ShiftDraft(classroom_id=room_id, teacher_id=sato_id, local_date=D(2026, 12, d),
                                 start_time=T(16, 50), end_time=T(21, 10)) for d in (1, 2)]
    proposed.append(rules.ShiftDraft(classroom_id=room_id, teacher_id=ito_id, local_date=D(2026, 12, 4),
                                     start_time=T(18, 20), end_time=T(19, 40)))
    view.runner.execute(ApplyDraft([room_id], 2026, 12, proposed, replace_drafts=True, label="12月"))
    after = [("佐藤", D(2026, 12, 1), T(16, 50), T(21, 10)), ("佐藤", D(2026, 12, 2), T(16, 50), T(21, 10)),
             ("伊藤", D(2026, 12, 4), T(18, 20), T(19, 40))]
    qtbot.waitUntil(lambda: _drafts(db) == after, timeout=5000)
    idle(qtbot, ctx, view)
    assert view.runner.stack.count() == 1

    view.undo_action.trigger()
    qtbot.waitUntil(lambda: _drafts(db) == before, timeout=5000)
    idle(qtbot, ctx, view)
    view.redo_action.trigger()
    qtbot.waitUntil(lambda: _drafts(db) == after, timeout=5000)
    idle(qtbot, ctx, view)
    view.undo_action.trigger()  # the ids moved on the way: still the whole draft, still the old one back
    qtbot.waitUntil(lambda: _drafts(db) == before, timeout=5000)
    idle(qtbot, ctx, view)
    assert view.runner.stack.count() == 1 and view.redo_action.isEnabled()
