"""The month as the Shifts area's grid shows it: classrooms, teachers and shifts as frozen plain values,
with each shift's 了解 mark, the month's Japanese holidays, the classroom's closed days and what each
teacher answered when asked when they can work (the month's latest availability request), and the staffing
needs per day and lesson slot, read in one scope.

Why copies instead of ORM rows: the snapshot crosses from a pool thread to the window's thread and
lives in the grid model; plain values cannot lazy-load or be expired behind the painter's back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.kinds import registry as message_kinds
from core.roster import availability as availability_requests
from core.roster import clock, closed_days, lesson_slots, limits, membership, reading, rules
from core.roster import needs as staffing
from core.roster.availability_text import NO, DayAnswer
from core.store.db import Database
from core.store.models import Delivery, Shift, ShiftStatus, SubjectType, Teacher
from core.texts import Text


@dataclass(frozen=True)
class ClassroomItem:
    id: int
    name: str
    timezone: str


@dataclass(frozen=True)
class TeacherItem:
    id: int
    name: str  # the display name; erased teachers read "(deleted #id)"
    active: bool
    erased: bool = False

    @classmethod
    def of(cls, teacher: Teacher) -> TeacherItem:
        return cls(teacher.id, teacher.display_name, teacher.active, teacher.erased_at is not None)


@dataclass(frozen=True)
class ShiftItem:
    id: int
    classroom_id: int
    teacher_id: int
    local_date: dt.date
    start_time: dt.time
    end_time: dt.time
    ends_next_day: bool
    note: str
    status: ShiftStatus
    version: int
    acknowledged_at: dt.datetime | None = None  # the teacher tapped 了解 on this version's reminder or correction

    @classmethod
    def of(cls, shift: Shift) -> ShiftItem:
        return cls(shift.id, shift.classroom_id, shift.teacher_id, shift.local_date, shift.start_time,
                   shift.end_time, shift.ends_next_day, shift.note, shift.status, shift.version)

    @property
    def start_text(self) -> str:
        return clock.format_wall_time(self.start_time)

    @property
    def end_text(self) -> str:
        # 26:00 rather than 02:00: how Japanese rosters write a shift that ends after midnight.
        return clock.format_wall_time(self.end_time, next_day=self.ends_next_day)

    def draft(self) -> rules.ShiftDraft:
        return rules.ShiftDraft(
            classroom_id=self.classroom_id, teacher_id=self.teacher_id, local_date=self.local_date,
            start_time=self.start_time, end_time=self.end_time, ends_next_day=self.ends_next_day,
            note=self.note, status=self.status,
        )


@dataclass(frozen=True)
class MonthSnapshot:
    year: int
    month: int
    classrooms: tuple[ClassroomItem, ...] = ()
    classroom: ClassroomItem | None = None
    # the classroom's active teachers (its members, teachers of no classroom, and those with a shift this
    # month), then anyone else with a shift this month
    rows: tuple[TeacherItem, ...] = ()
    active_teachers: tuple[TeacherItem, ...] = ()
    shifts: tuple[ShiftItem, ...] = ()
    holidays: dict[dt.date, str] = field(default_factory=dict)
    closed: dict[dt.date, closed_days.ClosedDay] = field(default_factory=dict)  # the classroom's closed days
    today: dt.date | None = None  # in the classroom's zone
    slots: tuple[lesson_slots.LessonSlot, ...] = ()  # the classroom's lesson slots (コマ), for the shift dialog
    # (teacher id, day) → their current answer to the month's latest availability request
    availability: dict[tuple[int, dt.date], DayAnswer] = field(default_factory=dict)
    members: frozenset[int] = frozenset()  # the ids of the classroom's own teachers (core/roster/membership.py)
    # (day, slot name) → teachers needed (core/roster/needs.py); empty when the classroom sets no needs
    needs: dict[tuple[dt.date, str], int] = field(default_factory=dict)
    stored_needs: tuple[staffing.Need, ...] = ()  # the classroom's needs as set, for the Staffing needs dialog
    # teacher id → the limits their month goes over, every classroom counted (core/roster/limits.py)
    over_limits: dict[int, tuple[Text, ...]] = field(default_factory=dict)

    def coverage(self) -> list[staffing.SlotCover]:
        """Per day and slot, needed against the shown shifts covering the slot: the grid's needs strip."""
        return staffing.cover(self.needs, self.slots, self.shifts) if self.needs else []

    def said_no(self, teacher_id: int, day: dt.date) -> bool:
        """The teacher answered that they cannot work that day."""
        answer = self.availability.get((teacher_id, day))
        return answer is not None and answer.answer == NO

    @property
    def days(self) -> list[dt.date]:
        first, last = rules.month_bounds(self.year, self.month)
        return [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]

    @property
    def drafts(self) -> int:
        return sum(1 for s in self.shifts if s.status == ShiftStatus.DRAFT)


