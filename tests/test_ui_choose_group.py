"""Choosing a classroom's group on its own (the readiness fix, once LINE is connected): a group the
account joins while the dialog is open appears in it, and choosing it sends the month that was
published while the classroom had no group."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt
from sqlalchemy import select

from core.planning import group_waiting, planner
from core.publication import publish as publication
from core.publication.image_store import ImageStore
from core.store import events as store_events
from core.store.models import Delivery, ProposedGroup
from tests import factories as f
from tests.ui_fixtures import ctx, settle  # noqa: F401
from tests.waiting import PATIENCE_MS
from ui.connect_line.group_dialog import ChooseGroupDialog
from ui.services.context import AppContext

GROUP = "C" + "7" * 32


def test_a_group_joined_while_the_dialog_is_open_appears_and_choosing_it_sends_the_waiting_month(
        qtbot, ctx: AppContext, now: dt.datetime) -> None:
    with ctx.db.write() as s:
        room = f.classroom(s, "本校")
        f.shift(s, room, f.teacher(s), dt.date(2026, 12, 3), now=now)
        done = publication.publish(s, room.id, 2026, 12, now=now, store=ImageStore(ctx.paths.images))
    ctx.clock = lambda: now
    dialog = ChooseGroupDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.page.classroom.count() == 1, timeout=PATIENCE_MS)
    assert dialog.page.list.count() == 0 and dialog.page.waiting.isVisible()

    with ctx.db.write() as s:  # what the app's own receiving records when the account joins the group
        s.add(ProposedGroup(group_id=GROUP, name="本校 講師", member_count=3, joined_at=now))
        store_events.emit(s, store_events.WebhookEventsHandled(1))
    qtbot.waitUntil(lambda: dialog.page.list.count() == 1, timeout=PATIENCE_MS)
    assert dialog.page.list.item(0).text() == "本校 講師 — 3 members"
    qtbot.mouseClick(dialog.page.use, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.page.accepted == "本校", timeout=PATIENCE_MS)
    settle(qtbot, ctx)

    with ctx.db.write() as s:
        planner.plan(s, now=now)
    with ctx.db.read() as s:
        [message] = s.scalars(select(Delivery).where(Delivery.about("publication", done.publication_id),
                                                     Delivery.channel == "line")).all()
        assert message.recipient == GROUP and not group_waiting.owed(s, done.publication_id)
    dialog.reject()
