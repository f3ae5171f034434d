"""Each teacher's limits and wishes for a month: at most so many shifts, hours, days in a row and weekend
days, at least so many hours (a promised minimum), a share of the work, and the lesson slots they can teach.

Every limit is optional (None: no limit). Hours are kept as minutes a month, so an income ceiling (扶養) of
40:30 is exact. The share is a relative weight from 1 to 100: a teacher with 2 is meant to get about twice
the work of one with 1 (no share counts as 1). Slots: a teacher with no slot of a classroom ticked can teach
all of that classroom's slots; with some ticked, only those (`Limits.teaches`). A draft month never breaks a
limit (core/drafting); shifts entered by hand are only warned about (`month_load`).

Bad values are refused with the reason and nothing is written (`check`).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.roster import clock, rules
from core.store.kinds import ShiftStatus
from core.store.models import Classroom, LessonSlot, Shift, TeacherLimits, TeacherSlot
from core.texts import Text, t

# The widest sensible value of each limit: a month has 31 days, at most 10 of them Saturdays or Sundays.
MAX_SHIFTS = 200
MAX_MONTH_MINUTES = 31 * 24 * 60
MAX_DAYS = 31
MAX_WEEKEND_DAYS = 10
MAX_SHARE = 100
# Between slot names in a cell or an option: ASCII's semicolon or comma, or Japanese's 、.
_SEPARATORS = re.compile(r"[;；,，、]")
_HOURS = re.compile(r"(\d{1,4})(?::(\d{1,2})|\.(\d{1,2}))?")


@dataclass(frozen=True)
class Limits:
    """One teacher's limits; every field None is no limit (the value of a teacher who has none set)."""

    max_shifts: int | None = None
    max_minutes: int | None = None
    min_minutes: int | None = None
    max_days_in_a_row: int | None = None
    max_weekend_days: int | None = None
    target_share: int | None = None
    slots: frozenset[int] | None = None  # lesson slot ids they can teach; None: all

    @property
    def empty(self) -> bool:
        return all(getattr(self, f.name) is None for f in fields(self))

    def teaches(self, slot_id: int, classroom_slot_ids: Collection[int]) -> bool:
        """Whether they can teach `slot_id`, one of a classroom's `classroom_slot_ids`: yes unless some of
        that classroom's slots are ticked and this one is not."""
        if self.slots is None or self.slots.isdisjoint(classroom_slot_ids):
            return True
        return slot_id in self.slots


NONE = Limits()
NUMBERS = ("max_shifts", "max_minutes", "min_minutes", "max_days_in_a_row", "max_weekend_days", "target_share")
# Each number's range (low, high), in the unit it is stored in.
_RANGES = {
    "max_shifts": (0, MAX_SHIFTS),
    "max_minutes": (0, MAX_MONTH_MINUTES),
    "min_minutes": (0, MAX_MONTH_MINUTES),
    "max_days_in_a_row": (1, MAX_DAYS),
    "max_weekend_days": (0, MAX_WEEKEND_DAYS),
    "target_share": (1, MAX_SHARE),
}


def what(name: str) -> Text:
    """A limit's name in the manager's words, for messages."""
    return t(f"limits.word.{name}")


def check(limits: Limits) -> Limits:
    """`limits` if every value is in its range and the minimum hours are not above the maximum; else
    ValidationError naming the first value that is not."""
    for name in NUMBERS:
        value = getattr(limits, name)
        low, high = _RANGES[name]
        if value is None or low <= value <= high:
            continue
        if name.endswith("minutes"):
            raise ValidationError(t("limits.hours_range", what=what(name), value=clock_hours(value),
                                    high=clock_hours(high)))
        raise ValidationError(t("limits.range", what=what(name), value=value, low=low, high=high))
    if limits.min_minutes is not None and limits.max_minutes is not None and limits.min_minutes > limits.max_minutes:
        raise ValidationError(t("limits.min_above_max", low=clock_hours(limits.min_minutes),
                                high=clock_hours(limits.max_minutes)))
    return limits


