"""Adding or editing one shift: teacher, date, start, end (after midnight allowed), note.

Times are typed as the manager writes them (17:00, 1700, 17時30分, full-width digits) and shown
back as HH:MM once the field is left. The end accepts 26:00 the way Japanese rosters write it, or
02:00 with "ends the next day" ticked; either way the field is shown back as 02:00 with the box
ticked, so there is one way to read it.
The status is shown, not edited: drafts are confirmed with the month and confirmed shifts are
canceled from the grid, because each of those tells the teachers something. Below it, a warning
while the chosen teacher answered the month's availability request that they cannot work that day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from core.errors import ValidationError
from core.planning.month_grid import ShiftItem, TeacherItem
from core.roster import clock
from core.roster.closed_days import ClosedDay
from core.roster.lesson_slots import LessonSlot
from core.roster.rules import ShiftChange
from core.store.kinds import ShiftStatus
from ui.common import dates
from ui.common.form_dialog import SubmitDialog
from ui.common.phrases import PhraseLabel
from ui.common.wrapped_text import keep_text_visible
from ui.shifts.grid import status_word


@dataclass(frozen=True)
class ShiftValues:
    teacher_id: int
    local_date: dt.date
    start_time: dt.time
    end_time: dt.time
    ends_next_day: bool
    note: str

    def changes_from(self, shift: ShiftItem) -> tuple[ShiftChange, ShiftChange]:
        """(before, after) of the fields that differ: the edit and the edit that takes it back."""
        before: dict[str, Any] = {}
        after: dict[str, Any] = {}
        for name in ("teacher_id", "local_date", "start_time", "end_time", "ends_next_day", "note"):
            old, new = getattr(shift, name), getattr(self, name)
            if old != new:
                before[name], after[name] = old, new
        return ShiftChange(**before), ShiftChange(**after)


class ShiftDialog(SubmitDialog):
    def __init__(self, teachers: Sequence[TeacherItem], *, shift: ShiftItem | None = None,
                 teacher_id: int | None = None, day: dt.date, start: str = "16:00", end: str = "21:00",
                 closed: Mapping[dt.date, ClosedDay] | None = None, slots: Sequence[LessonSlot] = (),
                 said_no: Callable[[int, dt.date], bool] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.shift = shift
        self._closed = closed or {}
        self._said_no = said_no
        self.setWindowTitle(self.tr("Edit shift") if shift else self.tr("Add shift"))
        self.setMinimumWidth(380)

        self.teacher = QComboBox(self)
        choices = list(teachers)
        if shift is not None and all(t.id != shift.teacher_id for t in choices):
            choices.append(TeacherItem(shift.teacher_id, self.tr("(teacher #{0})").format(shift.teacher_id), False))
        for item in choices:
            self.teacher.addItem(item.name, item.id)
        wanted = shift.teacher_id if shift else teacher_id
        if wanted is not None and self.teacher.findData(wanted) >= 0:
            self.teacher.setCurrentIndex(self.teacher.findData(wanted))

        self.date = dates.day_field(shift.local_date if shift else day, self)
        # A closed day warns and does not refuse: a make-up lesson or a meeting may fall on one.
        self.closed_warning = PhraseLabel(self)
        self.closed_warning.setWordWrap(True)
        self.date.dateChanged.connect(self._warn_if_closed)

        self.start = QLineEdit(shift.start_text if shift else start, self)
        self.start.setPlaceholderText(self.tr("HH:MM"))
        self.start.setToolTip(self.tr("Start time in the classroom's time zone, e.g. 16:00, 1600 or 16時"))
        end_text = clock.format_wall_time(shift.end_time) if shift else end
        self.end = QLineEdit(end_text, self)
        self.end.setPlaceholderText(self.tr("HH:MM"))
        self.end.setToolTip(self.tr("End time. After midnight: tick \"ends the next day\", or type 26:00 for 2:00."))
        self.next_day = QCheckBox(self.tr("ends the next day"), self)
        self.next_day.setChecked(bool(shift and shift.ends_next_day))
        self.start.editingFinished.connect(self._normalise_start)
        self.end.editingFinished.connect(self._normalise_end)
        for field in (self.start, self.end):
            field.setMaximumWidth(self.fontMetrics().horizontalAdvance("000:000") + 16)

        # Entering by lesson slot (コマ) fills start and end; the times stay editable, and are what is saved.
        self.slot = QComboBox(self)
        self.slot.addItem(self.tr("(times as typed)"), None)
        for slot in slots:
            self.slot.addItem(f"{slot.name}  {clock.format_wall_time(slot.start_time)}–"
                              f"{clock.format_wall_time(slot.end_time)}", slot)
        self.slot.setVisible(bool(slots))
        shown = (self.start.text(), self.end.text())
        for row, slot in enumerate(slots, start=1):  # a shift at a slot's times shows that slot
            if shown == (clock.format_wall_time(slot.start_time), clock.format_wall_time(slot.end_time)):
                self.slot.setCurrentIndex(row)
                break
        self.slot.activated.connect(self._slot_chosen)

        self.note = QLineEdit(shift.note if shift else "", self)
        self.note.setPlaceholderText(self.tr("Shown to the teacher, e.g. what to bring"))
        self.note.setMaxLength(1000)

        status = shift.status if shift else ShiftStatus.DRAFT
        explain = {
            ShiftStatus.DRAFT: self.tr("teachers are told when you confirm the month"),
            ShiftStatus.CONFIRMED: self.tr("a change is sent to the teacher as a correction"),
            ShiftStatus.CANCELED: self.tr("this shift stays canceled"),
        }[status]
        self.status = PhraseLabel(f"{status_word(status)} — {explain}", self)
        self.status.setWordWrap(True)
        self.unavailable = PhraseLabel(self)
        self.unavailable.setWordWrap(True)
        self.unavailable.hide()
        self.teacher.currentIndexChanged.connect(self._check_availability)
        self.date.dateChanged.connect(self._check_availability)

        times = QHBoxLayout()
        times.addWidget(self.start)
        times.addWidget(QLabel("–", self))
        times.addWidget(self.end)
        times.addWidget(self.next_day)
        times.addStretch(1)
        form = QFormLayout()
        form.addRow(self.tr("&Teacher:"), self.teacher)
        form.addRow(self.tr("&Date:"), self.date)
        form.addRow(self.closed_warning)
        if slots:
            form.addRow(self.tr("&Lesson:"), self.slot)
        time_label = QLabel(self.tr("&Time:"), self)
        time_label.setBuddy(self.start)  # a row holding a layout gets no buddy, so no mnemonic, by itself
        form.addRow(time_label, times)
        form.addRow(self.tr("&Note:"), self.note)
        form.addRow(self.tr("Status:"), self.status)
        form.addRow("", self.unavailable)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        ok = self.buttons.button(self.buttons.StandardButton.Ok)
        ok.setText(self.tr("Save") if shift else self.tr("Add"))
        self._normalise_end()
        self._warn_if_closed()
        self._check_availability()
        keep_text_visible(self)  # the form layout would cut the status's second line when the dialog is made small
        (self.start if shift is None else self.teacher).setFocus()

    def _slot_chosen(self) -> None:
        slot = self.slot.currentData()
        if isinstance(slot, LessonSlot):
            self.start.setText(clock.format_wall_time(slot.start_time))
            self.end.setText(clock.format_wall_time(slot.end_time))
            self.next_day.setChecked(False)

    def _warn_if_closed(self) -> None:
        picked = self.date.date()
        closed = self._closed.get(dt.date(picked.year(), picked.month(), picked.day()))
        if closed is None:
            self.closed_warning.clear()
        elif closed.note:
            self.closed_warning.setText(self.tr("⚠ The classroom is closed this day ({0}). The shift can be "
                                                "saved all the same.").format(closed.note))
        else:
            self.closed_warning.setText(self.tr("⚠ The classroom is closed this day. The shift can be saved "
                                                "all the same."))
        self.closed_warning.setVisible(closed is not None)

    def _check_availability(self) -> None:
        """Warn while the chosen teacher said they cannot work on the chosen day (a warning: the manager decides)."""
        day = self.date.date()
        teacher_id = self.teacher.currentData()
        no = (self._said_no is not None and teacher_id is not None
              and self._said_no(int(teacher_id), dt.date(day.year(), day.month(), day.day())))
        self.unavailable.setText(self.tr("⚠ {0} said they cannot work on this day.").format(self.teacher.currentText())
                                 if no else "")
        self.unavailable.setVisible(no)

    def _normalise_start(self) -> None:
        try:
            start, _ = clock.parse_wall_time(self.start.text())
        except ValidationError:
            return  # said when OK is pressed
        self.start.setText(clock.format_wall_time(start))

    def _normalise_end(self) -> None:
        try:
            end, next_day = clock.parse_wall_time(self.end.text(), allow_next_day=True)
        except ValidationError:
            return  # said when OK is pressed
        self.end.setText(clock.format_wall_time(end))
        if next_day:
            self.next_day.setChecked(True)

    def collect(self) -> ShiftValues:
        if self.teacher.currentIndex() < 0:
            raise ValidationError(self.tr("Add a teacher first (Teachers…)."))
        start, _ = clock.parse_wall_time(self.start.text())
        end, typed_next_day = clock.parse_wall_time(self.end.text(), allow_next_day=True)
        day = self.date.date()
        return ShiftValues(
            teacher_id=int(self.teacher.currentData()),
            local_date=dt.date(day.year(), day.month(), day.day()),
            start_time=start,
            end_time=end,
            ends_next_day=typed_next_day or self.next_day.isChecked(),
            note=self.note.text().strip(),
        )
