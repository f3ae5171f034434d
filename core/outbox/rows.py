"""The outbox as plain rows for a table: one SQL query, tuples instead of ORM objects.

Why not core.outbox.deliveries.list_deliveries: a manager's outbox can hold 100,000 rows, and building an ORM
object (identity map, attribute instrumentation) per row costs seconds; a tuple per row costs
milliseconds. The table keeps every row it has seen and asks only for rows that changed or are new.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, Select, String, select, type_coerce
from sqlalchemy.orm import Session

from core.store.models import Classroom, Delivery, Teacher

# SQLite allows 32,766 bound parameters per statement; stay far below it and below other databases' limits.
_ID_CHUNK = 900


class DeliveryRow(NamedTuple):
    id: int
    created_at: dt.datetime
    kind: str
    channel: str
    status: str
    attempt_count: int
    next_attempt_at: dt.datetime
    sent_at: dt.datetime | None
    last_error_code: str | None
    last_error_message: str | None
    dedup_key: str
    recipient: str | None
    classroom_id: int | None
    classroom_name: str | None
    teacher_id: int | None
    teacher_name: str | None
    dead_lettered_at: dt.datetime | None
    cancel_reason: str | None
    classroom_zone: str | None  # the classroom's IANA zone, which its times are shown in
    acknowledged_at: dt.datetime | None = None  # when the teacher tapped its 了解 button
    due_at: dt.datetime | None = None  # when it was due (the command line shows it; the table its next attempt)

    @property
    def is_dead_letter(self) -> bool:
        # The same rule as core.outbox.deliveries.counts: a dead letter is a failed row the sender gave up on.
        return self.dead_lettered_at is not None and self.status == "failed"


D, C, T = Delivery.__table__.c, Classroom.__table__.c, Teacher.__table__.c


def _raw(column: ColumnElement[Any]) -> ColumnElement[Any]:
    # Skip the per-value type processing (enum lookup, UTCDateTime): it was most of the load time.
    # Values are normalised once in _row instead.
    return type_coerce(column, String)


def _query() -> Select[tuple]:  # type: ignore[type-arg]
    return (
        select(
            D.id, _raw(D.created_at), _raw(D.kind), _raw(D.channel), _raw(D.status),
            D.attempt_count, _raw(D.next_attempt_at), _raw(D.sent_at), D.last_error_code,
            D.last_error_message, D.dedup_key, D.recipient, D.classroom_id,
            C.name, D.teacher_id, T.name, _raw(D.dead_lettered_at), D.cancel_reason, C.timezone,
            _raw(D.acknowledged_at), _raw(D.due_at),
        )
        .select_from(Delivery.__table__)
        .outerjoin(Classroom.__table__, C.id == D.classroom_id)
        .outerjoin(Teacher.__table__, T.id == D.teacher_id)
    )


def _instant(value: Any) -> Any:
    """Stored naive UTC (text on SQLite, a datetime elsewhere) → an aware UTC datetime."""
    if value is None:
        return None
    if isinstance(value, str):
        return dt.datetime.fromisoformat(value + "+00:00")  # one C call; cheaper than parse + replace
    return value.replace(tzinfo=dt.UTC)


def _rows(session: Session, query: Select[tuple]) -> list[DeliveryRow]:  # type: ignore[type-arg]
    instant = _instant
    return [
        DeliveryRow(r[0], instant(r[1]), r[2], r[3], r[4], r[5], instant(r[6]), instant(r[7]), r[8], r[9], r[10],
                    r[11], r[12], r[13], r[14], r[15], instant(r[16]), r[17], r[18], instant(r[19]), instant(r[20]))
        for r in session.connection().execute(query).all()
    ]


def all_rows(session: Session) -> list[DeliveryRow]:
    """Every delivery, newest first."""
    return _rows(session, _query().order_by(D.id.desc()))


def newest_rows(session: Session, *, statuses: Iterable[str] = (), kinds: Iterable[str] = (),
                dead_letters_only: bool = False, limit: int = 100) -> list[DeliveryRow]:
    """The newest `limit` rows of these statuses and kinds (any, when none are given), only those dead
    lettered if asked: the command line's listing, the same rows the table shows."""
    query = _query()
    if wanted := [str(s) for s in statuses]:
        query = query.where(D.status.in_(wanted))
    if wanted := [str(k) for k in kinds]:
        query = query.where(D.kind.in_(wanted))
    if dead_letters_only:
        query = query.where(D.dead_lettered_at.is_not(None))
    return _rows(session, query.order_by(D.id.desc()).limit(limit))


def classroom_zones(session: Session) -> list[str]:
    """Every classroom's time zone, once each, sorted."""
    return list(session.scalars(select(Classroom.timezone).distinct().order_by(Classroom.timezone)))


def changed_rows(session: Session, ids: Iterable[int], *, newer_than: int) -> tuple[list[DeliveryRow], list[int]]:
    """The rows of `ids` plus every row with an id above `newer_than`, newest first, and the ids of
    `ids` that no longer exist (purged), so a table can drop them."""
    wanted = sorted(set(ids))
    found: dict[int, DeliveryRow] = {}
    for start in range(0, len(wanted), _ID_CHUNK):
        chunk = wanted[start:start + _ID_CHUNK]
        found.update((r.id, r) for r in _rows(session, _query().where(D.id.in_(chunk))))
    found.update((r.id, r) for r in _rows(session, _query().where(D.id > newer_than)))
    missing = [i for i in wanted if i not in found]
    return sorted(found.values(), key=lambda r: r.id, reverse=True), missing
