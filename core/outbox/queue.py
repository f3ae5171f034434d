"""The transactional outbox: enqueue, atomic claim under a lease, guarded transitions.

The deliveries table is the queue. Enqueue happens inside the caller's transaction, so there is no
separate step that can fail. Every status change is one UPDATE guarded by the status it expects (and
the lease owner, while processing), and reports whether it applied.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import os
import socket
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    Integer,
    Select,
    Table,
    Update,
    and_,
    bindparam,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.engine import CursorResult, Result
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key
from sqlalchemy.sql.dml import ReturningUpdate
from sqlalchemy.sql.elements import BindParameter

from core.store import events
from core.store.db import (
    OUTBOX_CHANNEL,
    BulkStatement,
    Database,
    insert_unless_exists,
    notify,
    supports_skip_locked,
    supports_update_returning,
)
from core.store.models import (
    Channel,
    Delivery,
    DeliveryAttempt,
    DeliveryStatus,
)

log = logging.getLogger(__name__)
D = cast(Table, Delivery.__table__)  # declared as a FromClause; a mapped class's table is a Table
CLAIMABLE = (DeliveryStatus.PENDING, DeliveryStatus.QUEUED)
FINAL = (DeliveryStatus.SENT, DeliveryStatus.FAILED, DeliveryStatus.CANCELED)

def on_enqueued(db: Database, callback: Callable[[], None]) -> Callable[[], None]:
    """Call `callback` after any transaction on `db` that enqueued something commits (in this process,
    or, heard through the change counters, in another)."""
    return db.events.listen(events.DeliveriesEnqueued, lambda _event: callback())


def dedup_key(kind: str, subject: str, version: int | str = 0, channel: str = Channel.LINE) -> str:
    """kind + subject + version (+ channel when not LINE): the same key twice is one delivery."""
    key = f"{kind}:{subject}:v{version}"
    return key if channel == Channel.LINE else f"{key}:{channel}"


def enqueue(
    session: Session,
    *,
    kind: str,  # a registered message kind's key (core/kinds/registry.py)
    dedup: str,
    due_at: dt.datetime,
    now: dt.datetime,
    send_at: dt.datetime | None = None,
    channel: str = Channel.LINE,
    recipient: str | None = None,
    teacher_id: int | None = None,
    classroom_id: int | None = None,
    subject_type: str | None = None,  # what it is about: "shift", "publication", "alert" or a kind's own
    subject_id: int | None = None,
    subject_version: int | None = None,  # the subject's version it was planned for, where it has versions
    linked_delivery_id: int | None = None,
) -> tuple[int, bool]:
    """Add a delivery in the caller's transaction. Returns (id, created); an existing key is kept as is.

    `due_at` is when it should go out; `send_at` (default: due_at) when the sender may first try,
    e.g. later than due for a late reminder held until quiet hours end.
    """
    send_at = send_at or due_at
    values: dict[str, Any] = {
        "kind": str(kind),
        "channel": channel,
        "dedup_key": dedup,
        "recipient": recipient,
        "teacher_id": teacher_id,
        "classroom_id": classroom_id,
        "subject_type": str(subject_type) if subject_type is not None else None,
        "subject_id": subject_id,
        "subject_version": subject_version,
        "linked_delivery_id": linked_delivery_id,
        "status": DeliveryStatus.PENDING if send_at > now else DeliveryStatus.QUEUED,
        "attempt_count": 0,
        "due_at": due_at,
        "next_attempt_at": send_at,
        "created_at": now,
        "updated_at": now,
    }
    new_id = insert_unless_exists(session, D, values, unique=["dedup_key"])
    if new_id is None:
        existing = session.scalar(select(Delivery.id).where(Delivery.dedup_key == dedup))
        assert existing is not None
        return existing, False
    if events.emitted(session, events.DeliveriesEnqueued) is None:
        # Senders in other processes and on other computers wake on this once it commits (PostgreSQL);
        # those in this process wake on the event below.
        notify(session, OUTBOX_CHANNEL)
    events.emit(session, events.DeliveriesEnqueued(frozenset({channel})))
    return new_id, True


# The lease owners this process made. A sender in a container is pid 1 after every restart, so a
# lease with this process's pid is this process's only if it is one of these; any other is a dead
# predecessor's, to be freed at once rather than after its lease runs out.
_OWNERS_HERE: set[str] = set()


def new_lease_owner() -> str:
    """host:pid:random — the host and pid let a restarted sender free the leases of a dead one."""
    owner = f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
    _OWNERS_HERE.add(owner)
    return owner


def owner_gone(owner: str, pid: int, *, is_alive: Callable[[int], bool]) -> bool:
    """Whether the process behind a lease owner of this host has ended."""
    if pid == os.getpid():
        return owner not in _OWNERS_HERE
    return not is_alive(pid)


def claim(
    session: Session,
    *,
    owner: str,
    now: dt.datetime,
    lease: dt.timedelta,
    limit: int,
    channels: Iterable[str] | None = None,
    use_returning: bool | None = None,
    skip_locked: bool | None = None,
) -> list[int]:
    """Atomically move up to `limit` due deliveries to processing under `owner`'s lease.

    Due means pending/queued whose time has come, or processing whose lease has expired (its sender
    died or hung). Runs inside the caller's write transaction (BEGIN IMMEDIATE on SQLite, which
    serialises every claim; on PostgreSQL candidates are locked FOR UPDATE SKIP LOCKED, so any number
    of senders claim side by side). `skip_locked` and `use_returning` default to what the database
    supports; tests set them to compare the ways.
    """
    if limit <= 0:
        return []
    allowed = None if channels is None else [str(c) for c in channels]
    if allowed == []:
        return []
    params: dict[str, Any] = {"b_now": now, "b_owner": owner, "b_expires": now + lease, "b_limit": limit}
    if allowed is not None:
        params["b_channels"] = allowed
    statements = _claim_statements(allowed is not None)
    if skip_locked is None:
        skip_locked = supports_skip_locked(session)
    if skip_locked:
        # Many senders on one server: each locks only candidates no other sender holds (so none
        # waits on another, and none can take a row another one has just taken), and the UPDATE
        # checks again that each row is still due. Without SKIP LOCKED, PostgreSQL re-evaluates a
        # subquery's rows only for the outer WHERE after waiting on their locks, so two senders
        # could both claim a row the first had already leased.
        return sorted(session.execute(statements.update_skip_locked, params).scalars())
    if use_returning is None:
        use_returning = supports_update_returning(session)
    if use_returning:
        return sorted(session.execute(statements.update_returning, params).scalars())
    # Without RETURNING: pick, then update only rows still claimable; the write lock held since
    # BEGIN IMMEDIATE makes the pair atomic on SQLite, and the guard keeps it safe elsewhere.
    ids = list(session.execute(statements.candidates, params).scalars())
    if not ids:
        return []
    session.execute(statements.update_guarded, params | {"b_ids": ids})
    return sorted(session.execute(statements.claimed, params | {"b_ids": ids}).scalars())


@dataclass(frozen=True)
class _ClaimStatements:
    candidates: Select[Any]
    update_returning: ReturningUpdate[Any]
    update_skip_locked: ReturningUpdate[Any]
    update_guarded: Update
    claimed: Select[Any]


@functools.cache
def _claim_statements(by_channel: bool) -> _ClaimStatements:
    """Built once with bound parameters and reused: the sender claims every turn, and building and
    hashing these statements cost as much as running them."""
    now = bindparam("b_now", type_=D.c.next_attempt_at.type)
    due = or_(
        and_(D.c.status.in_([s.value for s in CLAIMABLE]), D.c.next_attempt_at <= now),
        and_(D.c.status == DeliveryStatus.PROCESSING.value, D.c.lease_expires_at <= now),
    )
    candidates = select(D.c.id).where(due)
    if by_channel:
        candidates = candidates.where(D.c.channel.in_(bindparam("b_channels", expanding=True)))
    candidates = candidates.order_by(D.c.next_attempt_at, D.c.id).limit(bindparam("b_limit", type_=Integer()))
    values = {
        "status": DeliveryStatus.PROCESSING.value,
        "lease_owner": bindparam("b_owner", type_=D.c.lease_owner.type),
        "lease_expires_at": bindparam("b_expires", type_=D.c.lease_expires_at.type),
        "updated_at": now,
    }
    ids: BindParameter[Any] = bindparam("b_ids", expanding=True)
    # WITH picked AS (SELECT id … ORDER BY … LIMIT n FOR UPDATE SKIP LOCKED) UPDATE … FROM picked
    # WHERE id = picked.id AND <due again> RETURNING id — the form PostgreSQL's job queues use.
    picked = candidates.with_for_update(skip_locked=True).cte("picked")
    return _ClaimStatements(
        candidates=candidates,
        update_returning=update(D).where(D.c.id.in_(candidates.scalar_subquery())).values(**values).returning(D.c.id),
        update_skip_locked=update(D).where(D.c.id == picked.c.id, due).values(**values).returning(D.c.id),
        update_guarded=update(D).where(D.c.id.in_(ids), due).values(**values),
        claimed=select(D.c.id).where(D.c.id.in_(ids), D.c.lease_owner == bindparam("b_owner"),
                                     D.c.status == DeliveryStatus.PROCESSING.value),
    )


def _rowcount(result: Result[Any]) -> int:
    # An UPDATE's result is a CursorResult; Session.execute is typed for any statement.
    return cast(CursorResult[Any], result).rowcount


def transition(
    session: Session,
    delivery_id: int,
    *,
    expected: Iterable[DeliveryStatus],
    owner: str | None = None,
    now: dt.datetime,
    **values: Any,
) -> bool:
    """One guarded UPDATE: applies only if the row is in an expected status (and leased by `owner`)."""
    statement = update(D).where(D.c.id == delivery_id, D.c.status.in_([s.value for s in expected]))
    if owner is not None:
        statement = statement.where(D.c.lease_owner == owner)
    values = {k: (v.value if isinstance(v, DeliveryStatus) else v) for k, v in values.items()}
    if "status" in values and values["status"] != DeliveryStatus.PROCESSING.value:
        values.setdefault("lease_owner", None)
        values.setdefault("lease_expires_at", None)
    result = session.execute(statement.values(updated_at=now, **values))
    _expire(session, delivery_id)
    return _rowcount(result) == 1


def leased_by(session: Session, ids: Iterable[int], *, owner: str) -> set[int]:
    """Which of `ids` are still processing under `owner`'s lease, locked for the rest of the caller's
    transaction: FOR UPDATE where the database has row locks, and on SQLite the write lock that
    BEGIN IMMEDIATE took, so no other sender can take a row over before the caller records it."""
    wanted = list(ids)
    if not wanted:
        return set()
    return set(session.execute(_LEASED_BY, {"b_ids": wanted, "b_owner": owner}).scalars())


_LEASED_BY = select(D.c.id).where(D.c.id.in_(bindparam("b_ids", expanding=True)),
                                  D.c.status == DeliveryStatus.PROCESSING.value,
                                  D.c.lease_owner == bindparam("b_owner")).order_by(D.c.id).with_for_update()


def transition_many(
    session: Session,
    changes: Iterable[tuple[int, dict[str, Any]]],
    *,
    expected: Iterable[DeliveryStatus],
    owner: str | None = None,
    now: dt.datetime,
) -> int:
    """`transition` for many rows: one guarded executemany UPDATE per distinct set of columns.

    Returns how many rows it applied to. A sender records a whole turn of results this way, so the
    cost per delivery is a parameter row rather than a statement.
    """
    statuses = tuple(s.value for s in expected)
    guard = {"b_now": now} if owner is None else {"b_now": now, "b_owner": owner}
    # Only deliveries this session has loaded need re-reading; looking each id up costs more.
    loaded = {key[1][0] for key in session.identity_map.keys() if key[0] is Delivery}  # noqa: SIM118 - not a dict
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for delivery_id, values in changes:
        row = {k: (v.value if isinstance(v, DeliveryStatus) else v) for k, v in values.items()}
        if "status" in row and row["status"] != DeliveryStatus.PROCESSING.value:
            row.setdefault("lease_owner", None)
            row.setdefault("lease_expires_at", None)
        row = {f"b_{k}": v for k, v in row.items()}
        groups.setdefault(tuple(sorted(row)), []).append(row | guard | {"b_id": delivery_id})
        if delivery_id in loaded:
            _expire(session, delivery_id)
    # Each row matches at most one delivery, so the summed rowcount is exact where the driver sums it.
    many = session.get_bind().dialect.supports_sane_multi_rowcount
    applied = 0
    for columns, rows in groups.items():
        statement = _transition_statement(columns, statuses, owner is not None)
        # Row locks taken in id order, as everywhere else, so two transactions never wait on each other in a cycle.
        rows.sort(key=lambda row: row["b_id"])
        for chunk in [rows] if many else [[row] for row in rows]:
            applied += _rowcount(session.execute(statement, chunk))
    return applied


@functools.lru_cache(maxsize=64)
def _transition_statement(columns: tuple[str, ...], statuses: tuple[str, ...], guard_owner: bool) -> Update:
    """Built once per shape and reused: building and hashing a statement cost as much as running it."""
    # IN (…) expands per execution, which executemany cannot do; equalities bind once per statement.
    statement = update(D).where(D.c.id == bindparam("b_id"), or_(*(D.c.status == s for s in statuses)))
    if guard_owner:
        statement = statement.where(D.c.lease_owner == bindparam("b_owner"))
    values = {c[2:]: bindparam(c, type_=D.c[c[2:]].type) for c in columns}
    return statement.values(updated_at=bindparam("b_now", type_=D.c.updated_at.type), **values)


@dataclass(frozen=True)
class AttemptStart:
    """A claimed delivery's columns as its attempt leaves, with its retry key committed.

    The attempt is not counted here but when its outcome is recorded (mark_sent, or the transition
    to queued or failed): a sender that dies before then leaves the row's retry budget as it was."""

    delivery_id: int
    retry_key: str | None
    retry_key_issued_at: dt.datetime | None
    first_attempt_at: dt.datetime
    late_seconds: int | None


