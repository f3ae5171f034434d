"""The roster edits that Ctrl+Z can take back: add, edit, delete, cancel, copy, fill month, confirm month.

Each command states its two directions in core's own terms, so every rule (overlaps, confirmed
shifts never returning to draft, delivery history) is checked by core on undo and redo as well.
Ids are the ones shifts had when the command was made; `ids.current()` finds the row today.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from PySide6.QtCore import QCoreApplication

from core.roster import rules
from core.roster.edits import RosterEdits
from core.store.kinds import ShiftStatus
from ui.shifts.undo import IdMap, RosterCommand


class AddShift(RosterCommand):
    """Redo adds the draft; undo deletes it again."""

    def __init__(self, draft: rules.ShiftDraft, label: str) -> None:
        super().__init__(QCoreApplication.translate("RosterCommands", "Add shift {0}").format(label))
        self.draft = draft
        self.shift_id: int | None = None  # the first id the new shift got

    def forward(self, edits: RosterEdits, ids: IdMap) -> int:
        return edits.add_shift(self.draft)

    def forward_done(self, result: Any, ids: IdMap) -> None:
        if self.shift_id is None:
            self.shift_id = result
        else:
            ids.moved(self.shift_id, result)

    def backward(self, edits: RosterEdits, ids: IdMap) -> None:
        assert self.shift_id is not None
        edits.delete_shifts([ids.current(self.shift_id)])


class EditShift(RosterCommand):
    """Redo applies the new values, undo the old ones, both through core.roster.rules.edit_shift."""

    def __init__(self, shift_id: int, before: rules.ShiftChange, after: rules.ShiftChange, label: str) -> None:
        super().__init__(QCoreApplication.translate("RosterCommands", "Edit shift {0}").format(label))
        self.shift_id = shift_id
        self.before = before
        self.after = after

    def forward(self, edits: RosterEdits, ids: IdMap) -> None:
        edits.edit_shift(ids.current(self.shift_id), self.after)

    def backward(self, edits: RosterEdits, ids: IdMap) -> None:
        edits.edit_shift(ids.current(self.shift_id), self.before)


class DeleteDraft(RosterCommand):
    """Redo deletes the draft; undo adds it again (it comes back with a new id)."""

    def __init__(self, shift_id: int, draft: rules.ShiftDraft, label: str) -> None:
        super().__init__(QCoreApplication.translate("RosterCommands", "Delete shift {0}").format(label))
        self.shift_id = shift_id
        self.draft = draft

    def forward(self, edits: RosterEdits, ids: IdMap) -> None:
        edits.delete_shifts([ids.current(self.shift_id)])

    def backward(self, edits: RosterEdits, ids: IdMap) -> int:
        return edits.add_shift(self.draft)

    def backward_done(self, result: Any, ids: IdMap) -> None:
        ids.moved(self.shift_id, result)


class CancelShift(RosterCommand):
    """Redo cancels; undo puts the shift back to what it was (confirmed), which core counts as a
    new version, so the teacher hears that the shift is on again."""

    def __init__(self, shift_id: int, previous: ShiftStatus, label: str) -> None:
        super().__init__(QCoreApplication.translate("RosterCommands", "Cancel shift {0}").format(label))
        self.shift_id = shift_id
        self.previous = previous

    def forward(self, edits: RosterEdits, ids: IdMap) -> None:
        edits.cancel_shift(ids.current(self.shift_id))

    def backward(self, edits: RosterEdits, ids: IdMap) -> None:
        edits.edit_shift(ids.current(self.shift_id), rules.ShiftChange(status=self.previous))


class CopyShift(RosterCommand):
    """Redo makes every copy in one transaction (core.roster.copying); undo deletes them all at once."""

    def __init__(self, shift_id: int, days: list[dt.date], label: str) -> None:
        super().__init__(QCoreApplication.translate("RosterCommands", "Copy shift {0} to other days ({1})").format(label, len(days)))
        self.shift_id = shift_id
        self.days = sorted(days)
        self.copy_ids: list[int] = []  # first ids of the copies, in date order

    def forward(self, edits: RosterEdits, ids: IdMap) -> list[int]:
        return edits.copy_shift(ids.current(self.shift_id), self.days)

    def forward_done(self, result: Any, ids: IdMap) -> None:
        if not self.copy_ids:
            self.copy_ids = list(result)
        else:
            for original, current in zip(self.copy_ids, result, strict=True):
                ids.moved(original, current)

    def backward(self, edits: RosterEdits, ids: IdMap) -> None:
        edits.delete_shifts([ids.current(original) for original in self.copy_ids])


class FillMonth(RosterCommand):
    """The first redo makes the month's drafts from the weekly patterns or from last month (core.roster.patterns)
    and keeps them; a later redo makes those same drafts again, all or none. Undo deletes them all at once."""

    def __init__(self, classroom_id: int, year: int, month: int, *, from_last_month: bool, label: str) -> None:
        text = (QCoreApplication.translate("RosterCommands", "Copy last month into {0}") if from_last_month
                else QCoreApplication.translate("RosterCommands", "Fill {0} from patterns"))
        super().__init__(text.format(label))
        self.classroom_id, self.year, self.month, self.from_last_month = classroom_id, year, month, from_last_month
        self.drafts: list[rules.ShiftDraft] | None = None
        self.made: list[int] = []  # first ids of the drafts, in the order made

    def forward(self, edits: RosterEdits, ids: IdMap) -> Any:
        if self.drafts is None:
            return edits.fill_month(self.classroom_id, self.year, self.month, from_last_month=self.from_last_month)
        return edits.add_shifts(self.drafts)

    def forward_done(self, result: Any, ids: IdMap) -> None:
        if self.drafts is None:
            self.drafts, self.made = list(result.drafts), list(result.shift_ids)
            self.setObsolete(not self.made)  # nothing made: no step for Ctrl+Z to take back
        else:
            for original, current in zip(self.made, result, strict=True):
                ids.moved(original, current)

    def backward(self, edits: RosterEdits, ids: IdMap) -> None:
        edits.delete_shifts([ids.current(original) for original in self.made])


class ConfirmMonth(RosterCommand):
    """Redo confirms every draft of the month. Undo asks core to make them drafts again, which core
    refuses once teachers may have been told; the runner then shows why and drops the command."""

    def __init__(self, classroom_id: int, year: int, month: int, label: str) -> None:
        super().__init__(QCoreApplication.translate("RosterCommands", "Confirm {0}").format(label))
        self.classroom_id, self.year, self.month = classroom_id, year, month
        self.confirmed: list[int] = []

    def forward(self, edits: RosterEdits, ids: IdMap) -> list[int]:
        return edits.confirm_month(self.classroom_id, self.year, self.month)

    def forward_done(self, result: Any, ids: IdMap) -> None:
        self.confirmed = [ids.original(i) for i in result]

    def backward(self, edits: RosterEdits, ids: IdMap) -> None:
        edits.make_drafts([ids.current(original) for original in self.confirmed])


class ApplyDraft(RosterCommand):
    """The first redo writes a drafted month against the drafts there now (core.roster.draft_changes) and keeps what it
    added and removed; a later redo removes those drafts and adds the same ones again, all or none. Undo deletes the
    added drafts and brings the removed ones back: the whole draft is one step."""

    def __init__(self, classroom_ids: list[int], year: int, month: int, proposed: list[rules.ShiftDraft], *,
                 replace_drafts: bool, label: str) -> None:
        super().__init__(QCoreApplication.translate("RosterCommands", "Draft {0}").format(label))
        self.classroom_ids, self.year, self.month = list(classroom_ids), year, month
        self.proposed, self.replace_drafts = list(proposed), replace_drafts
        self.added: list[rules.ShiftDraft] | None = None
        self.made: list[int] = []  # first ids of the added drafts
        self.removed: list[tuple[int, rules.ShiftDraft]] = []  # first ids of the removed drafts, and what they were

    def forward(self, edits: RosterEdits, ids: IdMap) -> Any:
        if self.added is None:
            return edits.apply_draft(self.classroom_ids, self.year, self.month, self.proposed,
                                     replace_drafts=self.replace_drafts)
        edits.delete_shifts([ids.current(original) for original, _ in self.removed])
        return edits.add_shifts(self.added)

    def forward_done(self, result: Any, ids: IdMap) -> None:
        if self.added is None:
            self.added = list(result.drafts)
            self.made, self.removed = list(result.added), list(result.removed)
            self.setObsolete(not self.made and not self.removed)  # nothing changed: no step to take back
        else:
            for original, current in zip(self.made, result, strict=True):
                ids.moved(original, current)

    def backward(self, edits: RosterEdits, ids: IdMap) -> list[int]:
        edits.delete_shifts([ids.current(original) for original in self.made])
        return edits.add_shifts([draft for _, draft in self.removed])

    def backward_done(self, result: Any, ids: IdMap) -> None:
        for (original, _), current in zip(self.removed, result, strict=True):
            ids.moved(original, current)
