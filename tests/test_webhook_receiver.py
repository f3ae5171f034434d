"""The LINE webhook receiver over real HTTP: the emulator (or a plain client) posts, a real SQLite
file records, and the follow/unfollow handler acts on teachers and their queued LINE deliveries."""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

import main
from core import alerts
from core.channels.line import LineCancel
from core.emulator import LineEmulator
from core.outbox import queue
from core.receiving import events, signature
from core.receiving.events import ReceivedEvent
from core.receiving.follow import FollowHandler
from core.receiving.server import MAX_BODY_BYTES, WebhookReceiver
from core.roster import channel_choice, contacts
from core.store.db import Database
from core.store.models import (
    AlertKind,
    Channel,
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    ShiftStatus,
    Teacher,
    TeacherContact,
    WebhookEvent,
)
from tests import factories as f
from tests.linefixtures import TOKEN, FakeClock, user_id

SECRET = "0123456789abcdef0123456789abcdef"
TEACHER = user_id(1)


@pytest.fixture
def receiver(db: Database) -> Iterator[WebhookReceiver]:
    with WebhookReceiver(db, SECRET) as rx:
        yield rx


@pytest.fixture
def line(receiver: WebhookReceiver) -> Iterator[LineEmulator]:
    with LineEmulator(token=TOKEN, channel_secret=SECRET, loopback_webhooks=True) as emu:
        emu.set_webhook_endpoint(receiver.url)
        yield emu


def _events(db: Database) -> list[WebhookEvent]:
    with db.read() as s:
        return list(s.scalars(select(WebhookEvent).order_by(WebhookEvent.id)))


def _body(*events: dict[str, object]) -> bytes:
    return json.dumps({"destination": "U" + "f" * 32, "events": list(events)}).encode()


def _follow_event(event_id: str = "01HZZZZZZZZZZZZZZZZZZZZZZZ", stamp: int = 1_700_000_000_000) -> dict[str, object]:
    return {"type": "follow", "mode": "active", "timestamp": stamp, "webhookEventId": event_id,
            "deliveryContext": {"isRedelivery": False}, "source": {"type": "user", "userId": TEACHER},
            "replyToken": "r" * 32, "follow": {"isUnblocked": False}}


def _post(receiver: WebhookReceiver, body: bytes, sig: str | bytes | None) -> httpx.Response:
    # As bytes, the way httpx sends any header: a signature that is not ASCII goes as it is.
    headers = [(b"Content-Type", b"application/json")]
    if sig is not None:
        headers.append((b"x-line-signature", sig if isinstance(sig, bytes) else sig.encode("ascii")))
    return httpx.post(receiver.url, content=body, headers=headers, timeout=30)


# ----- the signature comes first -----

def test_a_signed_event_is_recorded_once_with_its_fields(receiver: WebhookReceiver, db: Database) -> None:
    body = _body(_follow_event())
    answer = _post(receiver, body, signature.sign(SECRET, body))
    assert answer.status_code == 200
    [row] = _events(db)
    assert (row.event_id, row.type, row.source_type, row.source_user_id, row.is_redelivery) == (
        "01HZZZZZZZZZZZZZZZZZZZZZZZ", "follow", "user", TEACHER, False)
    assert row.occurred_at == dt.datetime(2023, 11, 14, 22, 13, 20, tzinfo=dt.UTC)
    assert json.loads(row.raw_json)["replyToken"] == "r" * 32


@pytest.mark.parametrize("sig", [None, "", "bm90IHRoZSBzaWduYXR1cmU=", "ü-not-ascii".encode("latin-1"),
                                 signature.sign("another secret", _body(_follow_event()))])
def test_unsigned_or_badly_signed_posts_are_refused_and_nothing_is_recorded(
        receiver: WebhookReceiver, db: Database, sig: str | bytes | None) -> None:
    answer = _post(receiver, _body(_follow_event()), sig)
    assert answer.status_code == 401
    assert _events(db) == []


def test_the_signature_is_checked_before_the_body_is_parsed(receiver: WebhookReceiver, db: Database) -> None:
    # Not JSON at all: unsigned it is 401 (the parser never saw it); signed, a 400.
    assert _post(receiver, b"{not json", None).status_code == 401
    assert _post(receiver, b"{not json", signature.sign(SECRET, b"{not json")).status_code == 400
    assert _events(db) == []