def _guarded(statement: Update) -> Update:
    return statement.where(D.c.id == bindparam("b_id"), D.c.status == DeliveryStatus.PROCESSING.value,
                           D.c.lease_owner == bindparam("b_owner"))


_STARTED = BulkStatement(_guarded(update(D)).values(
    retry_key=bindparam("b_retry_key", type_=D.c.retry_key.type),
    retry_key_issued_at=bindparam("b_retry_key_issued_at", type_=D.c.retry_key_issued_at.type),
    first_attempt_at=bindparam("b_first_attempt_at", type_=D.c.first_attempt_at.type),
    late_seconds=bindparam("b_late_seconds", type_=D.c.late_seconds.type),
    updated_at=bindparam("b_now", type_=D.c.updated_at.type),
))


def start_attempts(session: Session, starts: list[AttemptStart], *, owner: str, now: dt.datetime) -> int:
    """Record a batch of attempts as started, uncounted (one guarded executemany); returns how many applied.

    Runs in the claiming transaction, so every retry key is committed before its request leaves."""
    _expire_loaded(session, [s.delivery_id for s in starts])
    return _STARTED.execute(session, [{
        "b_id": s.delivery_id, "b_owner": owner, "b_now": now, "b_retry_key": s.retry_key,
        "b_retry_key_issued_at": s.retry_key_issued_at, "b_first_attempt_at": s.first_attempt_at,
        "b_late_seconds": s.late_seconds,
    } for s in starts])


