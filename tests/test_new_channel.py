"""A channel Shiftcast does not ship reaches teachers once it is registered, and nothing in core names it.

The chat channel (tests/chat_channel.py) is one driver and one `register_channel` call, made here. A
teacher whose contact is a chat room gets a confirmed shift's reminder and, after the shift moves,
the correction, through the real planner and the real sender (claim → check → build → send →
record) into a real HTTP server on loopback; the Deliveries view names the channel by its driver's
label. A teacher who ranks the chat room first and LINE second gets LINE when the room is gone. The
teacher dialog offers the channel an address row and a consent tick from its driver.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from sqlalchemy import select

from core.channels import registry
from core.emulator import LineEmulator
from core.planning.planner import plan
from core.roster import channel_choice, contacts, rules
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.models import ContactRule, Delivery, DeliveryKind, DeliveryStatus, ShiftStatus
from tests import factories as f
from tests.chat_channel import KEY, UNREACHABLE, ChatDriver, ChatRoom
from tests.linefixtures import FakeClock, emulator, line_ready, user_id  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.deliveries.model import RECIPIENT
from ui.deliveries.view import DeliveriesView
from ui.services.context import AppContext
from ui.teachers.dialog import TeachersDialog

DAY = dt.date(2026, 12, 1)  # the tests' clock is 09:00 in Tokyo that day (tests/conftest.py NOW)
WAIT = 20_000  # ms; a wait ends as soon as its condition holds


@pytest.fixture
def chat() -> Iterator[ChatRoom]:
    undo = registry.register_channel(ChatDriver())
    try:
        with ChatRoom().running() as room:
            yield room
    finally:
        undo()


def _send(db: Database, clock: FakeClock) -> None:
    sender = Sender(db, paths=f.home_paths(), config=SenderConfig(concurrency=2), clock=clock)
    try:
        sender.run_until_idle()
    finally:
        sender.stop()


def _deliveries(db: Database) -> list[tuple[str, str, DeliveryStatus, str | None]]:
    with db.read() as s:
        return [(d.kind, d.channel, d.status, d.cancel_reason)
                for d in s.scalars(select(Delivery).order_by(Delivery.id))]


def test_registering_adds_the_channel_and_undoing_takes_it_away() -> None:
    assert not registry.registered(KEY)
    undo = registry.register_channel(ChatDriver())
    try:
        assert registry.driver(KEY).label.params["text"] == "Chat"
        assert channel_choice.parse("chat") == channel_choice.Choice(ContactRule.EVERY, (KEY,))
        assert contacts.check_address(KEY, " http://127.0.0.1:9/hook ") == "http://127.0.0.1:9/hook"
        with pytest.raises(Exception, match="not a chat webhook address"):
            contacts.check_address(KEY, "http://example.com/hook")  # plain HTTP leaves this computer
    finally:
        undo()
    assert not registry.registered(KEY) and KEY not in contacts.ADDRESSING
    assert set(registry.DRIVERS) == {"line", "email", "webhook", "line_works"}


def test_a_teacher_on_the_new_channel_gets_the_reminder_and_the_correction(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, chat: ChatRoom) -> None:
    clock = FakeClock(now)
    with db.write() as s:
        room = f.classroom(s)
        teacher = rules.create_teacher(s, name="佐藤", channel="chat",
                                       contacts_in={KEY: rules.ContactChange(chat.url, True)})
        shift = f.shift(s, room, teacher, DAY, "10:00", "15:00", now=now, status=ShiftStatus.CONFIRMED)
        shift_id = shift.id
        plan(s, now=now)
    assert _deliveries(db) == [(DeliveryKind.SHIFT_REMINDER, KEY, DeliveryStatus.QUEUED, None)]
    _send(db, clock)
    assert len(chat.texts) == 1 and "10:00" in chat.texts[0]

    with db.write() as s:
        rules.edit_shift(s, shift_id, rules.ShiftChange(start_time=dt.time(11, 0)), now=now)
        plan(s, now=now)
    _send(db, clock)
    assert len(chat.texts) == 2 and "11:00" in chat.texts[1] and "10:00" in chat.texts[1]  # old → new
    assert _deliveries(db) == [
        (DeliveryKind.SHIFT_REMINDER, KEY, DeliveryStatus.SENT, None),
        (DeliveryKind.SHIFT_CORRECTION, KEY, DeliveryStatus.SENT, None),
        # The correction going out at the same moment says the new time: no second reminder.
        (DeliveryKind.SHIFT_REMINDER, KEY, DeliveryStatus.CANCELED, "COVERED_BY_CORRECTION"),
    ]

    view = DeliveriesView(ctx)
    qtbot.addWidget(view)
    view.show()
    settle(qtbot, ctx, timeout=WAIT)
    qtbot.waitUntil(lambda: view.model.rowCount() == 3, timeout=WAIT)
    shown = {view.model.index(row, RECIPIENT).data() for row in range(3)}
    assert shown == {"佐藤 · Chat"}  # the driver's label, not its key


def test_a_chat_room_that_is_gone_falls_back_to_the_teachers_next_channel(
        db: Database, now: dt.datetime, chat: ChatRoom, line_ready: LineEmulator) -> None:
    clock = FakeClock(now)
    line_ready.add_user(user_id(1), "佐藤")
    with db.write() as s:
        room = f.classroom(s)
        teacher = f.teacher(s, "佐藤", 1, contacts_in={KEY: rules.ContactChange(chat.url, True)},
                            channel=channel_choice.Choice(ContactRule.FIRST, (KEY, "line")))
        teacher_id = teacher.id
        f.shift(s, room, teacher, DAY, "10:00", "15:00", now=now, status=ShiftStatus.CONFIRMED)
        plan(s, now=now)
    chat.answer = 404  # the room was deleted: the teacher cannot be reached there
    _send(db, clock)
    assert chat.texts == []
    [pushed] = line_ready.inbox(user_id(1))
    assert "10:00" in str(pushed)
    rows = _deliveries(db)
    assert rows[0][:3] == (DeliveryKind.SHIFT_REMINDER, KEY, DeliveryStatus.FAILED)
    assert rows[1] == (DeliveryKind.SHIFT_REMINDER, "line", DeliveryStatus.SENT, None)
    with db.write() as s:
        assert f.reach(rules.get_teacher(s, teacher_id)).line_unreachable_at is None
        chat_contact = contacts.on(rules.get_teacher(s, teacher_id).contacts, KEY)
        assert chat_contact is not None and chat_contact.unreachable_since == now  # remembered for later messages
        # The next message is planned on LINE at once, the chat delivery it stands in for canceled with
        # the chat channel's own reason.
        f.shift(s, rules.list_classrooms(s)[0], rules.get_teacher(s, teacher_id), DAY, "16:00", "18:00", now=now,
                status=ShiftStatus.CONFIRMED)
        plan(s, now=now)
    later = _deliveries(db)[2:]
    assert later == [(DeliveryKind.SHIFT_REMINDER, KEY, DeliveryStatus.CANCELED, UNREACHABLE),
                     (DeliveryKind.SHIFT_REMINDER, "line", DeliveryStatus.PENDING, None)]  # due at 14:00


def test_the_teacher_dialog_offers_the_new_channel_from_its_driver(
        qtbot, ctx: AppContext, db: Database, chat: ChatRoom) -> None:
    dialog = TeachersDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    settle(qtbot, ctx, timeout=WAIT)
    dialog.add()
    editor = dialog.edit_dialog
    assert editor is not None and set(editor.others) == {KEY, "line_works"}  # LINE and e-mail keep their own rows
    address, agreed = editor.others[KEY]
    assert agreed is not None  # Chat asks for the teacher's consent
    editor.name.setText("高橋")
    editor.channel.setCurrentIndex(editor.channel.findData(KEY))
    address.setText(chat.url)
    assert "gets no messages" in editor.channel_hint.text()  # an address, but the teacher did not agree yet
    agreed.setChecked(True)
    assert "gets no messages" not in editor.channel_hint.text()
    editor.accept()

    def saved() -> bool:
        with db.read() as s:
            return any(t.name == "高橋" for t in rules.list_teachers(s))

    qtbot.waitUntil(saved, timeout=WAIT)
    with db.read() as s:
        teacher = next(t for t in rules.list_teachers(s) if t.name == "高橋")
        assert contacts.planned_for(teacher) == (KEY,)
        assert contacts.address_on(teacher, KEY) == chat.url
    qtbot.waitUntil(lambda: any(r.name == "高橋" and r.channel == KEY for r in dialog.records), timeout=WAIT)
