"""Connecting a LINE channel, step by step, without a screen: what the "Connect LINE" wizard drives.

1. `check_credentials(channel ID, secret)`: a stateless token is issued with them and the bot's
   name read (GET /v2/bot/info); only then the secret goes to the keyring and the ID to the settings.
2. `start_receiving(address)`: the webhook receiver on 127.0.0.1 and a public address for it
   (core/receiving/address.py).
3. `point_line_here()`: LINE's current webhook endpoint (GET) is saved in the settings with a
   "restore pending" flag *before* ours is set (PUT), so a crash in between loses nothing.
4. `test()`: LINE's webhook test (POST …/webhook/test) in plain words (`explain`, pure), with the
   reminder to switch "Use webhook" on when LINE says the webhook is not active.
5. `finish(keep_receiving)`: the saved endpoint is put back unless the owner keeps receiving; the
   tunnel and the receiver stop (unless kept; then `close()` stops them later). Kept, the address
   is stored, and the app receives there at every start from then on (core/setup/receiving.py).

After a crash, `restore_if_pending(db)` at the next start (the window, `main.py sender`, `main.py
webhook`) puts the saved endpoint back.

Decisions:
- LINE has no call that removes a webhook endpoint or switches "Use webhook" off. When there was no
  endpoint before, ours is left set: once the tunnel stops, nothing answers there, and LINE's
  deliveries to it fail harmlessly. Setting any other address instead would hand the classroom's
  events to a stranger. The owner can switch "Use webhook" off in the LINE Developers console.
- A restore puts the old endpoint back only while LINE still has ours: if someone changed it since
  (by hand, or another computer's wizard), it is left alone.
- A second run while a restore is still pending (LINE was unreachable at the last start) keeps the
  endpoint saved first, so the one restored in the end is the owner's, never an old tunnel's.
"""

from __future__ import annotations

import enum
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from core.channels.line import (
    DEFAULT_TIMEOUT,
    LineClient,
    network_failure,
    resolve_base_url,
    tls_context,
)
from core.channels.line_token import Clock, StatelessTokenSource, TokenRefused
from core.errors import ShiftcastError, ValidationError
from core.receiving.address import OwnAddress, PublicAddress, endpoint
from core.receiving.handlers import EventHandler
from core.receiving.server import WebhookReceiver
from core.setup import relay_state
from core.setup.line import credentials_saved, remember_account
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import t

log = logging.getLogger(__name__)
ENDPOINT_PATH = "/v2/bot/channel/webhook/endpoint"
TEST_PATH = "/v2/bot/channel/webhook/test"
CONSOLE_URL = "https://developers.line.biz/console/"


# ----- the calls (LINE's webhook settings) -----


@dataclass(frozen=True)
class EndpointState:
    endpoint: str | None  # None: no webhook URL is set
    active: bool  # the console's "Use webhook" switch (LINE reports false while no URL is set)


class WebhookClient(LineClient):
    """The LINE client plus the three webhook-settings calls (no retry key: LINE rejects it there)."""

    def webhook_endpoint(self) -> EndpointState:
        answer = self._request("GET", ENDPOINT_PATH)
        return EndpointState(str(answer.get("endpoint") or "") or None, bool(answer.get("active")))

    def set_webhook_endpoint(self, url: str) -> None:
        self._request("PUT", ENDPOINT_PATH, json={"endpoint": url})

    def test_webhook(self, url: str | None = None) -> dict[str, Any]:
        return self._request("POST", TEST_PATH, json={"endpoint": url} if url else {})


def client_from_settings(db: Database) -> WebhookClient | None:
    """A client with the saved credentials (the long-lived token, else the channel ID and secret)."""
    token = secrets.line_token_if_any()
    with db.read() as session:
        channel_id = None if token else keys.LINE_CHANNEL_ID.read(session)
        base = resolve_base_url(keys.LINE_API_BASE.read(session))
    if token:
        return WebhookClient(token, base_url=base)
    channel_secret = secrets.line_channel_secret() if channel_id else None
    if not channel_id or not channel_secret:
        return None
    source = StatelessTokenSource(channel_id, channel_secret, base_url=base, timeout=10.0, verify=tls_context())
    return WebhookClient("", base_url=base, auth=source.auth())


# ----- the webhook test in plain words (pure) -----


class TestOutcome(enum.Enum):
    """What LINE's webhook test found, from its statusCode and reason (the reasons LINE documents for
    webhook errors: could_not_connect, request_timeout, error_status_code, unclassified)."""

    __test__ = False  # not a pytest class

    OK = "ok"
    SIGNATURE = "signature"  # 401/403: the receiver refused LINE's signature: not this channel's secret
    NOT_FOUND = "not_found"  # 404: something answers there, but not Shiftcast's receiver
    ERROR_STATUS = "error_status"  # another non-2xx answer (a proxy's 502 …)
    TIMEOUT = "timeout"  # no answer within LINE's 2 seconds
    COULD_NOT_CONNECT = "could_not_connect"  # nothing answered at all (statusCode 0 or less)
    UNCLASSIFIED = "unclassified"


