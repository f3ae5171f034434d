"""The relay's outcomes kept as attempts of their deliveries, on a real database: each once, a "sent"
marking its delivery sent once, whatever else sent it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sqlalchemy import select

from core.outbox import policy, queue
from core.relay import outcomes
from core.store.db import Database
from core.store.models import Delivery, DeliveryAttempt, DeliveryStatus
from tests.linefixtures import make_reminders

pytestmark = pytest.mark.backends("sqlite", "postgresql")


def _outcome(delivery_id: int, at: dt.datetime, **changes: Any) -> dict[str, Any]:
    return {"cursor": 1, "delivery_id": f"d{delivery_id}", "subject_version": 1, "retry_key": "0" * 8 + "-0000-5000-8000-" + "0" * 12,
            "at": at.isoformat().replace("+00:00", "Z"), "http_status": 200, "request_id": "req-relay",
            "accepted_request_id": None, "outcome": "sent", "error_code": None, "message": None,
            "next_attempt_at": None, "duration_ms": 31} | changes


def _attempts(db: Database, delivery_id: int) -> list[tuple[int, str | None, str, int | None]]:
    with db.read() as s:
        return [(a.number, a.via, a.outcome, a.http_status) for a in s.scalars(
            select(DeliveryAttempt).where(DeliveryAttempt.delivery_id == delivery_id).order_by(DeliveryAttempt.number))]


def test_an_outcome_pulled_twice_is_one_attempt_and_a_sent_marks_the_delivery_once(
        db: Database, now: dt.datetime) -> None:
    [reminder] = make_reminders(db, 1, now=now)
    at = now + dt.timedelta(minutes=6, milliseconds=250)
    retry = _outcome(reminder, at - dt.timedelta(minutes=2), outcome="retry", http_status=500,
                     error_code="LINE_5XX", message="Internal server error")
    page = [retry, _outcome(reminder, at), _outcome(10_000, at)]  # the last is no delivery of this database
    for expected in ((2, 1), (0, 0)):  # a sync that died before its ack pulls the same page again
        with db.write() as s:
            done = outcomes.record(s, page, now=now)
        assert (done.attempts, done.sent) == expected
    assert _attempts(db, reminder) == [(1, "relay", "retry", 500), (2, "relay", "sent", 200)]
    with db.read() as s:
        sent = s.get_one(Delivery, reminder)
        assert (sent.status, sent.sent_at, sent.attempt_count, sent.line_request_id) == (
            DeliveryStatus.SENT, at, 1, "req-relay")


def test_a_relay_409_after_the_app_sent_is_an_attempt_and_leaves_the_delivery_as_the_app_sent_it(
        db: Database, now: dt.datetime) -> None:
    [reminder] = make_reminders(db, 1, now=now)
    with db.write() as s:
        queue.transition(s, reminder, expected=[DeliveryStatus.QUEUED], now=now, status=DeliveryStatus.SENT,
                         sent_at=now, line_request_id="req-app", attempt_count=1)
    later = now + dt.timedelta(minutes=6)
    with db.write() as s:
        done = outcomes.record(s, [_outcome(reminder, later, http_status=409, request_id="req-409",
                                            accepted_request_id="req-app")], now=later)
    assert (done.attempts, done.sent) == (1, 0)
    with db.read() as s:
        kept = s.get_one(Delivery, reminder)
        assert (kept.sent_at, kept.attempt_count, kept.line_request_id) == (now, 1, "req-app")


def test_an_attempt_of_a_relay_run_that_stopped_is_kept_and_said_then_the_409_marks_it_sent(
        db: Database, now: dt.datetime) -> None:
    """The relay's host stopped a run after LINE took the message: the attempt reaches Deliveries in words,
    and the next attempt's 409 (LINE had it) marks the delivery sent once."""
    [reminder] = make_reminders(db, 1, now=now)
    later = now + dt.timedelta(minutes=3)
    stopped = _outcome(reminder, now, outcome="retry", http_status=None, request_id=None, error_code="RUN_STOPPED",
                       next_attempt_at=later.isoformat(), duration_ms=None)
    accepted = _outcome(reminder, later, http_status=409, request_id="req-409", accepted_request_id="req-first")
    with db.write() as s:
        assert outcomes.record(s, [stopped, accepted], now=later).sent == 1
    assert _attempts(db, reminder) == [(1, "relay", "retry", None), (2, "relay", "sent", 409)]
    with db.read() as s:
        first = s.scalars(select(DeliveryAttempt).where(DeliveryAttempt.delivery_id == reminder)
                          .order_by(DeliveryAttempt.number)).first()
        assert first is not None and first.error_code == "RUN_STOPPED" and first.started_at == now
        assert "the relay's run stopped during this attempt" in str(policy.shown_error(first.error_message))
        assert s.get_one(Delivery, reminder).status is DeliveryStatus.SENT
