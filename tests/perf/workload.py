"""The benchmark's data: reminders built once as the test fixtures build them, copied for every run.

Building 5,000 teachers, shifts and deliveries through the roster rules takes a while, so it happens
once into a template database; each run gets a fresh data folder with a copy of it (SQLite's online
backup), and SHIFTCAST_HOME points at that folder while the run lasts.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import make_url, select, update

from core.channels.base import Outgoing
from core.sending import builders
from core.store import paths
from core.store.bootstrap import open_database
from core.store.db import Database, backup_sqlite
from core.store.models import Delivery, DeliveryStatus, utcnow
from core.store.paths import DataPaths
from tests.linefixtures import make_reminders, user_id


@dataclass(frozen=True)
class Workload:
    root: Path  # the benchmark's temporary folder
    template: Path  # shiftcast.db with `count` reminders due now
    count: int
    delivery_ids: tuple[int, ...]

    @property
    def user_ids(self) -> list[str]:
        # make_reminders gives teacher n the LINE ID user_id(n), n = 1..count
        return [user_id(n) for n in range(1, self.count + 1)]


def use_home(home: Path) -> paths.DataPaths:
    """Point SHIFTCAST_HOME at `home` (created if missing) and return its paths."""
    os.environ[paths.HOME_ENV] = str(home)
    return paths.data_paths(home)


def build(root: Path, count: int) -> Workload:
    data = use_home(root / "template")
    db = open_database(data)
    try:
        ids = make_reminders(db, count, now=utcnow())
    finally:
        db.dispose()
    return Workload(root, data.database, count, tuple(ids))


_runs = 0


def fresh_database(workload: Workload, name: str) -> Database:
    """A new data folder holding a copy of the template; SHIFTCAST_HOME now points there."""
    global _runs
    _runs += 1
    data = use_home(workload.root / "runs" / f"{_runs:02d}-{name}")
    backup_sqlite(str(workload.template), str(data.database))
    return open_database(data)


def paths_of(db: Database) -> DataPaths:
    """The data folder of a run's database file (each run has its own folder, templates and images)."""
    return DataPaths(Path(str(make_url(db.url).database)).parent)


def prepared_messages(db: Database, now: dt.datetime) -> list[tuple[int, Outgoing]]:
    """Every queued delivery's message, built by the sender's own builders (identical payloads)."""
    with db.read() as session:
        deliveries = session.scalars(select(Delivery).where(Delivery.status == DeliveryStatus.QUEUED)
                                     .order_by(Delivery.id)).all()
        return [(d.id, builders.prepare(session, d, now, paths_of(db))) for d in deliveries]


def count_sent(db: Database) -> int:
    from sqlalchemy import func

    with db.read() as session:
        return session.scalar(select(func.count()).select_from(Delivery)
                              .where(Delivery.status == DeliveryStatus.SENT)) or 0


def mark_sent(db: Database, delivery_id: int, now: dt.datetime) -> None:
    """The minimal bookkeeping a task-queue worker would do after a send: one UPDATE, own transaction."""
    with db.write() as session:
        session.execute(update(Delivery).where(Delivery.id == delivery_id)
                        .values(status=DeliveryStatus.SENT, sent_at=now, updated_at=now))