@dataclass(frozen=True)
class Accepted:
    """LINE (or a mail server, or a webhook) took a delivery."""

    delivery_id: int
    request_id: str | None  # None keeps the one already recorded (a 409 names an earlier request)
    accepted_request_id: str | None
    attempt_count: int  # the row's attempts with the one that was accepted


_SENT = BulkStatement(_guarded(update(D)).values(
    status=DeliveryStatus.SENT.value, sent_at=bindparam("b_now", type_=D.c.sent_at.type),
    line_request_id=func.coalesce(bindparam("b_request_id", type_=D.c.line_request_id.type), D.c.line_request_id),
    accepted_request_id=bindparam("b_accepted", type_=D.c.accepted_request_id.type),
    attempt_count=bindparam("b_attempt_count", type_=D.c.attempt_count.type),
    last_error_code=None, last_error_message=None, last_error_at_recipient=False, lease_owner=None, lease_expires_at=None,
    updated_at=bindparam("b_now", type_=D.c.updated_at.type),
))


def mark_sent(session: Session, accepted: list[Accepted], *, owner: str, now: dt.datetime) -> int:
    """processing → sent for a batch (one guarded executemany); returns how many applied."""
    _expire_loaded(session, [a.delivery_id for a in accepted])
    return _SENT.execute(session, [{"b_id": a.delivery_id, "b_owner": owner, "b_now": now,
                                    "b_request_id": a.request_id, "b_accepted": a.accepted_request_id,
                                    "b_attempt_count": a.attempt_count}
                                   for a in accepted])


