"""The "Connect LINE" wizard: Settings → LINE → Connect LINE…, and the first-start welcome.

It drives core/setup/line_connect.py one step per page (ui/connect_line/pages.py), each step on
`ctx.tasks`, so the window never freezes on LINE or on cloudflared. `PAGES` is the order; the group
and the teachers' pages (ui/connect_line/people.py) come after the webhook test, while LINE reaches
the receiver; the teachers' page (ui/connect_line/teachers_page.py), optional, last before the summary.

Closing it before the end (Cancel, Esc, the window's ×) finishes the flow without keeping anything:
LINE's earlier webhook address is put back and the tunnel and the receiver stop. A flow the owner
chose to keep receiving hands over to the app's own receiving (ctx.receiving), which starts again at
the address kept; where the app does not receive (the demo), the flow lives on in `KEPT` until it quits.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QStackedWidget, QVBoxLayout, QWidget

from core.setup.line_connect import ConnectLine
from ui.common.wrapped_text import keep_text_visible
from ui.connect_line.pages import AddressPage, CredentialsPage, NextStepsPage, WebhookPage, WizardPage
from ui.connect_line.people import GroupPage, TeachersPage
from ui.connect_line.teachers_page import TeachersPageStep
from ui.services.context import AppContext

PAGES: tuple[type[WizardPage], ...] = (CredentialsPage, AddressPage, WebhookPage, GroupPage, TeachersPage,
                                       TeachersPageStep, NextStepsPage)


class _Kept(QObject):
    """Flows kept receiving after their wizard closed; stopped when the app quits."""

    def __init__(self) -> None:
        super().__init__()
        self.flows: list[ConnectLine] = []

    def keep(self, flow: ConnectLine) -> None:
        app = QCoreApplication.instance()
        if not self.flows and app is not None:
            app.aboutToQuit.connect(self.stop_all)
        self.flows.append(flow)

    def stop_all(self) -> None:
        flows, self.flows = self.flows, []
        for flow in flows:
            flow.close()


KEPT = _Kept()


class ConnectLineDialog(QDialog):
    use_token_instead = Signal()  # the owner would rather paste a long-lived token
    connected = Signal()  # finished: settings changed

    def __init__(self, ctx: AppContext, parent: QWidget | None = None,
                 pages: tuple[type[WizardPage], ...] = PAGES) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.flow = ConnectLine(ctx.db)
        self.classroom_id: int | None = None
        self.results: dict[str, str] = {}
        self.left: dict[str, str] = {}
        self._closing = False
        self.setWindowTitle(self.tr("Connect LINE"))
        self.setObjectName("connectLineDialog")
        self.resize(640, 480)
        self.heading = QLabel(self)
        self.heading.setObjectName("pageHeading")
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.heading.setFont(font)
        self.step = QLabel(self)
        self.step.setObjectName("pageStep")
        self.stack = QStackedWidget(self)
        self.pages: list[WizardPage] = []
        for page_class in pages:
            page = page_class(self, self.stack)
            page.changed.connect(self._update)
            self.stack.addWidget(page)
            self.pages.append(page)
            if isinstance(page, CredentialsPage):
                page.use_token_instead.connect(self._token_instead)
        self.back = QPushButton(self.tr("Back"), self)
        self.back.setObjectName("back")
        self.next = QPushButton(self)
        self.next.setObjectName("next")
        self.next.setDefault(True)
        self.cancel = QPushButton(self.tr("Cancel"), self)
        self.cancel.setObjectName("cancel")
        self.back.clicked.connect(self._back)
        self.next.clicked.connect(lambda: self.page.go_next())
        self.cancel.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addWidget(self.step)
        buttons.addStretch(1)
        for button in (self.back, self.next, self.cancel):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.stack, 1)
        layout.addLayout(buttons)
        for page in self.pages:
            if isinstance(page, NextStepsPage):
                keep_text_visible(page)  # its summary grows to several lines once it is shown
        self._show(0)

    @property
    def page(self) -> WizardPage:
        page = self.stack.currentWidget()
        assert isinstance(page, WizardPage)
        return page

    # ----- Host (what the pages ask) -----

    def advance(self) -> None:
        index = self.stack.currentIndex()
        if index + 1 < len(self.pages):
            self._show(index + 1)

    def complete(self) -> None:
        if any(isinstance(page, NextStepsPage) and page.keep.isChecked() for page in self.pages):
            receiving = self.ctx.receiving
            if receiving is None:
                KEPT.keep(self.flow)
            else:  # the app's own receiving takes over at the address kept (core/setup/receiving.py)
                flow = self.flow

                def hand_over() -> None:
                    flow.close()
                    receiving.restart()

                self.ctx.tasks.run(hand_over, owner=self)  # nothing to answer: the work runs whatever becomes of the wizard
        self._closing = True  # the flow has finished: closing has nothing left to put back
        self.ctx.bridge.settings_changed.emit()
        self.ctx.wake_sender()  # the sender may use the channel ID and secret from now on
        self.connected.emit()
        self.accept()

    # ----- navigation -----

    def _show(self, index: int) -> None:
        self.stack.setCurrentIndex(index)
        page = self.page
        self.heading.setText(page.title())
        self.step.setText(self.tr("Step {0} of {1}").format(index + 1, len(self.pages)))
        page.entered()
        self._update()

    def _back(self) -> None:
        index = self.stack.currentIndex()
        if index > 0:
            self._show(index - 1)

    def _update(self) -> None:
        page = self.page
        index = self.stack.currentIndex()
        self.next.setText(page.next_text())
        self.next.setEnabled(page.ready())
        # Going back over a step that runs by itself (the webhook test) would run it again; only the
        # step before the address may be revisited while nothing is running.
        self.back.setEnabled(index > 0 and not page.busy and not isinstance(page, NextStepsPage)
                             and not isinstance(self.pages[index - 1], WebhookPage))

    def _token_instead(self) -> None:
        self.use_token_instead.emit()
        self.reject()

    # ----- closing -----

    def done(self, result: int) -> None:
        """Every way of closing ends here (Finish, Cancel, Esc, the window's ×)."""
        if not self._closing:
            self._closing = True
            flow = self.flow
            # Put back whatever was changed; a closed dialog no longer needs the answer.
            self.ctx.tasks.run(lambda: flow.finish(keep_receiving=False), owner=self)
        super().done(result)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not self.next.isEnabled():
            return  # Enter must not press a disabled Next through the default button
        super().keyPressEvent(event)


def open_connect_line(ctx: AppContext, parent: QWidget | None = None) -> ConnectLineDialog:
    """Open the wizard (not modal: the app keeps running behind it)."""
    dialog = ConnectLineDialog(ctx, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
