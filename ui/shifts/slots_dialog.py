"""The shown classroom's lesson slots (コマ): a list of rows such as "1限  16:50–18:10", a line to add one and
Remove for the chosen one; OK saves them all (core/roster/lesson_slots.py set_slots). The shift dialog
then offers them to enter a shift's times by."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QLabel, QLineEdit, QSizePolicy, QVBoxLayout, QWidget

from core.roster import clock, lesson_slots
from core.roster.lesson_slots import LessonSlot
from ui.common.form_dialog import SubmitDialog
from ui.common.phrases import PhraseLabel
from ui.common.row_list import Row, RowList
from ui.common.widgets import TimeField


def slot_text(slot: LessonSlot) -> str:
    return f"{slot.name}  {clock.format_wall_time(slot.start_time)}–{clock.format_wall_time(slot.end_time)}"


class LessonSlotsDialog(SubmitDialog):
    def __init__(self, classroom: str, slots: Sequence[LessonSlot], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Lesson slots of {0}").format(classroom))
        self.setMinimumWidth(420)
        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("e.g. 1限"))
        self.name.setMaxLength(lesson_slots.NAME_LIMIT)
        stretch = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        stretch.setHorizontalStretch(1)
        self.name.setSizePolicy(stretch)
        self.start, self.end = TimeField(self), TimeField(self)
        self.rows = RowList([self.name, self.start, QLabel("–", self), self.end], self._make,
                            [(slot_text(s), s) for s in slots], name=self.tr("Lesson slots"), parent=self)
        explain = PhraseLabel(self.tr("A shift can then be entered by its slot in the shift dialog; it keeps its own "
                                 "times, so changing a slot later moves no shift."), self)
        explain.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(explain)
        layout.addWidget(self.rows)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

    def _make(self) -> Row:
        slot = lesson_slots.check(LessonSlot(self.name.text(), self.start.wall_time(), self.end.wall_time()))
        self.name.clear()
        return slot_text(slot), slot

    def collect(self) -> list[LessonSlot]:
        return list(self.rows.values())
