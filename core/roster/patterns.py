"""Teachers' weekly patterns, and filling a month from them or from the month before.

A 塾's month is mostly the same week repeated: 佐藤 teaches every Tuesday 17:00–21:00 at 本校. A pattern
says so once; filling a month makes a draft shift for every day a pattern falls on, except a closed
day (core/roster/closed_days.py) and a day the teacher already works at that time. Which days a
pattern fills is a pure rule over dates; the drafts go through core.roster.rules like any other
shift, so its checks (an overlap in another classroom too) hold, and each refusal is counted, not fatal.
Copying last month works the same way from the previous month's confirmed shifts, by weekday
occurrence (the 1st Tuesday to the 1st Tuesday), since a date-for-date copy would move every weekday.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from core.errors import ShiftcastError, ValidationError
from core.roster import closed_days, rules
from core.store.models import ShiftStatus, WeeklyPattern
from core.texts import Text, t


@dataclass(frozen=True)
class Pattern:
    teacher_id: int
    classroom_id: int
    weekday: int  # 0 Monday … 6 Sunday
    start_time: dt.time
    end_time: dt.time
    valid_from: dt.date
    valid_until: dt.date | None = None

    def applies_on(self, day: dt.date) -> bool:
        return (day.weekday() == self.weekday and self.valid_from <= day
                and (self.valid_until is None or day <= self.valid_until))

    def draft(self, day: dt.date) -> rules.ShiftDraft:
        return rules.ShiftDraft(classroom_id=self.classroom_id, teacher_id=self.teacher_id, local_date=day,
                                start_time=self.start_time, end_time=self.end_time)


class SkipReason(StrEnum):
    CLOSED = "closed"  # the classroom is closed that day
    OVERLAP = "overlap"  # the teacher already has a shift at that time (here or at another classroom)
    REFUSED = "refused"  # another rule of the roster refused it (an inactive teacher …)
    NO_SUCH_DAY = "no_such_day"  # copying a month: a 5th weekday this month does not have


@dataclass(frozen=True)
class Skipped:
    day: dt.date
    teacher_id: int
    reason: SkipReason
    why: Text | None = None  # the roster's own words for REFUSED

    def text(self, teacher: str) -> Text:
        """The day, the teacher and why, in one line."""
        if self.reason == SkipReason.REFUSED:
            return t("fill.skip.refused", day=self.day, teacher=teacher, reason=self.why or t("text.plain", text=""))
        return t(f"fill.skip.{self.reason.value}", day=self.day, teacher=teacher)


@dataclass(frozen=True)
class LastMonth:
    """What the month copied from held: its confirmed shifts are copied, its drafts are not."""

    confirmed: int
    drafts: int


@dataclass
class Filled:
    """What a fill made (the new drafts' ids, and the drafts, to make again on redo) and what it skipped;
    a copy also what last month held."""

    shift_ids: list[int] = field(default_factory=list)
    drafts: list[rules.ShiftDraft] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    last_month: LastMonth | None = None

    def count(self, reason: SkipReason) -> int:
        return sum(1 for s in self.skipped if s.reason == reason)

    @property
    def summary(self) -> Text:
        """How many were made and skipped, and why: what the Shifts area and `shiftcast fill` say."""
        if self.last_month is not None:  # a copy of last month
            # Copying makes drafts of what was agreed, so a month of drafts copies nothing: say so.
            if not self.last_month.confirmed:
                if not self.last_month.drafts:
                    return t("fill.nothing_last_month")
                return t("fill.nothing_confirmed", draft_count=self.last_month.drafts)
            if self.last_month.drafts:
                return t("fill.drafts_not_copied", summary=self._made(), draft_count=self.last_month.drafts)
        return self._made()

    def _made(self) -> Text:
        """How many were made and skipped, with only the reasons that happened: "0 on closed days" tells
        the manager nothing."""
        if not self.skipped:
            return t("fill.summary_all_made", made_count=len(self.shift_ids))
        reasons = tuple(t(f"word.fill.{reason}", count=count) for reason, count in (
            ("no_such_day", self.count(SkipReason.NO_SUCH_DAY)), ("closed", self.count(SkipReason.CLOSED)),
            ("overlap", self.count(SkipReason.OVERLAP)), ("refused", self.count(SkipReason.REFUSED))) if count)
        return t("fill.summary", made_count=len(self.shift_ids), skipped_count=len(self.skipped), reasons=reasons)


def check(pattern: Pattern) -> Pattern:
    """A pattern that can make shifts: a weekday, an end after its start, an end of validity not before its start."""
    if not 0 <= pattern.weekday <= 6:
        raise ValidationError(t("patterns.bad_weekday", weekday=pattern.weekday))
    if pattern.end_time <= pattern.start_time:
        raise ValidationError(t("patterns.end_before_start", start=f"{pattern.start_time:%H:%M}",
                                end=f"{pattern.end_time:%H:%M}"))
    if pattern.valid_until is not None and pattern.valid_until < pattern.valid_from:
        raise ValidationError(t("patterns.until_before_from", start=pattern.valid_from, end=pattern.valid_until))
    return pattern


def days_to_fill(patterns: Iterable[Pattern], first: dt.date, last: dt.date,
                 closed: Container[dt.date]) -> tuple[list[tuple[Pattern, dt.date]], list[Skipped]]:
    """Each (pattern, day) from first to last a pattern falls on, by day then start; and the closed days it
    falls on, skipped."""
    wanted: list[tuple[Pattern, dt.date]] = []
    skipped: list[Skipped] = []
    for pattern in patterns:
        day = first + dt.timedelta(days=(pattern.weekday - first.weekday()) % 7)
        while day <= last:
            if pattern.applies_on(day):
                if day in closed:
                    skipped.append(Skipped(day, pattern.teacher_id, SkipReason.CLOSED))
                else:
                    wanted.append((pattern, day))
            day += dt.timedelta(days=7)
    wanted.sort(key=lambda pd: (pd[1], pd[0].start_time, pd[0].teacher_id))
    skipped.sort(key=lambda s: (s.day, s.teacher_id))
    return wanted, skipped


def _of(row: WeeklyPattern) -> Pattern:
    return Pattern(row.teacher_id, row.classroom_id, row.weekday, row.start_time, row.end_time, row.valid_from,
                   row.valid_until)


def teacher_patterns(session: Session, teacher_id: int) -> list[Pattern]:
    rows = session.scalars(select(WeeklyPattern).where(WeeklyPattern.teacher_id == teacher_id)
                           .order_by(WeeklyPattern.weekday, WeeklyPattern.start_time, WeeklyPattern.id))
    return [_of(r) for r in rows]


def classroom_patterns(session: Session, classroom_id: int) -> list[Pattern]:
    rows = session.scalars(select(WeeklyPattern).where(WeeklyPattern.classroom_id == classroom_id)
                           .order_by(WeeklyPattern.weekday, WeeklyPattern.start_time, WeeklyPattern.id))
    return [_of(r) for r in rows]


def by_teacher(session: Session) -> dict[int, list[Pattern]]:
    """Every teacher's patterns, in one query: what the teachers' list carries to the teacher dialog."""
    found: dict[int, list[Pattern]] = {}
    for row in session.scalars(select(WeeklyPattern).order_by(WeeklyPattern.weekday, WeeklyPattern.start_time,
                                                              WeeklyPattern.id)):
        found.setdefault(row.teacher_id, []).append(_of(row))
    return found


def set_teacher_patterns(session: Session, teacher_id: int, patterns: Sequence[Pattern]) -> None:
    """The teacher's patterns become these (what the teacher dialog saves): all checked before any is written."""
    rules.get_teacher(session, teacher_id)
    for pattern in patterns:
        check(pattern)
        rules.get_classroom(session, pattern.classroom_id)
    session.execute(delete(WeeklyPattern).where(WeeklyPattern.teacher_id == teacher_id))
    session.add_all(WeeklyPattern(teacher_id=teacher_id, classroom_id=p.classroom_id, weekday=p.weekday,
                                  start_time=p.start_time, end_time=p.end_time, valid_from=p.valid_from,
                                  valid_until=p.valid_until) for p in patterns)
    session.flush()


# What the command line takes for a weekday: English and Japanese names, short or long, or 0 (Monday) to 6.
WEEKDAY_NAMES: dict[str, int] = {
    **{name: n for n, name in enumerate(("mon", "tue", "wed", "thu", "fri", "sat", "sun"))},
    **{name: n for n, name in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                                         "sunday"))},
    **{name: n for n, name in enumerate("月火水木金土日")},
    **{f"{name}曜": n for n, name in enumerate("月火水木金土日")},
    **{f"{name}曜日": n for n, name in enumerate("月火水木金土日")},
    **{str(n): n for n in range(7)},
}


