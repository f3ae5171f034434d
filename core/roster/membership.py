"""Which teachers belong to which classroom: a chain of 塾 classrooms, each with its own teachers.

A classroom's Shifts grid lists its members, and anyone with a shift there that month. A teacher of
no classroom at all (added before any classroom, or left by every one) is listed everywhere, so no
one disappears from a single-classroom roster. Membership follows the roster rather than guarding
it: a shift placed for a teacher in a classroom makes them a member of it (core/roster/rules.py), and
leaving is refused only while they still have confirmed shifts to come there.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable, Sequence
from typing import Protocol, TypeVar

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.roster import clock
from core.store.models import Classroom, ClassroomTeacher, Shift, ShiftStatus, Teacher
from core.texts import t


class HasId(Protocol):
    """A teacher, or a value read from one: what ordering by membership needs."""

    @property
    def id(self) -> int: ...


T = TypeVar("T", bound=HasId)


def member_ids(session: Session, classroom_id: int) -> set[int]:
    """The ids of the classroom's own teachers."""
    return set(session.scalars(select(ClassroomTeacher.teacher_id).where(ClassroomTeacher.classroom_id == classroom_id)))


def classroom_ids(session: Session, teacher_id: int) -> set[int]:
    """The ids of the classrooms the teacher belongs to."""
    return set(session.scalars(select(ClassroomTeacher.classroom_id).where(ClassroomTeacher.teacher_id == teacher_id)))


def names_by_teacher(session: Session) -> dict[int, tuple[str, ...]]:
    """Teacher id → the names of their classrooms, by name; a teacher of none is left out."""
    found: dict[int, list[str]] = {}
    rows = session.execute(select(ClassroomTeacher.teacher_id, Classroom.name).join(Classroom)
                           .order_by(Classroom.name))
    for teacher_id, name in rows:
        found.setdefault(teacher_id, []).append(name)
    return {teacher_id: tuple(names) for teacher_id, names in found.items()}


def ids_by_teacher(session: Session) -> dict[int, frozenset[int]]:
    """Teacher id → the ids of their classrooms; a teacher of none is left out."""
    found: dict[int, set[int]] = {}
    for teacher_id, classroom_id in session.execute(select(ClassroomTeacher.teacher_id, ClassroomTeacher.classroom_id)):
        found.setdefault(teacher_id, set()).add(classroom_id)
    return {teacher_id: frozenset(ids) for teacher_id, ids in found.items()}


def listed_in(session: Session, classroom_id: int) -> set[int]:
    """The ids of the teachers a classroom's lists show: its members, and teachers of no classroom."""
    placed = set(session.scalars(select(ClassroomTeacher.teacher_id).distinct()))
    everyone = set(session.scalars(select(Teacher.id)))
    return member_ids(session, classroom_id) | (everyone - placed)


def members_first(teachers: Sequence[T], members: Collection[int]) -> list[T]:
    """The teachers in their order, the classroom's members first (a stable split: pure)."""
    return [x for x in teachers if x.id in members] + [x for x in teachers if x.id not in members]


def join(session: Session, classroom_id: int, teacher_id: int, *, now: dt.datetime) -> bool:
    """Make the teacher a member of the classroom; False when they were one already."""
    if teacher_id in member_ids(session, classroom_id):
        return False
    session.add(ClassroomTeacher(classroom_id=classroom_id, teacher_id=teacher_id, since=now))
    session.flush()
    return True


def coming_shifts(session: Session, classroom_id: int, teacher_id: int, *, now: dt.datetime) -> list[Shift]:
    """The teacher's confirmed shifts at the classroom that have not started yet."""
    nearby = session.scalars(select(Shift).where(
        Shift.classroom_id == classroom_id, Shift.teacher_id == teacher_id, Shift.status == ShiftStatus.CONFIRMED,
        Shift.local_date >= (now - dt.timedelta(days=2)).date(),  # any zone's today is within two days of UTC's
    ).order_by(Shift.local_date, Shift.start_time, Shift.id))
    return [s for s in nearby if clock.shift_interval(s.local_date, s.start_time, s.end_time, s.ends_next_day,
                                                      s.classroom.timezone)[0] > now]


def check_leave(session: Session, classroom_id: int, teacher_id: int, *, now: dt.datetime) -> None:
    """ValidationError, with the reason, while the teacher has confirmed shifts to come at the classroom:
    those would be left with a teacher the grid no longer lists."""
    coming = coming_shifts(session, classroom_id, teacher_id, now=now)
    if coming:
        shift = coming[0]
        raise ValidationError(t("roster.member_has_shifts", teacher=shift.teacher.display_name,
                                classroom=shift.classroom.name, count=len(coming), day=shift.local_date))


def leave(session: Session, classroom_id: int, teacher_id: int, *, now: dt.datetime) -> bool:
    """The teacher stops belonging to the classroom; False when they did not. Refused as `check_leave` says."""
    check_leave(session, classroom_id, teacher_id, now=now)
    gone = session.execute(delete(ClassroomTeacher).where(ClassroomTeacher.classroom_id == classroom_id,
                                                          ClassroomTeacher.teacher_id == teacher_id))
    session.flush()
    return bool(getattr(gone, "rowcount", 0))


def forget(session: Session, teacher_id: int) -> None:
    """The teacher belongs to no classroom any more, without the checks of `leave`: a deleted teacher."""
    session.execute(delete(ClassroomTeacher).where(ClassroomTeacher.teacher_id == teacher_id))
    session.flush()


def set_classrooms(session: Session, teacher_id: int, wanted: Iterable[int], *, now: dt.datetime) -> None:
    """The teacher belongs to exactly these classrooms; every leave is checked before any is made."""
    wanted = set(wanted)
    had = classroom_ids(session, teacher_id)
    for classroom_id in sorted(had - wanted):
        check_leave(session, classroom_id, teacher_id, now=now)
    for classroom_id in sorted(had - wanted):
        leave(session, classroom_id, teacher_id, now=now)
    for classroom_id in sorted(wanted - had):
        join(session, classroom_id, teacher_id, now=now)
