"""One delivery in full, as plain values: its fields, every attempt in the order it happened, and whom and
where it went.

Attempts are ordered by when they started, not by their number: the relay's attempt is numbered when
the app records it, after the app's own later ones, yet it came first.

The Deliveries table reads lean tuples for 100,000 rows (rows); the detail pane reads one delivery,
so it can afford every field. Frozen copies, not ORM rows, because the answer crosses from a pool
thread to the window's thread after the read scope has ended.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy.orm import Session

from core.outbox import deliveries
from core.store.kinds import DeliveryStatus
from core.store.models import Classroom, Delivery, DeliveryAttempt, Teacher


@dataclass(frozen=True)
class DeliveryFields:
    id: int
    kind: str  # a registered message kind's key
    channel: str  # a registered channel's key
    status: DeliveryStatus
    recipient: str | None
    dedup_key: str
    cancel_reason: str | None
    dead_lettered_at: dt.datetime | None
    created_at: dt.datetime
    due_at: dt.datetime
    late_seconds: int | None
    next_attempt_at: dt.datetime
    sent_at: dt.datetime | None
    acknowledged_at: dt.datetime | None
    retry_key: str | None
    retry_key_issued_at: dt.datetime | None
    line_request_id: str | None
    accepted_request_id: str | None
    last_error_code: str | None
    last_error_message: str | None

    @classmethod
    def of(cls, d: Delivery) -> DeliveryFields:
        return cls(d.id, d.kind, d.channel, d.status, d.recipient, d.dedup_key, d.cancel_reason, d.dead_lettered_at,
                   d.created_at, d.due_at, d.late_seconds, d.next_attempt_at, d.sent_at, d.acknowledged_at,
                   d.retry_key, d.retry_key_issued_at, d.line_request_id, d.accepted_request_id, d.last_error_code,
                   d.last_error_message)


@dataclass(frozen=True)
class AttemptFields:
    number: int
    started_at: dt.datetime
    duration_ms: int | None
    http_status: int | None  # None: no answer
    request_id: str | None
    accepted_request_id: str | None  # the server had accepted this retry key earlier
    outcome: str  # a core.outbox.policy outcome
    error_code: str | None
    error_message: str | None
    via: str | None = None  # who made it: None this app's sender, "relay" the relay (core/relay/outcomes.py)

    @classmethod
    def of(cls, a: DeliveryAttempt) -> AttemptFields:
        return cls(a.number, a.started_at, a.duration_ms, a.http_status, a.request_id, a.accepted_request_id,
                   a.outcome, a.error_code, a.error_message, a.via)


@dataclass(frozen=True)
class DeliveryFacts:
    delivery: DeliveryFields
    attempts: tuple[AttemptFields, ...]  # by when they happened
    teacher: str | None  # the teacher's display name
    classroom: str | None
    zone: str | None  # the classroom's time zone


def delivery_facts(session: Session, delivery_id: int) -> DeliveryFacts | None:
    """None: the delivery was purged meanwhile."""
    delivery = session.get(Delivery, delivery_id)
    if delivery is None:
        return None
    teacher = session.get(Teacher, delivery.teacher_id) if delivery.teacher_id else None
    room = session.get(Classroom, delivery.classroom_id) if delivery.classroom_id else None
    return DeliveryFacts(DeliveryFields.of(delivery),
                         tuple(sorted((AttemptFields.of(a) for a in deliveries.attempts(session, delivery_id)),
                                      key=lambda a: (a.started_at, a.number))),
                         teacher.display_name if teacher else None, room.name if room else None,
                         room.timezone if room else None)
