"""Settings → E-mail and Alerts: the mail server teachers' e-mails go out through (the password lives
in the keyring only, and is never shown again), a login check, and where the manager's alerts go."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core.channels import email as email_channel
from core.receiving import pairing
from core.setup import email, email_checks
from core.setup.email_checks import LoginCheck, LoginFailure
from core.store.db import Database
from core.texts import formats
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


@dataclass(frozen=True)
class EmailDraft:
    """The form's values, compared with what is saved to know whether a check must save first."""

    host: str = ""
    port: int = email_channel.DEFAULT_PORTS["starttls"]
    security: str = "starttls"
    user: str = ""
    from_address: str = ""
    from_name: str = ""
    ca_file: str = ""

    @classmethod
    def of(cls, config: email_channel.SmtpConfig | None) -> EmailDraft:
        if config is None:
            return cls()
        return cls(config.host, config.port, config.security, config.user or "", config.from_address,
                   config.from_name or "", config.ca_file or "")

    def save(self, db: Database, password: str) -> None:
        """Settings first (all checked before any is written), then the password, if one was typed."""
        email.save_email_settings(db, host=self.host, port=self.port, security=self.security,
                                        user=self.user, from_address=self.from_address, from_name=self.from_name,
                                        ca_file=self.ca_file)
        if password.strip():
            email.save_password(password)


@dataclass(frozen=True)
class EmailView:
    state: email.EmailState
    hold: email_checks.EmailHold | None


def _load(db: Database) -> EmailView:
    return EmailView(email.email_state(db), email_checks.email_hold(db))


