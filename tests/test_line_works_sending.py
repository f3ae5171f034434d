"""A teacher on LINE WORKS through the real planner, sender and receiver, against the stand-in over real
HTTP: the reminder goes to their LINE WORKS ID with a 了解 button, their tap comes back to the
receiver's LINE WORKS callback signed with the bot secret and is recorded once; a forged or unsigned
callback changes nothing; refused credentials hold the channel; a classroom's group message goes to its
message room."""

from __future__ import annotations

import dataclasses
import datetime as dt
import http.client
import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from core.channels import line_works, line_works_credentials, line_works_rooms
from core.channels.build_errors import CancelDelivery
from core.channels.line_works_client import KEY
from core.emulator import LineEmulator
from core.emulator.line_works import WorksStandIn
from core.messages import ack
from core.messages.message import Action, ActionKind, Audience, Message
from core.planning.planner import plan
from core.receiving import acknowledge, line_works_callback
from core.receiving.server import MAX_BODY_BYTES, WebhookReceiver
from core.roster import channel_choice, contacts, rules
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import ContactRule, Delivery, DeliveryStatus, ShiftStatus
from tests import factories as f
from tests.linefixtures import SECRET, FakeClock, emulator, line_ready, user_id  # noqa: F401
from tests.test_new_channel import _send
from tests.worksfixtures import credentials, member, teacher_on_works, works, works_ready  # noqa: F401

DAY = dt.date(2026, 12, 1)  # the tests' clock is 09:00 in Tokyo that day: the reminder is due


@pytest.fixture
def clock(now: dt.datetime) -> FakeClock:
    return FakeClock(now)


@pytest.fixture
def callback(db: Database, works_ready: WorksStandIn, clock: FakeClock) -> Iterator[str]:
    with WebhookReceiver(db, SECRET, handlers=[], clock=clock) as rx:
        works_ready.callback_url = f"http://127.0.0.1:{rx.port}{line_works_callback.PATH}"
        yield works_ready.callback_url


def _reminder_for(db: Database, now: dt.datetime, n: int = 1) -> int:
    with db.write() as s:
        room = f.classroom(s)
        teacher = rules.get_teacher(s, teacher_on_works(s, "佐藤", n))
        f.shift(s, room, teacher, DAY, "10:00", "15:00", now=now, status=ShiftStatus.CONFIRMED)
        plan(s, now=now)
        return int(s.scalars(select(Delivery.id).where(Delivery.channel == KEY)).one())


def _sent_reminder(db: Database, now: dt.datetime, clock: FakeClock, works: WorksStandIn) -> tuple[int, dict[str, Any]]:
    """A reminder with its 了解 button sent to member 1; its delivery and what they received."""
    with db.write() as s:
        acknowledge.enable(s, True)
    works.add_user(member(1))
    delivery_id = _reminder_for(db, now)
    _send(db, clock)
    [content] = works.to(member(1))
    return delivery_id, content


def test_the_reminder_reaches_the_teacher_and_their_tap_is_recorded_once(
        db: Database, now: dt.datetime, clock: FakeClock, works_ready: WorksStandIn, callback: str) -> None:
    delivery_id, content = _sent_reminder(db, now, clock, works_ready)
    assert content["type"] == "button_template" and "10:00" in content["contentText"]
    assert [(a["type"], a["label"]) for a in content["actions"]][0] == ("message", "了解")
    with db.read() as s:
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None and delivery.status == DeliveryStatus.SENT and delivery.acknowledged_at is None

    assert works_ready.tap(member(1), "了解") == 200
    with db.read() as s:
        first = s.get(Delivery, delivery_id).acknowledged_at  # type: ignore[union-attr]
    assert first is not None
    clock.advance(minutes=5)
    assert works_ready.tap(member(1), "了解") == 200  # a second tap changes nothing
    with db.read() as s:
        assert s.get(Delivery, delivery_id).acknowledged_at == first  # type: ignore[union-attr]


def test_a_forged_or_unsigned_callback_is_refused_and_changes_nothing(
        db: Database, now: dt.datetime, clock: FakeClock, works_ready: WorksStandIn, callback: str) -> None:
    delivery_id, content = _sent_reminder(db, now, clock, works_ready)
    data = content["actions"][0]["postback"]
    event = {"type": "postback", "source": {"userId": member(1)}, "issuedTime": "2026-12-01T00:00:00.000Z", "data": data}
    assert works_ready.post_callback(event, signature="AAAA" + works_ready.sign(b"{}")[4:]) == 401
    assert works_ready.post_callback(event, signature="") == 401
    forged = dict(event, data=data[:-4] + "AAAA")  # signed by the bot secret, but not by this database's key
    assert works_ready.post_callback(forged) == 200
    parts = urllib.parse.urlsplit(callback)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    connection.putrequest("POST", parts.path)  # refused from its Content-Length, before a byte of the body
    connection.putheader("Content-Length", str(MAX_BODY_BYTES + 1))
    connection.endheaders()
    assert connection.getresponse().status == 413
    connection.close()
    with db.read() as s:
        assert s.get(Delivery, delivery_id).acknowledged_at is None  # type: ignore[union-attr]
    assert works_ready.postback(member(1), data) == 200  # the genuine postback event counts
    with db.read() as s:
        assert s.get(Delivery, delivery_id).acknowledged_at is not None  # type: ignore[union-attr]


