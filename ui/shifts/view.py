"""The Shifts area: pick a month and a classroom, see the roster grid, edit it, undo, confirm the month.

This module only composes and loads: the toolbar is ui/shifts/toolbar.py, the grid model is
ui/shifts/grid.py, editing is ui/shifts/editing.py, undo is ui/shifts/undo.py + ui/shifts/commands.py,
CSV is ui/shifts/csv_files.py, teachers are ui/teachers/dialog.py. The month is read in one background job;
a newer load always wins over an older one still in flight, so flipping months quickly never shows a
stale month.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

from core.planning.drafted import Act
from core.planning.month_grid import MonthSnapshot, ShiftItem, load_month, with_acknowledgements
from core.roster import classroom_setup, rules
from core.store.db import Database
from ui.common.errors import show_error
from ui.common.form_dialog import SubmitDialog
from ui.common.month_picker import default_month, month_title, shifted
from ui.common.wrapped_text import keep_text_visible
from ui.cover.dialog import CoverDialog
from ui.services.context import AppContext
from ui.shifts.classroom_dialog import ClassroomDialog, ClassroomValues
from ui.shifts.closed_days import ClosedDayActions
from ui.shifts.csv_files import CsvActions
from ui.shifts.editing import RosterEditor
from ui.shifts.empty import EmptyState
from ui.shifts.grid import RosterGridModel
from ui.shifts.legend import RosterLegend
from ui.shifts.needs_dialog import StaffingNeedsDialog
from ui.shifts.needs_strip import NeedsStrip
from ui.shifts.slots_dialog import LessonSlotsDialog
from ui.shifts.table import RosterTable
from ui.shifts.toolbar import ShiftsToolbar
from ui.shifts.undo import CommandRunner
from ui.teachers.dialog import TeachersDialog

if TYPE_CHECKING:
    from ui.shifts.draft_dialog import Drafter

DEBOUNCE_MS = 150  # edits elsewhere arrive in bursts (an import, the sender); one reload covers them


class ShiftsView(QWidget):
    loaded = Signal()  # a month was shown (after every load)
    acknowledgements_shown = Signal()  # the shown shifts' 了解 marks were read again after a tap

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        # The manager's own calendar decides which month opens; "today" of the grid is the classroom's.
        self.year, self.month = default_month(ctx.clock().astimezone().date())
        self.classroom_id: int | None = None
        self._loading = False
        self._stale = False
        self._focus: tuple[int, dt.date] | None = None

        self.model = RosterGridModel(self)
        self.runner = CommandRunner(ctx, self)
        self.table = RosterTable(self)
        self.table.setModel(self.model)
        self.editor = RosterEditor(ctx, self.runner, self.model, self)
        self.closed_days = ClosedDayActions(ctx, self.model, self)
        self.csv = CsvActions(ctx, self, self._csv_scope)
        self.teachers_dialog: TeachersDialog | None = None
        self.availability_dialog: QDialog | None = None  # the latest Availability dialog opened
        self.classroom_dialog: ClassroomDialog | None = None
        self.slots_dialog: LessonSlotsDialog | None = None
        self.draft_dialog: QDialog | None = None
        self.drafter: Drafter | None = None  # None: the solver (core.planning.from_roster.draft)
        self.needs_dialog: StaffingNeedsDialog | None = None

        self._reload_timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._reload_timer.timeout.connect(self.reload)
        self._build()
        self._connect()
        self.reload()

    # ----- building -----

    def _build(self) -> None:
        bar = ShiftsToolbar(self, step_month=self.step_month, add_classroom=self.add_classroom,
                            undo=self.runner.undo, redo=self.runner.redo, teachers=self.open_teachers,
                            csv=self.csv, fill_month=self.editor.fill_month,
                            copy_last_month=lambda: self.editor.fill_month(from_last_month=True),
                            lesson_slots=self.open_lesson_slots,
                            confirm_month=self.editor.confirm_month, cover=self.open_cover,
                            availability=self.open_availability, staffing_needs=self.open_staffing_needs,
                            draft_month=self.open_draft)
        self.toolbar = bar
        self.month_label, self.classroom_combo = bar.month_label, bar.classroom_combo
        self.prev_action, self.next_action, self.confirm_action = bar.prev_action, bar.next_action, bar.confirm_action
        self.undo_action, self.redo_action, self.teachers_action = bar.undo_action, bar.redo_action, bar.teachers_action
        self.fill_action, self.copy_last_action = bar.fill_action, bar.copy_last_action
        self.slots_action, self.needs_action = bar.slots_action, bar.needs_action
        self.draft_action = bar.draft_action

        grid_page = QWidget(self)
        grid_layout = QVBoxLayout(grid_page)
        grid_layout.setContentsMargins(0, 0, 0, 0)
        grid_layout.addWidget(self.table, 1)
        self.needs_strip = NeedsStrip(self.table, grid_page)  # needed against assigned, per day and slot
        grid_layout.addWidget(self.needs_strip)
        grid_layout.addWidget(RosterLegend(grid_page))
        self.no_classroom = EmptyState(
            self.tr("No classroom yet"),
            self.tr("A roster belongs to a classroom. Add your classroom (you can add more branches later), "
                    "then add your teachers and their shifts."),
            self.tr("Add classroom…"), self.add_classroom, self)
        self.no_teacher = EmptyState(
            self.tr("No teachers yet"),
            self.tr("Add the teachers who work at this classroom, or import them from a CSV file."),
            self.tr("Teachers…"), self.open_teachers, self)
        self.no_member = EmptyState(  # a chain's new classroom: teachers exist, none of them is this one's yet
            self.tr("No teachers of this classroom yet"),
            self.tr("In Teachers…, edit each teacher who works here and tick this classroom under Classrooms."),
            self.tr("Teachers…"), self.open_teachers, self)
        self.pages = QStackedWidget(self)
        for page in (grid_page, self.no_classroom, self.no_teacher, self.no_member):
            self.pages.addWidget(page)
        self.grid_page = grid_page

        footer_row = QWidget(self)
        self.status_label = QLabel(footer_row)  # what the last action did
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # A long result (confirming names every teacher who will not be told) wraps onto more lines
        # rather than running into the month's counter beside it.
        self.status_label.setWordWrap(True)
        self.summary_label = QLabel(footer_row)  # what the month holds
        footer = QHBoxLayout(footer_row)
        footer.setContentsMargins(0, 0, 0, 0)
        footer.setSpacing(16)
        footer.addWidget(self.status_label, 1)
        footer.addWidget(self.summary_label, 0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        keep_text_visible(footer_row)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(bar)
        layout.addWidget(self.pages, 1)
        layout.addWidget(footer_row)
        self.setMinimumSize(640, 420)
        self._update_undo_actions()

    def _connect(self) -> None:
        self.classroom_combo.activated.connect(self._classroom_chosen)
        self.table.open_requested.connect(lambda index: self.editor.open_cell(index, self._cell_point(index)))
        self.table.add_requested.connect(self.editor.add_at)
        self.table.delete_requested.connect(lambda index: self.editor.delete_at(index, self._cell_point(index)))
        self.table.menu_requested.connect(lambda index, where: self.editor.cell_menu(index).popup(where))
        self.table.day_menu_requested.connect(self._day_menu)
        self.editor.status.connect(self.status_label.setText)
        self.closed_days.status.connect(self.status_label.setText)
        self.closed_days.changed.connect(self.reload)
        self.editor.focus_cell.connect(self.focus_cell)
        self.runner.finished.connect(self.reload)
        self.runner.failed.connect(lambda exc: show_error(self, exc, paths=self.ctx.paths))
        self.runner.stack.indexChanged.connect(self._update_undo_actions)
        self.runner.busy_changed.connect(self._update_undo_actions)
        self.csv.imported.connect(self.reload)
        self.csv.imported.connect(self.ctx.signals.roster_changed)  # an import may add teachers
        self.ctx.bridge.shifts_changed.connect(self._shifts_changed)
        self.ctx.bridge.settings_changed.connect(self._shifts_changed)  # a classroom added or renamed in Settings
        self.ctx.signals.roster_changed.connect(self._shifts_changed)
        # A tap changes no shift, so no shifts_changed: it is heard as its own event.
        self.ctx.bridge.acknowledged.connect(self._read_acknowledgements)
        self.ctx.bridge.availability_answered.connect(self._shifts_changed)  # the grid shades the answers

    # ----- loading -----

    @property
    def busy(self) -> bool:
        """An edit or a load is in flight, or a reload is due."""
        return self._loading or self._reload_timer.isActive() or self.runner.busy

    def reload(self) -> None:
        self._reload_timer.stop()
        db = self.ctx.db
        classroom_id, year, month, now = self.classroom_id, self.year, self.month, self.ctx.clock()
        self._loading = True
        # Only the newest load answers: the month or classroom may change again before an older one ends.
        self.ctx.tasks.run(lambda: load_month(db, classroom_id, year, month, now=now), self._show, self._load_failed,
                           owner=self, latest="month")

    def _shifts_changed(self) -> None:
        if self.isVisible():
            self._reload_timer.start()
        else:
            self._stale = True  # read again when the tab is shown, not for every edit made elsewhere

    def _read_acknowledgements(self) -> None:
        snapshot = self.model.snapshot
        if not snapshot.shifts:
            return
        db = self.ctx.db
        self.ctx.tasks.run(lambda: with_acknowledgements(db, snapshot.shifts),
                           lambda shifts: self._show_acknowledgements(snapshot, shifts),
                           lambda exc: show_error(self, exc, paths=self.ctx.paths), owner=self, latest="acknowledged")

    def _show_acknowledgements(self, read_from: MonthSnapshot, shifts: tuple[ShiftItem, ...]) -> None:
        # A month loaded meanwhile has read the marks itself, and has other shifts.
        if self.model.snapshot is read_from and shifts != read_from.shifts:
            self.model.set_snapshot(replace(read_from, shifts=shifts))
        self.acknowledgements_shown.emit()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self._stale = False
            self.reload()

    def _load_failed(self, exc: BaseException) -> None:
        self._loading = False
        show_error(self, exc, paths=self.ctx.paths)

    def _show(self, snapshot: MonthSnapshot) -> None:
        self._loading = False
        current = self.table.currentIndex()
        keep = self._focus or self._cell_key(current)
        self._focus = None
        self.classroom_id = snapshot.classroom.id if snapshot.classroom else None
        self._fill_classrooms(snapshot)
        self.model.set_snapshot(snapshot)
        self.table.fit_rows(self.model.stacked_per_row())
        self.needs_strip.set_snapshot(snapshot)
        self.month_label.setText(month_title(snapshot.year, snapshot.month))
        if snapshot.classroom is None:
            self.pages.setCurrentWidget(self.no_classroom)
        elif not snapshot.rows:
            self.pages.setCurrentWidget(self.no_member if snapshot.active_teachers else self.no_teacher)
        else:
            self.pages.setCurrentWidget(self.grid_page)
            self._restore_cell(keep)
        has_room = snapshot.classroom is not None
        self.prev_action.setEnabled(has_room)
        self.next_action.setEnabled(has_room)
        self.confirm_action.setEnabled(has_room and snapshot.drafts > 0)
        for action in (self.fill_action, self.copy_last_action, self.draft_action):
            action.setEnabled(has_room and bool(snapshot.rows))
        self.slots_action.setEnabled(has_room)
        self.needs_action.setEnabled(has_room)
        self._summarise(snapshot)
        self.loaded.emit()

    def _fill_classrooms(self, snapshot: MonthSnapshot) -> None:
        combo = self.classroom_combo
        combo.blockSignals(True)
        listed = [(combo.itemData(i), combo.itemText(i)) for i in range(combo.count())]
        if listed != [(room.id, room.name) for room in snapshot.classrooms]:  # untouched while unchanged
            combo.clear()
            for room in snapshot.classrooms:
                combo.addItem(room.name, room.id)
        if snapshot.classroom is not None:
            combo.setCurrentIndex(combo.findData(snapshot.classroom.id))
        combo.setEnabled(bool(snapshot.classrooms))
        combo.blockSignals(False)

    def _summarise(self, snapshot: MonthSnapshot) -> None:
        if snapshot.classroom is None:
            self.summary_label.clear()
            return
        self.summary_label.setText(self.tr("shifts: {0}, drafts not confirmed yet: {1}")
                                   .format(len(snapshot.shifts), snapshot.drafts))

    # ----- navigation -----

    def set_month(self, year: int, month: int) -> None:
        rules.month_bounds(year, month)  # refuses nonsense before anything is read
        self.year, self.month = year, month
        self.status_label.clear()
        self.reload()

    def step_month(self, step: int) -> None:
        self.set_month(*shifted(self.year, self.month, step))

    def set_classroom(self, classroom_id: int) -> None:
        self.classroom_id = classroom_id
        self.status_label.clear()
        self.reload()

    def _classroom_chosen(self, row: int) -> None:
        data = self.classroom_combo.itemData(row)
        if data is not None and data != self.classroom_id:
            self.set_classroom(int(data))

    def focus_cell(self, teacher_id: int, day: dt.date) -> None:
        """Select the cell after the next load, turning to its month if needed."""
        self._focus = (teacher_id, day)
        if (day.year, day.month) != (self.year, self.month):
            self.year, self.month = day.year, day.month
            self.reload()

    def _cell_key(self, index: QModelIndex) -> tuple[int, dt.date] | None:
        teacher, day = self.model.teacher_at(index.row()), self.model.day_at(index.column())
        return (teacher.id, day) if index.isValid() and teacher and day else None

    def _restore_cell(self, key: tuple[int, dt.date] | None) -> None:
        index = QModelIndex()
        if key is not None:
            index = self.model.index_of(*key)
            if not index.isValid():  # same teacher, another month: keep the row, start at day 1
                index = self.model.index_of(key[0], self.model.snapshot.days[0])
        if not index.isValid() and self.model.rowCount():
            today = self.model.snapshot.today
            column = today.day - 1 if today and (today.year, today.month) == (self.year, self.month) else 0
            index = self.model.index(0, column)
        if index.isValid() and index != self.table.currentIndex():
            self.table.setCurrentIndex(index)
            self.table.scrollTo(index)

    def _cell_point(self, index: QModelIndex) -> QPoint:
        return self.table.viewport().mapToGlobal(self.table.visualRect(index).center())

    # ----- other actions -----

    def _update_undo_actions(self) -> None:
        stack = self.runner.stack
        self.undo_action.setEnabled(self.runner.can_undo())
        self.redo_action.setEnabled(self.runner.can_redo())
        self.undo_action.setToolTip(self.tr("Undo {0}").format(stack.undoText()) if stack.canUndo() else self.tr("Nothing to undo"))
        self.redo_action.setToolTip(self.tr("Redo {0}").format(stack.redoText()) if stack.canRedo() else self.tr("Nothing to redo"))

    def add_classroom(self) -> None:
        dialog = ClassroomDialog(self)
        self.classroom_dialog = dialog
        db = self.ctx.db

        def create(values: ClassroomValues) -> None:
            def work() -> int:
                return classroom_setup.create_classroom(db, name=values.name, timezone=values.timezone,
                                                        line_group_id=values.line_group_id).value

            def done(classroom_id: int) -> None:
                dialog.succeeded()
                self.set_classroom(classroom_id)
                self.ctx.signals.roster_changed.emit()

            self.ctx.tasks.run(work, done, dialog.failed, owner=self)

        dialog.submitted.connect(create)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def open_lesson_slots(self) -> None:
        room = self.model.snapshot.classroom
        if room is None:
            return
        dialog = LessonSlotsDialog(room.name, self.model.snapshot.slots, self)
        self.slots_dialog = dialog
        self._open_saving(dialog, lambda db, slots: classroom_setup.set_slots(db, room.id, slots))

    def open_staffing_needs(self) -> None:
        room = self.model.snapshot.classroom
        if room is None:
            return
        snapshot = self.model.snapshot
        dialog = StaffingNeedsDialog(room.name, snapshot.slots, snapshot.stored_needs, (self.year, self.month), self)
        self.needs_dialog = dialog
        self._open_saving(dialog, lambda db, wanted: classroom_setup.set_needs(db, room.id, wanted))

    def _open_saving(self, dialog: SubmitDialog, write: Callable[[Database, Any], object]) -> None:
        """Open the dialog; its OK gives `write` (a core operation, one transaction) the database and what the dialog
        collected, then the month is read again."""
        db = self.ctx.db

        def save(values: Any) -> None:
            def work() -> None:
                write(db, values)

            def done(_: None) -> None:
                dialog.succeeded()
                self.reload()

            self.ctx.tasks.run(work, done, dialog.failed, owner=self)

        dialog.submitted.connect(save)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def open_teachers(self) -> None:
        if self.teachers_dialog is not None:
            self.teachers_dialog.raise_()
            return
        dialog = TeachersDialog(self.ctx, self, classroom_id=self.classroom_id)
        self.teachers_dialog = dialog
        dialog.changed.connect(self.reload)
        dialog.changed.connect(self.ctx.signals.roster_changed)
        dialog.finished.connect(self._teachers_closed)
        dialog.open()

    def open_availability(self) -> None:
        """The month's availability request: who answered, Ask… and Remind (ui/availability/dialog.py)."""
        from ui.availability.dialog import AvailabilityDialog

        room = self.model.snapshot.classroom
        if room is None:
            return
        dialog = AvailabilityDialog(self.ctx, room.id, room.name, self.year, self.month, self)
        self.availability_dialog = dialog
        dialog.finished.connect(self.reload)  # the grid shades the answers as they now stand
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def open_draft(self) -> None:
        """Draft the month… (ui/shifts/draft_dialog.py): solve, review, apply as one undo step."""
        room = self.model.snapshot.classroom
        if room is None:
            return
        if self.drafter is None:
            from core.planning.from_roster import draft

            self.drafter = draft
        from ui.shifts.draft_dialog import DraftDialog  # the solver library loads when first asked for

        label = f"{month_title(self.year, self.month)} ({room.name})"
        dialog = DraftDialog(self.ctx, self.runner, room.id, room.name, self.year, self.month, label, self.drafter, self)
        self.draft_dialog = dialog
        dialog.act_requested.connect(self._act_on_gap)
        dialog.setup_requested.connect(self._set_up_for_draft)
        dialog.applied.connect(self.reload)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def _set_up_for_draft(self, missing: str) -> None:
        from ui.shifts.draft_dialog import SLOTS

        if missing == SLOTS:
            self.open_lesson_slots()
        else:
            self.open_staffing_needs()

    def _act_on_gap(self, act: Act, teacher_ids: tuple[int, ...]) -> None:
        if act == Act.LIMITS:
            self.open_teachers()
            if teacher_ids and self.teachers_dialog is not None:
                self.teachers_dialog.reload(select_id=teacher_ids[0])  # Edit… is then one click away
        else:
            self.open_availability()

    def open_cover(self) -> None:
        dialog = CoverDialog(self.ctx, self)
        dialog.changed.connect(self.reload)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def _teachers_closed(self) -> None:
        if self.teachers_dialog is not None:
            self.teachers_dialog.deleteLater()
            self.teachers_dialog = None

    def _day_menu(self, column: int, where: QPoint) -> None:
        menu = self.closed_days.day_menu(column)
        if menu is not None:
            menu.popup(where)

    def _csv_scope(self) -> tuple[int | None, str, int, int]:
        room = self.model.snapshot.classroom
        return (room.id if room else None, room.name if room else "", self.year, self.month)
