"""The Shifts area's toolbar: month, classroom and its setup (add one, lesson slots, staffing needs), undo and
redo, teachers, CSV, make drafts (draft the month with the solver, fill from patterns or last month), confirm month.

Every action is also added to the area itself, so its shortcut works wherever the focus is inside
the Shifts tab (and nowhere else in the window).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMenu,
    QSizePolicy,
    QStyle,
    QToolBar,
    QToolButton,
    QWidget,
)

from ui.common.month_picker import month_label
from ui.shifts.csv_files import CsvActions

Slot = Callable[[], object]


class ShiftsToolbar(QToolBar):
    def __init__(self, owner: QWidget, *, step_month: Callable[[int], object], add_classroom: Slot, undo: Slot,
                 redo: Slot, teachers: Slot, csv: CsvActions, fill_month: Slot, copy_last_month: Slot,
                 lesson_slots: Slot, confirm_month: Slot, cover: Slot, availability: Slot, staffing_needs: Slot,
                 draft_month: Slot | None = None) -> None:
        super().__init__(owner)
        self.owner = owner
        style = owner.style()
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)

        self.prev_action = self._action(self.tr("Previous month"), style.standardIcon(QStyle.StandardPixmap.SP_ArrowBack),
                                        ["Ctrl+PgUp"], lambda: step_month(-1))
        self.next_action = self._action(self.tr("Next month"), style.standardIcon(QStyle.StandardPixmap.SP_ArrowForward),
                                        ["Ctrl+PgDown"], lambda: step_month(1))
        self.month_label = month_label(self)
        self.addAction(self.prev_action)
        self.addWidget(self.month_label)
        self.addAction(self.next_action)
        for action in (self.prev_action, self.next_action):
            if isinstance(button := self.widgetForAction(action), QToolButton):
                button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        self.addSeparator()

        self.addWidget(QLabel(self.tr("Classroom:"), self))
        self.classroom_combo = QComboBox(self)
        self.classroom_combo.setMinimumContentsLength(12)
        self.classroom_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.classroom_combo.setToolTip(self.tr("The classroom whose roster is shown"))
        self.addWidget(self.classroom_combo)
        self.add_classroom_action = self._action(self.tr("Add classroom…"), None, [], add_classroom)
        self.slots_action = self._action(self.tr("Lesson slots…"), None, [], lesson_slots)
        self.slots_action.setToolTip(self.tr("The classroom's lesson slots (コマ), to enter a shift by"))
        self.needs_action = self._action(self.tr("Staffing needs…"), None, [], staffing_needs)
        self.needs_action.setToolTip(self.tr("How many teachers each lesson slot needs (必要人数), by weekday and "
                                             "for single dates"))
        self.addWidget(self._classroom_button())
        self.addSeparator()

        redo_keys = ["Ctrl+Shift+Z"] + [k.toString() for k in QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
                                        if k != QKeySequence("Ctrl+Shift+Z")]
        self.undo_action = self._action(self.tr("Undo"), QIcon.fromTheme(QIcon.ThemeIcon.EditUndo),
                                        [QKeySequence(QKeySequence.StandardKey.Undo).toString()], undo)
        self.redo_action = self._action(self.tr("Redo"), QIcon.fromTheme(QIcon.ThemeIcon.EditRedo), redo_keys, redo)
        self.addAction(self.undo_action)
        self.addAction(self.redo_action)
        self.addSeparator()

        self.teachers_action = self._action(self.tr("Teachers…"), None, ["Ctrl+T"], teachers)
        self.addAction(self.teachers_action)
        self.addWidget(self._csv_button(csv))
        self.addSeparator()
        self.availability_action = self._action(self.tr("Availability…"), None, [], availability)
        self.availability_action.setToolTip(self.tr("Ask the teachers on LINE which days they can work this month, "
                                                    "and see their answers"))
        self.addAction(self.availability_action)
        self.fill_action = self._action(self.tr("Fill from patterns"), None, [], fill_month)
        self.fill_action.setToolTip(self.tr("Make drafts for every day of this month the teachers' weekly patterns "
                                            "fall on, except closed days and days a teacher already works"))
        self.copy_last_action = self._action(self.tr("Copy last month"), None, [], copy_last_month)
        self.copy_last_action.setToolTip(self.tr("Make drafts from last month's confirmed shifts, the 1st Tuesday "
                                                 "to the 1st Tuesday and so on, except closed days"))
        self.draft_action = self._action(self.tr("Draft the month…"), None, [], draft_month or (lambda: None))
        self.draft_action.setToolTip(self.tr("Make a draft of this month from the availability answers, staffing "
                                             "needs and teachers' limits, to review before it is written"))
        self.draft_action.setVisible(draft_month is not None)
        self.addWidget(self._drafts_button())
        self.cover_action = self._action(self.tr("Cover requests…"), None, [], cover)
        self.addAction(self.cover_action)
        spacer = QWidget(self)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.addWidget(spacer)
        self.confirm_action = self._action(self.tr("Confirm month…"),
                                           style.standardIcon(QStyle.StandardPixmap.SP_DialogApplyButton), [], confirm_month)
        self.confirm_action.setToolTip(self.tr("Confirm every draft of this month; teachers are then told and reminded"))
        self.addAction(self.confirm_action)

    def _action(self, text: str, icon: QIcon | None, keys: list[str], slot: Slot) -> QAction:
        action = QAction(text, self.owner)
        if icon is not None and not icon.isNull():
            action.setIcon(icon)
        if keys:
            sequences = [QKeySequence(k) for k in keys]
            action.setShortcuts(sequences)
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.setToolTip(f"{text} ({sequences[0].toString(QKeySequence.SequenceFormat.NativeText)})")
        action.triggered.connect(slot)
        self.owner.addAction(action)
        return action

    def _classroom_button(self) -> QToolButton:
        """Setting a classroom up (adding one, its lesson slots, what each slot needs) under one button beside
        the classroom, so the toolbar fits a 1280-wide screen in either language."""
        self.classroom_button = self._menu_button(
            self.tr("Classroom setup"),
            self.tr("Add a classroom, or set the classroom's lesson slots (コマ) and how many teachers each needs"),
            [[self.add_classroom_action], [self.slots_action, self.needs_action]])
        return self.classroom_button

    def _drafts_button(self) -> QToolButton:
        """The ways of making a month's drafts, under one button so the toolbar fits a 1280-wide screen."""
        self.drafts_button = self._menu_button(
            self.tr("Make drafts"),
            self.tr("Draft the month from the availability answers, or fill it from the weekly patterns or last "
                    "month"),
            [[self.draft_action], [self.fill_action, self.copy_last_action]])
        return self.drafts_button

    def _menu_button(self, text: str, tip: str, groups: list[list[QAction]]) -> QToolButton:
        """A button that opens a menu of the given actions, a separator between the groups."""
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        menu.setToolTipsVisible(True)
        for i, group in enumerate(groups):
            if i:
                menu.addSeparator()
            menu.addActions(group)
        button.setMenu(menu)
        return button

    def _csv_button(self, csv: CsvActions) -> QToolButton:
        button = QToolButton(self)
        button.setText(self.tr("CSV"))
        button.setToolTip(self.tr("Import or export teachers and shifts as CSV (Excel)"))
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        menu.addAction(self.tr("Import teachers…"), csv.import_teachers)
        menu.addAction(self.tr("Import shifts…"), csv.import_shifts)
        menu.addSeparator()
        menu.addAction(self.tr("Export teachers…"), csv.export_teachers)
        menu.addAction(self.tr("Export this month's shifts…"), csv.export_shifts)
        button.setMenu(menu)
        return button