def test_a_replayed_post_records_its_event_once(receiver: WebhookReceiver, db: Database) -> None:
    body = _body(_follow_event())
    for _ in range(3):
        assert _post(receiver, body, signature.sign(SECRET, body)).status_code == 200
    assert len(_events(db)) == 1


def test_a_body_over_one_megabyte_is_refused_without_being_read(receiver: WebhookReceiver, db: Database) -> None:
    big = b'{"events": [], "pad": "' + b"x" * MAX_BODY_BYTES + b'"}'
    answer = _post(receiver, big, signature.sign(SECRET, big))
    assert answer.status_code == 413
    sent = 0

    def chunks() -> Iterator[bytes]:  # no Content-Length: the receiver must stop at the limit by itself
        nonlocal sent
        for _ in range(4):
            sent += 1
            yield b"x" * (MAX_BODY_BYTES // 2)

    streamed = httpx.post(receiver.url, content=chunks(), headers={"x-line-signature": "x"}, timeout=30)
    assert streamed.status_code == 413
    assert _events(db) == []


def _text_event(event_id: str, text: str) -> dict[str, object]:
    return {"type": "message", "mode": "active", "timestamp": 1_700_000_000_500, "webhookEventId": event_id,
            "deliveryContext": {"isRedelivery": False}, "source": {"type": "user", "userId": TEACHER},
            "replyToken": "q" * 32, "message": {"id": "1", "type": "text", "text": text}}


@pytest.mark.backends("sqlite", "postgresql")
def test_a_lone_surrogate_in_one_event_loses_no_event_of_its_batch(db: Database, now: dt.datetime) -> None:
    """Valid JSON ("\\ud800") that no database can store as text: it is stored escaped, once, and the
    follow beside it is handled, on the first delivery and on LINE's redelivery alike."""
    with db.write() as s:
        teacher = f.teacher(s, "佐藤", 1)
        f.line(teacher).unreachable_since, teacher_id = now, teacher.id
    message, follow = _text_event("01HMMMMMMMMMMMMMMMMMMMMMMM", "了解\ud800"), _follow_event()
    body = _body(message, follow)
    assert b"\\ud800" in body
    with WebhookReceiver(db, SECRET) as rx:
        for _ in range(2):  # the second time as LINE redelivers a batch it had no 200 for
            assert _post(rx, body, signature.sign(SECRET, body)).status_code == 200
        assert rx.dispatcher.wait_handled(2, timeout=30)
    rows = {r.event_id: r for r in _events(db)}
    assert sorted(rows) == ["01HMMMMMMMMMMMMMMMMMMMMMMM", "01HZZZZZZZZZZZZZZZZZZZZZZZ"]
    assert json.loads(rows["01HMMMMMMMMMMMMMMMMMMMMMMM"].raw_json)["message"]["text"] == "了解\ud800"
    assert all(row.handled_at is not None for row in rows.values())
    with db.read() as s:
        assert f.reach_of(s, teacher_id).line_unreachable_at is None


def test_lines_verification_post_without_events_answers_200(line: LineEmulator, db: Database) -> None:
    answer = httpx.post(f"{line.base_url}/v2/bot/channel/webhook/test", json={},
                        headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30).json()
    assert (answer["success"], answer["statusCode"], answer["reason"]) == (True, 200, "OK")
    [sent] = line.webhooks_sent()
    assert sent.body["events"] == [] and sent.body["destination"] == line.bot_user_id
    assert _events(db) == []


def test_a_receiver_without_a_line_secret_refuses_every_line_request(db: Database) -> None:
    """Started for LINE WORKS alone: nothing LINE's route is sent can be checked, so nothing is taken."""
    with WebhookReceiver(db, None, handlers=[]) as rx:
        body = b'{"destination":"U0","events":[]}'
        answer = httpx.post(rx.url, content=body, headers={"X-Line-Signature": signature.sign("", body)},
                            timeout=30)
    assert answer.status_code == 401
    assert _events(db) == []


# ----- events from the emulator, and the follow/unfollow handler -----

def _fallback_teacher_with_a_queued_reminder(db: Database, now: dt.datetime) -> tuple[int, int]:
    # The receiver handles events on the wall clock, so the reminder is due a day from the real now;
    # from the suite's fixed instant it would fall due once that date has passed.
    now = max(now, dt.datetime.now(dt.UTC))
    with db.write() as s:
        room = f.classroom(s, "本校")
        teacher = f.teacher(s, "佐藤", 1, email="sato@example.com", email_opt_in=True,
                            channel=channel_choice.LINE_FALLBACK)
        shift = f.shift(s, room, teacher, (now + dt.timedelta(days=2)).date(), now=now, status=ShiftStatus.CONFIRMED)
        delivery_id, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER,
            dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift.id}", shift.version),
            due_at=now + dt.timedelta(days=1), now=now, recipient=f.reach(teacher).line_user_id, teacher_id=teacher.id,
            classroom_id=room.id, subject_type="shift", subject_id=shift.id, subject_version=shift.version)
        return teacher.id, delivery_id