_WORDS = {
    TestOutcome.OK: "LINE reached Shiftcast: webhooks work.",
    TestOutcome.SIGNATURE: ("LINE reached Shiftcast, but its signature did not match the channel secret: check "
                            "that the secret is this channel's (Basic settings → Channel secret)."),
    TestOutcome.NOT_FOUND: "LINE reached a server at that address, but not Shiftcast's receiver (HTTP 404).",
    TestOutcome.ERROR_STATUS: "LINE reached the address, but it answered with an error (HTTP {code}).",
    TestOutcome.TIMEOUT: "LINE reached the address, but no answer came within 2 seconds.",
    TestOutcome.COULD_NOT_CONNECT: ("LINE could not connect to the address: the tunnel may still be starting, or "
                                    "something blocks it. Try the test again in a moment."),
    TestOutcome.UNCLASSIFIED: "LINE could not deliver to the address for a reason it did not classify ({reason}).",
}
INACTIVE_WORDS = ("Webhooks are switched off for this channel: switch “Use webhook” on in the LINE Developers "
                  "console (Messaging API tab), then run the test again.")


@dataclass(frozen=True)
class WebhookTest:
    outcome: TestOutcome
    status_code: int
    reason: str
    detail: str
    active: bool  # "Use webhook" is on

    @property
    def works(self) -> bool:
        return self.outcome is TestOutcome.OK and self.active

    @property
    def words(self) -> str:
        if self.outcome is TestOutcome.OK and not self.active:
            return f"LINE's test reached Shiftcast, but it will not send events yet. {INACTIVE_WORDS}"
        text = _WORDS[self.outcome].format(code=self.status_code, reason=self.reason or self.detail or "?")
        return text if self.active else f"{text} {INACTIVE_WORDS}"


def explain(answer: dict[str, Any], *, active: bool) -> WebhookTest:
    """LINE's test answer {success, statusCode, reason, detail} as a WebhookTest."""
    raw = answer.get("statusCode")
    code = raw if isinstance(raw, int) and not isinstance(raw, bool) else 0
    reason = str(answer.get("reason") or "")
    detail = str(answer.get("detail") or "")
    word = reason.strip().lower().replace(" ", "_")
    if answer.get("success") is True or 200 <= code < 300:
        outcome = TestOutcome.OK
    elif word in ("request_timeout", "timeout") or "timeout" in word:
        outcome = TestOutcome.TIMEOUT
    elif code in (401, 403):
        outcome = TestOutcome.SIGNATURE
    elif code == 404:
        outcome = TestOutcome.NOT_FOUND
    elif code >= 300:
        outcome = TestOutcome.ERROR_STATUS
    elif word == "unclassified":
        outcome = TestOutcome.UNCLASSIFIED
    else:  # statusCode 0 or less: LINE got no answer (could_not_connect, "Connection failed" …)
        outcome = TestOutcome.COULD_NOT_CONNECT
    return WebhookTest(outcome, code, reason, detail, active)


# ----- putting the earlier endpoint back -----


class Restore(enum.Enum):
    NOTHING_PENDING = "nothing_pending"
    RESTORED = "restored"  # the earlier endpoint is set again
    KEPT_OURS = "kept_ours"  # there was none before; LINE cannot remove one, so ours stays (see above)
    CHANGED_SINCE = "changed_since"  # LINE no longer had ours: left alone
    FAILED = "failed"  # LINE could not be asked; still pending, tried again at the next start


def restore_if_pending(db: Database, client: WebhookClient | None = None) -> Restore:
    """Put the saved webhook endpoint back if a connect flow left it pending. Cheap when nothing is
    pending (one settings read). Never raises for LINE or the keyring: a failure stays pending."""
    with db.read() as session:
        if not keys.LINE_WEBHOOK_RESTORE_PENDING.read(session):
            return Restore.NOTHING_PENDING
        saved = keys.LINE_WEBHOOK_SAVED.read(session)
        ours = keys.LINE_WEBHOOK_OURS.read(session)
    made = None
    try:
        if client is None:
            client = made = client_from_settings(db)
        if client is None:
            log.warning("the LINE webhook endpoint is still to be put back, but no LINE credentials are saved")
            return Restore.FAILED
        current = client.webhook_endpoint()
        if ours is not None and current.endpoint != ours:
            outcome = Restore.CHANGED_SINCE
        elif saved is not None:
            client.set_webhook_endpoint(saved)
            outcome = Restore.RESTORED
        else:
            outcome = Restore.KEPT_OURS
    except (ShiftcastError, httpx.HTTPError) as exc:
        log.warning("could not put the earlier LINE webhook endpoint back yet: %s", exc)
        return Restore.FAILED
    finally:
        if made is not None:
            made.close()
    with db.write() as session:
        _clear(session)
    log.info("LINE webhook endpoint after connecting: %s", outcome.value)
    return outcome