def clock_hours(minutes: int) -> str:
    """2430 → "40:30": hours as a manager writes them."""
    return f"{minutes // 60}:{minutes % 60:02d}"


def hours_text(minutes: int) -> str:
    """2400 → "40", 2430 → "40:30": whole hours without their minutes, for short listings."""
    return str(minutes // 60) if minutes % 60 == 0 else clock_hours(minutes)


def parse_hours(text: str, name: str = "max_minutes") -> int | None:
    """Hours a month as typed: "40", "40:30", "40.5" (full-width digits too) → minutes; empty → None."""
    cleaned = unicodedata.normalize("NFKC", text).strip()
    if not cleaned:
        return None
    match = _HOURS.fullmatch(cleaned)
    minutes = None
    if match is not None:
        hours, clock_minutes, fraction = match.groups()
        if fraction is not None:
            minutes = round((int(hours) + float(f"0.{fraction}")) * 60)
        elif clock_minutes is None or int(clock_minutes) < 60:
            minutes = int(hours) * 60 + int(clock_minutes or 0)
    if minutes is None:
        raise ValidationError(t("limits.bad_hours", what=what(name), text=text.strip()))
    return minutes


def parse_count(text: str, name: str) -> int | None:
    """A whole number as typed (full-width digits too); empty → None."""
    cleaned = unicodedata.normalize("NFKC", text).strip()
    if not cleaned:
        return None
    if not re.fullmatch(r"-?\d{1,6}", cleaned):
        raise ValidationError(t("limits.bad_number", what=what(name), text=text.strip()))
    return int(cleaned)


# ----- reading and writing -----


def limits_of(session: Session, teacher_ids: Iterable[int]) -> dict[int, Limits]:
    """Each teacher's limits, read in two queries whatever the number of teachers; a teacher with none
    set gets `NONE`."""
    wanted = sorted(set(teacher_ids))
    found = dict.fromkeys(wanted, NONE)
    for start in range(0, len(wanted), 500):  # well under SQLite's limit on a query's parameters
        chunk = wanted[start:start + 500]
        for row in session.scalars(select(TeacherLimits).where(TeacherLimits.teacher_id.in_(chunk))):
            found[row.teacher_id] = Limits(**{name: getattr(row, name) for name in NUMBERS})
        slots: dict[int, set[int]] = {}
        for teacher_id, slot_id in session.execute(
                select(TeacherSlot.teacher_id, TeacherSlot.slot_id).where(TeacherSlot.teacher_id.in_(chunk))):
            slots.setdefault(teacher_id, set()).add(slot_id)
        for teacher_id, ids in slots.items():
            found[teacher_id] = replace(found[teacher_id], slots=frozenset(ids))
    return found


def set_limits(session: Session, teacher_id: int, limits: Limits) -> Limits:
    """The teacher's limits and slots become `limits` (checked first: on bad input nothing is written)."""
    rules.get_teacher(session, teacher_id)
    check(limits)
    _check_slots(session, limits.slots)
    store_many(session, {teacher_id: limits})
    return limits


def store_many(session: Session, chosen: Mapping[int, Limits]) -> None:
    """Teachers' limits, already checked (`check`, slots that exist), written in a few statements whatever
    their number: a big import's, once every row is known to be good."""
    ids = sorted(chosen)
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        session.execute(delete(TeacherLimits).where(TeacherLimits.teacher_id.in_(chunk)))
        session.execute(delete(TeacherSlot).where(TeacherSlot.teacher_id.in_(chunk)))
    numbers = [{"teacher_id": teacher_id, **{name: getattr(limits, name) for name in NUMBERS}}
               for teacher_id, limits in chosen.items() if any(getattr(limits, name) is not None for name in NUMBERS)]
    slots = [{"teacher_id": teacher_id, "slot_id": slot_id}
             for teacher_id, limits in chosen.items() for slot_id in sorted(limits.slots or ())]
    if numbers:
        session.execute(insert(TeacherLimits), numbers)
    if slots:
        session.execute(insert(TeacherSlot), slots)
    session.flush()


def set_teacher_slots(session: Session, teacher_id: int, slot_ids: Collection[int] | None) -> None:
    """The lesson slots the teacher can teach become these (None or none: all); the other limits stay."""
    rules.get_teacher(session, teacher_id)
    chosen = frozenset(slot_ids) if slot_ids else None
    _check_slots(session, chosen)
    _write_slots(session, teacher_id, chosen)
    session.flush()


def _check_slots(session: Session, slot_ids: frozenset[int] | None) -> None:
    if not slot_ids:
        return
    known = set(session.scalars(select(LessonSlot.id).where(LessonSlot.id.in_(sorted(slot_ids)))))
    if missing := sorted(slot_ids - known):
        raise ValidationError(t("limits.no_slot", id=missing[0]))


def _write_slots(session: Session, teacher_id: int, slot_ids: frozenset[int] | None) -> None:
    session.execute(delete(TeacherSlot).where(TeacherSlot.teacher_id == teacher_id))
    session.add_all(TeacherSlot(teacher_id=teacher_id, slot_id=slot_id) for slot_id in sorted(slot_ids or ()))


# ----- slots by name (CSV files and the command line) -----


@dataclass(frozen=True)
class SlotName:
    """A lesson slot as a file names it: its id, its classroom and its own name."""

    id: int
    classroom_id: int
    classroom: str
    name: str


def slot_names(session: Session) -> list[SlotName]:
    """Every classroom's lesson slots, by classroom name and start time: read once for a whole file."""
    rows = session.execute(select(LessonSlot.id, LessonSlot.classroom_id, Classroom.name, LessonSlot.name)
                           .join(Classroom, Classroom.id == LessonSlot.classroom_id)
                           .order_by(Classroom.name, LessonSlot.start_time, LessonSlot.name))
    return [SlotName(*row) for row in rows]


def parse_slots(cell: str, slots: Sequence[SlotName], classroom_ids: Collection[int]) -> frozenset[int] | None:
    """The slots a cell names ("1限;2限", "1限、2限", "北校:1限"); empty → None (all). A plain name is that slot
    in each of the teacher's classrooms (`classroom_ids`; all classrooms if they belong to none); "教室:名前"
    only in that classroom. A name no such classroom has is refused by name."""
    names = [unicodedata.normalize("NFKC", name).strip() for name in _SEPARATORS.split(cell)]
    names = [name for name in names if name]
    if not names:
        return None
    theirs = [s for s in slots if not classroom_ids or s.classroom_id in classroom_ids]
    chosen: set[int] = set()
    for name in names:
        room, _, slot = name.rpartition(":")
        found = [s.id for s in (slots if room else theirs)
                 if unicodedata.normalize("NFKC", s.name) == slot.strip()
                 and (not room or unicodedata.normalize("NFKC", s.classroom) == room.strip())]
        if not found:
            raise ValidationError(t("limits.unknown_slot", name=name))
        chosen.update(found)
    return frozenset(chosen)


def slots_text(slot_ids: frozenset[int] | None, slots: Sequence[SlotName], classroom_ids: Collection[int]) -> str:
    """Slot ids as a file's cell ("1限;北校:2限"), which `parse_slots` reads back; empty for all."""
    return ";".join(slot_words(slot_ids, slots, classroom_ids))


def slot_words(slot_ids: frozenset[int] | None, slots: Sequence[SlotName], classroom_ids: Collection[int]) -> list[str]:
    """Slot ids by name: a plain name where it means exactly these slots of the teacher's classrooms,
    "教室:名前" where it would mean more; none for all."""
    if not slot_ids:
        return []
    theirs = [s for s in slots if not classroom_ids or s.classroom_id in classroom_ids]
    words: list[str] = []
    for slot in slots:
        if slot.id not in slot_ids:
            continue
        plain = {s.id for s in theirs if s.name == slot.name}
        word = slot.name if slot.id in plain and plain <= slot_ids else f"{slot.classroom}:{slot.name}"
        if word not in words:
            words.append(word)
    return sorted(words, key=lambda word: ":" in word)  # the teacher's own classrooms' first


# ----- a month's load against the limits (warnings for shifts entered by hand) -----


@dataclass(frozen=True)
class Load:
    """What one teacher has in a month: shifts, minutes, Saturdays and Sundays worked, the longest run of days."""

    shifts: int
    minutes: int
    weekend_days: int
    days_in_a_row: int


def month_load(shifts: Sequence[tuple[dt.date, int]]) -> Load:
    """The load of a teacher's month from their shifts, each (day, minutes); canceled ones left out by the caller."""
    days = sorted({day for day, _ in shifts})
    longest = run = 0
    for n, day in enumerate(days):
        run = run + 1 if n and (day - days[n - 1]).days == 1 else 1
        longest = max(longest, run)
    return Load(len(shifts), sum(minutes for _, minutes in shifts),
                sum(1 for day in days if day.weekday() >= 5), longest)


def over(load: Load, limits: Limits) -> tuple[Text, ...]:
    """Each limit the load goes over, in the manager's words. (A month still being entered is often under
    its minimum hours, so that is not warned about here.)"""
    found: list[Text] = []
    if limits.max_shifts is not None and load.shifts > limits.max_shifts:
        found.append(t("limits.over.shifts", count=load.shifts, limit=limits.max_shifts))
    if limits.max_minutes is not None and load.minutes > limits.max_minutes:
        found.append(t("limits.over.hours", hours=clock_hours(load.minutes), limit=clock_hours(limits.max_minutes)))
    if limits.max_weekend_days is not None and load.weekend_days > limits.max_weekend_days:
        found.append(t("limits.over.weekend", count=load.weekend_days, limit=limits.max_weekend_days))
    if limits.max_days_in_a_row is not None and load.days_in_a_row > limits.max_days_in_a_row:
        found.append(t("limits.over.in_a_row", count=load.days_in_a_row, limit=limits.max_days_in_a_row))
    return tuple(found)


def describe(limits: Limits, slot_text: str = "") -> tuple[Text, ...]:
    """The limits that are set, each in a few words ("at most 8 shifts"), for listings."""
    found: list[Text] = []
    for name in NUMBERS:
        value = getattr(limits, name)
        if value is not None:
            found.append(t(f"limits.short.{name}", value=hours_text(value) if name.endswith("minutes") else value))
    if slot_text:
        found.append(t("limits.short.slots", names=slot_text))
    return tuple(found)



def month_warnings(session: Session, teacher_ids: Collection[int], year: int, month: int) -> dict[int, tuple[Text, ...]]:
    """Each teacher's limits their month goes over, counting every classroom's shifts that are not canceled
    (drafts too: the manager is warned while entering them); a teacher over none is left out. Three
    queries whatever the number of teachers."""
    wanted = limits_of(session, teacher_ids)
    limited = sorted(teacher_id for teacher_id, chosen in wanted.items() if not chosen.empty)
    if not limited:
        return {}
    first, last = rules.month_bounds(year, month)
    days: dict[int, list[tuple[dt.date, int]]] = {}
    for start in range(0, len(limited), 500):
        rows = session.execute(
            select(Shift.teacher_id, Shift.local_date, Shift.start_time, Shift.end_time, Shift.ends_next_day,
                   Classroom.timezone)
            .join(Classroom, Classroom.id == Shift.classroom_id)
            .where(Shift.teacher_id.in_(limited[start:start + 500]), Shift.local_date >= first,
                   Shift.local_date <= last, Shift.status != ShiftStatus.CANCELED))
        for teacher_id, day, begins, ends, next_day, zone in rows:
            begin_at, end_at = clock.shift_interval(day, begins, ends, next_day, zone)
            days.setdefault(teacher_id, []).append((day, int((end_at - begin_at).total_seconds()) // 60))
    found = {teacher_id: over(month_load(days.get(teacher_id, [])), wanted[teacher_id]) for teacher_id in limited}
    return {teacher_id: said for teacher_id, said in found.items() if said}
