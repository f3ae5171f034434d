"""A short list edited in place: rows shown one a line, a line of fields with Add below them, and Remove
for the chosen row. What a row is, and how the fields become one, is the caller's; a refusal is said
under the fields (a ValidationError's sentence) and adds nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from core.errors import ValidationError
from ui.common import i18n

Row = tuple[str, Any]  # what the list shows, and the value it stands for


class RowList(QWidget):
    def __init__(self, fields: Sequence[QWidget], make: Callable[[], Row], rows: Iterable[Row], *, name: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._make = make
        self.list = QListWidget(self)
        self.list.setMaximumHeight(self.fontMetrics().height() * 5 + 8)
        self.list.setAccessibleName(name)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.setAutoDefault(False)
        self.add_button.clicked.connect(self.add_from_fields)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setAutoDefault(False)
        self.remove_button.clicked.connect(self.remove_chosen)
        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        self.problem.hide()
        adding = QHBoxLayout()
        for field in fields:
            adding.addWidget(field, 1 if field.sizePolicy().horizontalStretch() else 0)
        adding.addWidget(self.add_button)
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

    def add_from_fields(self) -> None:
        try:
            row = self._make()
        except ValidationError as exc:
            self.problem.setText(i18n.describe(exc))
            self.problem.show()
            return
        self.problem.hide()
        self._append(row)
        self.list.setCurrentRow(self.list.count() - 1)

    def remove_chosen(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            self.list.takeItem(row)

    def values(self) -> list[Any]:
        return [self.list.item(row).data(Qt.ItemDataRole.UserRole) for row in range(self.list.count())]
