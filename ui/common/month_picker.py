"""The month shown by the Shifts and Publish areas: which month opens, stepping, its title, its label."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QCoreApplication, QDate, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QWidget

from core.roster import clock
from ui.common import dates


def default_month(today: dt.date) -> tuple[int, int]:
    """After the 20th the manager is preparing next month's roster; before, this month's (the demo seeds
    its availability request for the same month, so both follow one rule)."""
    return clock.planning_month(today)


def shifted(year: int, month: int, step: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + step
    return index // 12, index % 12 + 1


def month_title(year: int, month: int) -> str:
    # The pattern is translatable: "MMMM yyyy" in English, "yyyy年M月" in Japanese.
    pattern = QCoreApplication.translate("MonthPicker", "MMMM yyyy", "date pattern of the month picker")
    return dates.locale().toString(QDate(year, month, 1), pattern)


def month_label(parent: QWidget) -> QLabel:
    """The bold month title between the previous/next buttons, wide enough for the longest month."""
    label = QLabel(parent)
    font = QFont(label.font())
    font.setBold(True)
    font.setPointSizeF(font.pointSizeF() * 1.25)
    label.setFont(font)
    label.setMinimumWidth(label.fontMetrics().horizontalAdvance("September 2026") + 16)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    return label