def test_unfollow_marks_the_teacher_unreachable_and_cancels_queued_line_reminders(
        line: LineEmulator, receiver: WebhookReceiver, db: Database, now: dt.datetime) -> None:
    teacher_id, delivery_id = _fallback_teacher_with_a_queued_reminder(db, now)
    line.add_user(TEACHER, "佐藤")

    sent = line.unfollow(TEACHER)
    assert sent.result is not None and sent.result.status_code == 200
    assert receiver.dispatcher.wait_handled(1, timeout=30)
    with db.read() as s:
        teacher = s.get(Teacher, teacher_id)
        line_delivery = s.get(Delivery, delivery_id)
        assert teacher is not None and f.reach(teacher).line_unreachable_at is not None
        assert (f.reach(teacher).line_opt_in, f.reach(teacher).line_opt_in_at) == (False, None)  # blocking withdraws consent
        assert line_delivery is not None
        assert (line_delivery.status, line_delivery.cancel_reason) == (DeliveryStatus.CANCELED,
                                                                       LineCancel.UNFOLLOWED.value)
        [email] = s.scalars(select(Delivery).where(Delivery.channel == Channel.EMAIL)).all()
        assert (email.linked_delivery_id, email.recipient, email.status) == (
            delivery_id, "sato@example.com", DeliveryStatus.PENDING)
        assert s.scalar(select(WebhookEvent.handled_at)) is not None

    line.follow(TEACHER)
    assert receiver.dispatcher.wait_handled(2, timeout=30)
    with db.read() as s:
        teacher = s.get(Teacher, teacher_id)
        assert teacher is not None and f.reach(teacher).line_unreachable_at is None
        # Reachable again, but consent comes back only by pairing again or the manager's tick.
        assert (f.reach(teacher).line_opt_in, f.reach(teacher).line_opt_in_at) == (False, None)
        # What was canceled stays canceled.
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None and delivery.status == DeliveryStatus.CANCELED


def test_a_redelivered_event_is_handled_once(line: LineEmulator, receiver: WebhookReceiver, db: Database,
                                             now: dt.datetime) -> None:
    teacher_id, _ = _fallback_teacher_with_a_queued_reminder(db, now)
    first = line.unfollow(TEACHER)
    assert receiver.dispatcher.wait_handled(1, timeout=30)
    again = line.redeliver(first.event["webhookEventId"])
    assert again.result is not None and again.result.status_code == 200
    assert again.event["deliveryContext"] == {"isRedelivery": True}
    with db.read() as s:
        assert s.scalar(select(func.count()).select_from(WebhookEvent)) == 1
        assert s.scalar(select(func.count()).select_from(Delivery).where(Delivery.channel == Channel.EMAIL)) == 1


def test_an_old_follow_redelivered_after_an_unfollow_changes_nothing(
        line: LineEmulator, receiver: WebhookReceiver, db: Database, now: dt.datetime) -> None:
    teacher_id, _ = _fallback_teacher_with_a_queued_reminder(db, now)
    follow = line.follow(TEACHER)
    line.unfollow(TEACHER)
    assert receiver.dispatcher.wait_handled(2, timeout=30)
    with db.write() as s:  # LINE lost the first copy of the follow: it arrives only now, redelivered
        s.execute(f.table(WebhookEvent).delete().where(WebhookEvent.event_id == follow.event["webhookEventId"]))
    line.redeliver(follow.event["webhookEventId"])
    assert receiver.dispatcher.wait_handled(3, timeout=30)
    with db.read() as s:
        teacher = s.get(Teacher, teacher_id)
        assert teacher is not None and f.reach(teacher).line_unreachable_at is not None


