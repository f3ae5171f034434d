"""What the manager can do to the shifts in the grid: add, edit, delete or cancel, copy, confirm the month.

Every change is a command from ui/shifts/commands.py run through the CommandRunner, so it is done in
the background, checked by core, and undoable. Dialogs are opened with open() (window-modal, no
nested event loop) and stay open until core accepted what they ask.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QObject, QPoint, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QMenu, QMessageBox, QWidget

from core.planning.month_grid import ShiftItem
from core.roster import clock, membership, rules
from core.setup import month_drafts, readiness
from core.store.kinds import ShiftStatus
from core.texts import Text, t
from ui.common import i18n
from ui.common.errors import show_error
from ui.common.month_picker import month_title
from ui.services.context import AppContext
from ui.shifts.commands import (
    AddShift,
    CancelShift,
    ConfirmMonth,
    CopyShift,
    DeleteDraft,
    EditShift,
    FillMonth,
)
from ui.shifts.copy_dialog import CopyDaysDialog
from ui.shifts.grid import RosterGridModel, date_label, status_word
from ui.shifts.shift_dialog import ShiftDialog, ShiftValues
from ui.shifts.undo import CommandRunner, RosterCommand


def _keys(sequence: str) -> str:
    """A key shown in a menu's shortcut column without registering it: the grid handles the keys
    itself (ui/shifts/table.py), and a registered Return would fight the menu's own."""
    return "\t" + QKeySequence(sequence).toString(QKeySequence.SequenceFormat.NativeText)


