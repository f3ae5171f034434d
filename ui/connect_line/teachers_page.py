"""The teachers' page in the window: the fields that turn it on (`PageFields`), shown as Connect LINE's
last optional step (`TeachersPageStep`), in Settings (ui/settings/teachers_page.py), and on their own
from the readiness check's fix (`open_teachers_page`).

The steps in LINE Developers Console are spelled out where the fields are: a LINE Login channel under
the same provider as the Messaging API channel (LINE gives a person one user ID per provider, so only
then does the page know the teachers the app paired), a LIFF app in it whose endpoint is the relay's
/liff/ (shown with Copy once a relay is attached; until then the step says a relay comes first and
opens Settings → Always on), then the two IDs pasted back and the opt-in ticked. Reading and saving go
through core/setup/teachers_page.py on `ctx.tasks`.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.setup import teachers_page
from core.setup.teachers_page import PageSettings
from core.texts import t
from ui.common import i18n
from ui.common.phrases import PhraseLabel
from ui.common.widgets import form, note, row
from ui.common.wrapped_text import keep_text_visible
from ui.connect_line.pages import Host, WizardPage
from ui.services.context import AppContext


class PageFields(QWidget):
    """How to make the LIFF app, its endpoint, the two IDs and the opt-in."""

    edited = Signal()
    relay_wanted = Signal()  # the manager asked for Settings → Always on

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.saved: PageSettings | None = None
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(note(self.tr(
            "A page inside LINE where each paired teacher sees their month and the classroom's, answers "
            "availability on a calendar and offers to take cover calls. Your relay serves it; the buttons in "
            "Shiftcast's messages open it. In the LINE Developers Console:"), self))
        steps = PhraseLabel(self.tr(
            "1. Under the same provider as your Messaging API channel (so each teacher's LINE user ID is the "
            "same), create a LINE Login channel.\n"
            "2. In its LIFF tab, add a LIFF app: Size “Full”, Scopes “openid” and “profile”, and this "
            "Endpoint URL:"), self)
        steps.setObjectName("pageSteps")
        column.addWidget(steps)
        self.endpoint = QLineEdit(self)
        self.endpoint.setObjectName("pageEndpoint")
        self.endpoint.setReadOnly(True)
        self.copy = QPushButton(self.tr("Copy"), self)
        self.copy.setObjectName("pageCopyEndpoint")
        self.copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.endpoint.text()))
        self.endpoint_row = QWidget(self)
        endpoint_line = row(self.endpoint, self.copy)
        endpoint_line.setContentsMargins(0, 0, 0, 0)
        self.endpoint_row.setLayout(endpoint_line)
        column.addWidget(self.endpoint_row)
        self.no_relay = PhraseLabel(self.tr(
            "A relay is needed first: the page is served from it. Deploy one in Settings → Always on, then "
            "come back to this step."), self)
        self.no_relay.setObjectName("pageNoRelay")
        column.addWidget(self.no_relay)
        self.open_relay = QPushButton(self.tr("Open Settings → Always on"), self)
        self.open_relay.setObjectName("pageOpenRelay")
        self.open_relay.clicked.connect(self.relay_wanted.emit)
        self.relay_row = QWidget(self)
        relay_line = row(self.open_relay, stretch_last=True)
        relay_line.setContentsMargins(0, 0, 0, 0)
        self.relay_row.setLayout(relay_line)
        column.addWidget(self.relay_row)
        column.addWidget(PhraseLabel(self.tr("3. Paste the channel's ID and the LIFF app's ID here:"), self))
        ids = QWidget(self)
        layout = form(ids)
        layout.setContentsMargins(0, 0, 0, 0)
        self.channel_id = QLineEdit(self)
        self.channel_id.setObjectName("pageLoginChannelId")
        self.channel_id.setPlaceholderText("1234567890")
        layout.addRow(self.tr("LINE Login channel ID:"), self.channel_id)
        self.liff_id = QLineEdit(self)
        self.liff_id.setObjectName("pageLiffId")
        self.liff_id.setPlaceholderText("1234567890-AbCdEfGh")
        layout.addRow(self.tr("LIFF ID:"), self.liff_id)
        column.addWidget(ids)
        column.addWidget(note(self.tr(
            "The channel ID is on the LINE Login channel's Basic settings tab (not the Messaging API channel's); "
            "the LIFF ID is in the list of its LIFF tab."), self))
        self.enabled = QCheckBox(self.tr("Turn the teachers' page on"), self)
        self.enabled.setObjectName("pageEnabled")
        column.addWidget(self.enabled)
        # The same words as `shiftcast` says (core/texts), ended as each language ends a sentence.
        self.opt_in = note(i18n.render(t("teachers_page.opt_in")) + ("。" if i18n.current() == "ja" else "."), self)
        self.opt_in.setObjectName("pageOptIn")
        column.addWidget(self.opt_in)
        for field in (self.channel_id, self.liff_id):
            field.textEdited.connect(lambda _text: self.edited.emit())
        self.enabled.toggled.connect(lambda _on: self.edited.emit())
        self.show_settings(PageSettings(None, None, False, None))

    def show_settings(self, saved: PageSettings) -> None:
        self.saved = saved
        endpoint = saved.endpoint
        self.endpoint.setText(endpoint or "")
        self.endpoint_row.setVisible(endpoint is not None)
        self.no_relay.setVisible(endpoint is None)
        self.relay_row.setVisible(endpoint is None)
        self.channel_id.setText(saved.login_channel_id or "")
        self.liff_id.setText(saved.liff_id or "")
        self.enabled.setChecked(saved.enabled)

    def changed(self) -> bool:
        """Something differs from what is saved."""
        saved = self.saved
        return saved is None or (self.channel_id.text().strip(), self.liff_id.text().strip(),
                                 self.enabled.isChecked()) != (saved.login_channel_id or "", saved.liff_id or "",
                                                               saved.enabled)

    def save(self, ctx: AppContext) -> PageSettings:
        """On a pool thread: keep what the fields say (ValidationError: what is wrong, nothing kept)."""
        return teachers_page.save(ctx.db, login_channel_id=self.channel_id.text(), liff_id=self.liff_id.text(),
                                  enabled=self.enabled.isChecked())


def show_relay_settings() -> None:
    """Settings → Always on in the main window (the wizard stays open beside it)."""
    for widget in QApplication.topLevelWidgets():
        show = getattr(widget, "show_settings", None)
        if callable(show):
            show("relay")
            widget.raise_()
            widget.activateWindow()
            return


STEP_HEIGHT = 620  # fits a 1366×768 screen with room for the taskbar


class TeachersPageStep(WizardPage):
    """Connect LINE's optional last step: Skip keeps everything working without the page."""

    def __init__(self, host: Host, parent: QWidget | None = None) -> None:
        super().__init__(host, parent)
        self.fields = PageFields(self)
        self.fields.edited.connect(self.changed.emit)
        self.fields.relay_wanted.connect(show_relay_settings)
        self.column.addWidget(self.fields)
        self.finish_layout()
        self._fitting = False

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._fitting:
            # Once laid out at the wizard's width: fitted before, each label's height would be reserved
            # for the narrow width a widget has before its first layout, and the wizard would grow to it.
            self._fitting = True
            QTimer.singleShot(0, self, lambda: keep_text_visible(self))
            window = self.window()  # the wizard opens at 640×480: this step has more to say
            window.resize(window.width(), max(window.height(), STEP_HEIGHT))

    def title(self) -> str:
        return self.tr("Teachers' page (optional)")

    def entered(self) -> None:
        self._working(self.tr("Reading the teachers' page's settings…"))
        db = self.host.ctx.db
        self.host.ctx.tasks.run(lambda: teachers_page.read(db), self._read, self._failed, owner=self)

    def _read(self, saved: PageSettings) -> None:
        self._done()
        self.status.clear_status()
        self.fields.show_settings(saved)
        self.changed.emit()

    def next_text(self) -> str:
        return self.tr("Save and continue") if self.fields.changed() else self.tr("Skip")

    def go_next(self) -> None:
        if not self.fields.changed():
            self.host.advance()
            return
        self._working(self.tr("Saving…"))
        fields, ctx = self.fields, self.host.ctx
        ctx.tasks.run(lambda: fields.save(ctx), self._saved, self._failed, owner=self)

    def _saved(self, saved: PageSettings) -> None:
        self._done()
        self.fields.show_settings(saved)
        self.host.ctx.bridge.settings_changed.emit()
        if saved.ready:
            self.host.results["page"] = self.tr("The teachers' page is on.")
        elif saved.enabled:
            self.host.left["page"] = self.tr(
                "Deploy the relay in Settings → Always on: the teachers' page is served from it.")
        self.host.advance()


class TeachersPageDialog(QDialog):
    """The step on its own, as the readiness check's fix opens it."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.results: dict[str, str] = {}
        self.left: dict[str, str] = {}
        self.setObjectName("teachersPageDialog")
        self.resize(640, 560)
        self.page = TeachersPageStep(self, self)  # type: ignore[arg-type]  # no flow: the step never asks for one
        self.setWindowTitle(self.page.title())
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.save = self.buttons.addButton(self.tr("Save"), QDialogButtonBox.ButtonRole.ApplyRole)
        self.save.setObjectName("pageSave")
        self.save.clicked.connect(self.page.go_next)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.page, 1)
        layout.addWidget(self.buttons)
        self.page.changed.connect(lambda: self.save.setEnabled(not self.page.busy and self.page.fields.changed()))
        self.page.entered()

    def advance(self) -> None:
        self.accept()

    def complete(self) -> None:
        self.accept()


def open_teachers_page(ctx: AppContext, parent: QWidget | None = None) -> TeachersPageDialog:
    """Open it (not modal: the app keeps running behind it)."""
    dialog = TeachersPageDialog(ctx, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
