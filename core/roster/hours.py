"""A month's hours for payroll: each teacher's confirmed shifts and minutes, split by classroom and by
the kind of day.

The rule (said at the top of every table and file made from it, `RULE`):

- only confirmed shifts count; drafts (not agreed yet) and canceled shifts are left out, and how many
  were left out is said with the totals;
- a shift counts to the day it starts, in its classroom's calendar: a shift from 22:00 on Saturday
  to 02:00 on Sunday is four hours of Saturday, and a shift starting on the month's last evening
  counts wholly to that month;
- its minutes are the time that passes between its start and its end on the classroom's clock (its
  IANA zone), so a shift across a daylight-saving change counts the hour it really lasted;
- a day is a weekday, a Saturday, or a Sunday or national holiday; holidays are those of the
  classroom's country (Japan's for every classroom today: a classroom has no country of its own, as
  the Shifts grid and the month image mark Japan's), and a holiday on a Saturday counts as a holiday.

Many schools pay per lesson slot (コマ) taught, so for classrooms that define slots
(core/roster/lesson_slots.py) each teacher's shifts are counted per slot too (`SLOT_RULE`): a shift
teaches a slot of its classroom when it covers the whole slot, from the slot's start to its end, on the
classroom's clock (a slot is on the shift's day, or on the next one for a shift across midnight). A
shift that covers half a slot teaches none of it. Shifts keep their own times, so this is read from
the times, not from how the shift was entered.

`count_month` is pure: the shifts, the holiday calendars and the slots are given. `read_month` reads them.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.roster import clock, reading, rules
from core.roster.lesson_slots import LessonSlot
from core.store.models import Classroom, Shift, ShiftStatus
from core.store.models import LessonSlot as LessonSlotRow
from core.texts import Text, t

# A classroom has no country of its own yet; every classroom's holidays are Japan's, as on the grid.
HOLIDAY_COUNTRY = "JP"
RULE: Text = t("hours.rule")
# The rule line when slots are counted: the rule, then how a slot is counted.
SLOT_RULE: Text = t("hours.rule_slots", rule=RULE)
DAY_MINUTES = 24 * 60


class DayType(StrEnum):
    WEEKDAY = "weekday"
    SATURDAY = "saturday"
    HOLIDAY = "holiday"  # a Sunday or a national holiday


DAY_TYPES = tuple(DayType)


@dataclass(frozen=True)
class ShiftTimes:
    """One shift as hours count it: who, where, when, and its status."""

    teacher_id: int
    teacher_name: str | None  # None: an erased teacher
    teacher_reading: str | None
    classroom: str
    zone: str  # the classroom's IANA zone
    country: str  # whose national holidays the classroom keeps
    day: dt.date  # the classroom's date the shift starts on
    start: dt.time
    end: dt.time
    ends_next_day: bool
    status: ShiftStatus
    teacher_position: int | None = None  # their place in the manager's own order; None: by reading


@dataclass(frozen=True)
class TeacherHours:
    """One teacher's month: confirmed shifts, minutes, and the minutes split two ways."""

    id: int
    name: str | None
    reading: str | None
    shifts: int
    minutes: int
    by_day_type: Mapping[DayType, int]  # every DayType, 0 where none
    by_classroom: Mapping[str, int]  # only the classrooms they worked in
    position: int | None = None  # their place in the manager's own order, which the table lists them in
    by_slot: Mapping[str, int] = field(default_factory=dict)  # slots taught, by slot name; only those taught

    @property
    def display_name(self) -> str:
        return self.name if self.name is not None else f"(deleted #{self.id})"

    @property
    def slots(self) -> int:
        """Every slot (コマ) taught, whatever its name."""
        return sum(self.by_slot.values())


@dataclass(frozen=True)
class MonthHours:
    year: int
    month: int
    classroom: str | None  # None: every classroom
    classrooms: tuple[str, ...]  # by name: those with a counted shift, and the one asked for
    teachers: tuple[TeacherHours, ...]  # in the one order teachers are listed in (core/roster/reading.py)
    left_out: Mapping[ShiftStatus, int] = field(default_factory=dict)  # drafts and canceled shifts not counted
    # The slot names of the listed classrooms that define slots, by earliest start; empty: no slot is counted.
    slot_names: tuple[str, ...] = ()

    @property
    def minutes(self) -> int:
        return sum(teacher.minutes for teacher in self.teachers)


def day_type(day: dt.date, holidays: Container[dt.date]) -> DayType:
    """Sunday or a national holiday, else Saturday, else a weekday."""
    if day.weekday() == 6 or day in holidays:
        return DayType.HOLIDAY
    return DayType.SATURDAY if day.weekday() == 5 else DayType.WEEKDAY


