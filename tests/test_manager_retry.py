"""The manager's retry and cancel: a retry never sends before the delivery's due time, and the
send-time checks still stop it then; each status allows only the actions that make sense for it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest

import main
from core.emulator import LineEmulator
from core.errors import ValidationError
from core.outbox import deliveries, queue
from core.outbox.policy import BackoffPolicy
from core.roster import clock, rules
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus, ShiftStatus
from tests import factories as f
from tests.linefixtures import FakeClock, emulator, line_ready  # noqa: F401

# One contract, two databases: every test here runs on SQLite and on PostgreSQL.
pytestmark = pytest.mark.backends("sqlite", "postgresql")

TOKYO = "Asia/Tokyo"
NEW_YEARS_EVE = dt.date(2026, 12, 31)
DUE = clock.to_utc(NEW_YEARS_EVE, dt.time(15, 0), TOKYO)  # two hours before a 17:00 shift
CONFIG = SenderConfig(concurrency=2, lease=dt.timedelta(seconds=30),
                      backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0))


@pytest.fixture
def senders() -> Iterator[list[Sender]]:
    made: list[Sender] = []
    yield made
    for sender in made:
        sender.stop()


def _sender(db: Database, fake: FakeClock, made: list[Sender]) -> Sender:
    sender = Sender(db, paths=f.home_paths(), config=CONFIG, clock=fake)
    made.append(sender)
    return sender


def _future_reminder(db: Database, now: dt.datetime, emu: LineEmulator | None = None) -> int:
    """A confirmed 12/31 17:00 shift in Tokyo and its reminder, due 12/31 15:00."""
    with db.write() as s:
        room = f.classroom(s, "本校", timezone=TOKYO)
        teacher = f.teacher(s, "佐藤", 1)
        shift = f.shift(s, room, teacher, NEW_YEARS_EVE, "17:00", "21:00", now=now, status=ShiftStatus.CONFIRMED)
        if emu is not None:
            line_user_id = f.reach(teacher).line_user_id
            assert line_user_id is not None and teacher.name is not None
            emu.add_user(line_user_id, teacher.name)
        delivery_id, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER,
            dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift.id}", shift.version),
            due_at=DUE, now=now, recipient=f.reach(teacher).line_user_id, teacher_id=teacher.id, classroom_id=room.id,
            subject_type="shift", subject_id=shift.id, subject_version=shift.version,
        )
    return delivery_id


def _delivery(db: Database, delivery_id: int) -> Delivery:
    with db.read() as s:
        d = s.get(Delivery, delivery_id)
        assert d is not None
        return d


def _cancel_and_retry(db: Database, delivery_id: int, now: dt.datetime) -> deliveries.RetryOutcome:
    with db.write() as s:
        deliveries.cancel(s, delivery_id, now=now)
    with db.write() as s:
        return deliveries.retry_now(s, delivery_id, now=now)


def test_a_canceled_future_reminder_retried_keeps_its_due_time(db: Database, now: dt.datetime) -> None:
    delivery_id = _future_reminder(db, now)
    outcome = _cancel_and_retry(db, delivery_id, now)
    assert outcome.waits and outcome.send_at == DUE and outcome.zone == TOKYO
    d = _delivery(db, delivery_id)
    assert (d.status, d.next_attempt_at, d.cancel_reason) == (DeliveryStatus.PENDING, DUE, None)
    with db.write() as s:
        assert queue.claim(s, owner="x", now=now, lease=CONFIG.lease, limit=10) == []


def test_the_sender_sends_a_retried_future_reminder_at_its_due_time_not_before(
        db: Database, now: dt.datetime, line_ready: LineEmulator, senders: list[Sender]) -> None:
    delivery_id = _future_reminder(db, now, line_ready)
    _cancel_and_retry(db, delivery_id, now)
    fake = FakeClock(now)
    sender = _sender(db, fake, senders)
    sender.run_until_idle()
    d = _delivery(db, delivery_id)
    assert d.recipient is not None
    assert d.status == DeliveryStatus.PENDING and line_ready.inbox(d.recipient) == []

    fake.now = DUE - dt.timedelta(seconds=1)
    sender.run_until_idle()
    assert _delivery(db, delivery_id).status == DeliveryStatus.PENDING

    fake.now = DUE
    sender.run_until_idle()
    d = _delivery(db, delivery_id)
    assert d.recipient is not None
    assert d.status == DeliveryStatus.SENT and len(line_ready.inbox(d.recipient)) == 1


@pytest.mark.parametrize(("change", "reason"), [
    ("cancel shift", "SHIFT_CHANGED"),
    ("withdraw consent", "LINE_NOT_OPTED_IN"),
])
def test_a_retried_reminder_is_still_stopped_by_the_send_time_checks(
        db: Database, now: dt.datetime, line_ready: LineEmulator, senders: list[Sender], change: str,
        reason: str) -> None:
    delivery_id = _future_reminder(db, now, line_ready)
    with db.write() as s:
        d = s.get(Delivery, delivery_id)
        assert d is not None and d.subject_id is not None and d.teacher_id is not None
        if change == "cancel shift":
            rules.cancel_shift(s, d.subject_id, now=now)
        else:
            rules.update_teacher(s, d.teacher_id, line_opt_in=False)
    _cancel_and_retry(db, delivery_id, now)
    _sender(db, FakeClock(DUE), senders).run_until_idle()
    d = _delivery(db, delivery_id)
    assert (d.status, d.cancel_reason) == (DeliveryStatus.CANCELED, reason)
    assert d.recipient is not None
    assert line_ready.inbox(d.recipient) == []


def test_a_retry_of_a_past_failure_goes_now(db: Database, now: dt.datetime) -> None:
    delivery_id = _future_reminder(db, now)
    later = DUE + dt.timedelta(minutes=5)
    with db.write() as s:
        assert queue.transition(s, delivery_id, expected=[DeliveryStatus.PENDING], now=later,
                                status=DeliveryStatus.FAILED, first_attempt_at=DUE, attempt_count=5)
    with db.write() as s:
        outcome = deliveries.retry_now(s, delivery_id, now=later)
    assert not outcome.waits and outcome.send_at == later
    d = _delivery(db, delivery_id)
    assert (d.status, d.next_attempt_at, d.attempt_count) == (DeliveryStatus.QUEUED, later, 0)


def test_a_key_that_would_be_stale_by_the_due_time_is_left_for_the_first_attempt(db: Database,
                                                                                 now: dt.datetime) -> None:
    delivery_id = _future_reminder(db, now)
    with db.write() as s:
        assert queue.transition(s, delivery_id, expected=[DeliveryStatus.PENDING], now=now,
                                status=DeliveryStatus.CANCELED, retry_key="k", retry_key_issued_at=now)
        outcome = deliveries.retry_now(s, delivery_id, now=now)
    d = _delivery(db, delivery_id)
    assert outcome.new_retry_key and outcome.waits
    assert (d.retry_key, d.retry_key_issued_at) == (None, None)


@pytest.mark.parametrize(("status", "can_retry", "can_cancel"), [
    (DeliveryStatus.PENDING, False, True),
    (DeliveryStatus.QUEUED, True, True),
    (DeliveryStatus.PROCESSING, False, False),
    (DeliveryStatus.SENT, False, False),
    (DeliveryStatus.FAILED, True, True),
    (DeliveryStatus.CANCELED, True, False),
])
def test_each_status_allows_the_actions_of_its_table(db: Database, now: dt.datetime, status: DeliveryStatus,
                                                     can_retry: bool, can_cancel: bool) -> None:
    assert (status in deliveries.RETRYABLE, status in deliveries.CANCELABLE) == (can_retry, can_cancel)
    for action, allowed in ((deliveries.retry_now, can_retry), (deliveries.cancel, can_cancel)):
        with db.write() as s:
            delivery_id, _ = queue.enqueue(s, kind=DeliveryKind.ALERT, dedup=f"alert:{action.__name__}", due_at=now,
                                           now=now, recipient="webhook")
            queue.transition(s, delivery_id, expected=list(DeliveryStatus), now=now, status=status)
        with db.write() as s:
            if allowed:
                action(s, delivery_id, now=now)
            else:
                with pytest.raises(ValidationError):
                    action(s, delivery_id, now=now)
        assert _delivery(db, delivery_id).status == (
            status if not allowed else DeliveryStatus.CANCELED if action is deliveries.cancel
            else DeliveryStatus.QUEUED)


def test_cli_retry_says_when_it_will_be_sent(db: Database, now: dt.datetime, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.verbs

    delivery_id = _future_reminder(db, now)
    monkeypatch.setattr(cli.verbs, "now", lambda: now)
    assert main.main(["cancel", str(delivery_id)]) == 0
    assert main.main(["retry", str(delivery_id)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith(f"delivery {delivery_id} will be sent on Thu 31 Dec 2026 at 15:00 (Asia/Tokyo)")
    assert _delivery(db, delivery_id).next_attempt_at == DUE

    with db.write() as s:
        assert queue.transition(s, delivery_id, expected=[DeliveryStatus.PENDING], now=now,
                                status=DeliveryStatus.FAILED, first_attempt_at=DUE, due_at=now)
    assert main.main(["retry", str(delivery_id)]) == 0
    assert capsys.readouterr().out.startswith(f"delivery {delivery_id} will be sent now;")


def test_a_retry_past_its_keys_life_moves_to_the_next_derived_key(db: Database, now: dt.datetime) -> None:
    """The replacement key is derived (database identity, delivery, generation), not drawn at random,
    so a copy of the data folder retrying the same delivery presents the same key to LINE."""
    delivery_id = _future_reminder(db, now)
    later = DUE + dt.timedelta(days=2)
    with db.write() as s:
        assert queue.transition(s, delivery_id, expected=[DeliveryStatus.PENDING], now=later,
                                status=DeliveryStatus.FAILED, first_attempt_at=DUE, attempt_count=5,
                                retry_key="old", retry_key_issued_at=DUE)
        outcome = deliveries.retry_now(s, delivery_id, now=later)
    d = _delivery(db, delivery_id)
    assert outcome.new_retry_key and not outcome.waits
    assert (d.retry_key, d.retry_key_issued_at, d.retry_key_generation) == (None, None, 1)
