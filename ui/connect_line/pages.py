"""The pages of the "Connect LINE" wizard (ui/connect_line/wizard.py), each a small class.

A page shows one step of core/setup/line_connect.py and runs it through `ctx.tasks` (never on the UI
thread); the wizard asks it whether Next may be pressed (`ready`) and tells it when Next was pressed
(`go_next`), and the page calls `host.advance()` once its step has succeeded. Pages never import the
wizard: they see it through `Host`, so a page can be added to the wizard's list without touching
the others.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core.addresses import secure_or_local
from core.receiving.address import (
    DOWNLOAD_PAGE,
    AddressError,
    AddressProblem,
    LoopbackAddress,
    OwnAddress,
    PublicAddress,
    QuickTunnel,
)
from core.setup import receiving
from core.setup.line_connect import (
    CONSOLE_URL,
    BotIdentity,
    ConnectLine,
    EndpointState,
    Restore,
    TestOutcome,
    WebhookTest,
)
from ui.common import i18n
from ui.common.phrases import PhraseLabel
from ui.common.widgets import StatusLabel, note, report, row, sentence
from ui.services.context import AppContext


class Host(Protocol):
    """What a page may ask of the wizard."""

    ctx: AppContext
    flow: ConnectLine
    classroom_id: int | None  # the classroom being connected (the group page chooses it)
    results: dict[str, str]  # what each page did, in a sentence, for the last page
    left: dict[str, str]  # what each page leaves to do, in a sentence, for the last page's next steps

    def advance(self) -> None: ...

    def complete(self) -> None: ...


class WizardPage(QWidget):
    changed = Signal()  # ready() may have changed

    def __init__(self, host: Host, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.busy = False
        self.status = StatusLabel(self)
        self.status.setObjectName("pageStatus")
        self.column = QVBoxLayout(self)
        self.column.setSpacing(10)

    def title(self) -> str:
        raise NotImplementedError

    def entered(self) -> None:
        """Shown (also on Back): start what the page does by itself."""

    def ready(self) -> bool:
        return not self.busy

    def go_next(self) -> None:
        self.host.advance()

    def next_text(self) -> str:
        return self.tr("Next")

    def _working(self, text: str) -> None:
        self.busy = True
        self.status.busy(text)
        self.changed.emit()

    def _done(self) -> None:
        self.busy = False
        self.changed.emit()

    def _failed(self, exc: BaseException) -> None:
        self._done()
        report(self, self.status, exc, self.host.ctx.paths)

    def finish_layout(self) -> None:
        self.column.addWidget(self.status)
        self.column.addStretch(1)


class CredentialsPage(WizardPage):
    """Channel ID and channel secret → a stateless token → the bot's name."""

    use_token_instead = Signal()

    def __init__(self, host: Host, parent: QWidget | None = None) -> None:
        super().__init__(host, parent)
        self.bot: BotIdentity | None = None
        self.column.addWidget(note(self.tr(
            "Shiftcast connects to the Messaging API channel of your LINE Official Account with two values from "
            "the LINE Developers console ({0}): open your provider, then the channel, and the “Basic settings” "
            "tab. The secret is kept in this computer's keyring; Shiftcast makes its own short-lived access "
            "tokens from it.").format(CONSOLE_URL), self))
        fields = QFormLayout()
        self.channel_id = QLineEdit(self)
        self.channel_id.setObjectName("channelId")
        self.channel_id.setPlaceholderText(self.tr("e.g. 2001234567"))
        self.secret = QLineEdit(self)
        self.secret.setObjectName("channelSecret")
        self.secret.setEchoMode(QLineEdit.EchoMode.Password)
        self.secret.setPlaceholderText(self.tr("32 letters and digits"))
        fields.addRow(self.tr("Channel ID:"), self.channel_id)
        fields.addRow(self.tr("Channel secret:"), self.secret)
        self.column.addLayout(fields)
        self.channel_id.textChanged.connect(lambda _t: self.changed.emit())
        self.secret.textChanged.connect(lambda _t: self.changed.emit())
        self.token_button = QPushButton(self.tr("Use a long-lived access token instead…"), self)
        self.token_button.setObjectName("useTokenInstead")
        self.token_button.clicked.connect(self.use_token_instead.emit)
        self.column.addLayout(row(self.token_button, stretch_last=True))
        self.column.addWidget(note(self.tr(
            "An account that already has a “Channel access token (long-lived)” can paste it in Settings → LINE "
            "instead. Receiving LINE's events (to find the group and the teachers) still needs the channel "
            "secret."), self))
        self.finish_layout()

    def title(self) -> str:
        return self.tr("Channel ID and secret")

    def ready(self) -> bool:
        return not self.busy and bool(self.channel_id.text().strip()) and bool(self.secret.text().strip())

    def go_next(self) -> None:
        channel_id, secret = self.channel_id.text(), self.secret.text()
        self._working(self.tr("Asking LINE for an access token…"))
        flow = self.host.flow
        self.host.ctx.tasks.run(lambda: flow.check_credentials(channel_id, secret), self._checked, self._failed,
                                owner=self)

    def _checked(self, bot: BotIdentity) -> None:
        self._done()
        self.bot = bot
        self.secret.clear()  # in the keyring now; the field need not hold it any longer
        self.status.ok(self.tr("Connected to “{0}” ({1}).").format(bot.display_name, bot.basic_id))
        self.host.advance()


