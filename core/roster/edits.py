"""Roster edits by shift id inside one write transaction: what an undoable step of the Shifts area does.

An undo or redo step may touch several shifts (a copy to five days, a month's confirmation) and must
take all of them or none, so the steps get one `RosterEdits` per transaction rather than one call per
edit. Every edit goes through core.roster.rules (overlaps, confirmed shifts never returning to draft),
on undo and redo as on the first run; what comes back is ids, never rows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from sqlalchemy.orm import Session

from core.roster import copying, patterns, rules
from core.roster import draft_changes as changes
from core.store.db import Database
from core.store.kinds import ShiftStatus


class RosterEdits:
    """The edits of one write transaction, at one moment (`now`)."""

    def __init__(self, session: Session, now: dt.datetime) -> None:
        self._session = session
        self.now = now

    def add_shift(self, draft: rules.ShiftDraft) -> int:
        return rules.add_shift(self._session, draft, now=self.now).id

    def edit_shift(self, shift_id: int, change: rules.ShiftChange) -> None:
        rules.edit_shift(self._session, shift_id, change, now=self.now)

    def cancel_shift(self, shift_id: int) -> None:
        rules.cancel_shift(self._session, shift_id, now=self.now)

    def delete_shifts(self, shift_ids: Iterable[int]) -> None:
        for shift_id in shift_ids:
            rules.delete_shift(self._session, shift_id)

    def copy_shift(self, shift_id: int, days: list[dt.date]) -> list[int]:
        """The copies' ids, in date order."""
        return [s.id for s in copying.copy_shift(self._session, shift_id, days, now=self.now)]

    def fill_month(self, classroom_id: int, year: int, month: int, *, from_last_month: bool) -> patterns.Filled:
        """Drafts from the weekly patterns, or from last month's confirmed shifts: what was made and skipped."""
        make = patterns.copy_last_month if from_last_month else patterns.fill_month
        return make(self._session, classroom_id, year, month, now=self.now)

    def add_shifts(self, drafts: Iterable[rules.ShiftDraft]) -> list[int]:
        """Every draft or none (a redo of a fill: the same drafts again)."""
        return [rules.add_shift(self._session, draft, now=self.now).id for draft in drafts]

    def apply_draft(self, classroom_ids: Iterable[int], year: int, month: int, proposed: Sequence[rules.ShiftDraft], *,
                    replace_drafts: bool) -> changes.Applied:
        """A drafted month written as drafts against the drafts there now (core.roster.draft_changes)."""
        return changes.apply_draft(self._session, classroom_ids, year, month, proposed, replace_drafts=replace_drafts,
                                   now=self.now)

    def confirm_month(self, classroom_id: int, year: int, month: int) -> list[int]:
        """The ids of the drafts it confirmed."""
        return [s.id for s in rules.confirm_month(self._session, classroom_id, year, month, now=self.now)]

    def make_drafts(self, shift_ids: Iterable[int]) -> None:
        """Shifts back to draft: what undoing a month's confirmation asks, and what rules refuses for a
        confirmed shift, since its teacher may have been told."""
        for shift_id in shift_ids:
            rules.edit_shift(self._session, shift_id, rules.ShiftChange(status=ShiftStatus.DRAFT), now=self.now)


@contextmanager
def editing(db: Database, *, now: dt.datetime) -> Iterator[RosterEdits]:
    """One write transaction: committed when the block ends, rolled back if it raises."""
    with db.write() as session:
        yield RosterEdits(session, now)
