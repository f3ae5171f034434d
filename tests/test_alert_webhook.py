"""Alerts end to end: dead letters from LINE open one incident, its post reaches a real webhook on
loopback once however many deliveries die, it clears after a requeue, and a later dead letter opens
a new one."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from core import alerts
from core.emulator import FaultPlan, LineEmulator
from core.outbox import deliveries, queue
from core.outbox.policy import BackoffPolicy
from core.sending.scheduler import Scheduler
from core.sending.sender import Sender, SenderConfig, SenderEvents
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import (
    Channel,
    Classroom,
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    ShiftStatus,
)
from tests import factories as f
from tests.linefixtures import FakeClock, emulator, line_ready, make_reminders  # noqa: F401
from tests.webhookserver import WebhookReceiver, webhook  # noqa: F401

FAST = SenderConfig(concurrency=4, lease=dt.timedelta(seconds=30),
                    backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0))


def _kill_with_retries(sender: Sender, clock: FakeClock) -> None:
    for minutes in (0, 2, 4, 8, 16, 32):
        clock.advance(minutes=minutes)
        sender.run_until_idle()


def test_one_webhook_post_per_incident(db: Database, line_ready: LineEmulator, webhook: WebhookReceiver,
                                       now: dt.datetime) -> None:
    clock = FakeClock(now)
    with db.write() as s:
        keys.ALERTS_WEBHOOK_URL.write(s, webhook.url)
    ids = make_reminders(db, 5, now=clock.now, emulator=line_ready, start_in=dt.timedelta(days=5))
    line_ready.set_faults(FaultPlan(fail_next=1000))
    seen: list[str] = []
    sender = Sender(db, paths=f.home_paths(), config=FAST, clock=clock,
                    events=SenderEvents(alert=[lambda code, _t: seen.append(code)]))
    scheduler = Scheduler(db, wake_sender=sender.wake, clock=clock, sending_since=lambda: now)
    _kill_with_retries(sender, clock)
    assert all(d.dead_lettered_at is not None for d in map(lambda i: _row(db, i), ids))
    scheduler.run_watch()
    sender.run_until_idle()
    [text] = webhook.texts()
    assert text.startswith("[Shiftcast] ") and "failed after every retry" in text and seen == ["DEAD_LETTER"]
    with db.read() as s:
        [note] = s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.ALERT)).all()
    assert (note.channel, note.status, note.recipient) == (Channel.WEBHOOK, DeliveryStatus.SENT, "webhook")

    # Requeued and delivered: no dead letters remain, so the minute job clears the incident.
    line_ready.set_faults(FaultPlan())
    with db.write() as s:
        deliveries.requeue_dead_letters(s, now=clock.now)
    sender.run_until_idle()
    report = scheduler.run_watch()
    assert len(report.cleared) == 1 and report.opened == []
    with db.read() as s:
        assert alerts.open_alerts(s) == []

    # A later dead letter is a new incident, with its own post.
    [late] = make_reminders_for_later(db, clock)
    line_ready.set_faults(FaultPlan(fail_next=1000))
    _kill_with_retries(sender, clock)
    assert _row(db, late).dead_lettered_at is not None
    scheduler.run_watch()
    sender.run_until_idle()
    assert len(webhook.texts()) == 2 and webhook.texts()[1].startswith("[Shiftcast] 1 delivery failed")
    with db.read() as s:
        assert len(alerts.list_alerts(s, now=clock.now)) == 2


def test_a_refused_webhook_fails_its_notification_without_retrying(db: Database, webhook: WebhookReceiver,
                                                                   now: dt.datetime) -> None:
    clock = FakeClock(now)
    webhook.status = 404
    with db.write() as s:
        keys.ALERTS_WEBHOOK_URL.write(s, webhook.url)
        opened = alerts.open_incident(s, alerts.quota_exhausted(), now=now)
        assert opened is not None
    Sender(db, connect={"line": None}, paths=f.home_paths(), config=FAST, clock=clock).run_until_idle()
    with db.read() as s:
        [note] = s.scalars(select(Delivery).where(Delivery.about("alert", opened.id))).all()
    assert (note.status, note.last_error_code, note.dead_lettered_at) == (DeliveryStatus.FAILED, "WEBHOOK_4XX", None)


def make_reminders_for_later(db: Database, clock: FakeClock) -> list[int]:
    with db.write() as s:
        room = s.scalar(select(Classroom))
        assert room is not None
        teacher = f.teacher(s, "後から", 900)
        shift = f.shift(s, room, teacher, dt.date(2026, 12, 20), now=clock.now, status=ShiftStatus.CONFIRMED)
        delivery_id, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER,
            dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift.id}", shift.version),
            due_at=clock.now, now=clock.now, recipient=f.reach(teacher).line_user_id, teacher_id=teacher.id,
            classroom_id=room.id, subject_type="shift", subject_id=shift.id, subject_version=shift.version)
    return [delivery_id]


def _row(db: Database, delivery_id: int) -> Delivery:
    with db.read() as s:
        d = s.get(Delivery, delivery_id)
        assert d is not None
        return d


def test_connecting_the_webhook_channel_makes_no_http_client_until_an_alert_goes() -> None:
    """Every sender start connects every channel; most classrooms never set a webhook."""
    from core.channels.webhook import DRIVER

    client = DRIVER.connect(None)  # type: ignore[arg-type]  # it needs no settings
    assert client._client is None
    client.close()