class AddressPage(WizardPage):
    """Where LINE reaches the receiver: a Cloudflare quick tunnel, the owner's address, or loopback."""

    def __init__(self, host: Host, parent: QWidget | None = None) -> None:
        super().__init__(host, parent)
        self.column.addWidget(note(self.tr(
            "LINE tells Shiftcast about your group and your teachers by calling an internet address. Shiftcast "
            "listens on this computer only, so it needs a public address while you connect."), self))
        self.choice = QButtonGroup(self)
        self.tunnel = QRadioButton(self.tr("A Cloudflare quick tunnel (free, no account needed)"), self)
        self.tunnel.setObjectName("addressTunnel")
        self.own = QRadioButton(self.tr("My own HTTPS address (a reverse proxy, Tailscale Funnel …)"), self)
        self.own.setObjectName("addressOwn")
        self.loopback = QRadioButton(self.tr("This computer only (the built-in LINE simulator)"), self)
        self.loopback.setObjectName("addressLoopback")
        for index, button in enumerate((self.tunnel, self.own, self.loopback)):
            self.choice.addButton(button, index)
            self.column.addWidget(button)
        self.column.insertWidget(self.column.indexOf(self.own), note(self.tr(
            "Shiftcast starts Cloudflare's cloudflared program, which gives a temporary address ending in "
            "trycloudflare.com, and stops it when you finish."), self))
        self.url = QLineEdit(self)
        self.url.setObjectName("ownAddress")
        self.url.setPlaceholderText("https://")
        self.port = QSpinBox(self)
        self.port.setObjectName("ownPort")
        self.port.setRange(1024, 65535)
        self.port.setValue(8765)
        own_fields = QFormLayout()
        own_fields.addRow(self.tr("Address:"), self.url)
        own_fields.addRow(self.tr("Forwarded to port:"), self.port)
        self.own_box = QWidget(self)
        self.own_box.setLayout(own_fields)
        self.column.insertWidget(self.column.indexOf(self.loopback), self.own_box)
        # The simulator is the only caller that can reach a loopback address.
        local = secure_or_local(host.flow.base_url) and host.flow.base_url.startswith("http://")
        self.loopback.setVisible(local)
        (self.loopback if local else self.tunnel).setChecked(True)
        self.choice.idToggled.connect(lambda _id, _on: self._choice_changed())
        self.url.textChanged.connect(lambda _t: self.changed.emit())
        self._choice_changed()
        self.finish_layout()

    def title(self) -> str:
        return self.tr("A public address for Shiftcast")

    def _choice_changed(self) -> None:
        self.own_box.setEnabled(self.own.isChecked())
        self.changed.emit()

    def ready(self) -> bool:
        return not self.busy and (not self.own.isChecked() or bool(self.url.text().strip()))

    def _address(self) -> tuple[PublicAddress, int]:
        kind = (OwnAddress.name if self.own.isChecked() else LoopbackAddress.name if self.loopback.isChecked()
                else QuickTunnel.name)
        return receiving.address_of(kind, self.url.text(), self.port.value())

    def go_next(self) -> None:
        try:
            address, port = self._address()
        except AddressError as exc:
            self.status.problem(sentence(i18n.describe(exc)))
            return
        self._working(self.tr("Starting the receiver and the tunnel… (this can take half a minute)")
                      if isinstance(address, QuickTunnel) else self.tr("Starting the receiver…"))
        flow = self.host.flow
        self.host.ctx.tasks.run(lambda: flow.start_receiving(address, port=port), self._started,
                                self._not_started, owner=self)

    def _started(self, url: str) -> None:
        self._done()
        self.status.ok(self.tr("Shiftcast is reachable at {0}").format(url))
        self.host.advance()

    def _not_started(self, exc: BaseException) -> None:
        self._done()
        if isinstance(exc, AddressError) and exc.problem is AddressProblem.NOT_INSTALLED:
            self.status.problem(self.tr(
                "Cloudflare's cloudflared program is not installed on this computer. Install it from {0} (on "
                "Windows: winget install --id Cloudflare.cloudflared; on a Mac: brew install cloudflared) and "
                "try again, or use an HTTPS address of your own.").format(DOWNLOAD_PAGE))
        elif isinstance(exc, AddressError) and exc.problem is AddressProblem.TIMEOUT:
            self.status.problem(self.tr(
                "cloudflared did not give an address in time. Check this computer's internet connection and "
                "try again."))
        elif isinstance(exc, AddressError) and exc.problem is AddressProblem.EXITED:
            self.status.problem(self.tr("cloudflared stopped without giving an address. Try again in a moment.")
                                + "\n" + exc.output[-400:])
        else:
            report(self, self.status, exc, self.host.ctx.paths)


