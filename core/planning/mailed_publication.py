"""A publication by e-mail: one delivery per teacher of the month who reads e-mail, each deduplicated
per teacher, so a re-run (the planner, the scheduler's minute job, the command line) adds nothing.

Who gets it: the teachers with a shift in that classroom's month (canceled ones too, so a teacher
whose shift went away hears of it) whose choice includes e-mail — and, with LINE fallback, those
LINE cannot reach, or all of them when the LINE group message itself failed.

`plan` is the month kind's planning at each run: these copies of recent publications, then the group
messages owed to classrooms that have their group now (core/planning/group_waiting.py).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.outbox import queue
from core.planning import group_waiting
from core.planning.context import PlanningContext
from core.roster import contacts, rules
from core.store.models import (
    Channel,
    ContactRule,
    Delivery,
    DeliveryKind,
    Publication,
    Shift,
    SubjectType,
    Teacher,
)

RECENT = dt.timedelta(days=2)


def dedup(publication: Publication, teacher_id: int) -> str:
    return queue.dedup_key(DeliveryKind.SHIFT_PUBLICATION, f"publication:{publication.id}:teacher:{teacher_id}",
                            publication.revision, channel=Channel.EMAIL)


def month_teachers(session: Session, publication: Publication) -> list[Teacher]:
    return teachers_of_month(session, publication.classroom_id, publication.year, publication.month)


def teachers_of_month(session: Session, classroom_id: int, year: int, month: int) -> list[Teacher]:
    """The teachers with a shift in a classroom's month, canceled ones too."""
    first, last = rules.month_bounds(year, month)
    ids = select(Shift.teacher_id).where(Shift.classroom_id == classroom_id, Shift.local_date >= first,
                                         Shift.local_date <= last).distinct()
    return list(session.scalars(select(Teacher).where(Teacher.id.in_(ids)).order_by(Teacher.id)))


def _direct(teacher: Teacher) -> bool:
    return Channel.EMAIL in contacts.planned_for(teacher)


def wants_email(teacher: Teacher) -> bool:
    """Does this teacher receive the month's roster by e-mail (rather than, or besides, the group)?"""
    return _direct(teacher)


def fan_out(session: Session, publication: Publication, *, now: dt.datetime, line_failed: bool = False) -> list[int]:
    """Enqueue the e-mail copies still missing. `line_failed`: the group message could not go out, so
    every teacher with LINE fallback gets a copy too. Returns the ids created."""
    # The group's message, not a teacher's own month (core/planning/teacher_months.py), also on LINE.
    line_delivery = session.scalar(select(Delivery.id).where(Delivery.about(SubjectType.PUBLICATION, publication.id),
                                                             Delivery.kind == DeliveryKind.SHIFT_PUBLICATION,
                                                             Delivery.channel == Channel.LINE).limit(1))
    known = set(session.scalars(select(Delivery.dedup_key).where(
        Delivery.about(SubjectType.PUBLICATION, publication.id), Delivery.channel == Channel.EMAIL)))
    created = []
    for teacher in month_teachers(session, publication):
        fallback = teacher.contact_rule == ContactRule.FIRST
        falls_back = teacher.active and teacher.erased_at is None and contacts.fallback_after(
            ContactRule(teacher.contact_rule), teacher.contacts, Channel.LINE) == Channel.EMAIL
        if not (_direct(teacher) or (line_failed and falls_back)):
            continue
        key = dedup(publication, teacher.id)
        if key in known:
            continue
        delivery_id, was_new = queue.enqueue(
            session, kind=DeliveryKind.SHIFT_PUBLICATION, dedup=key, due_at=now, now=now, channel=Channel.EMAIL,
            recipient=contacts.address_on(teacher, Channel.EMAIL), teacher_id=teacher.id,
            classroom_id=publication.classroom_id, subject_type=SubjectType.PUBLICATION, subject_id=publication.id,
            linked_delivery_id=line_delivery if fallback else None,
        )
        known.add(key)
        if was_new:
            created.append(delivery_id)
    return created


def fan_out_recent(session: Session, *, now: dt.datetime, within: dt.timedelta = RECENT) -> list[int]:
    """The copies of every recent publication that is still the newest revision of its month."""
    recent = session.scalars(group_waiting.newest_revisions().where(Publication.created_at >= now - within)).all()
    created: list[int] = []
    for publication in recent:
        created.extend(fan_out(session, publication, now=now))
    return created


def plan(context: PlanningContext) -> list[int]:
    """The month kind's planning at each run: the e-mail copies of recent publications (the report's
    `publication_emails`), then the group messages owed (core/planning/group_waiting.py)."""
    emails = fan_out_recent(context.session, now=context.now)
    context.report.publication_emails.extend(emails)
    return emails + group_waiting.plan(context)
