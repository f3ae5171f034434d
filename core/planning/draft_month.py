"""What a draft month is made from, read from the roster: the classrooms' lesson slots and open days, their
staffing needs, their active teachers with limits, current availability answers and weekly patterns (as
wishes), the shifts that must stay (confirmed anywhere, drafts kept or in other classrooms) and the drafts a
new draft replaces.

Several classrooms are read together when they share teachers, so a teacher is never drafted into two
places at once. Everything is plain values, read in the caller's transaction: the solver's problem is made
from them without the database (core/planning/from_roster.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.roster import availability, clock, closed_days, lesson_slots, limits, needs, patterns, reading, rules
from core.roster.availability_text import HOURS, NO, YES
from core.store.kinds import ShiftStatus
from core.store.models import AvailabilityAnswer, ClassroomTeacher, Shift, Teacher
from core.store.models import LessonSlot as LessonSlotRow
from core.texts import t

Answer = str | tuple[dt.time | None, dt.time | None]  # "yes", "no", or hours from–to (either end open)


@dataclass(frozen=True)
class RoomMonth:
    """One classroom's part: its slots by start, the month's open days, and its needs by (day, slot name)."""

    classroom_id: int
    name: str
    slots: tuple[lesson_slots.LessonSlot, ...]
    days: tuple[dt.date, ...]
    needs: dict[tuple[dt.date, str], int]


@dataclass(frozen=True)
class TeacherMonth:
    """One active teacher of the classrooms: which of them they belong to, their limits (slot ids given as (classroom id,
    slot name)), their answers by day, and the (classroom id, day, slot name) their weekly patterns wish for."""

    teacher_id: int
    name: str
    classroom_ids: frozenset[int]
    limits: limits.Limits
    slots: frozenset[tuple[int, str]] | None
    answers: dict[dt.date, Answer]
    wishes: frozenset[tuple[int, dt.date, str]]


@dataclass(frozen=True)
class Placed:
    """A shift that stays as it is: confirmed, a kept draft, or a draft of a classroom outside the draft."""

    shift_id: int
    teacher_id: int
    classroom_id: int
    day: dt.date
    start: dt.time
    end: dt.time
    ends_next_day: bool
    status: ShiftStatus


@dataclass(frozen=True)
class DraftMonth:
    year: int
    month: int
    rooms: tuple[RoomMonth, ...]
    teachers: tuple[TeacherMonth, ...]
    unanswered: str  # "yes" or "no": what a day a teacher did not answer counts as
    placed: tuple[Placed, ...]
    replaced: tuple[int, ...] = field(default=())  # the ids of the drafts the new draft takes the place of

    @property
    def classroom_ids(self) -> tuple[int, ...]:
        return tuple(room.classroom_id for room in self.rooms)


def sharing(session: Session, classroom_id: int) -> list[int]:
    """The classroom and every classroom that shares an active teacher with it, through any chain of shared
    teachers: what a draft must plan together. By id."""
    rows = session.execute(select(ClassroomTeacher.classroom_id, ClassroomTeacher.teacher_id).join(
        Teacher, Teacher.id == ClassroomTeacher.teacher_id).where(Teacher.active.is_(True))).all()
    found, waiting = {classroom_id}, [classroom_id]
    while waiting:
        room = waiting.pop()
        teachers = {teacher for r, teacher in rows if r == room}
        for other, teacher in rows:
            if teacher in teachers and other not in found:
                found.add(other)
                waiting.append(other)
    return sorted(found)


def read(session: Session, classroom_ids: Sequence[int], year: int, month: int, *, unanswered: str = NO,
         replace_drafts: bool = True, now: dt.datetime | None = None) -> DraftMonth:
    """The draft month of the classrooms (one, or several that share teachers). Given `now`, the days
    already gone on a classroom's clock are not drafted, and their drafts are neither replaced nor kept
    out: a draft proposes only what is still to come."""
    if unanswered not in (YES, NO):
        raise ValidationError(t("drafting.bad_unanswered", value=unanswered))
    first, last = rules.month_bounds(year, month)
    every_day = [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]
    rooms = []
    today: dict[int, dt.date] = {}
    for classroom_id in dict.fromkeys(classroom_ids):
        room = rules.get_classroom(session, classroom_id)
        today[classroom_id] = clock.local_now(now, room.timezone).date() if now is not None else first
        closed = closed_days.read_month(session, classroom_id, year, month)
        rooms.append(RoomMonth(classroom_id, room.name, tuple(lesson_slots.classroom_slots(session, classroom_id)),
                               tuple(d for d in every_day if d not in closed and d >= today[classroom_id]),
                               needs.needs_for_month(session, classroom_id, year, month)))
    ids = [room.classroom_id for room in rooms]
    members = session.execute(select(ClassroomTeacher.teacher_id, ClassroomTeacher.classroom_id).join(
        Teacher, Teacher.id == ClassroomTeacher.teacher_id).where(
        ClassroomTeacher.classroom_id.in_(ids), Teacher.active.is_(True), Teacher.erased_at.is_(None))).all()
    rooms_of: dict[int, set[int]] = {}
    for teacher_id, classroom_id in members:
        rooms_of.setdefault(teacher_id, set()).add(classroom_id)
    limits_by = limits.limits_of(session, rooms_of)
    slot_names = {row.id: (row.classroom_id, row.name) for row in session.scalars(select(LessonSlotRow))}
    answers = _answers(session, ids, year, month)
    wished = _wishes(session, rooms, set(rooms_of))
    teacher_rows = {row.id: row for row in session.scalars(select(Teacher).where(Teacher.id.in_(list(rooms_of))))}
    teachers = tuple(
        TeacherMonth(row.id, row.display_name, frozenset(rooms_of[row.id]), limits_by[row.id],
                     None if limits_by[row.id].slots is None
                     else frozenset(slot_names[s] for s in limits_by[row.id].slots or () if s in slot_names),
                     answers.get(row.id, {}), frozenset(wished.get(row.id, ())))
        for row in reading.in_order(teacher_rows.values()))
    placed, replaced = _placed(session, ids, set(rooms_of), first, last, replace_drafts=replace_drafts, today=today)
    return DraftMonth(year, month, tuple(rooms), teachers, unanswered, placed, replaced)


def _answers(session: Session, classroom_ids: Sequence[int], year: int, month: int) -> dict[int, dict[dt.date, Answer]]:
    """Each teacher's current answers of the classrooms' newest requests for the month; a teacher answering two
    classrooms' requests for one day counts by the later answer (it is about them, not the classroom)."""
    requests = [r.id for c in classroom_ids if (r := availability.latest(session, c, year, month)) is not None]
    if not requests:
        return {}
    rows = session.scalars(select(AvailabilityAnswer).where(
        AvailabilityAnswer.request_id.in_(requests), AvailabilityAnswer.replaced_at.is_(None)).order_by(
        AvailabilityAnswer.answered_at, AvailabilityAnswer.id))
    found: dict[int, dict[dt.date, Answer]] = {}
    for row in rows:
        answer: Answer = (row.start_time, row.end_time) if row.answer == HOURS else row.answer
        found.setdefault(row.teacher_id, {})[row.local_date] = answer
    return found


