"""A teacher's weekly patterns in the teacher dialog: a list of rows such as "Tue 17:00–21:00 at 本校", and a
line to add one (weekday, start, end, classroom) or remove the chosen one.

What the list holds is saved with the teacher (core/roster/patterns.py set_teacher_patterns); the
Shifts area's "Fill from patterns" makes the month's drafts from it. A pattern added here holds from
always and for good; one with dates (made elsewhere) keeps them and shows them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from PySide6.QtWidgets import QComboBox, QLabel, QSizePolicy, QVBoxLayout, QWidget

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
        self.start.setText("17:00")
        self.end.setText("21:00")
        self.classroom = QComboBox(self)
        for room_id, name in classrooms:
            self.classroom.addItem(name, room_id)
        stretch = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        stretch.setHorizontalStretch(1)
        self.classroom.setSizePolicy(stretch)
        fields = [self.weekday, self.start, QLabel("–", self), self.end, QLabel(self.tr("at"), self), self.classroom]
        self.rows = RowList(fields, self._make, [(self.row_text(p), p) for p in weekly],
                            name=self.tr("Weekly patterns"), parent=self)
        self.list, self.problem = self.rows.list, self.rows.problem
        self.add_button, self.remove_button = self.rows.add_button, self.rows.remove_button
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

    def _make(self) -> Row:
        pattern = patterns.check(Pattern(0, int(self.classroom.currentData()), int(self.weekday.currentData()),
                                         self.start.wall_time(), self.end.wall_time(), rules.FIRST_DAY))
        return self.row_text(pattern), pattern

    def weekly(self) -> tuple[Pattern, ...]:
        """The list as it stands, for a teacher id yet to be given (0)."""
        return tuple(sorted(self.rows.values(), key=lambda p: (p.weekday, p.start_time)))
