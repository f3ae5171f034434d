"""A classroom's month of drafts as the Shifts area reads it, each read in its own scope: how many drafts
confirming the month would confirm, and what drafting the month starts from (the classrooms that share
teachers with it, the month as the solver sees it, the drafts there now).

The solver runs between the read and the review for as long as the manager lets it, so nothing here
holds a transaction across it: the drafts there now come back as ids and frozen drafts, and the
comparison is made from those (core/roster/draft_changes.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from core.planning import draft_month, month_grid
from core.planning.draft_month import DraftMonth
from core.roster import draft_changes as changes
from core.roster import rules
from core.roster.availability_text import NO
from core.store.db import Database


def drafts_to_confirm(db: Database, classroom_id: int, year: int, month: int) -> int:
    """How many of the month's shifts are drafts now: what confirming the month would confirm."""
    with db.read() as session:
        return month_grid.draft_count(session, classroom_id, year, month)


@dataclass(frozen=True)
class Sharing:
    """The classroom with those that share an active teacher with it (ids, it among them), the others'
    names, and the month as it would be drafted for all of them."""

    classroom_ids: tuple[int, ...]
    other_names: tuple[str, ...]
    month: DraftMonth


def sharing(db: Database, classroom_id: int, year: int, month: int) -> Sharing:
    with db.read() as session:
        ids = draft_month.sharing(session, classroom_id)
        return Sharing(tuple(ids), tuple(rules.get_classroom(session, i).name for i in ids if i != classroom_id),
                       draft_month.read(session, ids, year, month))


@dataclass(frozen=True)
class DraftStart:
    """What a draft run starts from: the month to draft and the drafts there now (id, what it is)."""

    month: DraftMonth
    current: tuple[tuple[int, rules.ShiftDraft], ...]

    def compare(self, proposed: Sequence[rules.ShiftDraft], *, replace_drafts: bool) -> changes.Changes:
        """The proposal against the drafts there were when the run started."""
        return changes.compare_with(self.current, proposed, replace_drafts=replace_drafts)


def draft_start(db: Database, classroom_ids: Sequence[int], year: int, month: int, *, unanswered: str = NO,
                replace_drafts: bool = True, now: dt.datetime) -> DraftStart:
    """The month of the classrooms to draft, and their drafts of it on days still to come."""
    with db.read() as session:
        wanted = draft_month.read(session, classroom_ids, year, month, unanswered=unanswered,
                                  replace_drafts=replace_drafts, now=now)
        current = changes.current_drafts(session, classroom_ids, year, month, now=now)
        return DraftStart(wanted, tuple((s.id, changes.as_draft(s)) for s in current))