def parse_weekday(text: str) -> int:
    """A weekday as the command line takes it: tue, Tuesday, 火, 火曜日 or 1 (Monday is 0)."""
    found = WEEKDAY_NAMES.get(text.strip().lower())
    if found is None:
        raise ValidationError(t("patterns.bad_weekday_name", text=text))
    return found


def add_pattern(session: Session, pattern: Pattern) -> None:
    """One more pattern for the teacher, checked as the teacher dialog checks its list."""
    rules.get_teacher(session, pattern.teacher_id)
    rules.get_classroom(session, check(pattern).classroom_id)
    session.add(WeeklyPattern(teacher_id=pattern.teacher_id, classroom_id=pattern.classroom_id,
                              weekday=pattern.weekday, start_time=pattern.start_time, end_time=pattern.end_time,
                              valid_from=pattern.valid_from, valid_until=pattern.valid_until))
    session.flush()


def remove_pattern(session: Session, teacher_id: int, number: int) -> Pattern:
    """The teacher's pattern that `teacher_patterns` lists `number`th (from 1) removed, and returned."""
    rows = session.scalars(select(WeeklyPattern).where(WeeklyPattern.teacher_id == teacher_id)
                           .order_by(WeeklyPattern.weekday, WeeklyPattern.start_time, WeeklyPattern.id)).all()
    if not 1 <= number <= len(rows):
        raise ValidationError(t("patterns.no_such_number", number=number, count=len(rows)))
    row = rows[number - 1]
    session.delete(row)
    session.flush()
    return _of(row)