def renew_leases(session: Session, ids: list[int], *, owner: str, now: dt.datetime, lease: dt.timedelta) -> int:
    """Extend `owner`'s leases on deliveries it still has in flight; returns how many it still held.

    A sender keeps several rounds of requests in flight; while LINE is slow, the last of them can
    wait longer than a lease. Renewing keeps a live sender's work its own, while a dead sender's
    leases still run out one lease after its last renewal."""
    renewed = 0
    ids = sorted(ids)  # row locks in id order (see transition_many)
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        renewed += _rowcount(session.execute(
            update(D).where(D.c.id.in_(chunk), D.c.status == DeliveryStatus.PROCESSING.value, D.c.lease_owner == owner)
            .values(lease_expires_at=now + lease)))
    _expire_loaded(session, ids)
    return renewed


A = cast(Table, DeliveryAttempt.__table__)
ATTEMPT_COLUMNS = ("delivery_id", "number", "started_at", "duration_ms", "http_status", "request_id",
                   "accepted_request_id", "retry_key", "outcome", "error_code", "error_message")
_ATTEMPTS = BulkStatement(A.insert().values({name: bindparam(name, type_=A.c[name].type) for name in ATTEMPT_COLUMNS}))


def record_attempts(session: Session, attempts: list[dict[str, Any]]) -> int:
    """Insert DeliveryAttempt rows (dicts keyed by ATTEMPT_COLUMNS) in one executemany."""
    return _ATTEMPTS.execute(session, attempts)


