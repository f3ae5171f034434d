"""A classroom month's publications as the manager reviews them: every revision with what became of
its delivery, and what would change if the month were published now."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.outbox import policy
from core.outbox.policy import CancelReason
from core.planning import group_waiting
from core.publication import publish
from core.roster import month as month_roster
from core.roster import reading
from core.store.models import (
    Channel,
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    Publication,
    SubjectType,
)
from core.texts import Text, t


@dataclass(frozen=True)
class Revision:
    publication_id: int
    revision: int
    created_at: dt.datetime
    changed_cells: int
    image_sha256: str
    delivery_id: int | None
    delivery_status: str | None  # a DeliveryStatus value; None if the delivery was purged
    cancel_reason: str | None  # a CancelReason value
    sent_at: dt.datetime | None
    last_error: Text | str | None  # the code and the error, rendered by whoever shows it
    owed: bool = False  # published before the classroom had its group: goes once it has (core/planning/group_waiting.py)

    @property
    def outcome(self) -> str:
        """sent / queued / failed / superseded / canceled / waiting_for_group / unknown: one word for the
        history list."""
        status = self.delivery_status
        if status is None:
            return "waiting_for_group" if self.owed else "unknown"
        if status in (DeliveryStatus.PENDING, DeliveryStatus.QUEUED, DeliveryStatus.PROCESSING):
            return "queued"
        if status == DeliveryStatus.CANCELED and self.cancel_reason == CancelReason.SUPERSEDED:
            return "superseded"
        return str(status)


def _error(code: str | None, stored: str | None) -> Text | str | None:
    error = policy.shown_error(stored)
    if code and error:
        return t("send_error.coded", code=code, error=error)
    return code or error or None


def revisions(session: Session, classroom_id: int, year: int, month: int) -> list[Revision]:
    """Every published revision of the month, newest first, with its delivery's status."""
    rows = session.execute(
        select(Publication.id, Publication.revision, Publication.created_at, Publication.changes_json,
               Publication.image_sha256, Delivery.id, Delivery.status, Delivery.cancel_reason, Delivery.sent_at,
               Delivery.last_error_code, Delivery.last_error_message)
        .outerjoin(Delivery, Delivery.about(SubjectType.PUBLICATION, Publication.id)
                   & (Delivery.kind == DeliveryKind.SHIFT_PUBLICATION) & (Delivery.channel == Channel.LINE))
        .where(Publication.classroom_id == classroom_id, Publication.year == year, Publication.month == month)
        .order_by(Publication.revision.desc())
    ).all()
    return [
        Revision(pub_id, rev, created, len(json.loads(changes or "[]")), sha, delivery_id,
                 status.value if status is not None else None, reason, sent_at,
                 _error(code, message), delivery_id is None and group_waiting.owed(session, pub_id))
        for pub_id, rev, created, changes, sha, delivery_id, status, reason, sent_at, code, message in rows
    ]


@dataclass(frozen=True)
class CellChange:
    """One (teacher, day) cell whose shifts differ from the last published revision."""

    teacher: str
    day: int
    before: tuple[str, ...]  # empty: the teacher had no shift that day
    after: tuple[str, ...]


def pending_changes(session: Session, classroom_id: int, year: int, month: int, *,
                    now: dt.datetime) -> tuple[month_roster.MonthRoster, list[CellChange]]:
    """The month as it would be published now (drafts included) and each cell that differs from the
    previous revision, by teacher (in the grid's order) then day. No previous revision: no changes to list."""
    view = publish.preview_month(session, classroom_id, year, month, now=now)
    previous = publish.latest(session, classroom_id, year, month)
    if previous is None:
        return view, []
    before = month_roster.cells_of(previous.snapshot_json)
    by_row = reading.as_listed(view.teachers)
    changes = [
        CellChange(teacher, day, tuple(before.get(teacher, {}).get(day, [])),
                   tuple(view.cells.get(teacher, {}).get(day, [])))
        for teacher, day in sorted(view.changed, key=lambda cell: (by_row(cell[0]), cell[1]))
    ]
    return view, changes
