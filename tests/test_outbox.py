from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select, text

from core.outbox import deliveries, queue
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus

pytestmark = pytest.mark.backends("sqlite", "postgresql")

LEASE = dt.timedelta(minutes=2)
HOUR = dt.timedelta(hours=1)


def _enqueue(db: Database, n: int, now: dt.datetime, *, due_in: dt.timedelta = dt.timedelta(0)) -> list[int]:
    with db.write() as s:
        return [
            queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{i}", 1),
                           due_at=now + due_in, now=now, recipient=f"U{i:032x}")[0]
            for i in range(n)
        ]


def test_enqueue_is_idempotent_and_part_of_the_callers_transaction(db: Database, now: dt.datetime) -> None:
    key = queue.dedup_key(DeliveryKind.SHIFT_REMINDER, "shift:1", 3)
    with db.write() as s:
        first = queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup=key, due_at=now, now=now)
        again = queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup=key, due_at=now + LEASE, now=now)
    assert first[1] is True and again == (first[0], False)
    with pytest.raises(RuntimeError), db.write() as s:
        queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="other", due_at=now, now=now)
        raise RuntimeError("the caller's work failed")
    with db.read() as s:
        assert s.scalar(select(func.count()).select_from(Delivery)) == 1
        row = s.get(Delivery, first[0])
        assert row is not None and row.status == DeliveryStatus.QUEUED and row.next_attempt_at == now


def test_wake_listener_fires_after_commit_only(db: Database, now: dt.datetime) -> None:
    calls: list[int] = []
    remove = queue.on_enqueued(db, lambda: calls.append(1))
    try:
        with pytest.raises(RuntimeError), db.write() as s:
            queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="a", due_at=now, now=now)
            raise RuntimeError
        assert calls == []
        _enqueue(db, 1, now)
        assert calls == [1]
    finally:
        remove()


@pytest.mark.parametrize("use_returning", [True, False])
def test_claim_takes_only_due_rows_once(db: Database, now: dt.datetime, use_returning: bool) -> None:
    due = _enqueue(db, 5, now)
    with db.write() as s:
        later = queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="later", due_at=now + dt.timedelta(hours=1), now=now)[0]
        assert s.get(Delivery, later).status == DeliveryStatus.PENDING  # type: ignore[union-attr]
    with db.write() as s:
        a = queue.claim(s, owner="a", now=now, lease=2 * HOUR, limit=3, use_returning=use_returning)
    with db.write() as s:
        b = queue.claim(s, owner="b", now=now, lease=2 * HOUR, limit=10, use_returning=use_returning)
    assert len(a) == 3 and sorted(a + b) == sorted(due) and not set(a) & set(b)
    with db.write() as s:
        assert queue.claim(s, owner="c", now=now, lease=LEASE, limit=10, use_returning=use_returning) == []
        # When its time comes, the pending row is claimable too.
        assert queue.claim(s, owner="c", now=now + dt.timedelta(hours=1), lease=LEASE, limit=10,
                            use_returning=use_returning) == [later]


def test_expired_lease_is_reclaimed_and_guard_stops_the_old_owner(db: Database, now: dt.datetime) -> None:
    [delivery_id] = _enqueue(db, 1, now)
    with db.write() as s:
        assert queue.claim(s, owner="old", now=now, lease=LEASE, limit=1) == [delivery_id]
    with db.write() as s:
        assert queue.claim(s, owner="new", now=now + LEASE - dt.timedelta(seconds=1), lease=LEASE, limit=1) == []
        assert queue.claim(s, owner="new", now=now + LEASE, lease=LEASE, limit=1) == [delivery_id]
    with db.write() as s:
        assert not queue.transition(s, delivery_id, expected=[DeliveryStatus.PROCESSING], owner="old", now=now,
                                     status=DeliveryStatus.SENT)
        assert queue.transition(s, delivery_id, expected=[DeliveryStatus.PROCESSING], owner="new", now=now,
                                 status=DeliveryStatus.SENT)
        row = s.get(Delivery, delivery_id)
        assert row is not None and row.lease_owner is None and row.lease_expires_at is None