class EmailSection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("E-mail"))
        self.ctx = ctx
        self.saved_draft: EmailDraft | None = None  # what the form was last filled with (None: not loaded yet)
        self._refill = True  # fill the fields on the next load; other loads only update the state lines
        layout = form(self)
        layout.addRow(note(self.tr(
            "Teachers who chose e-mail get their messages through your mail server, and so do your alerts. "
            "Your e-mail provider's help pages list these values under “SMTP” or “outgoing mail”."), self))

        self.host = self._field("smtpHost", "smtp.example.com")
        layout.addRow(self.tr("Mail server (SMTP):"), self.host)
        self.security = QComboBox(self)
        self.security.setObjectName("smtpSecurity")
        self.security.addItem(self.tr("STARTTLS"), "starttls")
        self.security.addItem(self.tr("TLS"), "tls")
        self.security.currentIndexChanged.connect(self._security_changed)
        self.port = QSpinBox(self)
        self.port.setObjectName("smtpPort")
        self.port.setRange(1, 65535)
        self.port.setValue(email_channel.DEFAULT_PORTS["starttls"])
        self._last_security = "starttls"
        layout.addRow(self.tr("Security:"), stack(row(self.security, stretch_last=True), note(self.tr(
            "STARTTLS usually uses port 587 and TLS (also called SSL) port 465; your provider says which."), self)))
        layout.addRow(self.tr("Port:"), stack(row(self.port, stretch_last=True)))
        self.user = self._field("smtpUser", self.tr("Usually your full e-mail address"))
        layout.addRow(self.tr("User name:"), stack(self.user, note(self.tr(
            "Leave it empty only if the server sends without a login."), self)))

        self.password = self._field("smtpPassword", self.tr("Type to replace the saved password"))
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.returnPressed.connect(self._save)
        self.password_state = StatusLabel(self)
        self.password_state.setObjectName("smtpPasswordState")
        self.hold = StatusLabel(self)
        self.hold.setObjectName("smtpHold")
        layout.addRow(self.tr("Password:"), stack(self.password, note(self.tr(
            "Kept in this computer's keyring, never in Shiftcast's database, and never shown again. Some "
            "providers (Gmail, Outlook.com, iCloud) want an app password made for Shiftcast here rather than "
            "your usual one."), self), self.password_state, self.hold))

        self.from_address = self._field("smtpFrom", "shifts@example.com")
        layout.addRow(self.tr("From address:"), self.from_address)
        self.from_name = self._field("smtpFromName", self.tr("Optional, e.g. the classroom's name"))
        layout.addRow(self.tr("Sender name:"), stack(self.from_name, note(self.tr(
            "Teachers see this name and address as the sender. Many servers accept only your own address "
            "here."), self)))

        layout.addRow(Expander(self.tr("Advanced"), self._advanced(), self))

        self.save = QPushButton(self.tr("Save"), self)
        self.save.setObjectName("saveEmail")
        self.save.clicked.connect(self._save)
        self.check = QPushButton(self.tr("Check login"), self)
        self.check.setObjectName("checkLogin")
        self.check.clicked.connect(self._check)
        for button in (self.save, self.check):
            button.setEnabled(False)  # until the saved values are in the form
        self.status = StatusLabel(self)
        self.status.setObjectName("emailStatus")
        layout.addRow("", stack(row(self.save, self.check, stretch_last=True), note(self.tr(
            "Check login connects to the server and logs in once, without sending anything. Changes not yet "
            "saved are saved first."), self), self.status))
        # Bound methods: Qt drops these connections when the section is deleted.
        ctx.bridge.settings_changed.connect(self.reload)
        ctx.bridge.hold_changed.connect(self._hold_changed)
        keep_text_visible(self)  # Qt's form layout would cut long notes and answers mid-sentence
        self.reload()

    def _field(self, name: str, placeholder: str) -> QLineEdit:
        edit = QLineEdit(self)
        edit.setObjectName(name)
        edit.setPlaceholderText(placeholder)
        return edit

    def _advanced(self) -> QWidget:
        box = QWidget(self)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        self.ca_file = QLineEdit(box)
        self.ca_file.setObjectName("smtpCaFile")
        self.ca_file.setPlaceholderText(self.tr("The system's certificates"))
        self.browse = QPushButton(self.tr("Choose…"), box)
        self.browse.clicked.connect(self._browse)
        line = QHBoxLayout()
        line.addWidget(self.ca_file, 1)
        line.addWidget(self.browse)
        layout.addLayout(line)
        layout.addWidget(note(self.tr(
            "A CA certificate file (PEM) to trust instead of the system's. Only for a mail server of your own "
            "whose certificate your organisation issued; leave it empty for any public provider."), box))
        return box

    def draft(self) -> EmailDraft:
        return EmailDraft(self.host.text().strip(), self.port.value(), str(self.security.currentData()),
                          self.user.text().strip(), self.from_address.text().strip(), self.from_name.text().strip(),
                          self.ca_file.text().strip())

    # ----- state -----

    def reload(self) -> None:
        self.ctx.tasks.run(lambda: _load(self.ctx.db), self._loaded, self._load_failed, owner=self)

    def _hold_changed(self, _reason: object) -> None:
        self.reload()

    def _loaded(self, view: EmailView) -> None:
        state = view.state
        if self._refill:
            self._refill = False
            self._fill(EmailDraft.of(state.config))
        self.save.setEnabled(True)
        self.check.setEnabled(True)
        if state.password_from_environment:
            self.password_state.ok(self.tr("The password comes from the SHIFTCAST_SMTP_PASSWORD environment "
                                           "variable, which takes the place of the keyring."))
        elif state.keyring_problem:
            self.password_state.problem(sentence(i18n.render(state.keyring_problem)))
        elif state.password_saved:
            self.password_state.ok(self.tr("✓ A password is saved in this computer's keyring."))
        else:
            self.password_state.ok(self.tr("No password is saved yet."))
        self._show_hold(view.hold)

    def _load_failed(self, exc: BaseException) -> None:
        self.save.setEnabled(True)
        self.check.setEnabled(True)
        report(self, self.status, exc, self.ctx.paths)

    def _fill(self, draft: EmailDraft) -> None:
        if self.security.findData(draft.security) < 0:  # "none": a test server on this computer, kept as it is
            self.security.addItem(self.tr("None (this computer only)"), draft.security)
        self._last_security = draft.security
        self.security.blockSignals(True)
        self.security.setCurrentIndex(self.security.findData(draft.security))
        self.security.blockSignals(False)
        self.port.setValue(draft.port)
        for edit, value in ((self.host, draft.host), (self.user, draft.user), (self.from_address, draft.from_address),
                            (self.from_name, draft.from_name), (self.ca_file, draft.ca_file)):
            edit.setText(value)
        self.saved_draft = self.draft()

    def _show_hold(self, hold: email_checks.EmailHold | None) -> None:
        if hold is None:
            self.hold.clear_status()
        elif hold.settings_changed_since:
            self.hold.ok(self.tr("Sending e-mail was held because the mail server refused the login. The settings "
                                 "or the password have changed since, so sending resumes with the next e-mail."))
        else:
            since = hold.since.astimezone().strftime("%Y-%m-%d %H:%M") if hold.since else "?"
            self.hold.problem(self.tr(
                "Sending e-mail is held since {0}: the mail server refused the login ({1}). E-mails wait in the "
                "outbox and none are lost. Correct the password or the settings and save; sending resumes "
                "automatically.").format(since, hold.code))

    def _security_changed(self, _index: int) -> None:
        new = str(self.security.currentData())
        old_default = email_channel.DEFAULT_PORTS.get(self._last_security)
        if self.port.value() == old_default and new in email_channel.DEFAULT_PORTS:
            self.port.setValue(email_channel.DEFAULT_PORTS[new])  # the port followed the default: keep it so
        self._last_security = new

    def _browse(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, self.tr("CA certificate file"), self.ca_file.text(),
                                                    self.tr("Certificates (*.pem *.crt *.cer);;All files (*)"))
        if path:
            self.ca_file.setText(path)

    # ----- actions -----

    def _busy(self, busy: bool) -> None:
        self.save.setEnabled(not busy)
        self.check.setEnabled(not busy)

    def _save(self) -> None:
        draft, password = self.draft(), self.password.text()
        self._busy(True)
        self.status.busy(self.tr("Saving…"))
        db = self.ctx.db
        self.ctx.tasks.run(lambda: draft.save(db, password), lambda _r: self._saved(draft), self._failed, owner=self)

    def _saved(self, draft: EmailDraft) -> None:
        self._busy(False)
        self.status.ok(self.tr("Saved."))
        self._after_save(draft)

    def _after_save(self, draft: EmailDraft) -> None:
        self.password.clear()
        self.saved_draft = draft
        self._refill = True  # show the values as stored (a default port filled in, for one)
        self.ctx.bridge.settings_changed.emit()  # reloads this section too
        self.ctx.wake_sender()  # a held sender notices the change on its next turn

    def _check(self) -> None:
        draft, password = self.draft(), self.password.text()
        save_first = bool(password.strip()) or draft != self.saved_draft
        self._busy(True)
        self.status.busy(self.tr("Saving, then logging in to the mail server…") if save_first
                         else self.tr("Logging in to the mail server…"))
        db = self.ctx.db

        def work() -> LoginCheck:
            if save_first:
                draft.save(db, password)
            return email_checks.check_login(db)

        def done(check: LoginCheck) -> None:
            self._busy(False)
            if save_first:
                self._after_save(draft)
            self._show_check(check)

        self.ctx.tasks.run(work, done, self._failed, owner=self)

    def _show_check(self, check: LoginCheck) -> None:
        where = f"{check.host}:{check.port}"
        words = " ".join(part for part in (str(check.code or ""), check.detail.strip()) if part)
        said = f" ({words})" if words else ""  # the server's own words, for whoever helps the manager
        if check.ok:
            if check.user:
                self.status.ok(self.tr("✓ Logged in to {0} as {1}.").format(where, check.user))
            else:
                self.status.ok(self.tr("✓ Connected to {0}; it sends without a login.").format(where))
        elif check.failure is LoginFailure.NOT_SET_UP:
            self.status.problem(self.tr("Enter the mail server and the from address, and save them first."))
        elif check.failure is LoginFailure.REFUSED:
            self.status.problem(self.tr(
                "The server refused the user name or password. Check both; some providers want an app password "
                "here rather than your usual one.") + said)
        elif check.failure is LoginFailure.AUTH:
            self.status.problem(self.tr(
                "The server did not accept this way of logging in. Your provider may need the login to be "
                "allowed for mail programs, or an app password.") + said)
        elif check.failure is LoginFailure.TLS:
            self.status.problem(self.tr(
                "The secure connection to {0} failed. Check the security setting and the port (STARTTLS usually "
                "uses 587, TLS 465); for a mail server with its own certificate, choose its CA file under "
                "Advanced.").format(where) + said)
        elif check.failure is LoginFailure.CA_FILE:
            self.status.problem(self.tr("The CA file cannot be read. Choose it again under Advanced, or leave the "
                                        "field empty.") + said)
        elif check.failure is LoginFailure.TIMEOUT:
            self.status.problem(self.tr(
                "The mail server {0} did not answer in time. Check the port and the security setting, and that "
                "this computer is online.").format(where) + said)
        elif check.failure is LoginFailure.CONNECTION:
            self.status.problem(self.tr(
                "Could not connect to the mail server {0}. Check the server's address and the port, and that this "
                "computer is online.").format(where) + said)
        else:
            self.status.problem(self.tr("The mail server refused the login.") + said)

    def _failed(self, exc: BaseException) -> None:
        self._busy(False)
        report(self, self.status, exc, self.ctx.paths)


