"""Copying a shift to other days of the month: tick the days, get all copies or none.

A list rather than a calendar: it fits the keyboard (Space ticks, arrows move) and each day can say
why it is special (the source day, a day that already has a shift for this teacher).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.errors import ValidationError
from core.planning.month_grid import ShiftItem
from core.roster.copying import CopyRejected
from ui.common import dates, i18n
from ui.common.form_dialog import SubmitDialog
from ui.shifts.grid import date_label

DAY_ROLE = Qt.ItemDataRole.UserRole + 1


class CopyDaysDialog(SubmitDialog):
    def __init__(self, shift: ShiftItem, teacher_name: str, days: Sequence[dt.date],
                 busy_days: Collection[dt.date] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.shift = shift
        self.setWindowTitle(self.tr("Copy shift to other days"))
        self.resize(360, 520)
        intro = QLabel(
            self.tr("Copy {0}'s shift {1}–{2} of {3} to the days ticked below. The copies are drafts; "
                    "if any day clashes, nothing is copied.").format(
                teacher_name, shift.start_text, shift.end_text, date_label(shift.local_date)),
            self,
        )
        intro.setWordWrap(True)
        self.days = QListWidget(self)
        for day in days:
            item = QListWidgetItem(date_label(day), self.days)
            item.setData(DAY_ROLE, day)
            if day == shift.local_date:
                item.setText(self.tr("{0} — this shift").format(date_label(day)))
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled & ~Qt.ItemFlag.ItemIsUserCheckable)
            else:
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Unchecked)
                if day in busy_days:
                    item.setText(self.tr("{0} — already has a shift").format(date_label(day)))
        same = QPushButton(self.tr("Same &weekday"), self)
        same.setToolTip(self.tr("Tick every {0} of the month").format(dates.locale().dayName(shift.local_date.isoweekday())))
        same.clicked.connect(lambda: self._tick(lambda d: d.weekday() == shift.local_date.weekday()))
        every = QPushButton(self.tr("&All"), self)
        every.clicked.connect(lambda: self._tick(lambda d: True))
        none = QPushButton(self.tr("&None"), self)
        none.clicked.connect(lambda: self._tick(lambda d: False))
        quick = QHBoxLayout()
        for button in (same, every, none):
            button.setAutoDefault(False)
            quick.addWidget(button)
        quick.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(quick)
        layout.addWidget(self.days, 1)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.buttons.button(self.buttons.StandardButton.Ok).setText(self.tr("Copy"))
        self.days.setFocus()

    def _tick(self, wanted: Callable[[dt.date], bool]) -> None:
        for item in self._checkable():
            item.setCheckState(Qt.CheckState.Checked if wanted(item.data(DAY_ROLE)) else Qt.CheckState.Unchecked)

    def _checkable(self) -> list[QListWidgetItem]:
        items = [self.days.item(row) for row in range(self.days.count())]
        return [i for i in items if i.flags() & Qt.ItemFlag.ItemIsUserCheckable]

    def set_checked(self, days: Collection[dt.date]) -> None:
        self._tick(lambda d: d in days)

    def collect(self) -> list[dt.date]:
        chosen = [i.data(DAY_ROLE) for i in self._checkable() if i.checkState() == Qt.CheckState.Checked]
        if not chosen:
            raise ValidationError(self.tr("Tick at least one day."))
        return chosen

    def failed(self, exc: BaseException) -> None:
        if isinstance(exc, CopyRejected):
            super().failed(exc)
            lines = [self.tr("Nothing was copied:")]
            lines += [f"• {date_label(p.day)}: {i18n.render(p.problem)}" for p in exc.problems]
            self.error.show_text("\n".join(lines))
        else:
            super().failed(exc)
