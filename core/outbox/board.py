"""The outbox as the window shows it and the manager's actions on it, each in a transaction of its own:
the Deliveries table's rows (read and changed), one delivery in full, retry, cancel and requeue, and the
counts the status line and the tray show. A screen passes the Database and gets frozen values back; it
never holds a session."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from sqlalchemy import select

from core.outbox import deliveries, detail, not_set_up, rows
from core.outbox.deliveries import RetryOutcome
from core.outbox.detail import DeliveryFacts
from core.outbox.rows import DeliveryRow
from core.outbox.waiting import Waiting, waiting
from core.roster import cover
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Delivery
from core.store.settings import ChannelHold


@dataclass(frozen=True)
class Rows:
    """Rows as read, with the classrooms' time zones read in the same transaction (sorted, once each)."""

    zones: tuple[str, ...]
    rows: tuple[DeliveryRow, ...]
    missing: tuple[int, ...] = ()  # of the ids asked for, those that no longer exist (purged)


@dataclass(frozen=True)
class Status:
    """What the window's status line says: deliveries by status, LINE's hold, the rows waiting for their
    channel's set-up (by channel) and the cover requests waiting for the manager."""

    counts: Mapping[str, int]
    hold: ChannelHold | None
    not_set_up: Mapping[str, int]
    open_cover: int


def zones(db: Database) -> tuple[str, ...]:
    """Every classroom's time zone, once each, sorted."""
    with db.read() as session:
        return tuple(rows.classroom_zones(session))


def all_rows(db: Database) -> Rows:
    """Every delivery, newest first."""
    with db.read() as session:
        return Rows(tuple(rows.classroom_zones(session)), tuple(rows.all_rows(session)))


def changed_rows(db: Database, ids: Iterable[int], *, newer_than: int) -> Rows:
    """The rows of `ids` plus every row with an id above `newer_than`, newest first."""
    with db.read() as session:
        found, missing = rows.changed_rows(session, ids, newer_than=newer_than)
        return Rows(tuple(rows.classroom_zones(session)), tuple(found), tuple(missing))


def acknowledged_ids(db: Database) -> frozenset[int]:
    """Every acknowledged delivery (core.receiving.acknowledge.acknowledged_ids, in its own transaction:
    the outbox may not import receiving)."""
    with db.read() as session:
        return frozenset(session.scalars(select(Delivery.id).where(Delivery.acknowledged_at.is_not(None))))


def facts(db: Database, delivery_id: int) -> DeliveryFacts | None:
    """One delivery in full; None: it was purged meanwhile."""
    with db.read() as session:
        return detail.delivery_facts(session, delivery_id)


def retry_now(db: Database, delivery_id: int, *, now: dt.datetime) -> RetryOutcome:
    with db.write() as session:
        return deliveries.retry_now(session, delivery_id, now=now)


def cancel(db: Database, delivery_id: int, *, now: dt.datetime) -> int:
    """Cancel by the manager; answers the id canceled."""
    with db.write() as session:
        deliveries.cancel(session, delivery_id, now=now)
    return delivery_id


def requeue_dead_letters(db: Database, *, now: dt.datetime) -> tuple[RetryOutcome, ...]:
    with db.write() as session:
        return tuple(deliveries.requeue_dead_letters(session, now=now))


def counts(db: Database) -> Mapping[str, int]:
    """How many deliveries there are in each status (every status named, 0 included)."""
    with db.read() as session:
        return MappingProxyType(deliveries.counts(session))


def status(db: Database) -> Status:
    with db.read() as session:
        return Status(MappingProxyType(deliveries.counts(session)), keys.LINE_HOLD.read(session),
                      MappingProxyType(not_set_up.waiting(session)), cover.open_count(session))


def waiting_soon(db: Database, *, now: dt.datetime) -> Waiting:
    """What waits to go within the next day, and what is being sent (asked before the window quits)."""
    with db.read() as session:
        return waiting(session, now=now)