def test_orphaned_leases_of_dead_local_senders_are_freed(db: Database, now: dt.datetime) -> None:
    import socket

    ids = _enqueue(db, 2, now)
    host = socket.gethostname()[:40]
    with db.write() as s:
        queue.claim(s, owner=f"{host}:999999:abcd", now=now, lease=LEASE, limit=1)
        queue.claim(s, owner="elsewhere:1:abcd", now=now, lease=LEASE, limit=1)
    with db.write() as s:
        assert queue.release_orphans(s, now=now, is_alive=lambda pid: False) == 1
        statuses = {d.id: (d.status, d.lease_owner) for d in s.scalars(select(Delivery))}
    assert statuses[ids[0]] == (DeliveryStatus.QUEUED, None)
    assert statuses[ids[1]][0] == DeliveryStatus.PROCESSING  # another host: wait for its lease


@pytest.mark.backends("sqlite")  # SQLite's plan; PostgreSQL's is checked in tests/test_postgresql.py
def test_claim_uses_the_status_index(db: Database, now: dt.datetime) -> None:
    from sqlalchemy.dialects import sqlite

    with db.write() as s:
        from sqlalchemy import and_, or_
        from sqlalchemy import select as sel

        D = queue.D
        query = sel(D.c.id).where(or_(and_(D.c.status.in_(["pending", "queued"]), D.c.next_attempt_at <= now),
                                      and_(D.c.status == "processing", D.c.lease_expires_at <= now))
                                  ).order_by(D.c.next_attempt_at).limit(10)
        sql = str(query.compile(dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True}))
        plan = " ".join(str(r[-1]) for r in s.execute(text("EXPLAIN QUERY PLAN " + sql)))
    assert "ix_deliveries_status_next_attempt" in plan and "SCAN deliveries" not in plan.replace("USING INDEX", "")


def test_manager_retry_cancel_and_counts(db: Database, now: dt.datetime) -> None:
    a, b, c = _enqueue(db, 3, now)
    with db.write() as s:
        queue.claim(s, owner="x", now=now, lease=LEASE, limit=1)  # a is processing
        s.execute(text("UPDATE deliveries SET status='failed', dead_lettered_at=:t, retry_key='k', retry_key_issued_at=:old WHERE id=:id"),
                  {"t": now.replace(tzinfo=None), "old": (now - dt.timedelta(hours=25)).replace(tzinfo=None), "id": b})
        s.execute(text("UPDATE deliveries SET status='sent' WHERE id=:id"), {"id": c})
    with db.write() as s:
        counts = deliveries.counts(s)
        assert (counts["processing"], counts["failed"], counts["sent"], counts["dead_letters"]) == (1, 1, 1, 1)
        with pytest.raises(Exception, match="being sent"):
            deliveries.retry_now(s, a, now=now)
        with pytest.raises(Exception, match="already sent"):
            deliveries.retry_now(s, c, now=now)
        [outcome] = deliveries.requeue_dead_letters(s, now=now)
        assert outcome.delivery_id == b and outcome.new_retry_key is True
        row = s.get(Delivery, b)
        assert row is not None and row.status == DeliveryStatus.QUEUED and row.retry_key != "k" and row.dead_lettered_at is None
        again = deliveries.retry_now(s, b, now=now)
        assert again.new_retry_key is False  # the fresh key is reused
        deliveries.cancel(s, b, now=now)
        assert s.get(Delivery, b).cancel_reason == "MANAGER"  # type: ignore[union-attr]
        with pytest.raises(Exception, match="already canceled"):
            deliveries.cancel(s, b, now=now)
        listed = deliveries.list_deliveries(s, deliveries.DeliveryFilter(statuses=(DeliveryStatus.CANCELED,)))
        assert [d.id for d in listed] == [b]
