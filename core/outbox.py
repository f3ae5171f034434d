"""The transactional outbox: enqueue, atomic claim under a lease, guarded transitions.

The deliveries table is the queue. Enqueue happens inside the caller's transaction, so there is no
separate step that can fail. Every status change is one UPDATE guarded by the status it expects (and
the lease owner, while processing), and reports whether it applied.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from core import hooks
from core.db import insert_unless_exists, supports_update_returning
from core.models import Channel, Delivery, DeliveryKind, DeliveryStatus

log = logging.getLogger(__name__)
D = Delivery.__table__
CLAIMABLE = (DeliveryStatus.PENDING, DeliveryStatus.QUEUED)
FINAL = (DeliveryStatus.SENT, DeliveryStatus.FAILED, DeliveryStatus.CANCELED)

def on_enqueued(callback: Callable[[], None]) -> Callable[[], None]:
    """Call `callback` after any transaction in this process that enqueued something commits."""
    return hooks.listen(hooks.ENQUEUED, callback)


def dedup_key(kind: DeliveryKind, subject: str, version: int | str = 0, channel: Channel = Channel.LINE) -> str:
    """kind + subject + version (+ channel when not LINE): the same key twice is one delivery."""
    key = f"{kind.value}:{subject}:v{version}"
    return key if channel is Channel.LINE else f"{key}:{channel.value}"


def enqueue(
    session: Session,
    *,
    kind: DeliveryKind,
    dedup: str,
    due_at: dt.datetime,
    now: dt.datetime,
    send_at: dt.datetime | None = None,
    channel: Channel = Channel.LINE,
    recipient: str | None = None,
    teacher_id: int | None = None,
    classroom_id: int | None = None,
    shift_id: int | None = None,
    shift_version: int | None = None,
    publication_id: int | None = None,
    linked_delivery_id: int | None = None,
) -> tuple[int, bool]:
    """Add a delivery in the caller's transaction. Returns (id, created); an existing key is kept as is.

    `due_at` is when it should go out; `send_at` (default: due_at) when the sender may first try,
    e.g. later than due for a late reminder held until quiet hours end.
    """
    send_at = send_at or due_at
    values: dict[str, Any] = {
        "kind": kind,
        "channel": channel,
        "dedup_key": dedup,
        "recipient": recipient,
        "teacher_id": teacher_id,
        "classroom_id": classroom_id,
        "shift_id": shift_id,
        "shift_version": shift_version,
        "publication_id": publication_id,
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
    hooks.mark(session, hooks.ENQUEUED)
    return new_id, True


def new_lease_owner() -> str:
    """host:pid:random — the host and pid let a restarted sender free the leases of a dead one."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def claim(
    session: Session,
    *,
    owner: str,
    now: dt.datetime,
    lease: dt.timedelta,
    limit: int,
    channels: Iterable[Channel] | None = None,
    use_returning: bool | None = None,
) -> list[int]:
    """Atomically move up to `limit` due deliveries to processing under `owner`'s lease.

    Due means pending/queued whose time has come, or processing whose lease has expired (its sender
    died or hung). Runs inside the caller's write transaction (BEGIN IMMEDIATE on SQLite).
    """
    if limit <= 0:
        return []
    due = or_(
        and_(D.c.status.in_([s.value for s in CLAIMABLE]), D.c.next_attempt_at <= now),
        and_(D.c.status == DeliveryStatus.PROCESSING.value, D.c.lease_expires_at <= now),
    )
    candidates = select(D.c.id).where(due)
    if channels is not None:
        allowed = [c.value for c in channels]
        if not allowed:
            return []
        candidates = candidates.where(D.c.channel.in_(allowed))
    candidates = candidates.order_by(D.c.next_attempt_at, D.c.id).limit(limit)
    values = {
        "status": DeliveryStatus.PROCESSING.value,
        "lease_owner": owner,
        "lease_expires_at": now + lease,
        "updated_at": now,
    }
    if use_returning is None:
        use_returning = supports_update_returning(session)
    if use_returning:
        statement = update(D).where(D.c.id.in_(candidates.scalar_subquery())).values(**values).returning(D.c.id)
        return sorted(session.execute(statement).scalars())
    # Without RETURNING: pick, then update only rows still claimable; the write lock held since
    # BEGIN IMMEDIATE makes the pair atomic on SQLite, and the guard keeps it safe elsewhere.
    ids = list(session.execute(candidates).scalars())
    if not ids:
        return []
    session.execute(update(D).where(D.c.id.in_(ids), due).values(**values))
    return sorted(session.execute(select(D.c.id).where(D.c.id.in_(ids), D.c.lease_owner == owner,
                                                       D.c.status == DeliveryStatus.PROCESSING.value)).scalars())


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
    return result.rowcount == 1  # type: ignore[attr-defined]


def _expire(session: Session, delivery_id: int) -> None:
    """Core UPDATEs bypass the ORM: make a loaded Delivery re-read its row on next access."""
    loaded = session.identity_map.get(identity_key(Delivery, delivery_id))
    if loaded is not None:
        session.expire(loaded)


def release_orphans(session: Session, *, now: dt.datetime, is_alive: Callable[[int], bool]) -> int:
    """Free leases held by senders on this host whose process is gone, without waiting for expiry.

    Their last request may or may not have reached LINE; the retry key they committed makes the
    resend safe (LINE answers 409 if it had been accepted).
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
        if pid != os.getpid() and not is_alive(pid):
            freed += transition(
                session, delivery_id, expected=[DeliveryStatus.PROCESSING], owner=owner, now=now,
                status=DeliveryStatus.QUEUED, next_attempt_at=now,
            )
    return freed


def next_due_at(session: Session, channels: Iterable[Channel] | None = None) -> dt.datetime | None:
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
