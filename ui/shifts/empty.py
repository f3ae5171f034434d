"""A friendly page for when there is nothing to show yet, with the one button that fixes it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ui.common.phrases import PhraseLabel


class EmptyState(QWidget):
    def __init__(self, title: str, text: str, button_text: str, on_click: Callable[[], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        heading = QLabel(title, self)
        font = QFont(heading.font())
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        heading.setFont(font)
        body = PhraseLabel(text, self)
        body.setWordWrap(True)
        body.setFixedWidth(440)  # a fixed width lets the wrapped text take the height it needs
        self.button = QPushButton(button_text, self)
        self.button.clicked.connect(on_click)
        body.setAlignment(Qt.AlignmentFlag.AlignCenter)
        # Centred by stretches, not by an alignment flag: an aligned item ignores height-for-width and
        # would clip the wrapped text.
        middle = QHBoxLayout()
        middle.addStretch(1)
        middle.addWidget(body)
        middle.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(heading, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addLayout(middle)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)
