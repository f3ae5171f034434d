"""A teacher's weekly patterns in the teacher dialog: a list of rows such as "Tue 17:00–21:00 at 本校", and a
line to add one (weekday, start, end, classroom) or remove the chosen one.

What the list holds is saved with the teacher (core/roster/patterns.py set_teacher_patterns); the
Shifts area's "Fill from patterns" makes the month's drafts from it. A pattern added here holds from
always and for good; one with dates (made elsewhere) keeps them and shows them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.errors import ValidationError
from core.roster import clock, patterns, rules
from core.roster.patterns import Pattern
from ui.common import dates, i18n

A_MONDAY = dt.date(2024, 1, 1)  # any Monday: weekday names are read from real dates, in the shown language


def weekday_name(weekday: int) -> str:
    return dates.weekday_short(A_MONDAY + dt.timedelta(days=weekday))


class PatternsEditor(QWidget):
    def __init__(self, classrooms: Sequence[tuple[int, str]], weekly: Sequence[Pattern],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.classrooms = dict(classrooms)
        self.list = QListWidget(self)
        self.list.setMaximumHeight(self.fontMetrics().height() * 5 + 8)
        self.list.setAccessibleName(self.tr("Weekly patterns"))
        self.weekday = QComboBox(self)
        for day in range(7):
            self.weekday.addItem(weekday_name(day), day)
        self.weekday.setCurrentIndex(1)  # Tuesday rather than Monday: no choice reads as a choice made
        self.start = QLineEdit("17:00", self)
        self.end = QLineEdit("21:00", self)
        for field in (self.start, self.end):
            field.setPlaceholderText(self.tr("HH:MM"))
            field.setMaximumWidth(self.fontMetrics().horizontalAdvance("000:000") + 16)
        self.classroom = QComboBox(self)
        for room_id, name in classrooms:
            self.classroom.addItem(name, room_id)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.setAutoDefault(False)
        self.add_button.clicked.connect(self.add_from_fields)
        self.add_button.setEnabled(bool(classrooms))
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setAutoDefault(False)
        self.remove_button.clicked.connect(self.remove_chosen)
        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        self.problem.hide()

        adding = QHBoxLayout()
        adding.addWidget(self.weekday)
        adding.addWidget(self.start)
        adding.addWidget(QLabel("–", self))
        adding.addWidget(self.end)
        adding.addWidget(QLabel(self.tr("at"), self))
        adding.addWidget(self.classroom, 1)
        adding.addWidget(self.add_button)
        adding.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        layout.addLayout(adding)
        layout.addWidget(self.problem)
        for pattern in weekly:
            self._append(pattern)

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

    def _append(self, pattern: Pattern) -> None:
        item = QListWidgetItem(self.row_text(pattern), self.list)
        item.setData(Qt.ItemDataRole.UserRole, pattern)

    def add_from_fields(self) -> None:
        try:
            start, _ = clock.parse_wall_time(self.start.text())
            end, _ = clock.parse_wall_time(self.end.text())
            pattern = patterns.check(Pattern(0, int(self.classroom.currentData()), int(self.weekday.currentData()),
                                             start, end, rules.FIRST_DAY))
        except ValidationError as exc:
            self.problem.setText(i18n.describe(exc))
            self.problem.show()
            return
        self.problem.hide()
        self._append(pattern)
        self.list.setCurrentRow(self.list.count() - 1)

    def remove_chosen(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            self.list.takeItem(row)

    def weekly(self) -> tuple[Pattern, ...]:
        """The list as it stands, for a teacher id yet to be given (0)."""
        found = (self.list.item(row).data(Qt.ItemDataRole.UserRole) for row in range(self.list.count()))
        return tuple(sorted(found, key=lambda p: (p.weekday, p.start_time)))