def _clear(session: Any) -> None:
    keys.LINE_WEBHOOK_RESTORE_PENDING.clear(session)
    keys.LINE_WEBHOOK_SAVED.clear(session)
    keys.LINE_WEBHOOK_OURS.clear(session)


# ----- where the app receives from now on (core/setup/receiving.py) -----


def remember_address(db: Database, address: PublicAddress | None, port: int) -> None:
    """Store where LINE reaches the app from now on (None: the app does not receive)."""
    with db.write() as session:
        if address is None:
            keys.LINE_RECEIVE_ADDRESS.clear(session)
            keys.LINE_RECEIVE_OWN_URL.clear(session)
            keys.LINE_RECEIVE_PORT.clear(session)
            return
        keys.LINE_RECEIVE_ADDRESS.write(session, address.name)
        if isinstance(address, OwnAddress):
            keys.LINE_RECEIVE_OWN_URL.write(session, address.url)
            keys.LINE_RECEIVE_PORT.write(session, port)
        else:
            keys.LINE_RECEIVE_OWN_URL.clear(session)
            keys.LINE_RECEIVE_PORT.clear(session)


def stop_receiving(address: PublicAddress | None, receiver: WebhookReceiver | None) -> None:
    """The address first (LINE stops reaching the receiver), then the receiver, even if the first fails."""
    try:
        if address is not None:
            address.stop()
    finally:
        if receiver is not None:
            receiver.stop()


# ----- the flow -----


@dataclass(frozen=True)
class BotIdentity:
    display_name: str
    basic_id: str  # "@abc1234": the add-friend link and QR code are made from it
    user_id: str


@dataclass(frozen=True)
class Finished:
    restore: Restore | None  # None: kept receiving here, nothing restored
    kept_receiving: bool


def check_channel_id(text: str) -> str:
    channel_id = text.strip()
    if not (channel_id.isascii() and channel_id.isdigit() and len(channel_id) <= 32):
        raise ValidationError(t("line.channel_id_format"))
    return channel_id


def check_channel_secret(text: str) -> str:
    secret = text.strip()
    if not secret or not secret.isascii() or any(c.isspace() for c in secret) or len(secret) > 200:
        raise ValidationError(t("line.channel_secret_missing"))
    return secret


class FlowEnded(ShiftcastError):
    """A step was asked of a flow that has finished (the wizard was closed meanwhile)."""


