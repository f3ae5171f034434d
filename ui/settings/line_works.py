"""Settings → LINE WORKS: the app's service account and the bot Shiftcast sends with (secrets and the
private key kept in the keyring and never shown again), Save, and Test, which asks LINE WORKS for an
access token; where Shiftcast receives the bot's callbacks (the 了解 taps): a Cloudflare quick tunnel or
the manager's own HTTPS address, the same choice Connect LINE's last step keeps, so a classroom on LINE
WORKS alone need not connect LINE; and the callback address to enter for the bot (where Shiftcast
receives, with the callback's path), with Copy. Shown only while the LINE WORKS channel is part of
Shiftcast."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QButtonGroup,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QWidget,
)

from core.receiving import line_works_callback
from core.receiving.address import AddressError, OwnAddress, PublicAddress, QuickTunnel
from core.setup import line_works, receiving
from core.setup.receiving import ReceivingState
from core.store.db import Database
from ui.common import i18n
from ui.common.widgets import StatusLabel, form, note, report, row, sentence, stack
from ui.common.wrapped_text import keep_text_visible
from ui.services.context import AppContext


@dataclass(frozen=True)
class WorksDraft:
    """The form's values; a secret or key left blank keeps the saved one."""

    client_id: str = ""
    client_secret: str = ""
    service_account: str = ""
    key_file: str = ""  # the private key file chosen now; its PEM is read and saved, never its path
    bot_id: str = ""
    bot_secret: str = ""
    domain_id: str = ""

    @classmethod
    def of(cls, saved: line_works.Saved | None) -> WorksDraft:
        if saved is None:
            return cls()
        return cls(saved.client_id, "", saved.service_account, "", saved.bot_id, "", saved.domain_id or "")

    @property
    def typed_secrets(self) -> bool:
        return bool(self.client_secret.strip() or self.bot_secret.strip() or self.key_file)

    def save(self, db: Database) -> None:
        key = line_works.read_private_key(self.key_file) if self.key_file else None
        line_works.save(db, client_id=self.client_id, client_secret=self.client_secret,
                        service_account=self.service_account, private_key=key, bot_id=self.bot_id,
                        bot_secret=self.bot_secret, domain_id=self.domain_id)


def _wizard(text: str) -> str:
    """Words of Connect LINE's address page, which offers the same choices: translated once, there."""
    return QCoreApplication.translate("AddressPage", text)


