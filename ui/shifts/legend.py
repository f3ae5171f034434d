"""The small legend under the roster: what draft, confirmed and canceled look like, the day colours, and
the marks of the teachers' availability.

Samples are painted by the same code as the grid, so the legend cannot drift from what it explains.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRect, QRectF, QSize
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from core.store.kinds import ShiftStatus
from ui.shifts.delegate import TODAY_TINT, block_height, paint_block, paint_can_work, paint_closed
from ui.shifts.grid import SAT_TINT, SUN_TINT


class _ShiftSample(QWidget):
    def __init__(self, status: ShiftStatus, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.status = status

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance("00:00") + 12, block_height(self.font()))

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        paint_block(painter, QRectF(self.rect()), self.status, "16:00", "21:00", self.palette(), self.font())


class _DaySample(QWidget):
    def __init__(self, colour: QColor, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colour = colour
        self.setFixedSize(16, 16)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().base())
        painter.fillRect(self.rect(), QColor(self.colour.red(), self.colour.green(), self.colour.blue(), 90))
        painter.drawRect(self.rect().adjusted(0, 0, -1, -1))


class _MarkSample(QWidget):
    """A day cell's mark (closed, can work, cannot work), painted by the grid's own function."""

    def __init__(self, paint: Callable[[QPainter, QRect], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.paint = paint
        self.setFixedSize(16, 16)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().base())
        self.paint(painter, self.rect())
        painter.drawRect(self.rect().adjusted(0, 0, -1, -1))


class RosterLegend(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        samples: list[tuple[QWidget, str]] = [
            (_ShiftSample(ShiftStatus.DRAFT, self), self.tr("Draft (teachers not told yet)")),
            (_ShiftSample(ShiftStatus.CONFIRMED, self), self.tr("Confirmed")),
            (_ShiftSample(ShiftStatus.CANCELED, self), self.tr("Canceled")),
            (_DaySample(SAT_TINT, self), self.tr("Saturday")),
            (_DaySample(SUN_TINT, self), self.tr("Sunday / holiday")),
            (_MarkSample(paint_closed, self), self.tr("Closed day")),
            (_DaySample(TODAY_TINT, self), self.tr("Today")),
            (_MarkSample(lambda p, r: paint_can_work(p, r, True), self), self.tr("Can work (availability)")),
            (_MarkSample(lambda p, r: paint_can_work(p, r, False), self), self.tr("Cannot work")),
        ]
        for sample, text in samples:
            layout.addWidget(sample)
            layout.addWidget(QLabel(text, self))
            layout.addSpacing(10)
        layout.addStretch(1)
