"""What only PostgreSQL has: a deadlock is recognised as worth running again, and the claim's plan."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from sqlalchemy import event, insert, text

from core.outbox import queue
from core.store.db import Database, retryable
from core.store.models import Channel, Delivery, DeliveryKind, DeliveryStatus

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
                other.wait(60)  # the other transaction holds its row
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


def _history(db: Database, now: dt.datetime, start: int, count: int, status: DeliveryStatus) -> None:
    rows = [{"kind": DeliveryKind.SHIFT_REMINDER, "channel": Channel.LINE, "dedup_key": f"{status.value}:{i}",
             "status": status, "attempt_count": 1, "due_at": now,
             "next_attempt_at": now - dt.timedelta(seconds=i) if status is not DeliveryStatus.QUEUED
             else now + dt.timedelta(seconds=i - 50), "created_at": now, "updated_at": now}
            for i in range(start, start + count)]
    with db.write() as s:
        for chunk in range(0, len(rows), 10_000):
            s.execute(insert(Delivery), rows[chunk:chunk + 10_000])
        s.execute(text("ANALYZE deliveries"))


def _claim_plan(db: Database, now: dt.datetime) -> list[str]:
    """EXPLAIN ANALYZE of the real claim as the sender runs it, rolled back."""
    explain = "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) "

    def prefix(_conn, _cursor, statement, parameters, _context, _many):
        return explain + statement, parameters

    params = {"b_now": now, "b_owner": "x", "b_expires": now + dt.timedelta(minutes=2), "b_limit": 64,
              "b_channels": ["line", "webhook"]}
    with db.read() as s:
        connection = s.connection()
        event.listen(connection, "before_cursor_execute", prefix, retval=True)
        try:
            lines = list(s.execute(queue._claim_statements(True).update_skip_locked, params).scalars())
        finally:
            event.remove(connection, "before_cursor_execute", prefix)
        s.rollback()
    return lines


def _cte_buffers(plan: list[str]) -> int:
    """Pages the candidate search read (the CTE's first Buffers line): what grows if history is scanned."""
    cte = plan.index(next(line for line in plan if line.strip() == "CTE picked"))
    line = next(line for line in plan[cte:] if "Buffers:" in line)
    return sum(int(part.split("=")[1]) for part in line.split(":", 1)[1].split() if "=" in part)


def test_the_claims_cost_stays_flat_as_history_grows(db: Database, now: dt.datetime) -> None:
    """The partial index holds only claimable rows, so 50 times the history reads the same few pages."""
    _history(db, now, 0, 100, DeliveryStatus.QUEUED)
    _history(db, now, 0, 1_000, DeliveryStatus.SENT)
    small = _claim_plan(db, now)
    _history(db, now, 1_000, 49_000, DeliveryStatus.SENT)
    large = _claim_plan(db, now)
    assert any("ix_deliveries_claimable" in line for line in large), "\n".join(large)
    assert _cte_buffers(large) <= _cte_buffers(small) + 4, "\n".join(small + ["----"] + large)
