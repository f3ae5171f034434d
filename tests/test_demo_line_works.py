"""The demo's LINE WORKS, over real HTTP: the demo starts the LINE WORKS stand-in beside the LINE
simulator with a fresh app saved in the demo's keyring, one teacher reached on LINE WORKS and the
classroom's LINE WORKS room; their messages reach the stand-in, the demo inbox lists them marked
"LINE WORKS", and its 了解 button sends the stand-in's signed callback to the demo's receiver."""

from __future__ import annotations

import datetime as dt
from typing import Any

import httpx
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton
from sqlalchemy import select

from core.app import demo as demo_data
from core.app import demo_works
from core.channels import line_works_credentials, line_works_rooms
from core.setup import line_works
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Classroom, Delivery
from tests.test_demo_line import _send_due_reminders, demo  # noqa: F401 - a fixture
from tests.ui_fixtures import ctx, settle  # noqa: F401 - fixtures
from ui.demo.inbox import InboxWindow
from ui.services.context import AppContext

WAIT = 20_000  # ms; a wait ends as soon as its condition holds


def _acknowledged(db: Database) -> list[int]:
    with db.read() as s:
        return list(s.scalars(select(Delivery.id).where(Delivery.acknowledged_at.is_not(None))))


def test_the_demo_runs_the_line_works_stand_in_with_its_teacher_and_room(
        db: Database, demo: demo_data.DemoEnvironment, memory_keyring: Any) -> None:
    works = demo.works
    assert works is not None
    with db.read() as s:
        assert keys.LINE_WORKS_API_BASE.read(s) == keys.LINE_WORKS_AUTH_BASE.read(s) == works.base_url
        room = s.scalars(select(Classroom)).one()
        assert line_works_rooms.room_of(s, room.id) == demo_works.WORKS_ROOM
    saved = line_works_credentials.load(db)  # in the demo's keyring, never the manager's
    assert saved is not None and saved.client_secret == works.app.client_secret
    assert memory_keyring.store == {}
    tested = line_works.last_test(db)  # as after Test: a token obtained from the stand-in
    assert tested is not None and tested.why is None and works.tokens_issued == 1
    assert works.callback_url is not None and demo.receiver is not None
    assert works.callback_url.startswith(demo.receiver.url.rsplit("/", 1)[0])
    base = works.base_url
    demo.stop()
    assert demo.works is None
    with pytest.raises(httpx.TransportError):  # stopped: nothing listens there any more
        httpx.post(f"{base}/oauth2/v2.0/token", timeout=5.0)


def test_the_line_works_teacher_s_reminder_reaches_the_stand_in_and_their_tap_acknowledges_it(
        db: Database, now: dt.datetime, demo: demo_data.DemoEnvironment) -> None:
    works = demo.works
    assert works is not None
    _send_due_reminders(db, now)
    [reminder] = [c for c in works.to(demo_works.WORKS_USER) if c.get("type") == "button_template"]
    found = demo_works.button_data(reminder)
    assert found is not None and found[0] == "了解"
    assert _acknowledged(db) == []
    assert demo.tap_on_works(demo_works.WORKS_USER, found[1]) == 200
    assert len(_acknowledged(db)) == 1


def test_the_inbox_lists_line_works_and_its_ok_button_acknowledges(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, demo: demo_data.DemoEnvironment) -> None:
    works = demo.works
    assert works is not None
    _send_due_reminders(db, now)
    ctx.demo = demo
    window = InboxWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    settle(qtbot, ctx)

    def row_of(recipient: str) -> int | None:
        return next((i for i in range(window.recipients.count())
                     if window.recipients.item(i).data(Qt.ItemDataRole.UserRole) == recipient), None)

    qtbot.waitUntil(lambda: row_of(demo_works.WORKS_USER) is not None, timeout=WAIT)
    row = row_of(demo_works.WORKS_USER)
    assert row is not None
    assert window.recipients.item(row).text().startswith(f"{demo_works.WORKS_TEACHER} (LINE WORKS)")
    window.recipients.setCurrentRow(row)
    marks = window.messages.findChildren(QLabel, "worksMark")
    assert marks and all(m.text() == "LINE WORKS" for m in marks)
    [reply] = window.messages.findChildren(QPushButton, "replyOk")
    assert reply.text() == "Reply “了解” as the teacher"
    qtbot.mouseClick(reply, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(_acknowledged(db)) == 1, timeout=WAIT)
    qtbot.waitUntil(lambda: window.status_label.text() == f"Tapped “了解” as {demo_works.WORKS_TEACHER} on LINE WORKS.",
                    timeout=WAIT)
    settle(qtbot, ctx)
