"""A teacher's limits and wishes in the teacher dialog (its Limits tab): at most so many shifts, hours,
days in a row and weekend days a month, at least so many hours, a share of the work, and the lesson
slots they can teach, a tick each per classroom (none ticked: all of that classroom's).

Counts are spin boxes whose lowest step reads "No limit"; hours are typed as a manager writes them
(40, 40:30, 40.5) and kept as minutes. What is entered is read and checked by core
(core/roster/limits.py), so the dialog refuses exactly what a CSV file or the command line would.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core.roster import limits
from core.roster.limits import Limits, SlotName


class LimitsEditor(QWidget):
    def __init__(self, chosen: Limits, slots: Sequence[SlotName], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        none = self.tr("No limit")
        self.max_shifts = self._count(-1, limits.MAX_SHIFTS, chosen.max_shifts, none)
        self.max_shifts.setSuffix(self.tr(" shifts"))
        self.max_hours = self._hours(chosen.max_minutes, none)
        self.min_hours = self._hours(chosen.min_minutes, self.tr("None"))
        self.max_days_in_a_row = self._count(0, limits.MAX_DAYS, chosen.max_days_in_a_row, none)
        self.max_days_in_a_row.setSuffix(self.tr(" days"))
        self.max_weekend_days = self._count(-1, limits.MAX_WEEKEND_DAYS, chosen.max_weekend_days, none)
        self.max_weekend_days.setSuffix(self.tr(" days"))
        self.share = self._count(0, limits.MAX_SHARE, chosen.target_share, self.tr("Like everyone (1)"))
        self.share.setToolTip(self.tr("A relative weight: a teacher with 2 is given about twice the work of one with 1."))
        self.slot_boxes: dict[int, QCheckBox] = {}
        rooms = QGridLayout()
        rooms.setContentsMargins(0, 0, 0, 0)
        row = 0
        for classroom in dict.fromkeys(s.classroom for s in slots):
            rooms.addWidget(QLabel(classroom, self), row, 0)
            for n, slot in enumerate(s for s in slots if s.classroom == classroom):
                box = QCheckBox(slot.name, self)
                box.setChecked(chosen.slots is not None and slot.id in chosen.slots)
                self.slot_boxes[slot.id] = box
                rooms.addWidget(box, row + n // 6, 1 + n % 6)  # six a line: a long day of slots stays narrow
            row = rooms.rowCount()
        rooms.setColumnStretch(7, 1)  # the ticks stay together at the left

        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        form.addRow(self.tr("Most shifts a &month:"), self.max_shifts)
        for label, edit in ((self.tr("Most &hours a month:"), self.max_hours),
                            (self.tr("&Fewest hours a month:"), self.min_hours)):
            line = QHBoxLayout()
            line.addWidget(edit)
            line.addWidget(QLabel(self.tr("hours (40, 40:30 or 40.5)"), self))
            line.addStretch(1)
            caption = QLabel(label, self)
            caption.setBuddy(edit)  # a row holding a layout gets no buddy, so no mnemonic, by itself
            form.addRow(caption, line)
        form.addRow(self.tr("Most &days in a row:"), self.max_days_in_a_row)
        form.addRow(self.tr("Most Saturdays and &Sundays a month:"), self.max_weekend_days)
        form.addRow(self.tr("Share of w&ork:"), self.share)
        hint = QLabel(self.tr("Lesson slots they can teach. None ticked in a classroom: all of its slots."), self)
        hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(hint)
        if self.slot_boxes:
            layout.addLayout(rooms)
        else:
            layout.addWidget(QLabel(self.tr("No classroom has lesson slots yet (Classroom settings)."), self))
        layout.addStretch(1)

    def _count(self, low: int, high: int, value: int | None, none: str) -> QSpinBox:
        """A spin box whose lowest step, one below the lowest value allowed, is "no limit"."""
        spin = QSpinBox(self)
        spin.setRange(low, high)
        spin.setSpecialValueText(none)
        spin.setValue(low if value is None else value)
        spin.setMinimumWidth(spin.fontMetrics().horizontalAdvance(none) + 60)
        return spin

    def _hours(self, minutes: int | None, placeholder: str) -> QLineEdit:
        edit = QLineEdit("" if minutes is None else limits.clock_hours(minutes), self)
        edit.setPlaceholderText(placeholder)
        edit.setMaxLength(10)
        edit.setFixedWidth(edit.fontMetrics().horizontalAdvance(self.tr("No limit")) + 40)  # both the same
        return edit

    def limits(self) -> Limits:
        """What is entered; ValidationError (in the manager's language) for hours that are not hours or
        limits out of range."""
        def count(spin: QSpinBox) -> int | None:
            return None if spin.value() == spin.minimum() else spin.value()

        ticked = frozenset(slot_id for slot_id, box in self.slot_boxes.items() if box.isChecked())
        return limits.check(Limits(
            max_shifts=count(self.max_shifts),
            max_minutes=limits.parse_hours(self.max_hours.text(), "max_minutes"),
            min_minutes=limits.parse_hours(self.min_hours.text(), "min_minutes"),
            max_days_in_a_row=count(self.max_days_in_a_row),
            max_weekend_days=count(self.max_weekend_days),
            target_share=count(self.share),
            slots=ticked or None,
        ))