class AlertsSection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Alerts"))
        self.ctx = ctx
        self._filled = False
        layout = form(self)
        layout.addRow(note(self.tr(
            "Shiftcast alerts you when something needs you: deliveries that failed after every retry (dead "
            "letters), LINE or e-mail sending paused because the token or password was refused, LINE's monthly "
            "message quota used up, or deliveries waiting more than 15 minutes. Each problem sends one message, "
            "not one per delivery, and is shown at the top of the window until it clears."), self))
        self.webhook = QLineEdit(self)
        self.webhook.setObjectName("alertsWebhook")
        self.webhook.setPlaceholderText("https://hooks.slack.com/services/…")
        layout.addRow(self.tr("Webhook address:"), stack(self.webhook, note(self.tr(
            "Optional: an incoming webhook of Slack, or of another chat service that accepts Slack-compatible "
            "webhooks, posts each alert to a channel."), self)))
        self.manager_email = QLineEdit(self)
        self.manager_email.setObjectName("alertsEmail")
        self.manager_email.setPlaceholderText(self.tr("Optional"))
        layout.addRow(self.tr("Your e-mail address:"), stack(self.manager_email, note(self.tr(
            "Alerts to this address go out through the mail server above."), self)))
        self.manager_line = QLineEdit(self)
        self.manager_line.setObjectName("alertsLineUserId")
        self.manager_line.setPlaceholderText("U0123456789abcdef0123456789abcdef")
        self.pair = QPushButton(self.tr("Pair my LINE…"), self)
        self.pair.setObjectName("alertsPairManager")
        self.pair.clicked.connect(self._pair)
        self.pair_status = StatusLabel(self)
        self.pair_status.setObjectName("alertsPairStatus")
        self._awaiting_pair = False  # a code is shown: LINE's events are looked at for the pairing
        ctx.bridge.webhook_events_handled.connect(self._maybe_paired)
        layout.addRow(self.tr("Your LINE user ID:"), stack(row(self.manager_line, self.pair), note(self.tr(
            "Optional: where you are told on LINE that a teacher has not acknowledged a reminder (Classrooms "
            "section); with the teachers' page on, it also opens your manager's view. Your e-mail address above "
            "is told too. Pair my LINE shows a code to send the LINE Official Account from your own LINE, as "
            "teachers do; Shiftcast then fills this in."), self), self.pair_status))
        self.save = QPushButton(self.tr("Save"), self)
        self.save.setObjectName("saveAlerts")
        self.save.setEnabled(False)
        self.save.clicked.connect(self._save)
        self.status = StatusLabel(self)
        self.status.setObjectName("alertsStatus")
        layout.addRow("", stack(row(self.save, stretch_last=True), self.status))
        keep_text_visible(self)  # Qt's form layout would cut long notes and answers mid-sentence
        self.reload()

    def reload(self) -> None:
        self.ctx.tasks.run(lambda: email.email_state(self.ctx.db), self._loaded, self._failed, owner=self)

    def _loaded(self, state: email.EmailState) -> None:
        self.save.setEnabled(True)
        if not self._filled:
            self._filled = True
            self.webhook.setText(state.webhook_url or "")
            self.manager_email.setText(state.manager_email or "")
            self.manager_line.setText(state.manager_line_user_id or "")

    def _pair(self) -> None:
        from core.setup import line_people

        self.pair_status.busy(self.tr("Making your code…"))
        self.ctx.tasks.run(lambda: line_people.manager_code(self.ctx.db, self.ctx.clock()), self._paired_code,
                           lambda exc: report(self, self.pair_status, exc, self.ctx.paths), owner=self)

    def _paired_code(self, code: pairing.ManagerCode) -> None:
        until = formats.wall_text(code.expires_at.astimezone(), i18n.current())
        self.pair_status.ok(self.tr(
            "From your own LINE, send this code to the LINE Official Account: {0} (valid until {1}). It replies "
            "“paired as manager” and your LINE user ID appears here.").format(code.shown, until))
        self._awaiting_pair = True

    def _maybe_paired(self, _events: object) -> None:
        """LINE events were handled: the manager's code may have been among them."""
        from core.setup import line_people

        if not self._awaiting_pair:
            return
        self.ctx.tasks.run(lambda: line_people.manager_line_user_id(self.ctx.db), self._manager_line,
                           lambda _exc: None, owner=self)

    def _manager_line(self, user_id: str | None) -> None:
        if user_id and user_id != self.manager_line.text().strip():
            self._awaiting_pair = False
            self.manager_line.setText(user_id)
            self.pair_status.ok(self.tr("Paired: your LINE is the manager's."))

    def _save(self) -> None:
        url, address, line_user = self.webhook.text(), self.manager_email.text(), self.manager_line.text()
        self.save.setEnabled(False)
        self.status.busy(self.tr("Saving…"))
        self.ctx.tasks.run(lambda: email.save_alert_targets(self.ctx.db, webhook_url=url, manager_email=address,
                                                            manager_line_user_id=line_user),
                           self._saved, self._failed, owner=self)

    def _saved(self, _result: None) -> None:
        self.save.setEnabled(True)
        self.status.ok(self.tr("Saved."))
        self._filled = False  # show what was stored
        self.ctx.bridge.settings_changed.emit()
        self.reload()

    def _failed(self, exc: BaseException) -> None:
        self.save.setEnabled(True)
        report(self, self.status, exc, self.ctx.paths)