def add_drafts(session: Session, wanted: Iterable[tuple[rules.ShiftDraft, dt.date]], *, now: dt.datetime,
               filled: Filled) -> Filled:
    """Each draft added in a savepoint of the caller's transaction; one the roster refuses is skipped and
    counted, the others stay."""
    for draft, day in wanted:
        savepoint = session.begin_nested()
        try:
            shift = rules.add_shift(session, draft, now=now)
            savepoint.commit()
        except ShiftcastError as exc:
            savepoint.rollback()
            text = exc.text if isinstance(exc.text, Text) else None
            reason = SkipReason.OVERLAP if text is not None and text.code == "roster.overlaps" else SkipReason.REFUSED
            filled.skipped.append(Skipped(day, draft.teacher_id, reason, None if reason == SkipReason.OVERLAP else text))
        else:
            filled.shift_ids.append(shift.id)
            filled.drafts.append(draft)
    return filled


def fill_month(session: Session, classroom_id: int, year: int, month: int, *, now: dt.datetime) -> Filled:
    """Draft shifts for every day of the month the classroom's patterns fall on, but closed days and days the
    teacher already works at that time (each counted by why)."""
    first, last = rules.month_bounds(year, month)
    closed = closed_days.read_between(session, classroom_id, first, last)
    wanted, skipped = days_to_fill(classroom_patterns(session, classroom_id), first, last, closed)
    return add_drafts(session, ((p.draft(day), day) for p, day in wanted), now=now, filled=Filled(skipped=skipped))


def same_occurrence(day: dt.date, year: int, month: int) -> dt.date | None:
    """The day of the month that is to it what `day` was to its own: the 1st Tuesday for a 1st Tuesday, … ;
    None for a 5th weekday the month does not have."""
    nth = (day.day - 1) // 7
    first = dt.date(year, month, 1)
    found = first + dt.timedelta(days=(day.weekday() - first.weekday()) % 7 + 7 * nth)
    return found if found.month == month else None


def copy_last_month(session: Session, classroom_id: int, year: int, month: int, *, now: dt.datetime) -> Filled:
    """Drafts for this month from the previous month's confirmed shifts at the classroom, by weekday occurrence;
    a 5th weekday this month lacks, a closed day and a day the teacher already works are skipped and counted.
    Its drafts are not copied (only counted, so the summary can say why a month of drafts copied nothing)."""
    first, last = rules.month_bounds(year, month)
    before = first - dt.timedelta(days=1)
    closed = closed_days.read_between(session, classroom_id, first, last)
    wanted: list[tuple[rules.ShiftDraft, dt.date]] = []
    earlier = rules.month_shifts(session, classroom_id, before.year, before.month)
    filled = Filled(last_month=LastMonth(confirmed=sum(s.status == ShiftStatus.CONFIRMED for s in earlier),
                                         drafts=sum(s.status == ShiftStatus.DRAFT for s in earlier)))
    for shift in earlier:
        if shift.status != ShiftStatus.CONFIRMED:
            continue
        day = same_occurrence(shift.local_date, year, month)
        if day is None:
            filled.skipped.append(Skipped(shift.local_date, shift.teacher_id, SkipReason.NO_SUCH_DAY))
        elif day in closed:
            filled.skipped.append(Skipped(day, shift.teacher_id, SkipReason.CLOSED))
        else:
            wanted.append((rules.ShiftDraft(classroom_id=classroom_id, teacher_id=shift.teacher_id, local_date=day,
                                            start_time=shift.start_time, end_time=shift.end_time,
                                            ends_next_day=shift.ends_next_day, note=shift.note), day))
    wanted.sort(key=lambda dd: (dd[1], dd[0].start_time, dd[0].teacher_id))
    return add_drafts(session, wanted, now=now, filled=filled)
