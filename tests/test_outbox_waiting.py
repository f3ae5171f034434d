"""What waits to be sent soon (core/outbox/waiting.py): what the window names before it quits."""

from __future__ import annotations

import datetime as dt
from itertools import count

import pytest

from core.outbox.waiting import Waiting, waiting
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus

_keys = count()


def _row(db: Database, status: DeliveryStatus, due: dt.datetime) -> None:
    with db.write() as s:
        s.add(Delivery(kind=DeliveryKind.SHIFT_REMINDER, dedup_key=f"w{next(_keys)}", status=status,
                       due_at=due, next_attempt_at=due, created_at=due, updated_at=due))


@pytest.mark.backends("sqlite", "postgresql")
def test_due_within_a_day_and_in_flight_wait_the_rest_does_not(db: Database, now: dt.datetime) -> None:
    with db.read() as s:
        assert waiting(s, now=now) == Waiting(due=0, in_flight=0)
    _row(db, DeliveryStatus.PENDING, now + dt.timedelta(hours=2))  # tonight's reminder
    _row(db, DeliveryStatus.PENDING, now - dt.timedelta(minutes=5))  # overdue: goes at once
    _row(db, DeliveryStatus.QUEUED, now + dt.timedelta(minutes=3))  # between attempts
    _row(db, DeliveryStatus.PROCESSING, now)  # being sent
    _row(db, DeliveryStatus.PENDING, now + dt.timedelta(days=3))  # not soon
    for final in (DeliveryStatus.SENT, DeliveryStatus.FAILED, DeliveryStatus.CANCELED):
        _row(db, final, now + dt.timedelta(hours=1))
    with db.read() as s:
        assert waiting(s, now=now) == Waiting(due=3, in_flight=1)
        assert waiting(s, now=now).total == 4
        assert waiting(s, now=now, within=dt.timedelta(days=4)).due == 4