def _acknowledged(session: Session, shifts: Sequence[Shift] | Sequence[ShiftItem]) -> dict[tuple[int, int], dt.datetime]:
    """(shift id, version) → the first 了解 tap on its reminder or correction, on whichever channel. An acknowledgement of an
    earlier version does not count: the teacher has not seen the change yet."""
    ids = [s.id for s in shifts]
    found: dict[tuple[int, int], dt.datetime] = {}
    for start in range(0, len(ids), 900):  # SQLite's bound parameters per statement, with room to spare
        rows = session.execute(
            select(Delivery.subject_id, Delivery.subject_version, func.min(Delivery.acknowledged_at))
            .where(Delivery.about(SubjectType.SHIFT, ids[start:start + 900]), Delivery.acknowledged_at.is_not(None),
                   Delivery.kind.in_(message_kinds.acknowledged_keys()))
            .group_by(Delivery.subject_id, Delivery.subject_version))
        for shift_id, version, at in rows:
            if shift_id is not None and version is not None and at is not None:
                found[(shift_id, version)] = at if at.tzinfo else at.replace(tzinfo=dt.UTC)
    return found


def _availability(session: Session, classroom_id: int, year: int, month: int) -> dict[tuple[int, dt.date], DayAnswer]:
    request = availability_requests.latest(session, classroom_id, year, month)
    if request is None:
        return {}
    return {(teacher.teacher_id, day): answer for teacher in availability_requests.answers(session, request.id)
            for day, answer in teacher.days.items()}


def active_teachers(session: Session) -> list[TeacherItem]:
    """The teachers a shift can be given to, by name: the shift dialog's choices."""
    return [TeacherItem.of(t) for t in rules.list_teachers(session) if t.active]


def draft_count(session: Session, classroom_id: int, year: int, month: int) -> int:
    """How many of the month's shifts are drafts: what confirming the month would confirm."""
    return sum(1 for s in rules.month_shifts(session, classroom_id, year, month) if s.status == ShiftStatus.DRAFT)


def with_acknowledgements(db: Database, shifts: tuple[ShiftItem, ...]) -> tuple[ShiftItem, ...]:
    """The shifts shown, with their 了解 marks read again (a tap arrived): one query, not a month's reload."""
    with db.read() as session:
        acks = _acknowledged(session, shifts) if shifts else {}
    return tuple(replace(item, acknowledged_at=acks.get((item.id, item.version))) for item in shifts)


def load_month(db: Database, classroom_id: int | None, year: int, month: int, *, now: dt.datetime) -> MonthSnapshot:
    """Everything the Shifts area shows, in one read (the window runs it on a pool thread).

    An unknown or missing classroom id falls back to the first classroom, so a deleted or renamed
    choice never leaves the area blank."""
    with db.read() as session:
        classrooms = tuple(ClassroomItem(c.id, c.name, c.timezone) for c in rules.list_classrooms(session))
        chosen = next((c for c in classrooms if c.id == classroom_id), classrooms[0] if classrooms else None)
        shifts = rules.month_shifts(session, chosen.id, year, month) if chosen else []
        active = tuple(active_teachers(session))
        members = frozenset(membership.member_ids(session, chosen.id)) if chosen else frozenset()
        listed = membership.listed_in(session, chosen.id) | {s.teacher_id for s in shifts} if chosen else None
        rows = [t for t in active if listed is None or t.id in listed]
        seen = {t.id for t in rows}
        others = {s.teacher_id: s.teacher for s in shifts if s.teacher_id not in seen}  # inactive or erased
        rows += [TeacherItem.of(teacher) for teacher in reading.in_order(others.values())]
        acks = _acknowledged(session, shifts) if shifts else {}
        items = tuple(replace(item, acknowledged_at=acks.get((item.id, item.version)))
                      if (item.id, item.version) in acks else item for item in map(ShiftItem.of, shifts))
        first, last = rules.month_bounds(year, month)
        marks = closed_days.marks_between(session, chosen.id, first, last) if chosen else []
        slots = tuple(lesson_slots.classroom_slots(session, chosen.id)) if chosen else ()
        answers = _availability(session, chosen.id, year, month) if chosen else {}
        wanted = staffing.classroom_needs(session, chosen.id) if chosen else []
        over_limits = limits.month_warnings(session, [t.id for t in rows], year, month)
    # Japanese holidays whatever the classroom's zone, as on the published image (core/publication/month_image.py).
    # Read here, on the background thread that reads the month: the package loads every country's
    # calendar, and the window should not wait for it at start-up.
    in_month = closed_days.holidays_between(first, last)
    closed = closed_days.closed_between(first, last, in_month, marks) if chosen else {}
    today = clock.local_now(now, chosen.timezone).date() if chosen else None
    days = [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]
    return MonthSnapshot(year, month, classrooms, chosen, tuple(rows), active, items, in_month, closed, today, slots,
                         availability=answers, members=members, needs=staffing.month_needs(wanted, slots, days, closed),
                         stored_needs=tuple(wanted), over_limits=over_limits)
