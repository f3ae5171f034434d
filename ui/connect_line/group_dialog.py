"""Choosing a classroom's LINE group on its own, once LINE is connected and this app receives: Connect
LINE's group step in a small dialog, opened by the readiness check's fix for a classroom without its
group. The app's own receiving records the account's joins; the page reads them as they come."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from core.setup.line_connect import ConnectLine
from ui.connect_line.people import GroupPage
from ui.services.context import AppContext


class ChooseGroupDialog(QDialog):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.flow = ConnectLine(ctx.db)  # asked only for the account's name and receiver: it starts nothing
        self.classroom_id: int | None = None
        self.results: dict[str, str] = {}
        self.left: dict[str, str] = {}  # what the group page leaves to do: nothing to show here, the dialog closes
        self.setObjectName("chooseGroupDialog")
        self.resize(560, 420)
        self.page = GroupPage(self, self)
        self.setWindowTitle(self.page.title())
        heading = QLabel(self.page.title(), self)
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.page, 1)
        layout.addWidget(buttons)
        self.page.entered()

    def advance(self) -> None:
        self.accept()

    def complete(self) -> None:
        self.accept()

    def done(self, result: int) -> None:
        self.flow.close()  # nothing was started: this only lets go of the flow's client
        super().done(result)


def open_choose_group(ctx: AppContext, parent: QWidget | None = None) -> ChooseGroupDialog:
    """Open it (not modal: the app keeps running behind it)."""
    dialog = ChooseGroupDialog(ctx, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