def shift_minutes(shift: ShiftTimes) -> int:
    """The minutes that pass from the shift's start to its end on its classroom's clock."""
    start, end = clock.shift_interval(shift.day, shift.start, shift.end, shift.ends_next_day, shift.zone)
    return max(0, int((end - start).total_seconds()) // 60)


def _wall_minutes(time: dt.time, *, next_day: bool = False) -> int:
    return time.hour * 60 + time.minute + (DAY_MINUTES if next_day else 0)


def slots_taught(shift: ShiftTimes, slots: Sequence[LessonSlot]) -> list[str]:
    """The names of the slots the shift covers whole, on its classroom's clock: a slot's start at or after
    the shift's start and its end at or before the shift's end, on the shift's day or, for a shift across
    midnight, the next day."""
    start = _wall_minutes(shift.start)
    end = _wall_minutes(shift.end, next_day=shift.ends_next_day)
    days = (0, DAY_MINUTES) if shift.ends_next_day else (0,)
    return [slot.name for day in days for slot in slots
            if start <= day + _wall_minutes(slot.start_time) and day + _wall_minutes(slot.end_time) <= end]


def _slot_names(rooms: Iterable[str], slots: Mapping[str, Sequence[LessonSlot]]) -> tuple[str, ...]:
    """The names of the rooms' slots, each once, by its earliest start in any of them, then by name."""
    earliest: dict[str, dt.time] = {}
    for room in rooms:
        for slot in slots.get(room, ()):
            earliest[slot.name] = min(earliest.get(slot.name, slot.start_time), slot.start_time)
    return tuple(sorted(earliest, key=lambda name: (earliest[name], name)))


def count_month(year: int, month: int, shifts: Iterable[ShiftTimes], calendars: Mapping[str, Container[dt.date]],
                *, classroom: str | None = None, slots: Mapping[str, Sequence[LessonSlot]] | None = None
                ) -> MonthHours:
    """The month's hours from its shifts (of one classroom, named, or of all); `calendars` holds each
    country's holidays by country code, `slots` each classroom's lesson slots by classroom name (a classroom
    without slots has none counted). Classrooms are listed when a shift counted there, and the one named."""
    slots = slots or {}
    first, last = rules.month_bounds(year, month)
    left_out: Counter[ShiftStatus] = Counter()
    counted: dict[int, list[tuple[ShiftTimes, int]]] = {}
    rooms = {classroom} if classroom is not None else set()
    for shift in shifts:
        if not first <= shift.day <= last:
            continue
        if shift.status is not ShiftStatus.CONFIRMED:
            left_out[shift.status] += 1
            continue
        rooms.add(shift.classroom)
        counted.setdefault(shift.teacher_id, []).append((shift, shift_minutes(shift)))
    teachers = []
    for teacher_id, worked in counted.items():
        by_day: Counter[DayType] = Counter({kind: 0 for kind in DAY_TYPES})
        by_room: Counter[str] = Counter()
        by_slot: Counter[str] = Counter()
        for shift, minutes in worked:
            by_day[day_type(shift.day, calendars.get(shift.country, ()))] += minutes
            by_room[shift.classroom] += minutes
            by_slot.update(slots_taught(shift, slots.get(shift.classroom, ())))
        some = worked[0][0]
        teachers.append(TeacherHours(teacher_id, some.teacher_name, some.teacher_reading, len(worked),
                                     sum(minutes for _, minutes in worked), dict(by_day), dict(sorted(by_room.items())),
                                     position=some.teacher_position, by_slot=dict(by_slot)))
    listed = tuple(sorted(rooms))
    return MonthHours(year, month, classroom, listed, tuple(reading.in_order(teachers)), dict(left_out),
                      slot_names=_slot_names(listed, slots))


def holidays_of(country: str, year: int) -> Container[dt.date]:
    """The national holidays of a country in a year (the `holidays` package)."""
    # Imported here: the package loads every country's calendar, and most commands never count hours.
    import holidays

    return holidays.country_holidays(country, years=year)


def read_month(session: Session, year: int, month: int, *, classroom_id: int | None = None) -> MonthHours:
    """The month's hours for one classroom or, without `classroom_id`, for all of them."""
    first, last = rules.month_bounds(year, month)
    query = select(Shift).where(Shift.local_date >= first, Shift.local_date <= last)
    chosen = None
    if classroom_id is not None:
        chosen = rules.get_classroom(session, classroom_id)
        query = query.where(Shift.classroom_id == classroom_id)
    shifts = [
        ShiftTimes(s.teacher_id, s.teacher.name, s.teacher.reading, s.classroom.name, s.classroom.timezone,
                   HOLIDAY_COUNTRY, s.local_date, s.start_time, s.end_time, s.ends_next_day, s.status,
                   teacher_position=s.teacher.position)
        for s in session.scalars(query.order_by(Shift.local_date, Shift.start_time, Shift.id))
    ]
    calendars = {country: holidays_of(country, year) for country in {s.country for s in shifts}}
    return count_month(year, month, shifts, calendars, classroom=chosen.name if chosen else None,
                       slots=read_slots(session, classroom_id))


def read_slots(session: Session, classroom_id: int | None = None) -> dict[str, list[LessonSlot]]:
    """Each classroom's lesson slots by classroom name (of one classroom, or of all that define any)."""
    query = (select(Classroom.name, LessonSlotRow.name, LessonSlotRow.start_time, LessonSlotRow.end_time)
             .join(LessonSlotRow, LessonSlotRow.classroom_id == Classroom.id)
             .order_by(LessonSlotRow.start_time, LessonSlotRow.name))
    if classroom_id is not None:
        query = query.where(Classroom.id == classroom_id)
    found: dict[str, list[LessonSlot]] = {}
    for room, name, start, end in session.execute(query):
        found.setdefault(room, []).append(LessonSlot(name, start, end))
    return found