class WebhookPage(WizardPage):
    """LINE's earlier endpoint saved, Shiftcast's set, and LINE's own test of it."""

    def __init__(self, host: Host, parent: QWidget | None = None) -> None:
        super().__init__(host, parent)
        self.result: WebhookTest | None = None
        self._pointed = False
        self.column.addWidget(note(self.tr(
            "Shiftcast now points the channel's webhook at itself and asks LINE to test it. The address LINE "
            "used before is kept and put back when you finish."), self))
        self.where = StatusLabel(self)
        self.where.setObjectName("webhookWhere")
        self.column.addWidget(self.where)
        self.answer = StatusLabel(self)
        self.answer.setObjectName("webhookAnswer")
        self.again = QPushButton(self.tr("Test again"), self)
        self.again.setObjectName("testAgain")
        self.again.clicked.connect(self._test)
        self.again.setEnabled(False)
        self.column.addWidget(self.answer)
        self.column.addLayout(row(self.again, stretch_last=True))
        self.finish_layout()

    def title(self) -> str:
        return self.tr("LINE's webhook")

    def entered(self) -> None:
        self.result = None
        self._pointed = False
        self.answer.clear_status()
        self.where.clear_status()
        self._working(self.tr("Setting Shiftcast's address at LINE…"))
        flow = self.host.flow
        self.host.ctx.tasks.run(flow.point_line_here, self._pointed_here, self._failed_here, owner=self)

    def _pointed_here(self, previous: EndpointState) -> None:
        self._pointed = True
        ours = self.host.flow.endpoint or ""
        if previous.endpoint and previous.endpoint != ours:
            self.where.ok(self.tr("LINE now calls {0}\nBefore, it called {1}; that address is put back when you "
                                  "finish.").format(ours, previous.endpoint))
        else:
            self.where.ok(self.tr("LINE now calls {0}\nNo other address was set before. LINE cannot remove an "
                                  "address, so this one stays after you finish; once the tunnel stops, nothing "
                                  "answers there. You may switch “Use webhook” off in the LINE Developers console "
                                  "then.").format(ours))
        self._test()

    def _failed_here(self, exc: BaseException) -> None:
        self._failed(exc)
        self.again.setEnabled(False)

    def _test(self) -> None:
        self.again.setEnabled(False)
        self._working(self.tr("Asking LINE to test the address…"))
        self.host.ctx.tasks.run(self.host.flow.test, self._tested, self._test_failed, owner=self)

    def _test_failed(self, exc: BaseException) -> None:
        self._failed(exc)
        self.again.setEnabled(self._pointed)

    def _tested(self, result: WebhookTest) -> None:
        self._done()
        self.result = result
        self.status.clear_status()
        self.again.setEnabled(True)
        words = self.words(result)
        if result.works:
            self.answer.ok("✓ " + words)
        else:
            self.answer.problem(words)
        self.changed.emit()

    def words(self, result: WebhookTest) -> str:
        """LINE's answer in plain words (core/setup/line_connect.py's table, translated)."""
        outcome = result.outcome
        if outcome is TestOutcome.OK and not result.active:
            return self.tr("LINE's test reached Shiftcast, but webhooks are switched off for this channel: switch "
                           "“Use webhook” on in the LINE Developers console (Messaging API tab), then press "
                           "“Test again”.")
        if outcome is TestOutcome.OK:
            text = self.tr("LINE reached Shiftcast: webhooks work.")
        elif outcome is TestOutcome.SIGNATURE:
            text = self.tr("LINE reached Shiftcast, but its signature did not match the channel secret. Check that "
                           "the secret is this channel's (Basic settings → Channel secret).")
        elif outcome is TestOutcome.NOT_FOUND:
            text = self.tr("LINE reached a server at that address, but not Shiftcast's receiver (HTTP 404).")
        elif outcome is TestOutcome.ERROR_STATUS:
            text = self.tr("LINE reached the address, but it answered with an error (HTTP {0}).").format(
                result.status_code)
        elif outcome is TestOutcome.TIMEOUT:
            text = self.tr("LINE reached the address, but no answer came within 2 seconds.")
        elif outcome is TestOutcome.COULD_NOT_CONNECT:
            text = self.tr("LINE could not connect to the address: the tunnel may still be starting, or something "
                           "blocks it. Try the test again in a moment.")
        else:
            text = self.tr("LINE could not deliver to the address for a reason it did not classify ({0}).").format(
                result.reason or result.detail or "?")
        if not result.active:
            text += "\n" + self.tr("Webhooks are switched off for this channel: switch “Use webhook” on in the LINE "
                                   "Developers console (Messaging API tab), then press “Test again”.")
        return text

    def ready(self) -> bool:
        return not self.busy and self.result is not None and self.result.works