class LineWorksSection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("LINE WORKS"))
        self.setObjectName("lineWorksSection")
        self.ctx = ctx
        self.saved_draft: WorksDraft | None = None
        self._refill = True
        self.setVisible(False)  # until the channel is known to be there
        layout = form(self)
        layout.addRow(note(self.tr(
            "For teachers whose organisation uses LINE WORKS: Shiftcast sends them their messages from a bot "
            "there. In the LINE WORKS Developer Console, make an app with a Service Account and issue its "
            "private key, and register a bot; copy their values here."), self))
        self.client_id = self._field("worksClientId", "")
        layout.addRow(self.tr("Client ID:"), self.client_id)
        self.client_secret = self._field("worksClientSecret", "", secret=True)
        layout.addRow(self.tr("Client Secret:"), self.client_secret)
        self.service_account = self._field("worksServiceAccount", "abcde.serviceaccount@example")
        layout.addRow(self.tr("Service Account:"), self.service_account)

        self.key_state = QLabel(self)
        self.key_state.setObjectName("worksKeyState")
        self.key_state.setWordWrap(True)
        self.choose_key = QPushButton(self.tr("Choose file…"), self)
        self.choose_key.setObjectName("worksChooseKey")
        self.choose_key.clicked.connect(self._choose_key)
        self._key_file = ""
        self._key_saved = False
        layout.addRow(self.tr("Private key:"), stack(row(self.key_state, self.choose_key), note(self.tr(
            "The .key file the Developer Console saved when you issued the private key. Shiftcast keeps the key "
            "itself in this computer's keyring; the file is not needed afterwards."), self)))

        self.bot_id = self._field("worksBotId", "")
        layout.addRow(self.tr("Bot ID:"), self.bot_id)
        self.bot_secret = self._field("worksBotSecret", "", secret=True)
        layout.addRow(self.tr("Bot Secret:"), stack(self.bot_secret, note(self.tr(
            "The bot's callback checks the 了解 button's taps with it."), self)))
        self.domain_id = self._field("worksDomainId", self.tr("Optional"))
        layout.addRow(self.tr("Domain ID:"), self.domain_id)
        self.callback = QLabel(self)
        self.callback.setObjectName("worksCallback")
        self.callback.setWordWrap(True)
        self.callback.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._receive_part(layout)
        self.copy = QPushButton(self.tr("Copy"), self)
        self.copy.setObjectName("worksCopyCallback")
        self.copy.setEnabled(False)
        self.copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.callback.text()))
        layout.addRow(self.tr("Callback URL:"), stack(row(self.callback, self.copy, stretch_last=False), note(self.tr(
            "Enter it as the bot's Callback URL in the Developer Console: 了解 taps come back to Shiftcast there. "
            "It is the address Shiftcast receives at, followed by /line-works/callback."), self)))

        self.save = QPushButton(self.tr("Save"), self)
        self.save.setObjectName("saveLineWorks")
        self.save.clicked.connect(self._save)
        self.test = QPushButton(self.tr("Test"), self)
        self.test.setObjectName("testLineWorks")
        self.test.clicked.connect(self._test)
        for button in (self.save, self.test):
            button.setEnabled(False)  # until the saved values are in the form
        self.state_line = StatusLabel(self)
        self.state_line.setObjectName("lineWorksState")
        self.status = StatusLabel(self)
        self.status.setObjectName("lineWorksStatus")
        layout.addRow("", stack(self.state_line, row(self.save, self.test, stretch_last=True), note(self.tr(
            "Test asks LINE WORKS for an access token with the saved values; it sends nothing. Changes not yet "
            "saved are saved first."), self), self.status))
        ctx.bridge.settings_changed.connect(self.reload)
        ctx.bridge.receiving_changed.connect(self._receiving_changed)
        keep_text_visible(self)  # Qt's form layout would cut long notes and answers mid-sentence
        self._show_key()
        self.reload()

    def _receive_part(self, layout: QFormLayout) -> None:
        """Where the bot's callbacks reach Shiftcast: the choices of Connect LINE's last step, kept the same way."""
        self.receive_choice = QButtonGroup(self)
        self.receive_tunnel = QRadioButton(_wizard("A Cloudflare quick tunnel (free, no account needed)"), self)
        self.receive_tunnel.setObjectName("worksReceiveTunnel")
        self.receive_own = QRadioButton(_wizard("My own HTTPS address (a reverse proxy, Tailscale Funnel …)"), self)
        self.receive_own.setObjectName("worksReceiveOwn")
        for index, button in enumerate((self.receive_tunnel, self.receive_own)):
            self.receive_choice.addButton(button, index)
        self.receive_tunnel.setChecked(True)
        self.own_url = self._field("worksOwnAddress", "https://")
        self.own_port = QSpinBox(self)
        self.own_port.setObjectName("worksOwnPort")
        self.own_port.setRange(1024, 65535)
        self.own_port.setValue(8765)
        self.receive = QPushButton(self.tr("Receive here"), self)
        self.receive.setObjectName("worksReceive")
        self.receive.clicked.connect(self._receive)
        self.receive_status = StatusLabel(self)
        self._receive_asked = self._receive_starting = False  # Receive here clicked: its answer is awaited
        self._callback_asked = 0  # the newest callback URL asked for: an older answer arriving later is dropped
        self.receive_status.setObjectName("worksReceiveStatus")
        own_label = QLabel(_wizard("Forwarded to port:"), self)
        self.receive_choice.idToggled.connect(lambda _id, _on: self._receive_choice_changed())
        layout.addRow(self.tr("Receive taps (了解):"), stack(
            note(self.tr("Shiftcast receives the bot's callbacks while its window or tray runs, at an internet "
                         "address that reaches this computer."), self),
            self.receive_tunnel, note(self.tr(
                "Shiftcast starts Cloudflare's cloudflared program. Its address is new each time Shiftcast starts: "
                "enter the callback URL below in the Developer Console again after every start."), self),
            self.receive_own, row(self.own_url, own_label, self.own_port, stretch_last=False), note(self.tr(
                "Your address stays the same, so the callback URL is entered once."), self),
            row(self.receive, stretch_last=True), self.receive_status))
        self._receive_choice_changed()

    def _receive_choice_changed(self) -> None:
        for part in (self.own_url, self.own_port):
            part.setEnabled(self.receive_own.isChecked())

    def _field(self, name: str, placeholder: str, *, secret: bool = False) -> QLineEdit:
        edit = QLineEdit(self)
        edit.setObjectName(name)
        edit.setPlaceholderText(placeholder)
        if secret:
            edit.setEchoMode(QLineEdit.EchoMode.Password)
        return edit

    def draft(self) -> WorksDraft:
        return WorksDraft(self.client_id.text().strip(), self.client_secret.text(), self.service_account.text().strip(),
                          self._key_file, self.bot_id.text().strip(), self.bot_secret.text(),
                          self.domain_id.text().strip())

    # ----- state -----

    def reload(self) -> None:
        self.ctx.tasks.run(lambda: line_works.state(self.ctx.db), self._loaded, self._load_failed, owner=self)
        self._ask_callback(self.ctx.receiving_state)  # the window's receiving, or the demo's from the start
        self.ctx.tasks.run(lambda: receiving.address_from_settings(self.ctx.db), self._show_chosen,
                           self._load_failed, owner=self)

    def _receiving_changed(self, state: ReceivingState) -> None:
        # After Receive here: the restart's own "stopped" is passed over; what follows "starting" is its answer.
        if self._receive_asked and state == receiving.STARTING:
            self._receive_asked, self._receive_starting = False, True
        elif self._receive_starting:
            self._receive_starting = False
            if state.receiving:
                self.receive_status.ok(self.tr("✓ Shiftcast receives the taps now. Enter the callback URL below "
                                               "as the bot's Callback URL in the Developer Console."))
            else:
                self.receive_status.problem(sentence(i18n.render(state.why or state.words)))
        self._ask_callback(lambda: state)

    def _show_chosen(self, chosen: tuple[PublicAddress, int] | None) -> None:
        if chosen is None:
            return
        address, port = chosen
        if isinstance(address, OwnAddress):
            self.receive_own.setChecked(True)
            self.own_url.setText(address.url)
            self.own_port.setValue(port or self.own_port.value())
        elif isinstance(address, QuickTunnel):
            self.receive_tunnel.setChecked(True)

    def _ask_callback(self, live: Callable[[], ReceivingState | None]) -> None:
        """Read the callback URL on the task pool. Answers can come back out of order (a restart says
        stopped, starting, then where it runs, each asked at once): only the newest question's is shown."""
        self._callback_asked += 1
        asked, db = self._callback_asked, self.ctx.db

        def show(address: str | None) -> None:
            if asked == self._callback_asked:
                self._show_callback(address)

        self.ctx.tasks.run(lambda: receiving.callback_address(db, line_works_callback.PATH, live()), show,
                           self._load_failed, owner=self)

    def _show_callback(self, address: str | None) -> None:
        self.copy.setEnabled(address is not None)
        self.callback.setText(address or self.tr(
            "Not known yet: Shiftcast is not receiving. Choose where it receives above, or at the last step of "
            "Connect LINE; or it is your own HTTPS address when `shiftcast webhook` runs behind it."))

    def _loaded(self, state: line_works.WorksState | None) -> None:
        self.setVisible(state is not None)
        if state is None:
            return
        if self._refill:
            self._refill = False
            self._fill(WorksDraft.of(state.saved))
        self._key_saved = state.saved is not None
        self._show_key()
        for edit in (self.client_secret, self.bot_secret):
            edit.setPlaceholderText(self.tr("Type to replace the saved secret") if state.saved else "")
        self.save.setEnabled(True)
        self.test.setEnabled(True)
        words = sentence(i18n.render(state.says))
        if state.status in (line_works.Status.NOT_SET_UP, line_works.Status.SET_UP, line_works.Status.TESTED):
            self.state_line.ok(words)
        else:
            self.state_line.problem(words)

    def _load_failed(self, exc: BaseException) -> None:
        self.setVisible(True)
        report(self, self.status, exc, self.ctx.paths)

    def _fill(self, draft: WorksDraft) -> None:
        for edit, value in ((self.client_id, draft.client_id), (self.service_account, draft.service_account),
                            (self.bot_id, draft.bot_id), (self.domain_id, draft.domain_id)):
            edit.setText(value)
        for edit in (self.client_secret, self.bot_secret):
            edit.clear()
        self._key_file = ""
        self.saved_draft = self.draft()

    def _show_key(self) -> None:
        if self._key_file:
            self.key_state.setText(self.tr("{0} (saved with Save)").format(Path(self._key_file).name))
        elif self._key_saved:
            self.key_state.setText(self.tr("✓ A private key is saved in this computer's keyring."))
        else:
            self.key_state.setText(self.tr("No private key is saved yet."))

    def _choose_key(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, self.tr("LINE WORKS private key"), "",
                                                    self.tr("Private keys (*.key *.pem);;All files (*)"))
        if path:
            self._key_file = path
            self._show_key()

    # ----- actions -----

    def _busy(self, busy: bool) -> None:
        self.save.setEnabled(not busy)
        self.test.setEnabled(not busy)

    def _save(self) -> None:
        draft, db = self.draft(), self.ctx.db
        self._busy(True)
        self.status.busy(self.tr("Saving…"))
        self.ctx.tasks.run(lambda: draft.save(db), lambda _r: self._saved(), self._failed, owner=self)

    def _saved(self) -> None:
        self._busy(False)
        self.status.ok(self.tr("Saved."))
        self._after_save()

    def _after_save(self) -> None:
        self._refill = True  # the values as stored; the secrets' fields empty again
        self.ctx.bridge.settings_changed.emit()  # reloads this section and the readiness check
        self.ctx.wake_sender()  # a held channel is tried again with the new values

    def _test(self) -> None:
        draft, db, now = self.draft(), self.ctx.db, self.ctx.clock()
        save_first = draft.typed_secrets or draft != self.saved_draft
        checker = line_works.client_checker(db)
        self._busy(True)
        self.status.busy(self.tr("Saving, then asking LINE WORKS for a token…") if save_first
                         else self.tr("Asking LINE WORKS for a token…"))

        def work() -> line_works.LastTest:
            if save_first:
                draft.save(db)
            return line_works.test(db, checker, now=now)

        def done(outcome: line_works.LastTest) -> None:
            self._busy(False)
            words = sentence(i18n.render(line_works.says_test(outcome)))
            if outcome.why is None:
                self.status.ok("✓ " + words)
            else:
                self.status.problem(words)
            if save_first:
                self._after_save()
            else:
                self.ctx.bridge.settings_changed.emit()  # the state line and the readiness check say the answer

        self.ctx.tasks.run(work, done, self._failed, owner=self)

    def _receive(self) -> None:
        kind = OwnAddress.name if self.receive_own.isChecked() else QuickTunnel.name
        try:
            address, port = receiving.address_of(kind, self.own_url.text(), self.own_port.value())
        except AddressError as exc:  # nothing saved: the address is not one LINE WORKS can call
            self.receive_status.problem(sentence(i18n.describe(exc)))
            return
        db, service = self.ctx.db, self.ctx.receiving
        self._receive_asked, self._receive_starting = service is not None, False
        self.receive.setEnabled(False)
        self.receive_status.busy(_wizard("Starting the receiver…"))

        def done(_result: object) -> None:
            self.receive.setEnabled(True)
            if service is None:
                self.receive_status.ok(self.tr("Saved. Shiftcast receives there from its next start."))
            self.ctx.bridge.settings_changed.emit()  # the callback URL and the readiness check

        def failed(exc: BaseException) -> None:
            self.receive.setEnabled(True)
            report(self, self.receive_status, exc, self.ctx.paths)

        self.ctx.tasks.run(lambda: receiving.receive_at(db, address, port, service), done, failed, owner=self)

    def _failed(self, exc: BaseException) -> None:
        self._busy(False)
        report(self, self.status, exc, self.ctx.paths)
