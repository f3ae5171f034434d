"""Costs of the outbox itself, without any sending: enqueue rate and claim cost against history size."""

from __future__ import annotations

import datetime as dt
import sqlite3
import statistics
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from core.outbox import queue
from core.store.db import Database
from core.store.models import Channel, DeliveryKind, DeliveryStatus, utcnow
from tests.linefixtures import user_id

LEASE = dt.timedelta(minutes=2)
_SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"  # how SQLAlchemy's SQLite DateTime stores an instant (naive UTC)


def enqueue_rate(db: Database, *, single: int, batched: int, batch: int) -> dict[str, Any]:
    """outbox.enqueue rows/s: each in its own committed transaction, then `batch` per transaction."""
    now = utcnow()
    due = now + dt.timedelta(days=1)  # pending: nothing here is meant to be sent

    def add(session: Any, tag: str, n: int) -> None:
        queue.enqueue(session, kind=DeliveryKind.SHIFT_REMINDER, dedup=f"enqueue-bench:{tag}:{n}", due_at=due,
                       now=now, recipient=user_id(n + 1), teacher_id=None)

    started = time.perf_counter()
    for n in range(single):
        with db.write() as session:
            add(session, "single", n)
    one_each = single / (time.perf_counter() - started)
    started = time.perf_counter()
    for first in range(0, batched, batch):
        with db.write() as session:
            for n in range(first, min(first + batch, batched)):
                add(session, "batched", n)
    batched_rate = batched / (time.perf_counter() - started)
    return {
        "one_per_transaction_rows_per_s": round(one_each),
        "one_per_transaction_rows": single,
        "batched_rows_per_s": round(batched_rate),
        "batched_rows": batched,
        "rows_per_transaction": batch,
    }


def _delivery_rows(first: int, count: int, *, status: DeliveryStatus, now: dt.datetime,
                   due_in: dt.timedelta) -> Iterator[tuple[Any, ...]]:
    for n in range(first, first + count):
        at = (now + due_in - dt.timedelta(seconds=n % 31_536_000)).replace(tzinfo=None).strftime(_SQLITE_TIME)
        sent = status is DeliveryStatus.SENT
        yield (DeliveryKind.SHIFT_REMINDER.value, Channel.LINE.value, f"history:{status.value}:{n}",
               user_id(n % 5000 + 1), status.value, 1 if sent else 0, at, at,
               str(uuid.uuid4()) if sent else None, at if sent else None, at if sent else None,
               f"{n:032x}" if sent else None, at, at, at if sent else None)


_INSERT = (
    "INSERT INTO deliveries (kind, channel, dedup_key, recipient, status, attempt_count, due_at, next_attempt_at,"
    " retry_key, retry_key_issued_at, first_attempt_at, line_request_id, created_at, updated_at, sent_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _insert_raw(db: Database, rows: Iterator[tuple[Any, ...]]) -> None:
    """Plain sqlite3 executemany in one transaction: a million rows in seconds, not minutes."""
    connection = db.engine.raw_connection()
    try:
        sqlite: sqlite3.Connection = connection.driver_connection  # type: ignore[assignment]
        sqlite.execute("BEGIN IMMEDIATE")
        sqlite.executemany(_INSERT, rows)  # takes an iterator: a million tuples never sit in memory
        sqlite.execute("COMMIT")
    finally:
        connection.close()


class _Rollback(Exception):
    """Raised inside db.write() so the claimed rows go back and the same claim can be timed again."""


@contextmanager
def _captured_sql(db: Database) -> Iterator[list[tuple[str, Any]]]:
    seen: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        seen.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", capture)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", capture)


def _time_claims(db: Database, *, now: dt.datetime, limit: int, repeats: int) -> tuple[list[float], list[str]]:
    """Seconds per queue.claim (the sender's own call), and the query plan of its statement."""
    samples: list[float] = []
    plan: list[str] = []
    for attempt in range(repeats):
        try:
            with db.write() as session:
                with _captured_sql(db) as seen:
                    started = time.perf_counter()
                    claimed = queue.claim(session, owner="bench:0:claim", now=now, lease=LEASE, limit=limit,
                                           channels=[Channel.LINE])
                    samples.append(time.perf_counter() - started)
                if len(claimed) != limit:
                    raise AssertionError(f"claimed {len(claimed)} rows, expected {limit}")
                if attempt == 0:
                    sql, parameters = seen[-1]
                    rows = session.connection().exec_driver_sql("EXPLAIN QUERY PLAN " + sql, parameters).all()
                    plan = [str(row[-1]) for row in rows]
                raise _Rollback
        except _Rollback:
            pass
    return samples, plan


def claim_cost(db: Database, *, history_sizes: Sequence[int], due: int, limit: int,
               repeats: int) -> dict[str, Any]:
    """Median time of one claim(limit) with `due` rows due and growing sent history behind them."""
    now = utcnow()
    _insert_raw(db, _delivery_rows(0, due, status=DeliveryStatus.QUEUED, now=now, due_in=-dt.timedelta(minutes=1)))
    results: dict[str, Any] = {}
    plan: list[str] = []
    inserted = 0
    for size in history_sizes:
        started = time.perf_counter()
        _insert_raw(db, _delivery_rows(inserted, size - inserted, status=DeliveryStatus.SENT, now=now,
                                       due_in=-dt.timedelta(days=1)))
        fill_seconds = time.perf_counter() - started
        inserted = size
        samples, plan = _time_claims(db, now=now, limit=limit, repeats=repeats)
        results[str(size)] = {
            "median_us": round(statistics.median(samples) * 1e6, 1),
            "p90_us": round(sorted(samples)[int(len(samples) * 0.9)] * 1e6, 1),
            "history_insert_s": round(fill_seconds, 1),
        }
    smallest, largest = str(history_sizes[0]), str(history_sizes[-1])
    return {
        "limit": limit,
        "due_rows": due,
        "claims_timed_per_size": repeats,
        "by_sent_history_rows": results,
        "ratio_largest_vs_smallest": round(results[largest]["median_us"] / results[smallest]["median_us"], 2),
        "ratio_between": f"{largest}/{smallest}",
        "query_plan": plan,
    }