def _expire_loaded(session: Session, ids: list[int]) -> None:
    # Only deliveries this session has loaded need re-reading; looking each id up costs more.
    if any(key[0] is Delivery for key in session.identity_map.keys()):  # noqa: SIM118 - not a dict
        for delivery_id in ids:
            _expire(session, delivery_id)


def _expire(session: Session, delivery_id: int) -> None:
    """Core UPDATEs bypass the ORM: make a loaded Delivery re-read its row on next access."""
    loaded = session.identity_map.get(identity_key(Delivery, delivery_id))
    if loaded is not None:
        session.expire(loaded)


def release_orphans(session: Session, *, now: dt.datetime, is_alive: Callable[[int], bool]) -> int:
    """Free leases held by senders on this host whose process is gone, without waiting for expiry.

    Their last request may or may not have reached LINE; the retry key they committed makes the
    resend safe (LINE answers 409 if it had been accepted). Its attempt was never counted (attempts
    count when their outcome is recorded), so the delivery keeps its whole retry budget.
    """
    host = socket.gethostname()[:40]
    rows = session.execute(
        select(D.c.id, D.c.lease_owner).where(
            D.c.status == DeliveryStatus.PROCESSING.value, D.c.lease_owner.like(f"{host}:%")
        )
    ).all()
    freed = 0
    for delivery_id, owner in rows:
        try:
            pid = int(owner.split(":")[1])
        except (IndexError, ValueError):
            continue
        if owner_gone(owner, pid, is_alive=is_alive):
            freed += transition(
                session, delivery_id, expected=[DeliveryStatus.PROCESSING], owner=owner, now=now,
                status=DeliveryStatus.QUEUED, next_attempt_at=now,
            )
    return freed


def release_owned(session: Session, *, owner: str, now: dt.datetime) -> int:
    """Give back every delivery still processing under `owner`'s lease (a sender that stops); how many."""
    result = session.execute(
        update(D).where(D.c.status == DeliveryStatus.PROCESSING.value, D.c.lease_owner == owner)
        .values(status=DeliveryStatus.QUEUED.value, next_attempt_at=now, lease_owner=None, lease_expires_at=None,
                updated_at=now))
    return _rowcount(result)


def next_due_at(session: Session, channels: Iterable[str] | None = None) -> dt.datetime | None:
    """When the sender next has something to do (earliest due time or lease expiry)."""
    query_due = select(func.min(Delivery.next_attempt_at)).where(Delivery.status.in_(CLAIMABLE))
    query_lease = select(func.min(Delivery.lease_expires_at)).where(Delivery.status == DeliveryStatus.PROCESSING)
    if channels is not None:
        allowed = list(channels)
        query_due = query_due.where(Delivery.channel.in_(allowed))
        query_lease = query_lease.where(Delivery.channel.in_(allowed))
    times = [t for t in (session.scalar(query_due), session.scalar(query_lease)) if t is not None]
    return min(times) if times else None


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    if os.name == "nt":  # pragma: no cover - Windows
        import ctypes

        handle = ctypes.windll.kernel32.OpenProcess(0x1000, False, pid)  # type: ignore[attr-defined]
        if not handle:
            return False
        ctypes.windll.kernel32.CloseHandle(handle)  # type: ignore[attr-defined]
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
