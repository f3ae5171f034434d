"""Under the roster: per day and lesson slot, the teachers assigned against those needed (必要人数), "2/3"
— red and bold when short, purple and italic when over, so it reads without colour too. A row per slot, a
column per day, scrolled with the grid above it; a slot nobody needs or works in the month has no row, and a
classroom that sets no needs shows none.

The numbers are core's (`MonthSnapshot.coverage`, core/roster/needs.py); this only shows them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from core.planning.month_grid import MonthSnapshot
from core.roster import clock
from core.roster.needs import SlotCover
from ui.common import dates
from ui.shifts.grid import CLOSED_TINT

SHORT_INK, SHORT_TINT = QColor(190, 30, 45), QColor(190, 30, 45, 34)  # the grid's Sunday red
OVER_INK, OVER_TINT = QColor(110, 50, 160), QColor(110, 50, 160, 30)
COVER_ROLE = Qt.ItemDataRole.UserRole + 1  # SlotCover | None

AnyIndex = QModelIndex | QPersistentModelIndex


class NeedsModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._slots: list[str] = []
        self._days: list[dt.date] = []
        self._cells: dict[tuple[dt.date, str], SlotCover] = {}
        self._closed: set[dt.date] = set()

    def set_snapshot(self, snapshot: MonthSnapshot) -> None:
        covers = snapshot.coverage()
        self.beginResetModel()
        self._cells = {(c.day, c.slot): c for c in covers}
        wanted = {c.slot for c in covers if c.needed or c.assigned}  # a slot nobody needs nor works this month: no row
        self._slots = [s.name for s in snapshot.slots if s.name in wanted]
        self._days = snapshot.days if wanted else []
        self._closed = set(snapshot.closed)
        self.endResetModel()

    def cover_at(self, row: int, column: int) -> SlotCover | None:
        if not (0 <= row < len(self._slots) and 0 <= column < len(self._days)):
            return None
        return self._cells.get((self._days[column], self._slots[row]))

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._slots)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._days)

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        return Qt.ItemFlag.ItemIsEnabled if index.isValid() else Qt.ItemFlag.NoItemFlags

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        cover = self.cover_at(index.row(), index.column()) if index.isValid() else None
        if cover is None:
            return None
        if role == COVER_ROLE:
            return cover
        if role == Qt.ItemDataRole.DisplayRole:
            return "" if cover.needed == cover.assigned == 0 else f"{cover.assigned}/{cover.needed}"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return Qt.AlignmentFlag.AlignCenter
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(SHORT_INK) if cover.short else QBrush(OVER_INK) if cover.over else None
        if role == Qt.ItemDataRole.BackgroundRole:
            if cover.short:
                return QBrush(SHORT_TINT)
            if cover.over:
                return QBrush(OVER_TINT)
            return QBrush(CLOSED_TINT) if cover.day in self._closed else None
        if role == Qt.ItemDataRole.FontRole and (cover.short or cover.over):
            font = QFont()
            font.setBold(bool(cover.short))
            font.setItalic(bool(cover.over))
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(cover)
        return None

    def _tooltip(self, cover: SlotCover) -> str:
        lines = [f"{cover.slot} {clock.format_wall_time(cover.start)}–{clock.format_wall_time(cover.end)} — "
                 f"{dates.day_text(cover.day)}",
                 self.tr("Needed: {0} · Assigned: {1}").format(cover.needed, cover.assigned)]
        if cover.short:
            lines.append(self.tr("Short by {0}").format(cover.short))
        elif cover.over:
            lines.append(self.tr("Over by {0}").format(cover.over))
        if cover.day in self._closed:
            lines.append(self.tr("Closed: nobody is needed"))
        lines.append(self.tr("A shift counts when it covers the whole slot."))
        return "\n".join(lines)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self._slots):
            if role == Qt.ItemDataRole.DisplayRole:
                return self._slots[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return self.tr("Teachers in {0}: assigned/needed").format(self._slots[section])
        return None


class NeedsStrip(QWidget):
    """A caption and the needs table, lined up with the roster `table` above it."""

    def __init__(self, table: QTableView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = table
        self.model = NeedsModel(self)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        self.view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.horizontalHeader().hide()
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setCornerButtonEnabled(False)
        self.view.setAccessibleName(self.tr("Staffing needs"))
        vertical = self.view.verticalHeader()
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 6)
        horizontal = self.view.horizontalHeader()
        horizontal.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        horizontal.setDefaultSectionSize(table.horizontalHeader().defaultSectionSize())
        self.caption = QLabel(self.tr("Teachers per lesson slot, assigned/needed: red and bold is short, purple "
                                      "and italic is over (Classroom setup → Staffing needs… sets them)"), self)
        self._layout = layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)  # on the right, room for the grid's scroll bar: align()
        layout.setSpacing(1)
        layout.addWidget(self.caption)
        layout.addWidget(self.view)
        # Scrolled with the grid: its columns sit under the same days.
        table.horizontalScrollBar().valueChanged.connect(self.view.horizontalScrollBar().setValue)
        self.view.horizontalScrollBar().valueChanged.connect(table.horizontalScrollBar().setValue)  # a wheel here
        table.verticalScrollBar().rangeChanged.connect(lambda *_: self.align())
        self.hide()

    def set_snapshot(self, snapshot: MonthSnapshot) -> None:
        self.model.set_snapshot(snapshot)
        self.setVisible(self.model.rowCount() > 0)
        self.view.setFixedHeight(self.model.rowCount() * self.view.verticalHeader().defaultSectionSize()
                                 + 2 * self.view.frameWidth())
        self.align()

    def align(self) -> None:
        """The same heading width and scroll bar room as the grid, so each day sits under its column."""
        grid_header, own_header = self.table.verticalHeader(), self.view.verticalHeader()
        grid_header.setMinimumWidth(0)
        if not self.model.rowCount():
            return
        own_header.setMinimumWidth(0)
        width = max(grid_header.sizeHint().width(), own_header.sizeHint().width())
        grid_header.setMinimumWidth(width)
        own_header.setMinimumWidth(width)
        bar = self.table.verticalScrollBar()
        self._layout.setContentsMargins(0, 2, bar.sizeHint().width() if bar.maximum() > 0 else 0, 0)
        self.view.horizontalScrollBar().setValue(self.table.horizontalScrollBar().value())
