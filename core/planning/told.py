"""What each teacher was told about a shift, and at which version: the one answer the planner (who
gets a correction) and the builders (what the correction says was "before") both use.

A teacher was told about a version of a shift when
- a message of a kind that tells (a reminder, a correction: `told` in core/kinds/registry.py) about
  that version was sent to them (on any channel), or
- a published month showed it: the version current when a publication of its classroom's month
  was made, if it was confirmed then and the teacher was the one on it. Drafts are never told.

Of the publications, each teacher counts the earliest that showed them the shift: a month
re-published after a change also shows the change, but a teacher who already knew the shift reads
a roster image they have seen once no more closely than before, so the change still reaches them
as a correction of its own (before → after). A correction sent counts as told, as a reminder does.

Which version a publication showed comes from the times: a shift's revision is current from its
`recorded_at` until the next revision's, and a publication shows what was current at its
`created_at` (publishing confirms the month's drafts at the same instant, which counts as shown).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.kinds import registry as kinds
from core.store.models import Delivery, DeliveryStatus, Publication, ShiftRevision, ShiftStatus, SubjectType

CHUNK = 500


@dataclass(frozen=True)
class Revision:
    version: int
    recorded_at: dt.datetime
    status: ShiftStatus
    teacher_id: int
    classroom_id: int
    year: int
    month: int


MonthKey = tuple[int, int, int]  # classroom, year, month


def published(revisions: list[Revision], publications: Iterable[tuple[MonthKey, dt.datetime]]) -> dict[int, int]:
    """Pure: teacher → the earliest version of one shift that a publication showed them.

    `revisions` are the shift's, in any order; `publications` each publication's month and creation
    time. A publication shows the revision current when it was made, if that was confirmed and in
    the publication's month (a shift moved to another month is not on this month's roster)."""
    ordered = sorted(revisions, key=lambda r: r.version)
    shown: dict[int, int] = {}
    for month, at in publications:
        current = None
        for revision in ordered:
            if revision.recorded_at <= at:
                current = revision
        if (current is not None and current.status == ShiftStatus.CONFIRMED
                and (current.classroom_id, current.year, current.month) == month):
            shown[current.teacher_id] = min(shown.get(current.teacher_id, current.version), current.version)
    return shown


def told_by_publication(session: Session, shift_ids: list[int]) -> dict[int, dict[int, int]]:
    """shift → teacher → the version a publication first showed them, for the given shifts."""
    revisions: dict[int, list[Revision]] = {}
    for start in range(0, len(shift_ids), CHUNK):
        rows = session.execute(select(
            ShiftRevision.shift_id, ShiftRevision.version, ShiftRevision.recorded_at, ShiftRevision.status,
            ShiftRevision.teacher_id, ShiftRevision.classroom_id, ShiftRevision.local_date,
        ).where(ShiftRevision.shift_id.in_(shift_ids[start:start + CHUNK]))).all()
        for shift_id, version, recorded_at, status, teacher_id, classroom_id, day in rows:
            revisions.setdefault(shift_id, []).append(
                Revision(version, recorded_at, ShiftStatus(status), teacher_id, classroom_id, day.year, day.month))
    months = sorted({(r.classroom_id, r.year, r.month) for revs in revisions.values() for r in revs})
    made: dict[MonthKey, list[tuple[MonthKey, dt.datetime]]] = {}
    if months:
        # A classroom has a few publications a month: filtering by classroom and year in SQL and
        # by month here reads little more than needed and keeps the statement plain.
        rooms, years = sorted({m[0] for m in months}), sorted({m[1] for m in months})
        wanted = set(months)
        for classroom_id, year, month, created_at in session.execute(select(
                Publication.classroom_id, Publication.year, Publication.month, Publication.created_at,
        ).where(Publication.classroom_id.in_(rooms), Publication.year.in_(years))):
            key = (classroom_id, year, month)
            if key in wanted:
                made.setdefault(key, []).append((key, created_at))
    told: dict[int, dict[int, int]] = {}
    for shift_id, revs in revisions.items():
        keys = {(r.classroom_id, r.year, r.month) for r in revs}
        shown = published(revs, [p for key in keys for p in made.get(key, [])])
        if shown:
            told[shift_id] = shown
    return told


def told_version(session: Session, shift_id: int, teacher_id: int, *, below: int) -> int | None:
    """The newest version below `below` of a shift that this teacher was told about, or None."""
    by_message = session.scalar(
        # Told on any channel: a teacher who read it by e-mail needs the correction as much.
        select(func.max(Delivery.subject_version)).where(
            Delivery.about(SubjectType.SHIFT, shift_id), Delivery.teacher_id == teacher_id,
            Delivery.kind.in_(kinds.told_keys()), Delivery.status == DeliveryStatus.SENT,
            Delivery.subject_version < below,
        )
    )
    by_publication = told_by_publication(session, [shift_id]).get(shift_id, {}).get(teacher_id)
    if by_publication is not None and by_publication >= below:
        by_publication = None
    candidates = [v for v in (by_message, by_publication) if v is not None]
    return max(candidates) if candidates else None