class RosterEditor(QObject):
    status = Signal(str)  # a short sentence for the view's status line
    focus_cell = Signal(int, object)  # teacher id, date: show and select this cell after the next load

    def __init__(self, ctx: AppContext, runner: CommandRunner, model: RosterGridModel, widget: QWidget) -> None:
        super().__init__(widget)
        self.ctx = ctx
        self.runner = runner
        self.model = model
        self.widget = widget
        self.dialog: QDialog | None = None  # the dialog currently open (for the keyboard and tests)
        self._times = ("16:00", "21:00")  # the last times added: most shifts repeat them

    # ----- entry points -----

    def open_cell(self, index: QModelIndex, where: QPoint | None = None) -> None:
        """Enter or double-click: edit the cell's shift, or add one on an empty day."""
        shifts = self.model.shifts_at(index)
        if not shifts:
            self.add_at(index)
            return
        self._pick(shifts, where, self.edit)

    def add_at(self, index: QModelIndex) -> None:
        snapshot = self.model.snapshot
        teacher, day = self.model.teacher_at(index.row()), self.model.day_at(index.column())
        if snapshot.classroom is None or day is None:
            return
        if not snapshot.active_teachers:
            self.status.emit(self.tr("Add a teacher first (Teachers…)."))
            return
        start, end = self._times
        # The classroom's own teachers first; anyone else may still be given the shift (and joins the classroom).
        choices = membership.members_first(snapshot.active_teachers, {t.id for t in snapshot.rows})
        dialog = ShiftDialog(choices, teacher_id=teacher.id if teacher else None, day=day,
                             start=start, end=end, closed=snapshot.closed, slots=snapshot.slots,
                             said_no=snapshot.said_no, parent=self.widget)
        dialog.submitted.connect(lambda values: self._add(dialog, values))
        self._open(dialog)

    def edit(self, shift: ShiftItem) -> None:
        snapshot = self.model.snapshot
        teachers = list(snapshot.active_teachers)
        if all(t.id != shift.teacher_id for t in teachers):  # an inactive teacher's shift keeps its teacher
            teachers += [t for t in snapshot.rows if t.id == shift.teacher_id]
        dialog = ShiftDialog(teachers, shift=shift, day=shift.local_date, closed=snapshot.closed, slots=snapshot.slots,
                             said_no=snapshot.said_no, parent=self.widget)
        dialog.submitted.connect(lambda values: self._edit(dialog, shift, values))
        self._open(dialog)

    def delete_at(self, index: QModelIndex, where: QPoint | None = None) -> None:
        live = tuple(s for s in self.model.shifts_at(index) if s.status != ShiftStatus.CANCELED)
        if not live:
            self.status.emit(self.tr("There is no shift to delete here."))
            return
        self._pick(live, where, self.delete)

    def delete(self, shift: ShiftItem) -> None:
        """Drafts nobody heard of are deleted; a confirmed shift is canceled after asking."""
        label = self._label(shift)
        if shift.status == ShiftStatus.DRAFT:
            command: RosterCommand = DeleteDraft(self.runner.ids.original(shift.id), shift.draft(), label)
            self.runner.execute(command, on_done=lambda _r: self.status.emit(self.tr("Deleted {0}.").format(label)),
                                on_error=self._error)
            return
        if shift.status != ShiftStatus.CONFIRMED:
            return
        # Whether the teacher can be told decides what the question promises (read off the UI thread).
        teacher_id = shift.teacher_id
        self.ctx.tasks.run(lambda: readiness.unreached(self.ctx.db, [teacher_id]).get(teacher_id),
                           lambda untold: self._ask_cancel(shift, label, untold), self._error, owner=self)

    def _ask_cancel(self, shift: ShiftItem, label: str, untold: tuple[str, tuple[Text, ...]] | None) -> None:
        if untold is None:
            question = self.tr("{0} is confirmed, so the teacher may already know about it.\n\n"
                               "Cancel it and tell the teacher?").format(label)
            done = self.tr("Canceled {0}.").format(label)
        else:
            teacher, reasons = untold
            question = i18n.render(t("shifts.cancel.ask_untold", shift=label, teacher=teacher, reasons=reasons))
            done = i18n.render(t("shifts.cancel.done_untold", shift=label, teacher=teacher, reasons=reasons))
        answer = QMessageBox.question(
            self.widget, self.tr("Cancel shift"), question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return
        command = CancelShift(self.runner.ids.original(shift.id), shift.status, label)
        self.runner.execute(command, on_done=lambda _r: self.status.emit(done), on_error=self._error)

    def copy(self, shift: ShiftItem) -> None:
        snapshot = self.model.snapshot
        busy = {s.local_date for s in snapshot.shifts
                if s.teacher_id == shift.teacher_id and s.status != ShiftStatus.CANCELED}
        dialog = CopyDaysDialog(shift, self._teacher_name(shift.teacher_id), snapshot.days, busy, parent=self.widget)
        dialog.submitted.connect(lambda days: self._copy(dialog, shift, days))
        self._open(dialog)

    def confirm_month(self) -> None:
        snapshot = self.model.snapshot
        room = snapshot.classroom
        if room is None:
            return
        year, month = snapshot.year, snapshot.month
        db = self.ctx.db

        def count() -> tuple[int, Text]:  # fresh, not the grid's copy: another window may have changed the month
            drafts = month_drafts.drafts_to_confirm(db, room.id, year, month)
            # Who will really be told, so the question never promises what cannot happen.
            teachers = sorted({s.teacher_id for s in snapshot.shifts if s.status == ShiftStatus.DRAFT})
            return drafts, readiness.told_on_confirming(teachers, readiness.unreached(db, teachers))

        self.ctx.tasks.run(count, lambda found: self._ask_confirm(room.id, room.name, year, month, *found),
                           self._error, owner=self)

    def fill_month(self, *, from_last_month: bool = False) -> None:
        """Drafts for the shown month from the weekly patterns (or last month), one undo step; the status line
        says how many were made and how many skipped, and why."""
        snapshot = self.model.snapshot
        room = snapshot.classroom
        if room is None:
            return
        label = f"{month_title(snapshot.year, snapshot.month)} ({room.name})"
        command = FillMonth(room.id, snapshot.year, snapshot.month, from_last_month=from_last_month, label=label)
        self.runner.execute(command, on_done=lambda filled: self.status.emit(i18n.render(filled.summary)))

    def cell_menu(self, index: QModelIndex) -> QMenu:
        """The context menu of a cell; the caller pops it up."""
        menu = QMenu(self.widget)
        menu.addAction(self.tr("&Add shift…") + _keys("N"), lambda: self.add_at(index))
        shifts = self.model.shifts_at(index)
        for shift in shifts:
            target = menu
            if len(shifts) > 1:
                target = menu.addMenu(f"{shift.start_text}–{shift.end_text} ({status_word(shift.status)})")
            else:
                menu.addSeparator()
            self._shift_actions(target, shift)
        return menu

    # ----- dialogs' answers -----

    def _add(self, dialog: ShiftDialog, values: ShiftValues) -> None:
        room = self.model.snapshot.classroom
        assert room is not None
        draft = rules.ShiftDraft(classroom_id=room.id, teacher_id=values.teacher_id, local_date=values.local_date,
                                  start_time=values.start_time, end_time=values.end_time,
                                  ends_next_day=values.ends_next_day, note=values.note)
        label = self._label_of_values(values)
        joined = self._joined(values.teacher_id)

        def done(_id: object) -> None:
            self._times = (clock.format_wall_time(values.start_time),
                           clock.format_wall_time(values.end_time, next_day=values.ends_next_day))
            dialog.succeeded()
            self.status.emit(self.tr("Added {0}.").format(label) + joined)
            self.focus_cell.emit(values.teacher_id, values.local_date)

        self.runner.execute(AddShift(draft, label), on_done=done, on_error=dialog.failed)

    def _edit(self, dialog: ShiftDialog, shift: ShiftItem, values: ShiftValues) -> None:
        before, after = values.changes_from(shift)
        if not after.given():
            dialog.succeeded()
            return
        label = self._label(shift)  # the undo names the shift as it was; the status line, as it is now
        saved = self._label_of_values(values)
        joined = self._joined(values.teacher_id) if values.teacher_id != shift.teacher_id else ""

        def done(_result: object) -> None:
            dialog.succeeded()
            self.status.emit(self.tr("Saved {0}.").format(saved) + joined)
            self.focus_cell.emit(values.teacher_id, values.local_date)

        command = EditShift(self.runner.ids.original(shift.id), before, after, label)
        self.runner.execute(command, on_done=done, on_error=dialog.failed)

    def _copy(self, dialog: CopyDaysDialog, shift: ShiftItem, days: list[dt.date]) -> None:
        def done(ids: object) -> None:
            dialog.succeeded()
            self.status.emit(self.tr("Copied to %n days as drafts.", "", len(days)))

        command = CopyShift(self.runner.ids.original(shift.id), days, self._label(shift))
        self.runner.execute(command, on_done=done, on_error=dialog.failed)

    def _ask_confirm(self, classroom_id: int, classroom: str, year: int, month: int, drafts: int,
                     told: Text) -> None:
        title = month_title(year, month)
        if drafts == 0:
            self.status.emit(self.tr("{0} has no drafts to confirm.").format(title))
            return
        answer = QMessageBox.question(
            self.widget, self.tr("Confirm month"),
            "\n\n".join((i18n.render(t("confirm.question", count=drafts, month=title, classroom=classroom)),
                         i18n.render(told), i18n.render(t("confirm.final")))),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return
        teachers = sorted({s.teacher_id for s in self.model.snapshot.shifts if s.status == ShiftStatus.DRAFT})
        command = ConfirmMonth(classroom_id, year, month, f"{classroom} {title}")
        self.runner.execute(command, on_error=self._error, on_done=lambda ids: self._confirmed(len(ids), teachers))

    def _confirmed(self, count: int, teachers: list[int]) -> None:
        """Say how many were confirmed, and who of them will not hear of it (read off the UI thread)."""
        done = self.tr("Confirmed %n shifts.", "", count)
        self.status.emit(done)

        def said(untold: tuple[Text, ...]) -> None:
            if untold:
                self.status.emit(done + " " + i18n.render(t("confirm.untold", teachers=untold)))

        self.ctx.tasks.run(lambda: readiness.not_told(self.ctx.db, teachers), said, self._error, owner=self)

    # ----- helpers -----

    def _shift_actions(self, menu: QMenu, shift: ShiftItem) -> None:
        menu.addAction(self.tr("&Edit shift…") + _keys("Return"), lambda: self.edit(shift))
        if shift.status == ShiftStatus.DRAFT:
            menu.addAction(self.tr("&Delete shift") + _keys("Del"), lambda: self.delete(shift))
        elif shift.status == ShiftStatus.CONFIRMED:
            menu.addAction(self.tr("&Cancel shift…") + _keys("Del"), lambda: self.delete(shift))
        menu.addAction(self.tr("Copy to other &days…"), lambda: self.copy(shift))

    def _pick(self, shifts: tuple[ShiftItem, ...], where: QPoint | None, then: Callable[[ShiftItem], None]) -> None:
        """One shift in the cell: act on it. Several: let the manager choose which."""
        if len(shifts) == 1:
            then(shifts[0])
            return
        menu = QMenu(self.widget)
        for shift in shifts:
            action = QAction(f"{shift.start_text}–{shift.end_text} ({status_word(shift.status)})", menu)
            action.triggered.connect(lambda _checked=False, s=shift: then(s))
            menu.addAction(action)
        menu.popup(where or self.widget.mapToGlobal(self.widget.rect().center()))

    def _open(self, dialog: QDialog) -> None:
        self.dialog = dialog
        dialog.finished.connect(lambda _result: self._closed(dialog))
        dialog.open()

    def _closed(self, dialog: QDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()

    def _error(self, exc: BaseException) -> None:
        show_error(self.widget, exc, paths=self.ctx.paths)

    def _joined(self, teacher_id: int) -> str:
        """What the status line adds when a shift makes its teacher one of the classroom's own (core/roster/rules.py)."""
        snapshot = self.model.snapshot
        if snapshot.classroom is None or teacher_id in snapshot.members:
            return ""
        return " " + i18n.render(t("roster.joined", teacher=self._teacher_name(teacher_id),
                                   classroom=snapshot.classroom.name))

    def _teacher_name(self, teacher_id: int) -> str:
        rows = self.model.snapshot.rows + self.model.snapshot.active_teachers
        return next((t.name for t in rows if t.id == teacher_id), f"#{teacher_id}")

    def _label(self, shift: ShiftItem) -> str:
        return self._label_of(shift.teacher_id, shift.local_date, shift.start_time, shift.end_time, shift.ends_next_day)

    def _label_of_values(self, values: ShiftValues) -> str:
        return self._label_of(values.teacher_id, values.local_date, values.start_time, values.end_time,
                              values.ends_next_day)

    def _label_of(self, teacher_id: int, day: dt.date, start: dt.time, end: dt.time, next_day: bool) -> str:
        return (f"{self._teacher_name(teacher_id)} {date_label(day)} "
                f"{clock.format_wall_time(start)}–{clock.format_wall_time(end, next_day=next_day)}")
