"""Settings → LINE: the channel access token (keyring only), a connection test, the sending hold,
the 了解 button, and the API address override for testing against a LINE simulator."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QLineEdit, QPushButton, QVBoxLayout, QWidget

from core.channels.line import DEFAULT_BASE_URL, LineApiError
from core.setup import line, line_buttons
from core.store.db import Database
from ui.common import i18n
from ui.common.widgets import (
    Expander,
    StatusLabel,
    form,
    note,
    report,
    row,
    sentence,
    stack,
)
from ui.common.wrapped_text import keep_text_visible
from ui.services.context import AppContext


class LineSection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("LINE"))
        self.ctx = ctx
        self._base_shown = False  # fill the address field once, so a reload never eats typing
        layout = form(self)
        layout.addRow(note(self.tr(
            "Shiftcast sends through the Messaging API channel of your LINE Official Account. "
            "It needs the channel's access token, a long password that lets it send in the account's name."), self))

        self.connect_line = QPushButton(self.tr("Connect LINE…"), self)
        self.connect_line.setObjectName("connectLine")
        self.connect_line.clicked.connect(self.open_connect)
        layout.addRow(self.tr("Connect:"), stack(row(self.connect_line, stretch_last=True), note(self.tr(
            "A guided set-up with the channel ID and channel secret: Shiftcast makes its own access tokens and "
            "checks that LINE can reach it."), self)))

        self.token = QLineEdit(self)
        self.token.setObjectName("lineToken")
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token.setPlaceholderText(self.tr("Paste the channel access token"))
        self.save_token = QPushButton(self.tr("Save token"), self)
        self.token.returnPressed.connect(self._save_token)
        self.save_token.clicked.connect(self._save_token)
        self.token_state = StatusLabel(self)
        self.token_state.setObjectName("tokenState")
        self.hold = StatusLabel(self)
        self.hold.setObjectName("lineHold")
        layout.addRow(self.tr("Channel access token:"), stack(
            row(self.token, self.save_token),
            note(self.tr(
                "Find it in the LINE Developers console: open your provider, then the Messaging API channel, "
                "the “Messaging API” tab, and issue a “Channel access token (long-lived)” at "
                "the bottom. Shiftcast keeps it in this computer's keyring, never in its database, and never "
                "shows it again."), self),
            self.token_state, self.hold))

        self.test = QPushButton(self.tr("Test connection"), self)
        self.test.setObjectName("testConnection")
        self.test.clicked.connect(self._test)
        self.result = StatusLabel(self)
        self.result.setObjectName("connectionResult")
        layout.addRow(self.tr("Connection:"), stack(
            row(self.test, stretch_last=True),
            note(self.tr("Asks LINE for the account's name and how many messages it sent this month. Your "
                         "LINE plan allows a number of messages per month; a message to a group counts once "
                         "per member."), self),
            self.result))

        self.ack, self.ack_state = self._switch_row(layout, "ack", self.tr("了解 button:"), self.tr(
            "Add a “了解” button to reminders and corrections"), self.tr(
            "A teacher taps it to say they have seen the message; Deliveries and the roster then show when. "
            "Taps are seen only while Shiftcast is receiving LINE's events: this computer awake, with its "
            "public address up (Connect LINE… → keep receiving). Switch “Webhook redelivery” on in the LINE "
            "Developers console (Messaging API tab) so that LINE sends the taps made meanwhile again, as far "
            "as it keeps them."))
        self.ack.toggled.connect(lambda on: self._switch(self.ack, self.ack_state, line_buttons.switch_ack, on, self.tr(
            "✓ Reminders and corrections sent from now on carry a “了解” button.") if on else self.tr(
            "Messages sent from now on have no “了解” button.")))
        self.cover, self.cover_state = self._switch_row(layout, "cover", self.tr("Cover requests:"), self.tr(
            "Add an “Ask for cover” button to reminders"), self.tr(
            "A teacher who cannot take a shift taps it, or writes “12/5 代講お願いします”, and the request "
            "appears in Shifts → Cover requests… for you to decide. As with 了解, requests are seen only "
            "while Shiftcast is receiving LINE's events."))
        self.cover.toggled.connect(lambda on: self._switch(self.cover, self.cover_state, line_buttons.switch_cover, on, self.tr(
            "✓ Reminders sent from now on carry an “Ask for cover” button.") if on else self.tr(
            "Reminders sent from now on have no “Ask for cover” button.")))

        layout.addRow(Expander(self.tr("Advanced"), self._advanced(), self))
        # Bound methods: Qt drops these connections when the section is deleted.
        ctx.bridge.hold_changed.connect(self._hold_changed)
        ctx.bridge.settings_changed.connect(self.reload)
        keep_text_visible(self)  # Qt's form layout would cut long notes and answers mid-sentence
        self.reload()

    def _advanced(self) -> QWidget:
        box = QWidget(self)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        self.api_base = QLineEdit(box)
        self.api_base.setObjectName("lineApiBase")
        self.api_base.setPlaceholderText(DEFAULT_BASE_URL)
        self.save_base = QPushButton(self.tr("Save address"), box)
        self.save_base.clicked.connect(self._save_base)
        layout.addLayout(row(self.api_base, self.save_base))
        layout.addWidget(note(self.tr(
            "The address Shiftcast sends LINE requests to. Leave it empty to use LINE itself; change it only "
            "to try Shiftcast against a LINE simulator."), box))
        self.base_status = StatusLabel(box)
        self.base_status.setObjectName("apiBaseStatus")
        layout.addWidget(self.base_status)
        return box

    # ----- state -----

    def reload(self) -> None:
        self.ctx.tasks.run(lambda: line.token_state(self.ctx.db), self._show_state,
                           lambda exc: report(self, self.token_state, exc, self.ctx.paths), owner=self)
        self.ctx.tasks.run(lambda: line_buttons.ack_button(self.ctx.db), self._show_ack,
                           lambda exc: report(self, self.ack_state, exc, self.ctx.paths), owner=self, latest="ack")
        self.ctx.tasks.run(lambda: line_buttons.cover_button(self.ctx.db), self._show_cover,
                           lambda exc: report(self, self.cover_state, exc, self.ctx.paths), owner=self, latest="cover")

    def _show_cover(self, on: bool) -> None:
        self.cover.blockSignals(True)  # showing the stored state is not the manager switching it
        self.cover.setChecked(on)
        self.cover.blockSignals(False)

    def _switch_row(self, layout: QFormLayout, name: str, label: str, text: str,
                    explained: str) -> tuple[QCheckBox, StatusLabel]:
        """A button the manager switches on or off for the messages: its box, what it means, its state."""
        box = QCheckBox(text, self)
        box.setObjectName(f"{name}Button")
        state = StatusLabel(self)
        state.setObjectName(f"{name}State")
        layout.addRow(label, stack(box, note(explained, self), state))
        return box, state

    def _switch(self, box: QCheckBox, state: StatusLabel, enable: Callable[[Database, bool], None], on: bool,
                said: str) -> None:
        box.setEnabled(False)
        state.busy(self.tr("Saving…"))

        def save() -> None:
            enable(self.ctx.db, on)

        def saved(_: None) -> None:
            box.setEnabled(True)
            state.ok(said)

        def failed(exc: BaseException) -> None:
            box.setEnabled(True)
            report(self, state, exc, self.ctx.paths)
            self.reload()  # show what is stored, not what was asked

        self.ctx.tasks.run(save, saved, failed, owner=self)

    def _show_ack(self, state: line_buttons.AckButton) -> None:
        on, problem = state.on, state.problem
        self.ack.blockSignals(True)  # showing the stored state is not the manager switching it
        self.ack.setChecked(on)
        self.ack.blockSignals(False)
        if problem is not None:
            report(self, self.ack_state, problem, self.ctx.paths)

    def _hold_changed(self, _reason: object) -> None:
        self.reload()

    def _show_state(self, state: line.TokenState) -> None:
        # The demo and the environment variable need no keyring, so a broken one is not their problem.
        if self.ctx.demo is not None:
            self.token_state.ok(self.tr("Demo mode: messages go to the built-in LINE simulator, so no token is needed."))
        elif state.from_environment:
            self.token_state.ok(self.tr("The token comes from the SHIFTCAST_LINE_TOKEN environment variable, "
                                        "which takes the place of the keyring."))
        elif state.keyring_problem:
            self.token_state.problem(sentence(i18n.render(state.keyring_problem)))
        elif state.saved:
            self.token_state.ok(self.tr("✓ A token is saved in this computer's keyring."))
        else:
            self.token_state.ok(self.tr("No token is saved yet."))
        self._show_hold(state.hold)
        if not self._base_shown:
            self.api_base.setText(state.api_base or "")
            self._base_shown = True
        if state.api_base_from_environment:
            self.base_status.ok(self.tr("For now the SHIFTCAST_LINE_API_BASE environment variable decides the "
                                        "address: {0}").format(state.api_base_from_environment))

    def _show_hold(self, hold: line.Hold | None) -> None:
        if hold is None:
            self.hold.clear_status()
        elif hold.token_changed_since:
            self.hold.ok(self.tr("Sending to LINE was held because LINE refused the previous token. A new token "
                                 "has been saved, so sending resumes with the next message."))
        else:
            since = hold.since.astimezone().strftime("%Y-%m-%d %H:%M") if hold.since else "?"
            self.hold.problem(self.tr(
                "Sending to LINE is held since {0}: LINE refused the channel access token ({1}). Messages wait "
                "in the outbox and none are lost. Save a corrected token above and sending resumes "
                "automatically.").format(since, hold.code))

    # ----- actions -----

    def open_connect(self) -> None:
        import shiboken6

        from ui.connect_line.wizard import open_connect_line

        dialog = getattr(self, "connect_dialog", None)
        if dialog is not None and shiboken6.isValid(dialog) and dialog.isVisible():
            dialog.raise_()  # one set-up at a time: a second would fight the first over the webhook
            dialog.activateWindow()
            return
        self.connect_dialog = open_connect_line(self.ctx, self)
        self.connect_dialog.use_token_instead.connect(self.token.setFocus)
        self.connect_dialog.connected.connect(self.reload)

    def _save_token(self) -> None:
        token = self.token.text().strip()
        if not token:
            self.token_state.problem(self.tr("Paste the channel access token first."))
            return
        self.save_token.setEnabled(False)
        self.token_state.busy(self.tr("Saving…"))
        self.ctx.tasks.run(lambda: line.save_token(self.ctx.db, token), self._token_saved, self._token_failed,
                           owner=self)

    def _token_saved(self, _changed: bool) -> None:
        self.save_token.setEnabled(True)
        self.token.clear()
        self.result.clear_status()
        self.ctx.bridge.settings_changed.emit()
        self.ctx.wake_sender()  # a held sender notices the new token on its next turn
        self.reload()

    def _token_failed(self, exc: BaseException) -> None:
        self.save_token.setEnabled(True)
        report(self, self.token_state, exc, self.ctx.paths)

    def _test(self) -> None:
        typed = self.token.text().strip() or None
        self.test.setEnabled(False)
        self.result.busy(self.tr("Asking LINE…"))
        self.ctx.tasks.run(lambda: line.check_connection(self.ctx.db, typed),
                           lambda check: self._tested(check, saved=typed is None), self._test_failed, owner=self)

    def _tested(self, check: line.BotCheck, *, saved: bool = True) -> None:
        self.test.setEnabled(True)
        if saved:  # the saved credentials' account is remembered now: the readiness line names it
            self.ctx.bridge.settings_changed.emit()
        quota = check.quota
        if quota.limited:
            usage = self.tr("This month {0} of {1} messages are used ({2} left). A message to a group counts once "
                            "per member.").format(quota.used, quota.limit, quota.remaining)
        else:
            usage = self.tr("This month {0} messages were sent; this plan has no monthly limit.").format(quota.used)
        self.result.ok(self.tr("Connected to “{0}” ({1}).").format(check.display_name, check.basic_id)
                       + "\n" + usage)

    def _test_failed(self, exc: BaseException) -> None:
        self.test.setEnabled(True)
        if isinstance(exc, LineApiError) and exc.status == 401:
            self.result.problem(self.tr(
                "LINE refused this token. Copy the channel access token again from the LINE Developers console "
                "(it may have been reissued or revoked), paste it above and save it."))
        else:
            report(self, self.result, exc, self.ctx.paths)

    def _save_base(self) -> None:
        value = self.api_base.text()
        self.save_base.setEnabled(False)
        self.ctx.tasks.run(lambda: line.save_api_base(self.ctx.db, value),
                           self._base_saved, self._base_failed, owner=self)

    def _base_saved(self, base: str | None) -> None:
        self.save_base.setEnabled(True)
        self.api_base.setText(base or "")
        self.base_status.ok(self.tr("Saved: Shiftcast talks to {0}.").format(base or DEFAULT_BASE_URL))
        self.ctx.bridge.settings_changed.emit()

    def _base_failed(self, exc: BaseException) -> None:
        self.save_base.setEnabled(True)
        report(self, self.base_status, exc, self.ctx.paths)