class ConnectLine:
    """One run of the connect flow. Its steps block (HTTP, a subprocess); a screen runs each on a
    background thread. Steps run one at a time (a lock), and `finish` or `close` from another thread
    first stops a tunnel that is still starting, so closing the wizard never waits out cloudflared
    and never leaves a tunnel behind that a late step would have started."""

    def __init__(self, db: Database, *, timeout: httpx.Timeout = DEFAULT_TIMEOUT, receiver_host: str = "127.0.0.1",
                 clock: Clock | None = None, handlers: Sequence[EventHandler] | None = None) -> None:
        self.db = db
        self.handlers = handlers  # the receiver's; None: its default ones
        self.timeout = timeout
        self.receiver_host = receiver_host
        self.clock = clock  # the token cache's clock (tests); None: the wall clock
        with db.read() as session:
            self.base_url = resolve_base_url(keys.LINE_API_BASE.read(session))
        self.client: WebhookClient | None = None
        self.bot: BotIdentity | None = None
        self.receiver: WebhookReceiver | None = None
        self.address: PublicAddress | None = None
        self.endpoint: str | None = None
        self.previous: EndpointState | None = None
        self._secret: str | None = None
        self._lock = threading.RLock()
        self._starting: PublicAddress | None = None  # an address whose start() is under way
        self._ended = False

    # 1
    def check_credentials(self, channel_id: str, channel_secret: str) -> BotIdentity:
        channel_id = check_channel_id(channel_id)
        channel_secret = check_channel_secret(channel_secret)
        with self._lock:
            self._check_open()
            source = StatelessTokenSource(channel_id, channel_secret, base_url=self.base_url, timeout=self.timeout,
                                          verify=tls_context(), **({"clock": self.clock} if self.clock else {}))
            try:
                source.current()
            except TokenRefused as exc:
                raise ValidationError(t("line.credentials_refused", reason=str(exc))) from None
            except httpx.HTTPError as exc:
                raise network_failure(exc) from None
            client = WebhookClient("", base_url=self.base_url, timeout=self.timeout, auth=source.auth())
            try:
                info = client.bot_info()
            except BaseException:
                client.close()
                raise
            secrets.set_line_channel_secret(channel_secret)
            with self.db.write() as session:
                keys.LINE_CHANNEL_ID.write(session, channel_id)
            remember_account(self.db, str(info.get("displayName") or ""), str(info.get("basicId") or ""))
            credentials_saved(self.db)
            if self.client is not None:
                self.client.close()
            self.client = client
            self._secret = channel_secret
            self.bot = BotIdentity(str(info.get("displayName") or ""), str(info.get("basicId") or ""),
                                   str(info.get("userId") or ""))
            return self.bot

    # 2
    def start_receiving(self, address: PublicAddress, *, port: int = 0) -> str:
        with self._lock:
            self._check_open()
            if self._secret is None:
                raise RuntimeError("check the credentials first")
            self.stop_receiving()
            receiver = WebhookReceiver(self.db, self._secret, host=self.receiver_host, port=port,
                                       handlers=self.handlers).start()
            self._starting = address
            try:
                url = endpoint(address.start(receiver.port))
                self._check_open()  # ended while the address started: stop both below
            except BaseException:
                address.stop()
                receiver.stop()
                raise
            finally:
                self._starting = None
            self.receiver, self.address, self.endpoint = receiver, address, url
            return url

    # 3
    def point_line_here(self) -> EndpointState:
        with self._lock:
            self._check_open()
            client, ours = self._client(), self._endpoint()
            current = client.webhook_endpoint()
            with self.db.write() as session:
                pending = keys.LINE_WEBHOOK_RESTORE_PENDING.read(session)
                if not pending or current.endpoint != keys.LINE_WEBHOOK_OURS.read(session):
                    keys.LINE_WEBHOOK_SAVED.write(session, current.endpoint)
                keys.LINE_WEBHOOK_OURS.write(session, ours)
                keys.LINE_WEBHOOK_RESTORE_PENDING.write(session, True)
            # Saved and committed first: from here on a crash is repaired at the next start.
            try:
                client.set_webhook_endpoint(ours)
            except BaseException:
                if not pending:  # LINE kept its endpoint: nothing to put back
                    with self.db.write() as session:
                        _clear(session)
                raise
            self.previous = current
            return current

    # 4
    def test(self) -> WebhookTest:
        with self._lock:
            self._check_open()
            client, ours = self._client(), self._endpoint()
            answer = client.test_webhook(ours)
            state = client.webhook_endpoint()
            return explain(answer, active=state.active)

    # 5
    def finish(self, *, keep_receiving: bool = False) -> Finished:
        """Put LINE's earlier endpoint back and stop, or keep receiving (`close()` later). Safe to call
        from another thread while a step runs, and more than once."""
        if not keep_receiving:
            self._interrupt()
        with self._lock:
            try:
                if keep_receiving:
                    self._check_open()
                    restore = None
                    relay = relay_state.relay_webhook(self.db)
                    if relay is not None and self.previous is not None and self.previous.endpoint == relay:
                        # The relay takes LINE's events while every PC sleeps and the app pulls them from
                        # it; the app's receiving leaves LINE with it (core/setup/receiving.py).
                        restore = restore_if_pending(self.db, self.client)
                    else:
                        with self.db.write() as session:
                            _clear(session)
                    if self.address is not None and self.receiver is not None:
                        remember_address(self.db, self.address, self.receiver.port)
                    return Finished(restore, True)
                remember_address(self.db, None, 0)
                return Finished(restore_if_pending(self.db, self.client), False)
            finally:
                if not keep_receiving:
                    self._close_locked()

    def stop_receiving(self) -> None:
        with self._lock:
            address, self.address = self.address, None
            receiver, self.receiver = self.receiver, None
            self.endpoint = None
            stop_receiving(address, receiver)

    def close(self) -> None:
        """Stop the tunnel and the receiver and drop the client, restoring nothing."""
        self._interrupt()
        with self._lock:
            self._close_locked()

    def _interrupt(self) -> None:
        self._ended = True  # read by a step still running: it stops what it started
        starting = self._starting
        if starting is not None:
            starting.stop()  # its start() then ends at once with an AddressError

    def _close_locked(self) -> None:
        self._ended = True
        try:
            self.stop_receiving()
        finally:
            if self.client is not None:
                self.client.close()
                self.client = None

    def _check_open(self) -> None:
        if self._ended:
            raise FlowEnded(t("line.connect_closed"))

    def _client(self) -> WebhookClient:
        if self.client is None:
            raise RuntimeError("check the credentials first")
        return self.client

    def _endpoint(self) -> str:
        if self.endpoint is None:
            raise RuntimeError("start receiving first")
        return self.endpoint

