"""A draft month against the roster: the shifts it proposes (a run of consecutive lesson slots of one teacher on
one day is one shift), what that changes against the current drafts, and applying it in one transaction.

Applying goes through core.roster.rules like every other edit (overlaps, a draft with delivery history kept),
so a draft that no longer fits the roster — someone added a shift meanwhile — changes nothing and says why.
Drafts are never told to teachers; confirming the month does that, as before.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.roster import clock, lesson_slots, rules
from core.store.kinds import ShiftStatus
from core.store.models import Shift

Key = tuple[int, int, dt.date, dt.time, dt.time, bool]  # classroom, teacher, day, start, end, ends next day


def runs(slots: Sequence[lesson_slots.LessonSlot], picked: Iterable[int]) -> list[tuple[dt.time, dt.time]]:
    """The (start, end) of each run of consecutive slots among `picked` (indexes into `slots`, which are in order):
    2限–4限 is one shift from 2限's start to 4限's end, the breaks between them included."""
    found: list[tuple[dt.time, dt.time]] = []
    last = -2
    for index in sorted(set(picked)):
        if index == last + 1:
            found[-1] = (found[-1][0], slots[index].end_time)
        else:
            found.append((slots[index].start_time, slots[index].end_time))
        last = index
    return found


def key(draft: rules.ShiftDraft) -> Key:
    return (draft.classroom_id, draft.teacher_id, draft.local_date, draft.start_time, draft.end_time,
            draft.ends_next_day)


def as_draft(shift: Shift) -> rules.ShiftDraft:
    return rules.ShiftDraft(classroom_id=shift.classroom_id, teacher_id=shift.teacher_id, local_date=shift.local_date,
                            start_time=shift.start_time, end_time=shift.end_time, ends_next_day=shift.ends_next_day,
                            note=shift.note, status=ShiftStatus.DRAFT)


@dataclass(frozen=True)
class Changes:
    """What applying a draft does: drafts added, current drafts removed (id and what it was), drafts left as
    they are (the same teacher, day and times)."""

    added: tuple[rules.ShiftDraft, ...]
    removed: tuple[tuple[int, rules.ShiftDraft], ...]
    unchanged: tuple[rules.ShiftDraft, ...]

    @property
    def empty(self) -> bool:
        return not self.added and not self.removed


def current_drafts(session: Session, classroom_ids: Iterable[int], year: int, month: int, *,
                   now: dt.datetime | None = None) -> list[Shift]:
    """The classrooms' drafts of the month; given `now`, only those on days still to come on each classroom's
    clock (a draft proposes nothing for a day that is gone, so it replaces nothing there either)."""
    first, last = rules.month_bounds(year, month)
    rows = session.scalars(select(Shift).where(
        Shift.classroom_id.in_(list(classroom_ids)), Shift.status == ShiftStatus.DRAFT, Shift.local_date >= first,
        Shift.local_date <= last).order_by(Shift.local_date, Shift.start_time, Shift.id)).all()
    if now is None:
        return list(rows)
    today = {room: clock.local_now(now, rules.get_classroom(session, room).timezone).date()
             for room in {row.classroom_id for row in rows}}
    return [row for row in rows if row.local_date >= today[row.classroom_id]]


def compare(current: Sequence[Shift], proposed: Sequence[rules.ShiftDraft], *, replace_drafts: bool) -> Changes:
    """The proposal against the classrooms' current drafts of the month (rows read in the caller's scope)."""
    return compare_with([(s.id, as_draft(s)) for s in current], proposed, replace_drafts=replace_drafts)


def compare_with(current: Sequence[tuple[int, rules.ShiftDraft]], proposed: Sequence[rules.ShiftDraft], *,
                 replace_drafts: bool) -> Changes:
    """The proposal against the current drafts, each as its id and what it is. Kept drafts stay whatever the
    proposal says; replaced ones go unless the proposal has the very same shift, which then stays untouched."""
    wanted = {key(d): d for d in proposed}
    existing = {key(draft): (shift_id, draft) for shift_id, draft in current}
    unchanged = [draft for k, (_, draft) in existing.items() if k in wanted or not replace_drafts]
    removed = [(shift_id, draft) for k, (shift_id, draft) in existing.items() if replace_drafts and k not in wanted]
    added = [d for k, d in wanted.items() if k not in existing]
    order = _order
    return Changes(tuple(sorted(added, key=order)), tuple(sorted(removed, key=lambda r: order(r[1]))),
                   tuple(sorted(unchanged, key=order)))


def _order(draft: rules.ShiftDraft) -> tuple[dt.date, dt.time, int, int]:
    return draft.local_date, draft.start_time, draft.classroom_id, draft.teacher_id


@dataclass
class Applied:
    """What one application did: the new drafts' ids and what they are (in the order of `Changes.added`), and the
    drafts removed."""

    added: list[int] = field(default_factory=list)
    drafts: list[rules.ShiftDraft] = field(default_factory=list)
    removed: list[tuple[int, rules.ShiftDraft]] = field(default_factory=list)


def apply_changes(session: Session, changes: Changes, *, now: dt.datetime) -> Applied:
    """Remove the drafts, then add the new ones, in the caller's transaction: all of it or, when the roster
    refuses one, none (the caller rolls back)."""
    applied = Applied()
    for shift_id, draft in changes.removed:
        rules.delete_shift(session, shift_id)
        applied.removed.append((shift_id, draft))
    for draft in changes.added:
        applied.added.append(rules.add_shift(session, draft, now=now).id)
        applied.drafts.append(draft)
    return applied


def apply_draft(session: Session, classroom_ids: Iterable[int], year: int, month: int,
                proposed: Sequence[rules.ShiftDraft], *, replace_drafts: bool, now: dt.datetime) -> Applied:
    """Write the proposal as drafts of the classrooms' month against the drafts there now."""
    changes = compare(current_drafts(session, classroom_ids, year, month, now=now), proposed,
                      replace_drafts=replace_drafts)
    return apply_changes(session, changes, now=now)