def test_events_of_strangers_and_groups_are_recorded_and_change_no_teacher(
        line: LineEmulator, receiver: WebhookReceiver, db: Database, now: dt.datetime) -> None:
    teacher_id, delivery_id = _fallback_teacher_with_a_queued_reminder(db, now)
    group = "C" + "1" * 32
    line.add_group(group, "講師", [TEACHER])
    stranger = user_id(99)
    line.unfollow(stranger)
    line.join(group)
    line.member_joined(group, [stranger])
    line.send_text(stranger, "こんにちは", group_id=group)
    line.postback(stranger, "ack=1")
    line.member_left(group, [stranger])
    line.leave(group)
    assert receiver.dispatcher.wait_handled(7, timeout=30)
    rows = _events(db)
    assert [r.type for r in rows] == ["unfollow", "join", "memberJoined", "message", "postback", "memberLeft", "leave"]
    assert [(r.source_type, r.source_group_id) for r in rows[1:4]] == [("group", group)] * 3
    assert json.loads(rows[3].raw_json)["message"]["text"] == "こんにちは"
    with db.read() as s:
        assert f.reach_of(s, teacher_id).line_unreachable_at is None
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None and delivery.status == DeliveryStatus.PENDING


# ----- the handlers' dispatcher -----

def test_events_left_unhandled_are_handled_when_the_receiver_starts(db: Database, now: dt.datetime) -> None:
    teacher_id, _ = _fallback_teacher_with_a_queued_reminder(db, now)
    unfollow = {**_follow_event(), "type": "unfollow"}
    del unfollow["follow"], unfollow["replyToken"]
    with db.write() as s:  # recorded by a receiver that stopped before its handlers ran
        assert events.record(s, [unfollow], now=now) == 1
    with WebhookReceiver(db, SECRET) as rx:
        assert rx.dispatcher.wait_handled(1, timeout=30)
    with db.read() as s:
        assert f.reach_of(s, teacher_id).line_unreachable_at is not None


class _Failing:
    types = frozenset({"follow"})

    def handle(self, session: object, event: object, *, now: dt.datetime) -> None:
        raise RuntimeError("a handler bug")


def test_an_event_a_handler_fails_on_stays_unhandled_and_the_rest_go_on(db: Database) -> None:
    with db.write() as s:
        f.teacher(s, "佐藤", 1)
    with WebhookReceiver(db, SECRET, handlers=[FollowHandler(), _Failing()]) as rx:
        follow = _body(_follow_event("01HAAAAAAAAAAAAAAAAAAAAAAA"))
        unfollow_event = {**_follow_event("01HBBBBBBBBBBBBBBBBBBBBBBB", stamp=1_700_000_001_000), "type": "unfollow"}
        unfollow = _body(unfollow_event)
        assert _post(rx, follow, signature.sign(SECRET, follow)).status_code == 200
        assert _post(rx, unfollow, signature.sign(SECRET, unfollow)).status_code == 200
        assert rx.dispatcher.wait_handled(1, timeout=30)
    rows = {r.event_id: r for r in _events(db)}
    assert rows["01HAAAAAAAAAAAAAAAAAAAAAAA"].handled_at is None  # its transaction was rolled back
    assert rows["01HBBBBBBBBBBBBBBBBBBBBBBB"].handled_at is not None
    with db.read() as s:
        assert s.scalar(select(TeacherContact.unreachable_since)) is not None


class _Gated:
    """A handler that waits until the test lets it go: LINE's answer must not wait for it."""

    types = frozenset({"follow"})

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def handle(self, session: object, event: object, *, now: dt.datetime) -> None:
        self.entered.set()
        assert self.release.wait(60)


def test_line_gets_its_answer_before_the_handlers_run(db: Database) -> None:
    gated = _Gated()
    with WebhookReceiver(db, SECRET, handlers=[gated]) as rx:
        body = _body(_follow_event())
        try:
            assert _post(rx, body, signature.sign(SECRET, body)).status_code == 200
            assert gated.entered.wait(30)  # the handler is running, and LINE already had its 200
            with db.read() as s:
                assert s.scalar(select(WebhookEvent.handled_at)) is None
        finally:
            gated.release.set()
        assert rx.dispatcher.wait_handled(1, timeout=30)


