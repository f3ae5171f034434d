"""The Cover requests dialog: it lists the requests waiting for the manager with their volunteers first
among the teachers free then, Assign gives the shift through the normal shift edit, and Decline tells
the teacher who asked, with the reason the manager typed."""

from __future__ import annotations

import datetime as dt

from core.roster import cover
from core.store.db import Database
from core.store.kinds import CoverState, ShiftStatus
from core.store.models import Delivery, DeliveryKind, Shift
from tests import factories as f
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.cover.dialog import CoverDialog
from ui.services.context import AppContext

NOW = dt.datetime.now(dt.UTC)


def test_the_dialog_shows_a_request_and_assigns_its_volunteer(qtbot, ctx: AppContext, db: Database) -> None:
    day = (NOW + dt.timedelta(days=3)).date()
    with db.write() as s:
        room = f.classroom(s, "本校")
        asking, free, busy = (f.teacher(s, name, n) for n, name in enumerate(("青木", "井上", "江口"), start=1))
        shift = f.shift(s, room, asking, day, "16:00", "21:00", now=NOW, status=ShiftStatus.CONFIRMED)
        f.shift(s, room, busy, day, "17:00", "18:00", now=NOW, status=ShiftStatus.CONFIRMED)
        request = cover.ask(s, shift.id, asking.id, now=NOW, reason="発熱")
        cover.volunteer(s, request.id, free.id, now=NOW)
        ids = (shift.id, free.id, request.id)
    dialog = CoverDialog(ctx)
    qtbot.addWidget(dialog)
    settle(qtbot, ctx)
    assert dialog.requests.count() == 1 and "青木" in dialog.requests.item(0).text()
    assert "井上" in dialog.volunteers.text()
    # The volunteer first; 江口, on a shift then, is not offered.
    assert [dialog.teacher_box.itemData(i) for i in range(dialog.teacher_box.count())] == [ids[1]]
    # Marked as a volunteer in words that every font draws (an emoji is an empty box without an emoji font).
    assert dialog.teacher_box.itemText(0) == "井上 (offered)"

    with qtbot.waitSignal(dialog.changed):
        dialog.assign_button.click()
    settle(qtbot, ctx)
    assert dialog.requests.count() == 0 and not dialog.assign_button.isEnabled()
    with db.read() as s:
        assigned = s.get(Shift, ids[0])
        assert assigned is not None and assigned.teacher_id == ids[1]
        assert cover.request(s, ids[2]).state == CoverState.ASSIGNED


def test_the_settings_switch_turns_the_ask_for_cover_button_on_and_off(qtbot, ctx: AppContext, db: Database) -> None:
    from core.messages import cover as cover_messages
    from core.store import setting_keys as keys
    from ui.settings.view import SettingsView

    view = SettingsView(ctx)
    qtbot.addWidget(view)
    settle(qtbot, ctx)
    assert not view.line.cover.isChecked()  # off by default
    view.line.cover.click()
    settle(qtbot, ctx)
    with db.read() as s:
        assert keys.LINE_COVER_BUTTON.read(s) and cover_messages.ask_signer(s) is not None
    assert "carry an “Ask for cover” button" in view.line.cover_state.text()
    again = SettingsView(ctx)  # a later visit shows what is stored
    qtbot.addWidget(again)
    settle(qtbot, ctx)
    assert again.line.cover.isChecked()
    view.line.cover.click()
    settle(qtbot, ctx)
    with db.read() as s:
        assert not keys.LINE_COVER_BUTTON.read(s) and cover_messages.ask_signer(s) is None


def test_the_status_line_counts_the_requests_waiting_and_hears_a_new_one(qtbot, ctx: AppContext, db: Database) -> None:
    from ui.shell.main_window import MainWindow

    day = (NOW + dt.timedelta(days=3)).date()
    with db.write() as s:
        room = f.classroom(s, "本校")
        teacher = f.teacher(s, "青木", 1)
        shift_id = f.shift(s, room, teacher, day, now=NOW, status=ShiftStatus.CONFIRMED).id
        teacher_id = teacher.id
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    settle(qtbot, ctx)
    assert "request for cover" not in window.sender_status.text()
    with db.write() as s:  # as the LINE handler does when a teacher asks
        cover.ask(s, shift_id, teacher_id, now=NOW)
    qtbot.waitUntil(lambda: "1 request for cover" in window.sender_status.text())


def test_decline_keeps_the_shift_and_queues_the_message_with_the_reason_typed(qtbot, ctx: AppContext,
                                                                              db: Database) -> None:
    from sqlalchemy import select

    day = (NOW + dt.timedelta(days=3)).date()
    with db.write() as s:
        room = f.classroom(s, "本校")
        asking = f.teacher(s, "青木", 1)
        shift = f.shift(s, room, asking, day, "16:00", "21:00", now=NOW, status=ShiftStatus.CONFIRMED)
        ids = (shift.id, asking.id, cover.ask(s, shift.id, asking.id, now=NOW).id)
    dialog = CoverDialog(ctx)
    qtbot.addWidget(dialog)
    settle(qtbot, ctx)
    assert dialog.reason.isEnabled()
    dialog.reason.setText("今月は代われる先生がいません")  # as typed (an input method composes Japanese)
    with qtbot.waitSignal(dialog.changed):
        dialog.decline_button.click()
    settle(qtbot, ctx)
    assert dialog.requests.count() == 0 and dialog.reason.text() == "" and not dialog.reason.isEnabled()
    with db.read() as s:
        kept = s.get(Shift, ids[0])
        assert kept is not None and kept.teacher_id == ids[1]
        request = cover.request(s, ids[2])
        told = s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.COVER_DECLINED)).all()
    assert (request.state, request.decline_reason) == (CoverState.DECLINED, "今月は代われる先生がいません")
    assert [(d.teacher_id, d.subject_id) for d in told] == [(ids[1], ids[2])]
