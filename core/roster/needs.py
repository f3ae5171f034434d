"""Staffing needs (必要人数): how many teachers a classroom needs in each lesson slot (コマ), by weekday, with
a number for a single date overriding its weekday's (an exam-prep week needs more). A closed day needs nobody
whatever the rows say.

`needs_for_month` is what a month is planned against (the Shifts grid's needed-vs-assigned, a draft's
targets); `cover` counts, per day and slot, the shifts that cover the slot entirely. Both are keyed by
(day, slot name): a shift keeps its own times, not its slot (core/roster/lesson_slots.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.roster import closed_days, lesson_slots, rules
from core.store.models import LessonSlot as LessonSlotRow
from core.store.models import ShiftStatus
from core.store.models import StaffingNeed as NeedRow
from core.texts import t

COUNT_LIMIT = 99  # teachers in one slot: far above any classroom, low enough to catch a typo like 200


@dataclass(frozen=True)
class Need:
    """One stored number: a slot's need on every `weekday` (0 Monday … 6 Sunday), or on one `day`."""

    slot: str
    count: int
    weekday: int | None = None
    day: dt.date | None = None


@dataclass(frozen=True)
class SlotCover:
    """One slot of one day: how many teachers it needs and how many shifts cover it."""

    day: dt.date
    slot: str
    start: dt.time
    end: dt.time
    needed: int
    assigned: int

    @property
    def short(self) -> int:
        return max(self.needed - self.assigned, 0)

    @property
    def over(self) -> int:
        return max(self.assigned - self.needed, 0)


class ShiftTimes(Protocol):
    """What covering a slot reads of a shift: a stored row and the grid's copy both have it."""

    @property
    def local_date(self) -> dt.date: ...
    @property
    def start_time(self) -> dt.time: ...
    @property
    def end_time(self) -> dt.time: ...
    @property
    def ends_next_day(self) -> bool: ...
    @property
    def status(self) -> ShiftStatus: ...


# ----- checking -----------------------------------------------------------------------------------

def check(need: Need, slot_names: Iterable[str]) -> Need:
    """The need with its slot name trimmed, if the slot is the classroom's, the count fits and exactly one
    of weekday and day is given and in range."""
    slot = need.slot.strip()
    if slot not in set(slot_names):
        raise ValidationError(t("needs.unknown_slot", name=slot))
    if not 0 <= need.count <= COUNT_LIMIT:
        raise ValidationError(t("needs.bad_count", value=need.count, limit=COUNT_LIMIT))
    if (need.weekday is None) == (need.day is None):
        raise ValidationError(t("needs.weekday_or_day"))
    if need.weekday is not None and not 0 <= need.weekday <= 6:
        raise ValidationError(t("patterns.bad_weekday", weekday=need.weekday))
    if need.day is not None and not rules.FIRST_DAY <= need.day <= rules.LAST_DAY:
        raise ValidationError(t("needs.day_range", day=need.day.isoformat(), first=rules.FIRST_DAY.isoformat(),
                                last=rules.LAST_DAY.isoformat()))
    return Need(slot, need.count, need.weekday, need.day)


def parse_count(text: str) -> int:
    """A count as the command line takes it: a whole number from 0."""
    try:
        count = int(text.strip())
    except ValueError:
        raise ValidationError(t("needs.bad_count_text", text=text)) from None
    if not 0 <= count <= COUNT_LIMIT:
        raise ValidationError(t("needs.bad_count", value=count, limit=COUNT_LIMIT))
    return count


# ----- reading ------------------------------------------------------------------------------------

def _slot_ids(session: Session, classroom_id: int) -> dict[str, int]:
    rows = session.execute(select(LessonSlotRow.name, LessonSlotRow.id).where(LessonSlotRow.classroom_id == classroom_id))
    return {name: slot_id for name, slot_id in rows}


def classroom_needs(session: Session, classroom_id: int) -> list[Need]:
    """The classroom's needs: every weekday number (by slot start, then weekday), then every date's (by date)."""
    rows = session.execute(
        select(NeedRow, LessonSlotRow.name).join(LessonSlotRow, NeedRow.slot_id == LessonSlotRow.id)
        .where(NeedRow.classroom_id == classroom_id)
        .order_by(NeedRow.local_date.is_not(None), NeedRow.local_date, LessonSlotRow.start_time, LessonSlotRow.name,
                  NeedRow.weekday))
    return [Need(name, row.count, row.weekday, row.local_date) for row, name in rows]


def month_needs(needs: Iterable[Need], slots: Sequence[lesson_slots.LessonSlot], days: Sequence[dt.date],
                closed: Iterable[dt.date]) -> dict[tuple[dt.date, str], int]:
    """Every (day, slot) of the days: a date's number over its weekday's, 0 on a closed day or where nothing
    is set. No needs at all: an empty map (the classroom plans without them)."""
    needs = list(needs)
    if not needs:
        return {}
    weekly = {(n.slot, n.weekday): n.count for n in needs if n.weekday is not None}
    dated = {(n.slot, n.day): n.count for n in needs if n.day is not None}
    shut = set(closed)
    return {(day, slot.name): 0 if day in shut else dated.get((slot.name, day), weekly.get((slot.name, day.weekday()), 0))
            for day in days for slot in slots}


def needs_for_month(session: Session, classroom_id: int, year: int, month: int) -> dict[tuple[dt.date, str], int]:
    """How many teachers each (day, slot name) of the month needs; empty for a classroom with no needs."""
    first, last = rules.month_bounds(year, month)
    days = [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]
    return month_needs(classroom_needs(session, classroom_id), lesson_slots.classroom_slots(session, classroom_id),
                       days, closed_days.read_month(session, classroom_id, year, month))


