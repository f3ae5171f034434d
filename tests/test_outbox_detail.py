"""One delivery in full for the detail pane (core/outbox/detail.py): plain values that outlive their
read scope, every attempt in the order it happened, and the names of whom and where it went."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from core.outbox import detail, queue
from core.roster import rules
from core.store.db import Database
from core.store.kinds import Channel, DeliveryKind, DeliveryStatus
from core.store.models import DeliveryAttempt
from tests import factories as f

# A contract on both databases: the queries are what every screen reads, on a local file or a server.
pytestmark = pytest.mark.backends("sqlite", "postgresql")


def _reminder(db: Database, now: dt.datetime) -> tuple[int, int]:
    with db.write() as s:
        room = f.classroom(s, "本校", timezone="America/New_York")
        teacher = f.teacher(s, "佐藤", 1)
        delivery_id, _ = queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="reminder:1", due_at=now, now=now,
                                       recipient=f.reach(teacher).line_user_id, teacher_id=teacher.id, classroom_id=room.id)
        # Stored out of order: the pane lists them by number.
        s.add_all([
            DeliveryAttempt(delivery_id=delivery_id, number=2, started_at=now + dt.timedelta(seconds=30),
                            outcome="retry", error_code="TIMEOUT", error_message="LINE did not answer in time"),
            DeliveryAttempt(delivery_id=delivery_id, number=1, started_at=now, duration_ms=120, http_status=500,
                            request_id="req-1", outcome="retry", error_code="LINE_5XX"),
        ])
        return delivery_id, teacher.id


def test_a_delivery_in_full_as_plain_values(db: Database, now: dt.datetime) -> None:
    delivery_id, _ = _reminder(db, now)
    with db.read() as s:
        facts = detail.delivery_facts(s, delivery_id)
    assert facts is not None  # read after the scope ended: nothing left to lazy-load
    d = facts.delivery
    assert (d.id, d.kind, d.channel, d.status, d.dedup_key, d.recipient) == (
        delivery_id, DeliveryKind.SHIFT_REMINDER, Channel.LINE, DeliveryStatus.QUEUED, "reminder:1", f"U{1:032x}")
    assert d.created_at == now and d.due_at == now and d.sent_at is None
    assert [(a.number, a.http_status, a.request_id, a.error_code) for a in facts.attempts] == [
        (1, 500, "req-1", "LINE_5XX"), (2, None, None, "TIMEOUT")]
    assert (facts.teacher, facts.classroom, facts.zone) == ("佐藤", "本校", "America/New_York")
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.status = DeliveryStatus.SENT  # type: ignore[misc]


def test_an_erased_teacher_keeps_an_anonymous_label_and_a_purged_delivery_reads_none(
        db: Database, now: dt.datetime) -> None:
    delivery_id, teacher_id = _reminder(db, now)
    with db.write() as s:
        rules.erase_teacher(s, teacher_id, now=now)
    with db.read() as s:
        facts = detail.delivery_facts(s, delivery_id)
        assert detail.delivery_facts(s, delivery_id + 100) is None
    assert facts is not None and facts.teacher == f"(deleted #{teacher_id})"


def test_attempts_are_listed_as_they_happened_not_as_they_were_numbered(db: Database, now: dt.datetime) -> None:
    """The relay's attempt is recorded, and numbered, when the app syncs: after the app's own later try."""
    delivery_id, _ = _reminder(db, now)
    with db.write() as s:
        s.add_all([
            DeliveryAttempt(delivery_id=delivery_id, number=3, started_at=now + dt.timedelta(minutes=50),
                            http_status=409, outcome="sent", accepted_request_id="req-relay"),
            DeliveryAttempt(delivery_id=delivery_id, number=4, started_at=now + dt.timedelta(minutes=46),
                            http_status=200, request_id="req-relay", outcome="sent", via="relay"),
        ])
    with db.read() as s:
        facts = detail.delivery_facts(s, delivery_id)
    assert facts is not None
    assert [a.number for a in facts.attempts] == [1, 2, 4, 3]
