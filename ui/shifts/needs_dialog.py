"""The shown classroom's staffing needs (必要人数): a table of lesson slots × weekdays, one number box each
(Tab moves across, a blank "–" is nobody), and a list of dates whose number wins over their weekday's (an
exam-prep week needs more). OK saves them all in one transaction (core/roster/needs.py set_needs)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from core.errors import ValidationError
from core.roster import needs as staffing
from core.roster.lesson_slots import LessonSlot
from core.roster.needs import Need
from core.texts import t
from ui.common import dates
from ui.common.form_dialog import SubmitDialog
from ui.common.row_list import Row, RowList

MONDAY = dt.date(2024, 1, 1)


class CountBox(QSpinBox):
    """A number of teachers; 0 shows as "–" so the numbers set stand out. Its text is chosen whenever it gets
    the focus (a click too), so typing a digit replaces it rather than landing beside the dash."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(0, staffing.COUNT_LIMIT)
        self.setSpecialValueText("–")
        self.setAlignment(Qt.AlignmentFlag.AlignRight)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        QTimer.singleShot(0, self.selectAll)


def override_text(need: Need) -> str:
    """ "Tue 12 Jan 2027  4限: 5" / "2027年1月12日(火)  4限: 5人". """
    assert need.day is not None
    return QCoreApplication.translate("StaffingNeedsDialog", "{0}  {1}: {2}",
                                      "a date's staffing need: the day, the lesson slot, how many teachers").format(
        dates.day_text(need.day), need.slot, need.count)


class StaffingNeedsDialog(SubmitDialog):
    def __init__(self, classroom: str, slots: Sequence[LessonSlot], needs: Sequence[Need], month: tuple[int, int],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Staffing needs of {0}").format(classroom))
        self.slot_names = [s.name for s in slots]
        explain = QLabel(self.tr("How many teachers each lesson slot needs on each weekday. The Shifts grid shows "
                                 "the month's days against them; closed days need nobody."), self)
        explain.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(explain)
        self.boxes: dict[tuple[str, int], QSpinBox] = {}
        table = QGridLayout()
        table.setHorizontalSpacing(6)
        for weekday in range(7):
            heading = QLabel(dates.weekday_short(MONDAY + dt.timedelta(days=weekday)), self)
            heading.setAlignment(Qt.AlignmentFlag.AlignCenter)
            table.addWidget(heading, 0, weekday + 1)
        weekly = {(n.slot, n.weekday): n.count for n in needs if n.weekday is not None}
        # Made row by row, so Tab moves across a slot's weekdays, then down to the next slot.
        for row, slot in enumerate(slots, start=1):
            table.addWidget(QLabel(slot.name, self), row, 0)
            for weekday in range(7):
                box = CountBox(self)
                box.setValue(weekly.get((slot.name, weekday), 0))
                box.setAccessibleName(f"{slot.name} {dates.weekday_short(MONDAY + dt.timedelta(days=weekday))}")
                self.boxes[(slot.name, weekday)] = box
                table.addWidget(box, row, weekday + 1)
        layout.addLayout(table)
        if not slots:
            layout.addWidget(QLabel(self.tr("This classroom has no lesson slots yet: add them in Lesson slots… "
                                            "first."), self))

        layout.addWidget(QLabel(self.tr("Dates that need another number (they win over their weekday):"), self))
        self.date = dates.day_field(dt.date(month[0], month[1], 1), self)
        self.slot = QComboBox(self)
        self.slot.addItems(self.slot_names)
        self.count = CountBox(self)
        self.count.setValue(1)
        dated = [(override_text(n), n) for n in needs if n.day is not None]
        self.overrides = RowList([self.date, self.slot, self.count], self._make, dated,
                                 name=self.tr("Dates that need another number"), parent=self)
        self.overrides.setEnabled(bool(slots))
        layout.addWidget(self.overrides)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

    def _make(self) -> Row:
        day = self.date.date().toPython()
        assert isinstance(day, dt.date)
        need = staffing.check(Need(self.slot.currentText(), self.count.value(), day=day), self.slot_names)
        if any(n.slot == need.slot and n.day == need.day for n in self.overrides.values()):
            raise ValidationError(t("needs.twice", name=need.slot, day=day.isoformat()))
        return override_text(need), need

    def collect(self) -> list[Need]:
        weekly = [Need(slot, box.value(), weekday=weekday) for (slot, weekday), box in self.boxes.items()
                  if box.value()]
        return weekly + list(self.overrides.values())
