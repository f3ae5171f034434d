"""Painting roster cells: each shift is a small block, start over end, marked by its status.

Status must read at a glance and without colour alone (colour-blind managers, grey-scale printouts):
a draft is italic with a dashed outline, a confirmed shift is solid, a canceled one is struck
through and faint. The legend (ui/shifts/legend.py) paints its samples with the same function.

Behind the shifts, a teacher's answer to the month's availability request: a day they can work is
shaded, one they cannot is hatched (the other way from a closed day's hatch), so they differ
without colour too.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from core.roster.availability_text import NO, DayAnswer
from core.store.kinds import ShiftStatus
from ui.shifts.grid import (
    AVAILABILITY_ROLE,
    CLOSED_HATCH,
    CLOSED_ROLE,
    CLOSED_TINT,
    DAY_KIND_ROLE,
    SAT_TINT,
    SHIFTS_ROLE,
    SUN_TINT,
    TODAY_ROLE,
)

CONFIRMED_FILL = QColor(27, 127, 91, 38)  # the accent green of the published image, light
CONFIRMED_EDGE = QColor(27, 127, 91, 150)
ACK_INK = QColor(16, 90, 60)  # the same green, dark: 7:1 on the confirmed fill, still 4.5:1 under a day tint
TODAY_EDGE = QColor(230, 150, 0)
TODAY_TINT = QColor(255, 236, 153, 70)
AVAILABLE_TINT = QColor(43, 108, 176, 40)  # the availability request's blue, light
UNAVAILABLE_HATCH = QColor(160, 60, 60, 120)  # reddish, hatched the other way from a closed day's grey
PAD, GAP = 3, 2


def block_height(font: QFont) -> int:
    return QFontMetrics(font).height() * 2 + 4


def paint_block(painter: QPainter, rect: QRectF, status: ShiftStatus, start: str, end: str,
                palette: QPalette, font: QFont) -> None:
    """One shift: start on the first line, end on the second."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    text_font = QFont(font)
    ink = palette.color(QPalette.ColorRole.Text)
    outline = rect.adjusted(0.5, 0.5, -0.5, -0.5)
    if status == ShiftStatus.DRAFT:
        painter.setPen(QPen(palette.color(QPalette.ColorRole.PlaceholderText), 1, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(outline, 3, 3)
        text_font.setItalic(True)
        ink = palette.color(QPalette.ColorRole.PlaceholderText)
    elif status == ShiftStatus.CONFIRMED:
        painter.setPen(QPen(CONFIRMED_EDGE, 1))
        painter.setBrush(CONFIRMED_FILL)
        painter.drawRoundedRect(outline, 3, 3)
    else:
        text_font.setStrikeOut(True)
        ink = QColor(ink)
        ink.setAlpha(110)
    painter.setFont(text_font)
    painter.setPen(ink)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"{start}\n{end}")
    painter.restore()


def paint_acknowledged(painter: QPainter, rect: QRectF, font: QFont) -> None:
    """A ✓ in the block's top right corner: the teacher tapped 了解 (the tooltip says when).

    Drawn as two strokes, not a glyph: a small font's ✓ was a faint hairline, clipped where the
    font lacked it, and the times leave only a few pixels free beside them. Opaque ink, so it keeps
    its contrast over any day tint or the selection.
    """
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    side = max(QFontMetrics(font).height() * 0.5, 6.0)
    box = QRectF(rect.right() - side - 1, rect.top() + 2, side, side)
    pen = QPen(ACK_INK, max(side / 4, 1.6))
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.drawPolyline([QPointF(box.left(), box.top() + side * 0.55),
                          QPointF(box.left() + side * 0.38, box.bottom()),
                          QPointF(box.right(), box.top())])
    painter.restore()


def paint_closed(painter: QPainter, rect: QRect | QRectF) -> None:
    """A closed day: grey, with a diagonal hatch so it reads without colour (the legend paints its sample so)."""
    painter.fillRect(rect, CLOSED_TINT)
    painter.fillRect(rect, QBrush(CLOSED_HATCH, Qt.BrushStyle.BDiagPattern))


def paint_availability(painter: QPainter, rect: QRect, answer: DayAnswer | None) -> None:
    """Shade a day the teacher can work (all of it or some hours), hatch one they cannot."""
    if answer is not None:
        paint_can_work(painter, rect, answer.answer != NO)


def paint_can_work(painter: QPainter, rect: QRect | QRectF, can: bool) -> None:
    """The grid's availability marks (the legend paints its samples so)."""
    if can:
        painter.fillRect(rect, AVAILABLE_TINT)
    else:
        painter.fillRect(rect, QBrush(UNAVAILABLE_HATCH, Qt.BrushStyle.FDiagPattern))


class ShiftCellDelegate(QStyledItemDelegate):
    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        painter.save()
        rect = option.rect
        state = option.state
        palette: QPalette = option.palette
        # The view's style has already filled a selected cell with the solid highlight; start again from
        # the base colour so the day tint and the status marks stay readable under a light highlight.
        painter.fillRect(rect, palette.base())
        kind = index.data(DAY_KIND_ROLE)
        if kind == "sat":
            painter.fillRect(rect, SAT_TINT)
        elif kind in ("sun", "holiday"):
            painter.fillRect(rect, SUN_TINT)
        if index.data(CLOSED_ROLE):
            paint_closed(painter, rect)
        paint_availability(painter, rect, index.data(AVAILABILITY_ROLE))
        if index.data(TODAY_ROLE):
            painter.fillRect(rect, TODAY_TINT)
            painter.setPen(QPen(TODAY_EDGE, 2))
            painter.drawLine(rect.topLeft(), rect.bottomLeft())
            painter.drawLine(rect.topRight(), rect.bottomRight())
        if state & QStyle.StateFlag.State_Selected:
            highlight = QColor(palette.color(QPalette.ColorRole.Highlight))
            highlight.setAlpha(70)
            painter.fillRect(rect, highlight)
        if state & QStyle.StateFlag.State_HasFocus:
            painter.setPen(QPen(palette.color(QPalette.ColorRole.Highlight), 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(rect.adjusted(1, 1, -1, -1))
        font = option.font
        height = block_height(font)
        y = rect.top() + PAD
        for shift in index.data(SHIFTS_ROLE) or ():
            block = QRectF(rect.left() + PAD, y, rect.width() - 2 * PAD, height)
            paint_block(painter, block, shift.status, shift.start_text, shift.end_text, palette, font)
            if shift.acknowledged_at is not None:
                paint_acknowledged(painter, block, font)
            y += height + GAP
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        font = option.font
        count = max(len(index.data(SHIFTS_ROLE) or ()), 1)
        width = QFontMetrics(font).horizontalAdvance("00:00") + 4 * PAD + 4
        return QSize(width, count * (block_height(font) + GAP) + 2 * PAD)