class NextStepsPage(WizardPage):
    """The last page: what was done, what is left to do (if anything), and whether to keep receiving."""

    def __init__(self, host: Host, parent: QWidget | None = None) -> None:
        super().__init__(host, parent)
        self.done_label = PhraseLabel(self)
        self.done_label.setObjectName("doneSteps")
        self.done_label.setWordWrap(True)
        self.column.addWidget(self.done_label)
        self.left_heading = QLabel(self.tr("Next steps"), self)
        self.left_heading.setObjectName("nextStepsHeading")
        font = self.left_heading.font()
        font.setBold(True)
        self.left_heading.setFont(font)
        self.column.addWidget(self.left_heading)
        self.left_label = PhraseLabel(self)
        self.left_label.setObjectName("nextSteps")
        self.left_label.setWordWrap(True)
        self.column.addWidget(self.left_label)
        # On by default: without it, 了解 taps and pairing codes sent after Finish never reach Shiftcast.
        self.keep = QCheckBox(self.tr("Keep receiving LINE's events whenever Shiftcast runs (in the window or the tray)"), self)
        self.keep.setObjectName("keepReceiving")
        self.keep.setChecked(True)
        self.column.addWidget(self.keep)
        self.keep_note = note("", self)
        self.keep_note.setObjectName("keepReceivingNote")
        self.column.addWidget(self.keep_note)
        self.keep.toggled.connect(lambda _on: self._say())
        self.finish_layout()

    def title(self) -> str:
        return self.tr("LINE is connected")

    def entered(self) -> None:
        self._say()

    def _say(self) -> None:
        results, left, bot = self.host.results, self.host.left, self.host.flow.bot
        lines = [self.tr("✓ Shiftcast is connected to the LINE Official Account “{0}”.").format(bot.display_name)
                 if bot is not None and bot.display_name else self.tr("✓ Shiftcast and your LINE channel are connected.")]
        lines += ["✓ " + results[key] for key in ("group", "teachers", "page") if key in results]
        self.done_label.setText("\n".join(lines))
        steps: list[str] = []
        if "group" not in results:
            steps.append(self.tr(
                "Invite the account into your teachers' LINE group: in the group, tap the menu, then “Invite”, and "
                "choose the account. Shiftcast learns the group from LINE while it receives; open Connect LINE again "
                "to choose it for a classroom."))
        steps += [left[key] for key in ("teachers", "page") if key in left]
        if steps and not self.keep.isChecked():
            steps.append(self.tr("Keep receiving (below), or none of this reaches Shiftcast."))
        self.left_heading.setVisible(bool(steps))
        self.left_label.setVisible(bool(steps))
        self.left_label.setText("\n".join("• " + step.replace("\n", "\n   ") for step in steps))
        self.keep_note.setText(self.tr(
            "Teachers' 了解 taps, pairing codes and answers then reach Shiftcast whenever it runs.")
            if self.keep.isChecked() else self.tr(
            "Finish puts LINE's earlier webhook address back: later 了解 taps and codes do not arrive."))

    def next_text(self) -> str:
        return self.tr("Finish")

    def go_next(self) -> None:
        keep = self.keep.isChecked()
        self._working(self.tr("Putting LINE's earlier webhook address back…") if not keep else self.tr("Finishing…"))
        flow = self.host.flow
        self.host.ctx.tasks.run(lambda: flow.finish(keep_receiving=keep), self._finished, self._failed, owner=self)

    def _finished(self, result: object) -> None:
        self._done()
        restore = getattr(result, "restore", None)
        if restore is Restore.FAILED:
            self.status.problem(self.tr("LINE could not be reached to put the earlier webhook address back. "
                                        "Shiftcast tries again the next time it starts."))
            return
        self.host.complete()
