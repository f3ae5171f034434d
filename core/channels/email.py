"""The e-mail channel: SMTP with STARTTLS or implicit TLS, one connection for a whole batch, and its driver.

Like the LINE client, sending never raises for the server's answers or network failures: each
message comes back as a `SendResult` (channel EMAIL, the SMTP reply code in `smtp_code`) for
core/outbox/policy.py to classify. A batch reuses one connection and one login; the connection stays open
for a short while so the next batch of the same burst (a publication to 200 teachers arrives over a
few sender turns) does not log in again. `SmtpAccess` is e-mail's connection for the sender
(core/channels/base.py): the e-mails a turn claimed go as one batch over the mailer's connection.
"""

from __future__ import annotations

import logging
import os
import smtplib
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from core.addresses import is_loopback
from core.channels import email_draft, email_render
from core.channels.base import AddressRule, CancelReasons, Outgoing, R
from core.channels.email_draft import Envelope
from core.channels.net import ms_since, short
from core.errors import ValidationError
from core.logs import secrets_registry
from core.messages.message import Message
from core.outbox import policy
from core.outbox.policy import CancelReason, ChannelFailure, Outcome, SendResult, Transport, Verdict
from core.roster import contacts
from core.roster.contacts import ContactView
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Channel, Delivery
from core.store.paths import DataPaths
from core.store.settings import HoldSetting
from core.texts import Text, t
from core.texts.template import Template

log = logging.getLogger(__name__)

PASSWORD_SECRET = "smtp-password"
PASSWORD_ENV = "SHIFTCAST_SMTP_PASSWORD"
SECURITY_MODES = ("starttls", "tls", "none")
DEFAULT_PORTS = {"starttls": 587, "tls": 465, "none": 25}
DEFAULT_TIMEOUT = 30.0
KEEPALIVE = 30.0  # seconds an idle connection is kept for the next batch
AUTH_MECHANISMS = ("PLAIN", "LOGIN", "CRAM-MD5")  # the connection is encrypted, so PLAIN is fine and simplest
# E-mails claimed per turn. They share one connection and go one after another, so one batch is in
# flight at a time; the mailer keeps the connection for the next batch of the same burst.
BATCH = 200

K = TypeVar("K")


class SmtpError(StrEnum):
    """The mail server's error codes (deliveries.last_error_code); their words are in `TEXTS`."""

    TEMPORARY = "SMTP_4XX"
    REJECTED = "SMTP_5XX"
    AUTH_FAILED = "SMTP_AUTH_FAILED"


# Why an e-mail was canceled (deliveries.cancel_reason): the teacher does not receive e-mail.
NOT_OPTED_IN = "EMAIL_NOT_OPTED_IN"


# SMTP replies that refuse our credentials or how we log in (530 authentication required, 534
# mechanism too weak, 535 credentials invalid, 538 encryption required): every message would fail
# the same way, so the channel is held instead of failing each delivery.
SMTP_AUTH_CODES = frozenset({530, 534, 535, 538})


def classify(result: SendResult) -> Verdict:
    """The mail server's reply → what to do. 2xx accepted; 4xx, timeouts and dropped connections are
    temporary; 5xx refuses this message or recipient only; an authentication refusal holds e-mail."""
    code = result.smtp_code
    if code is None:
        return policy.transport_verdict(result)
    if 200 <= code < 400:
        return Verdict(Outcome.SENT)
    if code in SMTP_AUTH_CODES:
        return policy.failed(Outcome.HOLD, SmtpError.AUTH_FAILED, result)
    if 400 <= code < 500:
        return policy.failed(Outcome.RETRY, SmtpError.TEMPORARY, result)
    return policy.failed(Outcome.FAILED, SmtpError.REJECTED, result)


# E-mail's words: its cancel reason and its error codes ("send_error.<code>"; `said` is the server's reply, as it came).
TEXTS: Mapping[str, tuple[Template, Template]] = MappingProxyType({
    f"cancel.{email_render.MANAGER_NOT_SET}": ("no e-mail address is set up for alerts",
                                               "アラート用のメールアドレスが設定されていません"),
    f"cancel.{NOT_OPTED_IN}": ("the teacher does not receive e-mail", "講師はメールでの通知を受け取らない設定です"),
    "send_error.SMTP_AUTH_FAILED": ("the mail server refused the user name or password (SMTP {status}){said}",
                                    "メールサーバーがユーザー名またはパスワードを受け付けませんでした（SMTP {status}）{said}"),
    "send_error.SMTP_4XX": ("the mail server could not take the message for now (SMTP {status}){said}",
                            "メールサーバーが一時的にメールを受け付けませんでした（SMTP {status}）{said}"),
    "send_error.SMTP_5XX": ("the mail server refused the message (SMTP {status}){said}",
                            "メールサーバーがメールを受け付けませんでした（SMTP {status}）{said}"),
})