def _wishes(session: Session, rooms: Sequence[RoomMonth], teacher_ids: set[int]) -> dict[int, set[tuple[int, dt.date, str]]]:
    """The slots inside a weekly pattern's times, on its weekday, while it is valid, on the classroom's open days."""
    found: dict[int, set[tuple[int, dt.date, str]]] = {}
    for room in rooms:
        for pattern in patterns.classroom_patterns(session, room.classroom_id):
            if pattern.teacher_id not in teacher_ids:
                continue
            for day in room.days:
                if pattern.applies_on(day):
                    found.setdefault(pattern.teacher_id, set()).update(
                        (room.classroom_id, day, slot.name) for slot in room.slots
                        if pattern.start_time <= slot.start_time and slot.end_time <= pattern.end_time)
    return found


def _placed(session: Session, classroom_ids: Sequence[int], teacher_ids: set[int], first: dt.date, last: dt.date, *,
            replace_drafts: bool, today: dict[int, dt.date]) -> tuple[tuple[Placed, ...], tuple[int, ...]]:
    """The teachers' shifts of the month that stay (any classroom: a teacher is never in two places), and the
    drafts of the classrooms that a new draft replaces."""
    rows = session.scalars(select(Shift).where(
        Shift.teacher_id.in_(list(teacher_ids)) | Shift.classroom_id.in_(list(classroom_ids)),
        Shift.local_date >= first, Shift.local_date <= last, Shift.status != ShiftStatus.CANCELED)
        .order_by(Shift.local_date, Shift.start_time, Shift.id))
    placed, replaced = [], []
    for row in rows:
        if (replace_drafts and row.status == ShiftStatus.DRAFT and row.classroom_id in classroom_ids
                and row.local_date >= today[row.classroom_id]):
            replaced.append(row.id)
        elif row.teacher_id in teacher_ids:
            placed.append(Placed(row.id, row.teacher_id, row.classroom_id, row.local_date, row.start_time,
                                 row.end_time, row.ends_next_day, row.status))
    return tuple(placed), tuple(replaced)
