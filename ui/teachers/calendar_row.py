"""The teacher dialog's calendar row: Copy puts the teacher's private calendar address on the clipboard (made
the first time), New address replaces it once the manager confirms, as when a phone with it was lost.
Shown only while the teachers' page is on and a relay serves the address (core/calendar/addresses.py)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMessageBox, QPushButton, QWidget

from core.calendar import addresses
from ui.common import i18n
from ui.services.context import AppContext


class CalendarRow(QWidget):
    offered = Signal(bool)  # whether the row has anything to give: the dialog shows it only then

    def __init__(self, ctx: AppContext, teacher_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.teacher_id = teacher_id
        self.copy_button = QPushButton(self.tr("Copy"), self)
        self.copy_button.setToolTip(self.tr("Put the address of this teacher's calendar on the clipboard, to send "
                                            "them; their phone's calendar follows their shifts from it"))
        self.copy_button.setAutoDefault(False)
        self.copy_button.clicked.connect(self.copy)
        self.new_button = QPushButton(self.tr("New address…"), self)
        self.new_button.setToolTip(self.tr("Give this teacher's calendar a new address: the old one stops working"))
        self.new_button.setAutoDefault(False)
        self.new_button.clicked.connect(self.renew)
        self.result = QLabel(self)
        self.result.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.copy_button)
        row.addWidget(self.new_button)
        row.addWidget(self.result, 1)

    def start(self) -> None:
        """Ask whether there is an address to give (the page on, a relay attached); `offered` tells."""
        db = self.ctx.db
        self.ctx.tasks.run(lambda: addresses.offered(db), self.offered.emit, lambda _exc: self.offered.emit(False),
                           owner=self)

    def copy(self) -> None:
        db, teacher_id = self.ctx.db, self.teacher_id
        self._busy(True)
        self.ctx.tasks.run(lambda: addresses.address(db, teacher_id), self._copied, self._failed, owner=self)

    def renew(self) -> None:
        answer = QMessageBox.question(
            self, self.tr("New calendar address"),
            self.tr("Give this teacher's calendar a new address?\n\n"
                    "The old address stops working at the next sync with the relay: a phone that follows it "
                    "no longer gets the shifts. Send the teacher the new one."),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return
        db, teacher_id = self.ctx.db, self.teacher_id
        self._busy(True)
        self.ctx.tasks.run(lambda: addresses.new_address(db, teacher_id), self._renewed, self._failed, owner=self)

    def _busy(self, busy: bool) -> None:
        self.copy_button.setEnabled(not busy)
        self.new_button.setEnabled(not busy)

    def _copied(self, url: str) -> None:
        self._busy(False)
        QGuiApplication.clipboard().setText(url)
        self.result.setText(self.tr("Copied."))

    def _renewed(self, url: str) -> None:
        self._busy(False)
        QGuiApplication.clipboard().setText(url)
        self.result.setText(self.tr("New address copied."))

    def _failed(self, exc: BaseException) -> None:
        self._busy(False)
        self.result.setText(i18n.describe(exc))