def _minutes(time: dt.time, next_day: bool = False) -> int:
    return time.hour * 60 + time.minute + (24 * 60 if next_day else 0)


def covers(shift: ShiftTimes, slot: lesson_slots.LessonSlot) -> bool:
    """The shift is there for the whole slot: it starts at or before the slot starts and ends at or after it ends."""
    return (_minutes(shift.start_time) <= _minutes(slot.start_time)
            and _minutes(shift.end_time, shift.ends_next_day) >= _minutes(slot.end_time))


def cover(needs: Mapping[tuple[dt.date, str], int], slots: Sequence[lesson_slots.LessonSlot],
          shifts: Iterable[ShiftTimes]) -> list[SlotCover]:
    """Per (day, slot) of the needs, in day then slot order: the need, and how many shifts (draft or confirmed,
    not canceled) cover the slot."""
    by_day: dict[dt.date, list[ShiftTimes]] = {}
    for shift in shifts:
        if shift.status != ShiftStatus.CANCELED:
            by_day.setdefault(shift.local_date, []).append(shift)
    by_name = {slot.name: slot for slot in slots}
    order = {slot.name: n for n, slot in enumerate(slots)}
    found = []
    for (day, name), needed in sorted(needs.items(), key=lambda item: (item[0][0], order.get(item[0][1], 0))):
        slot = by_name.get(name)
        if slot is not None:
            assigned = sum(1 for shift in by_day.get(day, ()) if covers(shift, slot))
            found.append(SlotCover(day, name, slot.start_time, slot.end_time, needed, assigned))
    return found


def coverage(session: Session, classroom_id: int, year: int, month: int) -> list[SlotCover]:
    """The month's needs against its shifts, per (day, slot); empty for a classroom with no needs."""
    needs = needs_for_month(session, classroom_id, year, month)
    if not needs:
        return []
    return cover(needs, lesson_slots.classroom_slots(session, classroom_id),
                 rules.month_shifts(session, classroom_id, year, month))


# ----- changing -----------------------------------------------------------------------------------

def set_need(session: Session, classroom_id: int, need: Need) -> Need:
    """Set one slot's number on a weekday or (overriding it) on a date."""
    rules.get_classroom(session, classroom_id)
    ids = _slot_ids(session, classroom_id)
    need = check(need, ids)
    slot_id = ids[need.slot]
    where = NeedRow.weekday == need.weekday if need.weekday is not None else NeedRow.local_date == need.day
    row = session.scalars(select(NeedRow).where(NeedRow.slot_id == slot_id, where)).first()
    if row is None:
        session.add(NeedRow(classroom_id=classroom_id, slot_id=slot_id, weekday=need.weekday, local_date=need.day,
                            count=need.count))
    else:
        row.count = need.count
    session.flush()
    return need


def clear_needs(session: Session, classroom_id: int, *, slot: str | None = None, weekday: int | None = None,
                day: dt.date | None = None) -> int:
    """Remove needs: a slot's (or every slot's), on a weekday, on a date, or all of them; how many went."""
    rules.get_classroom(session, classroom_id)
    if weekday is not None and day is not None:
        raise ValidationError(t("needs.weekday_or_day"))
    if weekday is not None and not 0 <= weekday <= 6:
        raise ValidationError(t("patterns.bad_weekday", weekday=weekday))
    query = delete(NeedRow).where(NeedRow.classroom_id == classroom_id)
    if slot is not None:
        ids = _slot_ids(session, classroom_id)
        if slot.strip() not in ids:
            raise ValidationError(t("needs.unknown_slot", name=slot.strip()))
        query = query.where(NeedRow.slot_id == ids[slot.strip()])
    if weekday is not None:
        query = query.where(NeedRow.weekday == weekday)
    if day is not None:
        query = query.where(NeedRow.local_date == day)
    done = session.execute(query)
    session.flush()
    return int(getattr(done, "rowcount", 0) or 0)


def set_needs(session: Session, classroom_id: int, needs: Sequence[Need]) -> None:
    """The classroom's needs become these (the Staffing needs dialog's OK): all checked before any is written;
    a weekday or a date set twice for one slot is refused."""
    rules.get_classroom(session, classroom_id)
    ids = _slot_ids(session, classroom_id)
    checked = [check(n, ids) for n in needs]
    seen: set[tuple[str, int | None, dt.date | None]] = set()
    for need in checked:
        key = (need.slot, need.weekday, need.day)
        if key in seen:
            raise ValidationError(t("needs.twice", name=need.slot, day=need.day.isoformat() if need.day else
                                    str(need.weekday)))
        seen.add(key)
    session.execute(delete(NeedRow).where(NeedRow.classroom_id == classroom_id))
    session.add_all(NeedRow(classroom_id=classroom_id, slot_id=ids[n.slot], weekday=n.weekday, local_date=n.day,
                            count=n.count) for n in checked)
    session.flush()


def parse_day(text: str) -> dt.date:
    """A date as the command line takes it: YYYY-MM-DD, from 2000 to 2099."""
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        raise ValidationError(t("closed.bad_day", text=text)) from None
    if not rules.FIRST_DAY <= day <= rules.LAST_DAY:
        raise ValidationError(t("needs.day_range", day=day.isoformat(), first=rules.FIRST_DAY.isoformat(),
                                last=rules.LAST_DAY.isoformat()))
    return day