@dataclass(frozen=True)
class SmtpConfig:
    host: str
    port: int
    security: str
    user: str | None
    from_address: str
    from_name: str | None = None
    ca_file: str | None = None
    timeout: float = DEFAULT_TIMEOUT

    def __post_init__(self) -> None:
        if self.security not in SECURITY_MODES:
            raise ValidationError(t("smtp.bad_security", modes=tuple(SECURITY_MODES), value=self.security))
        if self.security == "none" and not is_loopback(self.host):
            raise ValidationError(t("smtp.plain_remote"))

    @property
    def from_domain(self) -> str:
        return self.from_address.rpartition("@")[2] or "localhost"


def smtp_password() -> str | None:
    """SHIFTCAST_SMTP_PASSWORD for a headless sender, else the keyring."""
    from core.store import secrets

    from_env = os.environ.get(PASSWORD_ENV, "").strip()
    if from_env:
        secrets_registry.add(from_env)
        return from_env
    return secrets.get_secret(PASSWORD_SECRET, env=PASSWORD_ENV)


def set_smtp_password(password: str) -> None:
    from core.store import secrets

    secrets.set_secret(PASSWORD_SECRET, password, env=PASSWORD_ENV)


def config_from_settings(session: Any) -> SmtpConfig | None:
    """The configured server, or None while host or from address are missing (e-mail not set up)."""
    host, from_address = keys.SMTP_HOST.read(session), keys.SMTP_FROM.read(session)
    if not host or not from_address:
        return None
    security = keys.SMTP_SECURITY.read(session)
    port = keys.SMTP_PORT.read(session)
    timeout = keys.SMTP_TIMEOUT_SECONDS.read(session)
    return SmtpConfig(
        host=host,
        port=port if port is not None else DEFAULT_PORTS.get(security, 587),
        security=security,
        user=keys.SMTP_USER.read(session),
        from_address=from_address,
        from_name=keys.SMTP_FROM_NAME.read(session),
        ca_file=keys.SMTP_CA_FILE.read(session),
        timeout=timeout if timeout is not None else DEFAULT_TIMEOUT,
    )


def fingerprint(config: SmtpConfig, password: str | None) -> str:
    """Changes whenever anything that decides the login changes, so a hold lifts on any fix."""
    from core.store import secrets

    parts = (config.host, str(config.port), config.security, config.user or "", password or "", config.ca_file or "")
    return secrets.fingerprint("\0".join(parts))


class _Unavailable(Exception):
    """No usable connection: every message still waiting in the batch gets `result`."""

    def __init__(self, result: SendResult) -> None:
        super().__init__(result.message)
        self.result = result


