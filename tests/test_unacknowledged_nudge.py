"""The manager's nudge about a reminder not acknowledged, through the real planner and Sender: to the
manager's LINE user ID on the emulator over real HTTP and to the alerts' e-mail address through a real
SMTP server, exactly once; and canceled when the teacher taps 了解 (a signed webhook) before it goes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from core.channels import email as email_channel
from core.emulator import LineEmulator
from core.planning.planner import plan
from core.planning.unacknowledged import GRACE
from core.receiving import acknowledge
from core.receiving.server import WebhookReceiver
from core.roster import rules
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus
from tests.linefixtures import FakeClock, line, make_reminders, receiver, user_id  # noqa: F401 - fixtures
from tests.smtpfixtures import SmtpServer, _free_port, body, smtp_ca, starttls_server  # noqa: F401
from tests.test_line_acknowledge import send  # noqa: F401 - the sender run until idle, on this module's clock

MANAGER = user_id(999)
MANAGER_EMAIL = "manager@example.com"
NOW = dt.datetime(2026, 12, 1, 5, 0, tzinfo=dt.UTC)  # 14:00 in Tokyo; the shift starts at 16:00
NUDGE = DeliveryKind.UNACKNOWLEDGED_NUDGE


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOW)


@pytest.fixture(autouse=True)
def _no_password_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(email_channel.PASSWORD_ENV, raising=False)


def _reminded(db: Database, line: LineEmulator, send: Any, clock: FakeClock) -> int:
    """A teacher reminded at 14:00 of their 16:00 shift, in a classroom that asks to be told; the
    reminder's delivery id."""
    line.add_user(MANAGER, "教室長")
    with db.write() as s:
        acknowledge.enable(s, True)
        keys.UI_LANGUAGE.write(s, "ja")
        keys.ALERTS_LINE_USER_ID.write(s, MANAGER)
    [reminder] = make_reminders(db, 1, now=clock.now, start_in=dt.timedelta(hours=2), emulator=line)
    with db.write() as s:
        delivery = s.get(Delivery, reminder)
        assert delivery is not None and delivery.classroom_id is not None
        keys.NUDGE_UNACKNOWLEDGED.of(delivery.classroom_id).write(s, True)
    send()
    assert len(line.inbox(user_id(1))) == 1
    return reminder


def _plan(db: Database, clock: FakeClock) -> None:
    with db.write() as s:
        plan(s, now=clock.now)


def _nudges(db: Database) -> list[Delivery]:
    with db.read() as s:
        found = list(s.scalars(select(Delivery).where(Delivery.kind == NUDGE).order_by(Delivery.channel)))
        s.expunge_all()
    return found


def test_the_manager_is_told_once_on_line_and_by_email(db: Database, line: LineEmulator, send: Any,
                                                       clock: FakeClock, starttls_server: SmtpServer) -> None:
    starttls_server.configure(db)
    with db.write() as s:
        keys.ALERTS_EMAIL.write(s, MANAGER_EMAIL)
    _reminded(db, line, send, clock)
    clock.advance(minutes=1)
    _plan(db, clock)
    _plan(db, clock)  # planning again plans nothing more
    waiting = _nudges(db)
    assert [(d.channel, d.recipient, d.status) for d in waiting] == [
        ("email", MANAGER_EMAIL, DeliveryStatus.PENDING), ("line", MANAGER, DeliveryStatus.PENDING)]
    assert all(d.next_attempt_at == NOW + GRACE for d in waiting)  # the teacher's time to tap first

    send()
    assert line.inbox(MANAGER) == [] and starttls_server.recorder.to(MANAGER_EMAIL) == []  # not due yet

    clock.advance(minutes=30)
    send()
    _plan(db, clock)
    send()
    [told] = line.inbox(MANAGER)
    words = "講師00001さんから、2026年12月1日(火) 16:00（本校）のシフトのリマインダーに了解がまだありません。"
    assert told.message == {"type": "text", "text": words}
    [mail] = starttls_server.recorder.to(MANAGER_EMAIL)
    assert body(mail.message, "plain").strip() == words
    assert "了解がありません: 講師00001さん" in str(mail.message["Subject"])
    assert [d.status for d in _nudges(db)] == [DeliveryStatus.SENT, DeliveryStatus.SENT]


