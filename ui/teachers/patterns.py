"""A teacher's weekly patterns in the teacher dialog: a list of rows such as "Tue 17:00–21:00 at 本校 from
… until …", a line to add one (weekday, start, end, classroom) with the dates it holds between, each
optional, and Change and Remove for the chosen one (choosing a row puts it back into the fields).

What the list holds is saved with the teacher (core/roster/patterns.py set_teacher_patterns); the
Shifts area's "Fill from patterns" makes the month's drafts from it, on the days inside each pattern's
dates. Without a from date a pattern holds from always; without an until date, for good.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from PySide6.QtCore import QDate
from PySide6.QtWidgets import QCheckBox, QComboBox, QDateEdit, QLabel, QSizePolicy, QVBoxLayout, QWidget

from core.roster import clock, patterns, rules
from core.roster.patterns import Pattern
from ui.common import dates
from ui.common.row_list import Row, RowList
from ui.common.widgets import TimeField

A_MONDAY = dt.date(2024, 1, 1)  # any Monday: weekday names are read from real dates, in the shown language


def weekday_name(weekday: int) -> str:
    return dates.weekday_short(A_MONDAY + dt.timedelta(days=weekday))


class PatternsEditor(QWidget):
    def __init__(self, classrooms: Sequence[tuple[int, str]], weekly: Sequence[Pattern],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.classrooms = dict(classrooms)
        self.weekday = QComboBox(self)
        for day in range(7):
            self.weekday.addItem(weekday_name(day), day)
        self.weekday.setCurrentIndex(1)  # Tuesday rather than Monday: no choice reads as a choice made
        self.start, self.end = TimeField(self), TimeField(self)
        for field in (self.start, self.end):  # a long line of fields must not squeeze a time out of sight
            field.setMinimumWidth(field.fontMetrics().horizontalAdvance("00:00") + 20)
        self.start.setText("17:00")
        self.end.setText("21:00")
        self.classroom = QComboBox(self)
        for room_id, name in classrooms:
            self.classroom.addItem(name, room_id)
        stretch = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        stretch.setHorizontalStretch(1)
        self.classroom.setSizePolicy(stretch)
        self.from_check, self.from_day = QCheckBox(self.tr("From"), self), self._day_field()
        self.until_check, self.until_day = QCheckBox(self.tr("until"), self), self._day_field()
        for check, date_field in ((self.from_check, self.from_day), (self.until_check, self.until_day)):
            date_field.setEnabled(False)
            check.toggled.connect(date_field.setEnabled)
        fields = [self.weekday, self.start, QLabel("–", self), self.end, QLabel(self.tr("at"), self), self.classroom,
                  self.from_check, self.from_day, self.until_check, self.until_day]
        self.rows = RowList(fields, self._make, [(self.row_text(p), p) for p in weekly],
                            name=self.tr("Weekly patterns"),
                            show=self.show_pattern, parent=self)
        self.list, self.problem = self.rows.list, self.rows.problem
        self.add_button, self.remove_button = self.rows.add_button, self.rows.remove_button
        self.change_button = self.rows.change_button
        self.add_button.setEnabled(bool(classrooms))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.rows)

    def row_text(self, pattern: Pattern) -> str:
        """ "Tue 17:00–21:00 at 本校", with its dates when it has any."""
        room = self.classrooms.get(pattern.classroom_id, f"#{pattern.classroom_id}")
        text = self.tr("{0} {1}–{2} at {3}").format(weekday_name(pattern.weekday), clock.format_wall_time(
            pattern.start_time), clock.format_wall_time(pattern.end_time), room)
        if pattern.valid_from > rules.FIRST_DAY:
            text += " " + self.tr("from {0}").format(dates.day_text(pattern.valid_from))
        if pattern.valid_until is not None:
            text += " " + self.tr("until {0}").format(dates.day_text(pattern.valid_until))
        return text

    def _day_field(self) -> QDateEdit:
        field = QDateEdit(QDate.currentDate(), self)
        field.setCalendarPopup(True)
        field.setLocale(dates.locale())
        field.setDisplayFormat(dates.day_pattern())
        first, last = rules.FIRST_DAY, rules.LAST_DAY
        field.setDateRange(QDate(first.year, first.month, first.day), QDate(last.year, last.month, last.day))
        return field

    def _make(self) -> Row:
        valid_from = dates.day_of(self.from_day.date()) if self.from_check.isChecked() else rules.FIRST_DAY
        valid_until = dates.day_of(self.until_day.date()) if self.until_check.isChecked() else None
        pattern = patterns.check(Pattern(0, int(self.classroom.currentData()), int(self.weekday.currentData()),
                                         self.start.wall_time(), self.end.wall_time(), valid_from, valid_until))
        return self.row_text(pattern), pattern

    def show_pattern(self, pattern: Pattern) -> None:
        """The chosen row back in the fields, to be changed."""
        self.weekday.setCurrentIndex(self.weekday.findData(pattern.weekday))
        self.start.setText(clock.format_wall_time(pattern.start_time))
        self.end.setText(clock.format_wall_time(pattern.end_time))
        if self.classroom.findData(pattern.classroom_id) >= 0:
            self.classroom.setCurrentIndex(self.classroom.findData(pattern.classroom_id))
        for check, field, day in ((self.from_check, self.from_day,
                                   pattern.valid_from if pattern.valid_from > rules.FIRST_DAY else None),
                                  (self.until_check, self.until_day, pattern.valid_until)):
            check.setChecked(day is not None)
            if day is not None:
                field.setDate(QDate(day.year, day.month, day.day))

    def weekly(self) -> tuple[Pattern, ...]:
        """The list as it stands, for a teacher id yet to be given (0)."""
        return tuple(sorted(self.rows.values(), key=lambda p: (p.weekday, p.start_time)))