class Mailer:
    """One SMTP connection at a time, used by one thread at a time (the sender runs one e-mail batch
    at once). Counts connections and logins, which the tests and the benchmark read."""

    def __init__(self, config: SmtpConfig, password: str | None, *, keepalive: float = KEEPALIVE,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self._password = password
        self._keepalive = keepalive
        self._monotonic = monotonic
        self._conn: smtplib.SMTP | None = None
        self._last_used = 0.0
        self._lock = threading.Lock()
        self.connections = 0
        self.logins = 0

    # ----- sending -----

    def send_batch(self, items: Iterable[tuple[K, Envelope]], report: Callable[[K, SendResult], None], *,
                   time_budget: float | None = None) -> None:
        """Send each message over the shared connection and report each result as soon as it is known.

        A refused login or an unreachable server ends the batch: the messages not yet tried all get
        that result, without a login attempt each. Messages not started within `time_budget` seconds
        come back DEFERRED, untried: a slow server must not keep rows past their lease, or the sender
        would claim them again while they still wait here."""
        with self._lock:
            pending = list(items)
            stop_at = None if time_budget is None else self._monotonic() + time_budget
            for index, (key, envelope) in enumerate(pending):
                if stop_at is not None and self._monotonic() >= stop_at:
                    deferred = SendResult(channel=Channel.EMAIL, transport_error=Transport.DEFERRED)
                    for rest_key, _ in pending[index:]:
                        report(rest_key, deferred)
                    return
                try:
                    conn = self._ready()
                except _Unavailable as down:
                    for rest_key, _ in pending[index:]:
                        report(rest_key, down.result)
                    return
                report(key, self._send_one(conn, envelope))
                self._last_used = self._monotonic()

    def _send_one(self, conn: smtplib.SMTP, envelope: Envelope) -> SendResult:
        started = time.perf_counter()
        try:
            conn.sendmail(envelope.sender, [envelope.recipient], envelope.data)
        except smtplib.SMTPRecipientsRefused as exc:
            code, text = next(iter(exc.recipients.values()), (550, b"recipient refused"))
            return _reply(code, text, started)
        except smtplib.SMTPResponseException as exc:  # sender refused, data refused, 421 …
            if exc.smtp_code == 421:
                self._drop()
            return _reply(exc.smtp_code, exc.smtp_error, started)
        except TimeoutError as exc:
            # The message may or may not have been accepted; the Message-ID lets a resend be recognised.
            self._drop()
            return SendResult(channel=Channel.EMAIL, transport_error=Transport.TIMEOUT, message=short(exc),
                              duration_ms=ms_since(started))
        except (smtplib.SMTPException, OSError) as exc:
            self._drop()
            return SendResult(channel=Channel.EMAIL, transport_error=Transport.CONNECTION, message=short(exc),
                              duration_ms=ms_since(started))
        return SendResult(channel=Channel.EMAIL, smtp_code=250, duration_ms=ms_since(started))

    # ----- the connection -----

    def _ready(self) -> smtplib.SMTP:
        conn = self._conn
        if conn is not None and conn.sock is not None:
            if self._monotonic() - self._last_used <= self._keepalive and self._alive(conn):
                return conn
        self._drop()
        self._conn = self._open()
        return self._conn

    @staticmethod
    def _alive(conn: smtplib.SMTP) -> bool:
        try:
            return conn.noop()[0] == 250
        except (smtplib.SMTPException, OSError):
            return False

    def _open(self) -> smtplib.SMTP:
        config = self.config
        started = time.perf_counter()
        context = ssl.create_default_context(cafile=config.ca_file) if config.ca_file else ssl.create_default_context()
        # EHLO with the plain host name: smtplib's default (getfqdn) can stall on a DNS lookup.
        local = socket.gethostname() or "localhost"
        conn: smtplib.SMTP | None = None
        try:
            if config.security == "tls":
                conn = smtplib.SMTP_SSL(config.host, config.port, local_hostname=local, timeout=config.timeout,
                                        context=context)
                self.connections += 1
            else:
                conn = smtplib.SMTP(config.host, config.port, local_hostname=local, timeout=config.timeout)
                self.connections += 1
                if config.security == "starttls":
                    conn.starttls(context=context)
            conn.ehlo()
            if config.user:
                if not conn.has_extn("auth"):
                    raise _Unavailable(_reply(530, "the server offers no login (AUTH) on this connection", started))
                # One mechanism only: smtplib would try a refused password again with each one the server
                # offers, and servers lock accounts after a few failures.
                offered = conn.esmtp_features["auth"].upper().split()
                conn.esmtp_features["auth"] = next((m for m in AUTH_MECHANISMS if m in offered), offered[0] if offered else "")
                self.logins += 1
                conn.login(config.user, self._password or "")
            return conn
        except _Unavailable:
            _quietly_close(conn)
            raise
        except smtplib.SMTPNotSupportedError as exc:
            _quietly_close(conn)
            # No STARTTLS: the password must not go out in clear text, so this is a settings problem.
            raise _Unavailable(_reply(538, str(exc) or "the server does not offer STARTTLS", started)) from None
        except smtplib.SMTPResponseException as exc:  # greeting refused (421 / 554), login refused (535) …
            _quietly_close(conn)
            raise _Unavailable(_reply(exc.smtp_code, exc.smtp_error, started)) from None
        except TimeoutError as exc:
            _quietly_close(conn)
            raise _Unavailable(SendResult(channel=Channel.EMAIL, transport_error=Transport.TIMEOUT, message=short(exc),
                                          duration_ms=ms_since(started))) from None
        except (smtplib.SMTPException, OSError) as exc:  # refused, reset, TLS handshake or certificate problems
            _quietly_close(conn)
            raise _Unavailable(SendResult(channel=Channel.EMAIL, transport_error=Transport.CONNECTION,
                                          message=f"{config.host}:{config.port}: {short(exc)}",
                                          duration_ms=ms_since(started))) from None

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.quit()
            except (smtplib.SMTPException, OSError):
                _quietly_close(conn)

    def close(self) -> None:
        with self._lock:
            self._drop()

    def check(self) -> None:
        """Connect and log in once (the Settings screen's test button); raises with the server's reason."""
        with self._lock:
            self._drop()
            try:
                self._conn = self._open()
            except _Unavailable as down:
                code = f"{down.result.smtp_code} " if down.result.smtp_code else ""
                raise ValidationError(t("smtp.server_said", code=code, message=down.result.message or "no")) from None
            self._drop()


@dataclass(frozen=True)
class SmtpAccess:
    """A usable mailer plus the fingerprint of the settings and password it was built with: e-mail's
    connection, used by one pool task at a time (one batch in flight)."""

    mailer: Mailer
    fingerprint: str

    def send(self, requests: Sequence[R], report: Callable[[R, SendResult], None], *, time_budget: float) -> None:
        """The batch over the mailer's one connection, each result reported as soon as the server
        answered it, so the sender records results while the batch is still going."""
        ready: list[tuple[R, Envelope]] = []
        for request in requests:
            try:
                if request.outgoing.mail is None:
                    raise ValueError("an e-mail request without its e-mail")
                ready.append((request, email_draft.envelope(request.outgoing.mail, date=request.started_at)))
            except Exception as exc:  # noqa: BLE001 - e.g. the image file vanished: retried; the server was not contacted
                log.warning("preparing the e-mail of delivery %s failed: %s", request.delivery_id, exc)
                report(request, SendResult(channel=Channel.EMAIL, transport_error=Transport.UPLOAD,
                                           message=str(exc)[:300]))
        self.mailer.send_batch(ready, report, time_budget=time_budget)

    def close(self) -> None:
        self.mailer.close()


def access_from_settings(db: Any) -> SmtpAccess | None:
    """The mailer for the configured server; None while e-mail is not set up."""
    with db.read() as session:
        config = config_from_settings(session)
    if config is None:
        return None
    password = smtp_password() if config.user else None
    return SmtpAccess(Mailer(config, password), fingerprint(config, password))


def _reply(code: int, text: bytes | str, started: float) -> SendResult:
    message = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    return SendResult(channel=Channel.EMAIL, smtp_code=int(code), message=message.strip()[:300] or None,
                      duration_ms=ms_since(started))


def _quietly_close(conn: smtplib.SMTP | None) -> None:
    if conn is not None:
        try:
            conn.close()
        except OSError:
            pass


class EmailDriver:
    """E-mail as the sender sees it (core/channels/base.py)."""

    key = Channel.EMAIL.value
    label = contacts.ADDRESSING[Channel.EMAIL].label
    title = "E-mail"
    address: AddressRule | None = contacts.ADDRESSING[Channel.EMAIL]
    needs_consent = True
    cancel_reasons: CancelReasons | None = CancelReasons(
        not_agreed=NOT_OPTED_IN, unreachable=CancelReason.UNREACHABLE,
        words={NOT_OPTED_IN: Text(f"cancel.{NOT_OPTED_IN}"),  # in TEXTS: the catalog's once registered
               CancelReason.UNREACHABLE: t("cancel.UNREACHABLE")})
    batch: int | None = BATCH
    hold_key: HoldSetting | None = keys.SMTP_HOLD  # 530/534/535/538: the login is refused
    hold_title = t("alert.email_held")
    retry_keys = False  # SMTP has none; a resend is recognised by its Message-ID
    postbacks = False  # an e-mail has no buttons that answer back: its postback actions are left out
    texts: Mapping[str, tuple[Template, Template]] = TEXTS
    contact_columns = contacts.COLUMNS[Channel.EMAIL]  # email, email_opt_in

    def recipient(self, contact: ContactView) -> str | None:
        return contact.address

    def render(self, session: Session, delivery: Delivery, message: Message, paths: DataPaths) -> Outgoing:
        return email_render.render(session, delivery, message, paths, self)

    def connect(self, db: Database) -> SmtpAccess | None:
        return access_from_settings(db)

    def classify(self, result: SendResult) -> Verdict:
        return classify(result)

    def failure(self, code: str | None, *, at_recipient: bool, dead: bool) -> ChannelFailure:
        # A refused address (5xx) could be a typo the manager fixes; it is not taken as the teacher gone.
        return policy.failure(code, dead=dead)


DRIVER = EmailDriver()