@pytest.mark.backends("sqlite", "postgresql")
def test_a_tap_before_it_goes_cancels_the_nudge(db: Database, line: LineEmulator, receiver: WebhookReceiver,
                                               send: Any, clock: FakeClock) -> None:
    reminder = _reminded(db, line, send, clock)
    clock.advance(minutes=1)
    _plan(db, clock)
    [waiting] = _nudges(db)
    assert waiting.status == DeliveryStatus.PENDING

    clock.advance(minutes=5)
    tap = line.tap(user_id(1))  # the teacher taps 了解: a signed webhook to the receiver
    assert tap.result is not None and tap.result.status_code == 200
    assert receiver.dispatcher.wait_handled(1, timeout=30)
    with db.read() as s:
        acknowledged = s.get(Delivery, reminder)
        assert acknowledged is not None and acknowledged.acknowledged_at is not None
    [withdrawn] = _nudges(db)  # at once, not only when it falls due: a relay holding it drops it too
    assert (withdrawn.status, withdrawn.cancel_reason) == (DeliveryStatus.CANCELED, "ACKNOWLEDGED")

    clock.advance(minutes=30)
    _plan(db, clock)
    send()
    assert line.inbox(MANAGER) == []
    [canceled] = _nudges(db)
    assert (canceled.status, canceled.cancel_reason) == (DeliveryStatus.CANCELED, "ACKNOWLEDGED")


def test_a_nudge_the_sender_builds_after_a_tap_is_canceled_then(db: Database, line: LineEmulator, send: Any,
                                                                 clock: FakeClock) -> None:
    reminder = _reminded(db, line, send, clock)
    clock.advance(minutes=1)
    _plan(db, clock)
    with db.write() as s:  # recorded without withdrawing the nudge, as while a sender held it
        delivery = s.get(Delivery, reminder)
        assert delivery is not None
        delivery.acknowledged_at = clock.now
    clock.advance(minutes=30)
    send()
    assert line.inbox(MANAGER) == []
    [canceled] = _nudges(db)
    assert (canceled.status, canceled.cancel_reason) == (DeliveryStatus.CANCELED, "ACKNOWLEDGED")


def _moved(s: Session, shift_id: int, now: dt.datetime) -> None:
    rules.edit_shift(s, shift_id, rules.ShiftChange(start_time=dt.time(16, 30), end_time=dt.time(21)), now=now)


def _canceled(s: Session, shift_id: int, now: dt.datetime) -> None:
    rules.cancel_shift(s, shift_id, now=now)


@pytest.mark.backends("sqlite", "postgresql")
@pytest.mark.parametrize(("change", "reason"), [(_moved, "SHIFT_CHANGED"), (_canceled, "SHIFT_NOT_CONFIRMED")])
def test_a_changed_or_canceled_shift_withdraws_the_nudge_about_its_old_version(
        db: Database, line: LineEmulator, send: Any, clock: FakeClock,
        change: Callable[[Session, int, dt.datetime], None], reason: str) -> None:
    reminder = _reminded(db, line, send, clock)
    clock.advance(minutes=1)
    _plan(db, clock)
    with db.write() as s:
        delivery = s.get(Delivery, reminder)
        assert delivery is not None and delivery.subject_id is not None
        change(s, delivery.subject_id, clock.now)
    _plan(db, clock)  # what the edit sets off
    old = [d for d in _nudges(db) if d.subject_version == 1]
    assert [(d.status, d.cancel_reason) for d in old] == [(DeliveryStatus.CANCELED, reason)]
    clock.advance(minutes=30)
    send()
    assert line.inbox(MANAGER) == []


def test_a_classroom_that_does_not_ask_gets_no_nudge(db: Database, line: LineEmulator, send: Any,
                                                    clock: FakeClock) -> None:
    reminder = _reminded(db, line, send, clock)
    with db.write() as s:
        delivery = s.get(Delivery, reminder)
        assert delivery is not None and delivery.classroom_id is not None
        keys.NUDGE_UNACKNOWLEDGED.of(delivery.classroom_id).write(s, False)
    clock.advance(minutes=1)
    _plan(db, clock)
    assert _nudges(db) == []
