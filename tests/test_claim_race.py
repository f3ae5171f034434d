"""Many senders claiming from one PostgreSQL database at once: nothing is handed out twice, nobody deadlocks."""

from __future__ import annotations

import datetime as dt
import threading
from collections import Counter

import pytest
from sqlalchemy import insert

from core.outbox import queue
from core.store.db import Database
from core.store.models import Channel, Delivery, DeliveryKind, DeliveryStatus

THREADS = 8
CLAIMS = 40
PER_CLAIM = 10
LEASE = dt.timedelta(hours=1)  # longer than the test: no lease runs out, so a row claimed twice is a bug


def _fill(db: Database, n: int, now: dt.datetime) -> None:
    rows = [{"kind": DeliveryKind.SHIFT_REMINDER, "channel": Channel.LINE, "dedup_key": f"race:{i}",
             "recipient": f"U{i:032x}", "status": DeliveryStatus.QUEUED, "attempt_count": 0, "due_at": now,
             "next_attempt_at": now - dt.timedelta(seconds=i % 7), "created_at": now, "updated_at": now}
            for i in range(n)]
    with db.write() as s:
        s.execute(insert(Delivery), rows)


def _race(db: Database, now: dt.datetime, *, skip_locked: bool | None) -> tuple[list[int], list[BaseException]]:
    claimed: list[int] = []
    errors: list[BaseException] = []
    lock = threading.Lock()
    start = threading.Barrier(THREADS)

    def sender(n: int) -> None:
        start.wait()
        for _ in range(CLAIMS):
            try:
                with db.write() as s:
                    ids = queue.claim(s, owner=f"sender-{n}", now=now, lease=LEASE, limit=PER_CLAIM,
                                      channels=[Channel.LINE], skip_locked=skip_locked)
            except Exception as exc:  # noqa: BLE001 - a deadlock or serialization failure is what is counted
                with lock:
                    errors.append(exc)
                continue
            with lock:
                claimed.extend(ids)

    threads = [threading.Thread(target=sender, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return claimed, errors


@pytest.mark.backends("postgresql")
def test_eight_senders_claim_every_row_exactly_once(db: Database, now: dt.datetime) -> None:
    total = THREADS * CLAIMS * PER_CLAIM
    _fill(db, total, now)
    claimed, errors = _race(db, now, skip_locked=None)  # the claim PostgreSQL gets by default
    assert errors == []
    twice = [i for i, n in Counter(claimed).items() if n > 1]
    assert twice == [], f"{len(twice)} deliveries were claimed by more than one sender"
    # With SKIP LOCKED a claim never comes back short while rows are left, so every row went to one sender.
    assert len(claimed) == total
    with db.read() as s:
        owners = dict(s.query(Delivery.id, Delivery.lease_owner).all())
    assert all(owner is not None and owner.startswith("sender-") for owner in owners.values())