class _NeedsTeacher:
    """Fails until the event's teacher is in the database: state that appears later, as in real life a
    row another transaction commits."""

    types = frozenset({"follow"})

    def handle(self, session: Session, event: ReceivedEvent, *, now: dt.datetime) -> None:
        if event.user_id is None or contacts.owner(session, "line", event.user_id) is None:
            raise LookupError("no teacher with this LINE user ID yet")


def _row(db: Database, event_id: str = "01HZZZZZZZZZZZZZZZZZZZZZZZ") -> WebhookEvent:
    with db.read() as s:
        row = s.scalar(select(WebhookEvent).where(WebhookEvent.event_id == event_id))
        assert row is not None
        return row


def test_a_failed_event_is_retried_with_backoff_while_the_receiver_runs(db: Database, now: dt.datetime) -> None:
    clock = FakeClock(now)
    with WebhookReceiver(db, SECRET, handlers=[_NeedsTeacher()], clock=clock) as rx:
        body = _body(_follow_event())
        assert _post(rx, body, signature.sign(SECRET, body)).status_code == 200
        assert rx.dispatcher.wait_failed(1, timeout=30)
        row = _row(db)
        assert (row.handled_at, row.handle_failures, row.retry_at) == (None, 1, now + dt.timedelta(minutes=1))
        assert row.handle_error == "LookupError: no teacher with this LINE user ID yet"
        rx.dispatcher.wake()  # not due yet: nothing is tried
        with db.write() as s:
            f.teacher(s, "佐藤", 1)
        clock.advance(seconds=59)
        rx.dispatcher.wake()
        assert not rx.dispatcher.wait_handled(1, timeout=0.5) and rx.dispatcher.failed == 1
        clock.advance(seconds=1)
        rx.dispatcher.wake()  # the timer's own wake-up, without waiting the minute
        assert rx.dispatcher.wait_handled(1, timeout=30)
    row = _row(db)
    assert (row.handled_at, row.handle_failures, row.retry_at, row.given_up_at) == (
        now + dt.timedelta(minutes=1), 1, None, None)


@pytest.mark.backends("sqlite", "postgresql")
def test_an_event_that_fails_every_try_ends_as_an_alert_the_cli_lists(
        db: Database, now: dt.datetime, capsys: pytest.CaptureFixture[str]) -> None:
    clock = FakeClock(now)
    with WebhookReceiver(db, SECRET, handlers=[_NeedsTeacher()], clock=clock) as rx:
        body = _body(_follow_event())
        assert _post(rx, body, signature.sign(SECRET, body)).status_code == 200
        assert rx.dispatcher.wait_failed(1, timeout=30)
        for tries, delay in enumerate([1, 2, 4, 8, 16], start=2):
            assert _row(db).retry_at == clock.now + dt.timedelta(minutes=delay)
            clock.advance(minutes=delay)
            rx.dispatcher.wake()
            assert rx.dispatcher.wait_failed(tries, timeout=30)
        row = _row(db)
        assert (row.handled_at, row.handle_failures, row.retry_at, row.given_up_at) == (None, 6, None, clock.now)
        clock.advance(hours=5)
        rx.dispatcher.wake()  # given up: no seventh try while this receiver runs
        assert not rx.dispatcher.wait_failed(7, timeout=0.5)
    with db.read() as s:
        [alert] = alerts.open_alerts(s)
        assert alert.kind == AlertKind.WEBHOOK_EVENT_FAILED
        assert alerts.message_of(alert, "ja").startswith("[Shiftcast] LINEから届いた1件のイベントを処理できませんでした。")
        assert [c.kind for c in alerts.conditions(alerts.read_facts(s, now=clock.now), now=clock.now,
                                                  running_since=None)] == [AlertKind.WEBHOOK_EVENT_FAILED]
    assert main.main(["alerts", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(r["kind"], r["open"]) for r in listed] == [("webhook_event_failed", True)]
    assert "could not act on 1 event from LINE" in listed[0]["title"]

    with db.write() as s:  # what it needed is there now: the next start tries it once more and clears the alert
        f.teacher(s, "佐藤", 1)
    with WebhookReceiver(db, SECRET, handlers=[_NeedsTeacher()], clock=clock) as rx:
        assert rx.dispatcher.wait_handled(1, timeout=30)
    with db.read() as s:
        assert alerts.open_alerts(s) == []
    assert _row(db).handled_at == clock.now
