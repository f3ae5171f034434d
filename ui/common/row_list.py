"""A short list edited in place: rows shown one a line, a line of fields with Add below them, and Remove
for the chosen row. What a row is, and how the fields become one, is the caller's; a refusal is said
under the fields (a ValidationError's sentence) and adds nothing. A caller that can put a row back into
the fields (`show`) also gets Change: choosing a row fills the fields, and Change makes the row what
they now say.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from core.errors import ValidationError
from ui.common import i18n
from ui.common.phrases import PhraseLabel

Row = tuple[str, Any]  # what the list shows, and the value it stands for


class RowList(QWidget):
    def __init__(self, fields: Sequence[QWidget], make: Callable[[], Row], rows: Iterable[Row], *, name: str,
                 show: Callable[[Any], None] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._make, self._show = make, show
        self.list = QListWidget(self)
        self.list.setMaximumHeight(self.fontMetrics().height() * 5 + 8)
        self.list.setAccessibleName(name)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.setAutoDefault(False)
        self.add_button.clicked.connect(self.add_from_fields)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setAutoDefault(False)
        self.remove_button.clicked.connect(self.remove_chosen)
        self.change_button = QPushButton(self.tr("Change"), self)
        self.change_button.setAutoDefault(False)
        self.change_button.clicked.connect(self.change_chosen)
        self.change_button.setVisible(show is not None)
        self.change_button.setEnabled(False)
        self.list.currentRowChanged.connect(self._chosen)
        self.problem = PhraseLabel(self)
        self.problem.setWordWrap(True)
        self.problem.hide()
        adding = QHBoxLayout()
        for field in fields:
            adding.addWidget(field, 1 if field.sizePolicy().horizontalStretch() else 0)
        adding.addWidget(self.add_button)
        adding.addWidget(self.change_button)
        adding.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        layout.addLayout(adding)
        layout.addWidget(self.problem)
        for row in rows:
            self._append(row)

    def _append(self, row: Row) -> None:
        item = QListWidgetItem(row[0], self.list)
        item.setData(Qt.ItemDataRole.UserRole, row[1])

    def _from_fields(self) -> Row | None:
        try:
            row = self._make()
        except ValidationError as exc:
            self.problem.setText(i18n.describe(exc))
            self.problem.show()
            return None
        self.problem.hide()
        return row

    def add_from_fields(self) -> None:
        row = self._from_fields()
        if row is not None:
            self._append(row)
            self.list.setCurrentRow(self.list.count() - 1)

    def _chosen(self, row: int) -> None:
        self.change_button.setEnabled(row >= 0)
        if row >= 0 and self._show is not None:
            self._show(self.list.item(row).data(Qt.ItemDataRole.UserRole))

    def change_chosen(self) -> None:
        item = self.list.currentItem()
        row = self._from_fields() if item is not None else None
        if item is not None and row is not None:
            item.setText(row[0])
            item.setData(Qt.ItemDataRole.UserRole, row[1])

    def remove_chosen(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            # The row after it is not chosen by this: filling the fields with it would look like a choice made.
            blocked = self.list.blockSignals(True)
            self.list.takeItem(row)
            self.list.setCurrentRow(-1)
            self.list.blockSignals(blocked)
            self.change_button.setEnabled(False)

    def values(self) -> list[Any]:
        return [self.list.item(row).data(Qt.ItemDataRole.UserRole) for row in range(self.list.count())]
