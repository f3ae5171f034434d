"""The roster's table view: keyboard editing on top of QTableView's own navigation.

Keys are handled here rather than as window shortcuts so they work only where the manager is
looking (the grid has focus) and never steal Delete or N from a text field elsewhere.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from ui.shifts.delegate import GAP, PAD, ShiftCellDelegate, block_height

OPEN_KEYS = {Qt.Key.Key_Return, Qt.Key.Key_Enter}
ADD_KEYS = {Qt.Key.Key_Insert, Qt.Key.Key_N}
DELETE_KEYS = {Qt.Key.Key_Delete, Qt.Key.Key_Backspace}  # Backspace: the delete key on a Mac keyboard


class RosterTable(QTableView):
    open_requested = Signal(QModelIndex)  # Enter, Return or double-click: edit (or add on an empty day)
    add_requested = Signal(QModelIndex)
    delete_requested = Signal(QModelIndex)
    menu_requested = Signal(QModelIndex, QPoint)  # global position
    day_menu_requested = Signal(int, QPoint)  # a day's column header was right-clicked; global position

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setItemDelegate(ShiftCellDelegate(self))
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.setWordWrap(False)
        self.setCornerButtonEnabled(False)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        horizontal = self.horizontalHeader()
        horizontal.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        horizontal.setDefaultSectionSize(self.fontMetrics().horizontalAdvance("00:00") + 20)
        horizontal.setHighlightSections(True)
        horizontal.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        horizontal.customContextMenuRequested.connect(self._day_menu_at)
        vertical = self.verticalHeader()
        # Fixed heights set from the data (fit_rows), not ResizeToContents: that asks every cell's
        # size hint on every change, which froze the window for seconds with a large staff.
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self._row_height(1))
        vertical.setHighlightSections(True)
        self.doubleClicked.connect(self.open_requested)
        self.customContextMenuRequested.connect(self._menu_at)

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        if model is not None:
            # A month whose headings need another line (a closed day's 休) keeps the header's height
            # unless asked: the first January shown cut 1/1's heading.
            model.modelReset.connect(self.updateGeometries)
            model.headerDataChanged.connect(lambda *_: self.updateGeometries())

    def _row_height(self, stacked: int) -> int:
        return stacked * (block_height(self.font()) + GAP) + 2 * PAD

    def fit_rows(self, stacked_per_row: list[int]) -> None:
        vertical = self.verticalHeader()
        for row, stacked in enumerate(stacked_per_row):
            height = self._row_height(stacked)
            if vertical.sectionSize(row) != height:
                vertical.resizeSection(row, height)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        index = self.currentIndex()
        plain = event.modifiers() in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
        key = Qt.Key(event.key())
        if index.isValid() and plain:
            if key in OPEN_KEYS:
                self.open_requested.emit(index)
                return
            if key in ADD_KEYS:
                self.add_requested.emit(index)
                return
            if key in DELETE_KEYS:
                self.delete_requested.emit(index)
                return
        if index.isValid() and key == Qt.Key.Key_Menu:
            self.menu_requested.emit(index, self.viewport().mapToGlobal(self.visualRect(index).center()))
            return
        super().keyPressEvent(event)

    def _menu_at(self, position: QPoint) -> None:
        index = self.indexAt(position)
        if index.isValid():
            self.setCurrentIndex(index)
            self.menu_requested.emit(index, self.viewport().mapToGlobal(position))

    def _day_menu_at(self, position: QPoint) -> None:
        header = self.horizontalHeader()
        column = header.logicalIndexAt(position)
        if column >= 0:
            self.day_menu_requested.emit(column, header.mapToGlobal(position))