def test_refused_credentials_hold_line_works_and_keep_the_reminder(
        db: Database, now: dt.datetime, clock: FakeClock, works_ready: WorksStandIn) -> None:
    works_ready.add_user(member(1))
    works_ready.app = dataclasses.replace(works_ready.app, client_secret="changed at LINE WORKS")
    delivery_id = _reminder_for(db, now)
    _send(db, clock)
    with db.read() as s:
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None and delivery.status == DeliveryStatus.QUEUED and delivery.attempt_count == 0
        hold = keys.LINE_WORKS_HOLD.read(s)
    assert hold is not None and hold.code == line_works.AUTH_FAILED
    assert works_ready.accepted == []
    line_works_credentials.save(db, credentials(client_secret="changed at LINE WORKS"))  # the manager fixes it
    _send(db, clock)
    assert len(works_ready.to(member(1))) == 1  # the hold named the old credentials: lifted
    with db.read() as s:
        assert s.get(Delivery, delivery_id).status == DeliveryStatus.SENT  # type: ignore[union-attr]


def test_a_group_message_goes_to_the_classrooms_message_room(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        line_works_rooms.set_room(s, room.id, "room-1")
        delivery = Delivery(kind="shift_publication", channel=KEY, classroom_id=room.id, dedup_key="x")
        message = Message(kind="shift_publication", language="ja", heading="12月のシフト", audience=Audience.GROUP,
                          actions=(Action("見る", "https://example.com/m", ActionKind.LINK),))
        outgoing = line_works.render(s, delivery, message, f.home_paths())
        assert (outgoing.endpoint, outgoing.to) == ("channel", "room-1")
        assert outgoing.messages[0]["actions"] == [{"type": "uri", "label": "見る", "uri": "https://example.com/m"}]
        line_works_rooms.set_room(s, room.id, None)
        with pytest.raises(CancelDelivery) as refused:
            line_works.render(s, delivery, message, f.home_paths())
        assert refused.value.reason == line_works.NO_ROOM
    assert json.dumps(line_works.content_of(Message(kind="k", language="ja", heading="本文"))) == \
        '{"type": "text", "text": "\\u672c\\u6587"}'


def test_a_tap_counts_only_from_the_teacher_whose_user_id_is_on_file(db: Database, now: dt.datetime) -> None:
    teacher_uid, stranger_uid = "c72af563-0f21-4736-11e4-045237113344", "d83bf674-1f32-4847-22f5-156348224455"
    with db.write() as s:
        acknowledge.enable(s, True)
        room = f.classroom(s)
        teacher = rules.create_teacher(s, name="佐藤", channel=KEY,
                                       contacts_in={KEY: rules.ContactChange(teacher_uid.upper(), False)})
        f.shift(s, room, teacher, DAY, "10:00", "15:00", now=now, status=ShiftStatus.CONFIRMED)
        plan(s, now=now)
        delivery_id = int(s.scalars(select(Delivery.id).where(Delivery.channel == KEY)).one())
        signer = ack.signer(s)
        assert signer is not None
        data = signer(delivery_id)

    def tap(user_id: str) -> bool:
        event = {"type": "message", "source": {"userId": user_id}, "content": {"type": "text", "text": "了解",
                                                                              "postback": data}}
        return line_works_callback.handle(db, event, now)

    assert tap(stranger_uid) is False
    assert tap(teacher_uid) is True
    assert tap(teacher_uid) is False  # once


def test_a_member_line_works_does_not_know_gets_the_reminder_on_their_next_channel(
        db: Database, now: dt.datetime, clock: FakeClock, works_ready: WorksStandIn, line_ready: LineEmulator) -> None:
    line_ready.add_user(user_id(1), "佐藤")
    with db.write() as s:
        room = f.classroom(s)
        teacher = f.teacher(s, "佐藤", 1, contacts_in={KEY: rules.ContactChange(member(1), False)},
                            channel=channel_choice.Choice(ContactRule.FIRST, (KEY, "line")))
        teacher_id = teacher.id
        f.shift(s, room, teacher, DAY, "10:00", "15:00", now=now, status=ShiftStatus.CONFIRMED)
        plan(s, now=now)
    _send(db, clock)  # member(1) was never added to the stand-in: 404 at the member
    assert works_ready.accepted == []
    [pushed] = line_ready.inbox(user_id(1))
    assert "10:00" in str(pushed)
    with db.read() as s:
        rows = [(d.channel, d.status, d.last_error_code) for d in s.scalars(select(Delivery).order_by(Delivery.id))]
        contact = contacts.on(rules.get_teacher(s, teacher_id).contacts, KEY)
        assert contact is not None and contact.unreachable_since == now  # remembered for the next messages
    assert rows == [(KEY, DeliveryStatus.FAILED, line_works.NOT_FOUND), ("line", DeliveryStatus.SENT, None)]


def test_an_answer_lost_to_the_timeout_is_retried_and_may_arrive_twice(
        db: Database, now: dt.datetime, clock: FakeClock, works_ready: WorksStandIn) -> None:
    """The risk docs/reliability.md names: LINE WORKS took the message, its answer never came in time;
    without a retry key the retry sends it again. Never none."""
    works_ready.add_user(member(1))
    with db.write() as s:
        keys.SENDER_HTTP_TIMEOUT_SECONDS.write(s, 0.5)
    delivery_id = _reminder_for(db, now)
    works_ready.hold(works_ready.after_taking)
    try:
        _send(db, clock)
    finally:
        works_ready.release(works_ready.after_taking)
    with db.read() as s:
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None and (delivery.status, delivery.last_error_code) == (DeliveryStatus.QUEUED, "TIMEOUT")
    assert len(works_ready.to(member(1))) == 1
    clock.advance(minutes=5)  # past the first backoff
    _send(db, clock)
    assert len(works_ready.to(member(1))) == 2
    with db.read() as s:
        assert s.get(Delivery, delivery_id).status == DeliveryStatus.SENT  # type: ignore[union-attr]
