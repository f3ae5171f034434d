"""Senders that know about each other: each registers in the database and keeps a heartbeat.

A file lock in the data folder cannot see a sender on another computer sharing a PostgreSQL server,
so every sender writes a `senders` row when it starts (its lease owner, host, pid, data folder, which
part of Shiftcast it is), renews `heartbeat_at` while it runs and sets `stopped_at` when it stops.
`main.py senders`, `main.py health` and the Deliveries view read them.

A row whose heartbeat is older than STALE_AFTER and that never said it stopped is a sender that
died or lost the database; the leases of what it had claimed run out as any lease does (the queue
never trusts a heartbeat to decide who owns a row). The state is a pure function of the row and the
clock, so a screen and a command say the same thing.
"""

from __future__ import annotations

import datetime as dt
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from core.outbox.queue import owner_gone
from core.store.db import Database
from core.store.models import SenderRecord

HEARTBEAT_EVERY = dt.timedelta(seconds=15)
STALE_AFTER = dt.timedelta(seconds=60)  # four missed heartbeats
KEEP_STOPPED = dt.timedelta(days=7)  # stopped senders stay listed this long, then their rows go


class SenderState(StrEnum):
    SENDING = "sending"
    STALE = "stale"  # no heartbeat for STALE_AFTER and no word that it stopped
    STOPPED = "stopped"


@dataclass(frozen=True)
class SenderInfo:
    id: str
    host: str
    pid: int
    home: str
    app: str
    started_at: dt.datetime
    heartbeat_at: dt.datetime
    stopped_at: dt.datetime | None
    state: SenderState


def state_of(heartbeat_at: dt.datetime, stopped_at: dt.datetime | None, *, now: dt.datetime) -> SenderState:
    if stopped_at is not None:
        return SenderState.STOPPED
    if now - heartbeat_at > STALE_AFTER:
        return SenderState.STALE
    return SenderState.SENDING


def register(session: Session, owner: str, *, home: str, app: str, now: dt.datetime, host: str | None = None,
             pid: int | None = None) -> None:
    """A sender starts (in the caller's write transaction): this process unless `host`/`pid` say
    otherwise. Rows without a heartbeat for KEEP_STOPPED, stopped or not, are tidied away here."""
    session.execute(delete(SenderRecord).where(SenderRecord.heartbeat_at < now - KEEP_STOPPED))
    session.add(SenderRecord(id=owner, host=(host or socket.gethostname() or "?")[:255],
                             pid=os.getpid() if pid is None else pid, home=home[:4000], app=app[:32],
                             started_at=now, heartbeat_at=now, stopped_at=None))
    session.flush()


def close_dead_on_host(session: Session, *, is_alive: Callable[[int], bool], host: str | None = None) -> int:
    """Mark stopped the senders of this host whose process is gone (killed, crashed, power cut), as of
    their last heartbeat, so they are not listed as stale forever. Only this host's pids can be checked;
    another computer's dead sender stays stale until its own host starts a sender or the rows age out."""
    rows = session.execute(select(SenderRecord.id, SenderRecord.pid, SenderRecord.heartbeat_at).where(
        SenderRecord.host == (host or socket.gethostname() or "?")[:255], SenderRecord.stopped_at.is_(None))).all()
    closed = 0
    for owner, pid, last in rows:
        if owner_gone(owner, pid, is_alive=is_alive):
            session.execute(update(SenderRecord).where(SenderRecord.id == owner).values(stopped_at=last))
            closed += 1
    return closed


def heartbeat(session: Session, owner: str, *, now: dt.datetime) -> bool:
    """This sender is alive now. False if its row is gone or says it stopped."""
    result = session.execute(update(SenderRecord).where(SenderRecord.id == owner, SenderRecord.stopped_at.is_(None))
                             .values(heartbeat_at=now))
    return bool(getattr(result, "rowcount", 0) == 1)


def stopped(session: Session, owner: str, *, now: dt.datetime) -> None:
    session.execute(update(SenderRecord).where(SenderRecord.id == owner).values(stopped_at=now, heartbeat_at=now))


def listing(session: Session, *, now: dt.datetime, include_stopped: bool = True) -> list[SenderInfo]:
    """Every sender known, the ones sending first, then stale, then stopped; the latest start first."""
    query = select(SenderRecord)
    if not include_stopped:
        query = query.where(SenderRecord.stopped_at.is_(None))
    rows = session.scalars(query).all()
    infos = [SenderInfo(r.id, r.host, r.pid, r.home, r.app, r.started_at, r.heartbeat_at, r.stopped_at,
                        state_of(r.heartbeat_at, r.stopped_at, now=now)) for r in rows]
    order = {SenderState.SENDING: 0, SenderState.STALE: 1, SenderState.STOPPED: 2}
    return sorted(infos, key=lambda i: (order[i.state], -i.started_at.timestamp()))


def live_on_host(session: Session, host: str, *, now: dt.datetime) -> list[SenderInfo]:
    """The senders on `host` whose heartbeat is fresh (what a health check asks)."""
    rows = session.scalars(select(SenderRecord).where(
        SenderRecord.host == host[:255], SenderRecord.stopped_at.is_(None),
        SenderRecord.heartbeat_at >= now - STALE_AFTER,
    )).all()
    return [SenderInfo(r.id, r.host, r.pid, r.home, r.app, r.started_at, r.heartbeat_at, r.stopped_at,
                       SenderState.SENDING) for r in rows]


class Presence:
    """One sender's row: registered on start, a heartbeat at most every HEARTBEAT_EVERY, stopped at the end.

    Writing it must never stop the sending: a failed heartbeat is tried again on the next turn."""

    def __init__(self, db: Database, owner: str, *, home: str, app: str) -> None:
        self.db = db
        self.owner = owner
        self.home = home
        self.app = app
        self._next_beat: dt.datetime | None = None
        self.beats = 0

    def start(self, now: dt.datetime, *, is_alive: Callable[[int], bool]) -> None:
        with self.db.write() as session:
            close_dead_on_host(session, is_alive=is_alive)
            register(session, self.owner, home=self.home, app=self.app, now=now)
        self._next_beat = now + HEARTBEAT_EVERY

    def due(self, now: dt.datetime) -> bool:
        return self._next_beat is not None and now >= self._next_beat

    def beat(self, now: dt.datetime) -> None:
        with self.db.write() as session:
            if not heartbeat(session, self.owner, now=now):
                # Tidied away, or marked stopped by hand while this one still runs: say so again.
                session.execute(delete(SenderRecord).where(SenderRecord.id == self.owner))
                register(session, self.owner, home=self.home, app=self.app, now=now)
        self.beats += 1
        self._next_beat = now + HEARTBEAT_EVERY

    def stop(self, now: dt.datetime) -> None:
        with self.db.write() as session:
            stopped(session, self.owner, now=now)
        self._next_beat = None
