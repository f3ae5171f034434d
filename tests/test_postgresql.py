"""What only PostgreSQL has: a deadlock is recognised as worth running again, and the claim's plan."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from sqlalchemy import text

from core.outbox import queue
from core.store.db import Database, retryable
from core.store.models import DeliveryKind

pytestmark = pytest.mark.backends("postgresql")


def _two_rows(db: Database, now: dt.datetime) -> tuple[int, int]:
    with db.write() as s:
        a = queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="a", due_at=now, now=now)[0]
        b = queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="b", due_at=now, now=now)[0]
    return a, b


def test_a_real_deadlock_is_retryable(db: Database, now: dt.datetime) -> None:
    """Two transactions locking two rows in opposite orders: the server ends one with deadlock_detected."""
    a, b = _two_rows(db, now)
    first_locked = threading.Event()
    second_locked = threading.Event()
    errors: list[BaseException] = []
    lock_row = text("UPDATE deliveries SET updated_at = updated_at WHERE id = :id")

    def one(mine: int, theirs: int, locked: threading.Event, other: threading.Event) -> None:
        try:
            with db.write() as s:
                s.execute(text("SET LOCAL deadlock_timeout = '50ms'"))
                s.execute(lock_row, {"id": mine})
                locked.set()
                other.wait(10)
                s.execute(lock_row, {"id": theirs})
        except Exception as exc:  # noqa: BLE001 - the deadlock is what the test wants to see
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(a, b, first_locked, second_locked)),
               threading.Thread(target=one, args=(b, a, second_locked, first_locked))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(errors) == 1, errors
    assert retryable(errors[0])
    assert not retryable(RuntimeError("anything else"))
