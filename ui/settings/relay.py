"""Settings → Always on: the relay (docs/relay.md) put on the manager's own Cloudflare account, so LINE's
events are kept and reminders still go out while every PC sleeps. The Cloudflare token is pasted here
into the keyring; Deploy shows each step as it runs (core/setup/relay_deploy.py), off the UI thread."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QGroupBox, QLineEdit, QMessageBox, QPushButton, QWidget

from ui.common.i18n import render
from ui.common.phrases import PhraseLabel
from ui.common.widgets import StatusLabel, form, note, report, row, stack
from ui.common.wrapped_text import keep_text_visible
from ui.services import ui_thread
from ui.services.context import AppContext


class RelaySection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Always on"))
        self.ctx = ctx
        layout = form(self)
        layout.addRow(note(self.tr(
            "While every computer with Shiftcast sleeps, nobody answers LINE and no reminder goes out. A small "
            "relay on your own free Cloudflare account fixes this: it keeps LINE's events (such as teachers' "
            "replies and pairing codes) until Shiftcast fetches them, sends the reminders Shiftcast handed it "
            "when no computer has been awake for 5 minutes, and holds the month's image for LINE. It keeps "
            "nothing for longer than 7 days: events and results until Shiftcast fetches them, sent reminders "
            "and images 7 days. Only Shiftcast holds the key to it."), self))

        self.open_link = QPushButton(self.tr("Create a token on Cloudflare…"), self)
        self.open_link.setObjectName("relayTokenLink")
        self.open_link.clicked.connect(self._open_token_page)
        layout.addRow("", stack(row(self.open_link, stretch_last=True), note(self.tr(
            "The page opens with the permissions filled in (Workers scripts and D1: edit, account settings: "
            "read). Create the token there, copy it and paste it below."), self)))

        self.token = QLineEdit(self)
        self.token.setObjectName("relayToken")
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token.setPlaceholderText(self.tr("Paste the Cloudflare API token"))
        self.save_token = QPushButton(self.tr("Save token"), self)
        self.save_token.setObjectName("relaySaveToken")
        self.save_token.clicked.connect(self._save_token)
        layout.addRow(self.tr("API token:"), row(self.token, self.save_token))

        self.deploy = QPushButton(self.tr("Deploy"), self)
        self.deploy.setObjectName("relayDeploy")
        self.deploy.clicked.connect(self._deploy)
        self.remove = QPushButton(self.tr("Remove…"), self)
        self.remove.setObjectName("relayRemove")
        self.remove.clicked.connect(self._remove)
        self.steps = PhraseLabel(self)
        self.steps.setObjectName("relaySteps")
        self.steps.setWordWrap(True)
        self.steps.hide()
        self.status = StatusLabel(self)
        self.status.setObjectName("relayStatus")
        layout.addRow("", stack(row(self.deploy, self.remove, stretch_last=True), self.steps, self.status))
        self._lines: dict[Any, str] = {}
        keep_text_visible(self)
        self.reload()

    # ----- what is deployed -----

    def reload(self) -> None:
        self.ctx.tasks.run(self._look, self._looked, lambda exc: report(self, self.status, exc, self.ctx.paths), owner=self)

    def _look(self) -> tuple[str | None, str | None]:
        from core.setup import relay_state
        from core.setup.relay_cloud import health

        url = relay_state.relay_url(self.ctx.db)
        said = health(url) if url else None
        return url, str(said.get("version")) if said else None

    def _looked(self, found: tuple[str | None, str | None]) -> None:
        url, version = found
        self.remove.setEnabled(url is not None)
        if url is None:
            self.status.ok(self.tr("No relay is deployed."))
        elif version is None:
            self.status.problem(self.tr("The relay at {0} does not answer right now.").format(url))
        else:
            self.status.link(self.tr("✓ The relay {0} runs at:").format(version), url)

    # ----- the token -----

    def _open_token_page(self) -> None:
        from core.setup.relay_cloud import token_link

        QDesktopServices.openUrl(QUrl(token_link()))

    def _save_token(self) -> None:
        from core.setup import relay_state

        token = self.token.text().strip()
        if not token:
            self.status.problem(self.tr("Paste the token first."))
            return
        self.status.busy(self.tr("Saving…"))
        self.ctx.tasks.run(lambda: relay_state.set_cloudflare_token(token), self._token_saved, self._failed, owner=self)

    def _token_saved(self, _result: None) -> None:
        self.token.clear()
        self.status.ok(self.tr("✓ The token is saved in this computer's keyring."))

    # ----- deploying and removing -----

    def _report(self, step: object, progress: object) -> None:
        ui_thread.post(self._show_step, step, progress, owner=self)  # from the pool thread

    def _show_step(self, step: Any, progress: Any) -> None:
        from core.setup.relay_deploy import Progress

        mark = {Progress.RUNNING: "…", Progress.DONE: "✓", Progress.ALREADY: "✓"}[progress]
        self._lines[step] = f"{mark} {render(step.words)}"
        self.steps.setText("\n".join(self._lines.values()))
        self.steps.show()

    def _start(self, busy: str) -> None:
        self._lines.clear()
        self.deploy.setEnabled(False)
        self.remove.setEnabled(False)
        self.status.busy(busy)

    def _deploy(self) -> None:
        from core.setup import relay_deploy

        self._start(self.tr("Deploying the relay…"))
        self.ctx.tasks.run(lambda: relay_deploy.deploy(self.ctx.db, report=self._report), self._finished,
                           self._failed, owner=self)

    def _remove(self) -> None:
        from core.setup import relay_deploy

        answer = QMessageBox.question(self, self.tr("Remove the relay"), self.tr(
            "Delete the relay and its database from your Cloudflare account and point LINE back to the address it "
            "had before? Events the relay holds that Shiftcast has not fetched yet are lost."))
        if answer != QMessageBox.StandardButton.Yes:
            return
        self._start(self.tr("Removing the relay…"))
        self.ctx.tasks.run(lambda: relay_deploy.remove(self.ctx.db, report=self._report), self._finished,
                           self._failed, owner=self)

    def _finished(self, _result: object) -> None:
        self.deploy.setEnabled(True)
        self.ctx.bridge.settings_changed.emit()
        self.reload()

    def _failed(self, exc: BaseException) -> None:
        self.deploy.setEnabled(True)
        self.remove.setEnabled(True)
        report(self, self.status, exc, self.ctx.paths)
