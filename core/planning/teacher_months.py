"""A published month to each teacher: their own shifts of it, one delivery per teacher and channel.

Sent only when the manager asks for it when publishing (`publish(..., each_teacher=True)`, the
Publish area's tick, `shiftcast publish --each-teacher`): the group already has the month, and each
personal LINE message costs one of the account's monthly quota, so it is not spent unasked.

Who gets it: the teachers with a shift in the published month (as the publication shows it) who can
be reached now, on every channel their contact rule plans; on a revision after the first, only those
whose own shifts changed or who never received their month of this month (it was not asked for, or
had not gone out when the new revision replaced it). Deduplicated per publication, teacher and
channel, so a re-run adds nothing.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.outbox import queue
from core.planning import mailed_publication
from core.roster import contacts
from core.roster import month as month_roster
from core.store.models import Channel, Delivery, DeliveryKind, DeliveryStatus, Publication, SubjectType, Teacher


def dedup(publication: Publication, teacher_id: int, channel: str) -> str:
    return queue.dedup_key(DeliveryKind.TEACHER_MONTH, f"publication:{publication.id}:teacher:{teacher_id}",
                           publication.revision, channel=channel)


@dataclass(frozen=True)
class MonthShown:
    """What a publication shows (or would show): whose shifts, and whose changed since the last one."""

    classroom_id: int
    year: int
    month: int
    revision: int
    teachers: frozenset[str]
    changed: frozenset[str]

    @classmethod
    def of(cls, publication: Publication) -> MonthShown:
        changed = frozenset(str(name) for name, _ in json.loads(publication.changes_json or "[]"))
        return cls(publication.classroom_id, publication.year, publication.month, publication.revision,
                   frozenset(month_roster.cells_of(publication.snapshot_json)), changed)


def recipients(session: Session, shown: MonthShown) -> list[tuple[Teacher, tuple[str, ...]]]:
    """The teachers who get their month, each with the channels it goes on (the dry run counts these)."""
    had_it = _had_their_month(session, shown)
    out = []
    for teacher in mailed_publication.teachers_of_month(session, shown.classroom_id, shown.year, shown.month):
        name = teacher.display_name
        if not (name in shown.changed or (name in shown.teachers and teacher.id not in had_it)):
            continue  # nothing of theirs in this month, or nothing new since the month they have
        channels = tuple(c for c in contacts.planned_for(teacher) if contacts.address_on(teacher, c))
        if channels:
            out.append((teacher, channels))
    return out


def _had_their_month(session: Session, shown: MonthShown) -> set[int]:
    """The teachers who received their month of an earlier revision."""
    return set(session.scalars(
        select(Delivery.teacher_id).join(Publication, Delivery.about(SubjectType.PUBLICATION, Publication.id)).where(
            Delivery.kind == DeliveryKind.TEACHER_MONTH, Delivery.status == DeliveryStatus.SENT,
            Publication.classroom_id == shown.classroom_id, Publication.year == shown.year,
            Publication.month == shown.month, Publication.revision < shown.revision)))


def fan_out(session: Session, publication: Publication, *, now: dt.datetime) -> list[int]:
    """Enqueue each teacher's month on their channels. Returns the ids created."""
    created = []
    for teacher, channels in recipients(session, MonthShown.of(publication)):
        for channel in channels:
            delivery_id, was_new = queue.enqueue(
                session, kind=DeliveryKind.TEACHER_MONTH, dedup=dedup(publication, teacher.id, channel), due_at=now,
                now=now, channel=channel, recipient=contacts.address_on(teacher, channel), teacher_id=teacher.id,
                classroom_id=publication.classroom_id, subject_type=SubjectType.PUBLICATION,
                subject_id=publication.id)
            if was_new:
                created.append(delivery_id)
    return created


def line_messages(session: Session, shown: MonthShown) -> int:
    """LINE messages the fan-out would send: one per teacher reached on LINE."""
    return sum(1 for _, channels in recipients(session, shown) if Channel.LINE in channels)
