"""What the e-mail settings screen asks beyond core.setup.email: the login check sorted into the few
cases a manager can act on, and whether a held e-mail channel will be tried again.

`core.setup.email.check_login` raises one sentence with the server's reason. A settings screen wants
to say more plainly what to fix: the user name or password, the address and port, or the secure
connection. `check_login` here runs that same check and returns which case it was. Blocking (run it
on a background thread); no Qt, no user-facing wording beyond the server's own reply.
"""

from __future__ import annotations

import datetime as dt
import re
import smtplib
import socket
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from core.channels import email as email_channel
from core.channels.net import short
from core.errors import ValidationError
from core.outbox.policy import SendResult, Transport
from core.setup import email
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database

_PREFIX = "the mail server said: "
_SAID = re.compile(r"said: (\d{3})\b\s*(.*)", re.DOTALL)
_UNREACHABLE = re.compile(r"^\S+:\d+: (.*)$", re.DOTALL)  # "host:port: why" (core/channels/email.py); the host is said anyway
_TLS_WORDS = ("ssl", "tls", "certificate", "handshake", "wrong version number")


class LoginFailure(StrEnum):
    NOT_SET_UP = "not_set_up"  # no mail server or from address saved yet
    REFUSED = "refused"  # 535: the user name or password is wrong
    AUTH = "auth"  # another refusal of the login (530, 534 …): the server wants something else
    TLS = "tls"  # handshake, certificate, or no STARTTLS offered
    CA_FILE = "ca_file"  # the configured CA file cannot be read
    TIMEOUT = "timeout"
    CONNECTION = "connection"  # refused, unknown host, connection dropped
    SERVER = "server"  # any other answer of the server


@dataclass(frozen=True)
class LoginCheck:
    host: str = ""
    port: int = 0
    user: str | None = None
    failure: LoginFailure | None = None
    code: int | None = None  # the SMTP reply code, when the server answered
    detail: str = ""  # the server's or the network's own words

    @property
    def ok(self) -> bool:
        return self.failure is None


def check_login(db: Database) -> LoginCheck:
    """Connect and log in once with the saved settings and password; never raises for the server's
    answer or the network (keyring and database errors still do)."""
    with db.read() as session:
        config = email_channel.config_from_settings(session)
    if config is None:
        return LoginCheck(failure=LoginFailure.NOT_SET_UP)
    try:
        email.check_login(db)
    except (ValidationError, OSError, smtplib.SMTPException) as exc:
        failure, code, detail = classify(exc)
        return LoginCheck(config.host, config.port, config.user, failure, code, detail)
    return LoginCheck(config.host, config.port, config.user)


def classify(exc: BaseException) -> tuple[LoginFailure, int | None, str]:
    """Which case a failed check was, from the error and the errors it was raised from."""
    if isinstance(exc, (FileNotFoundError, PermissionError, IsADirectoryError)):
        return LoginFailure.CA_FILE, None, short(exc)  # raised before connecting: reading the CA file
    chain = list(_chain(exc))
    # The channel wraps what went wrong in an exception carrying the SendResult it would have recorded.
    results = [getattr(e, "result", None) for e in chain]
    result = next((r for r in results if isinstance(r, SendResult)), None)
    text = str(exc)
    if result is not None:
        code, detail = result.smtp_code, str(result.message or "")
    elif said := _SAID.search(text):
        code, detail = int(said.group(1)), said.group(2).strip()
    elif isinstance(exc, ValidationError) and _PREFIX not in text:
        return LoginFailure.NOT_SET_UP, None, text  # the settings vanished between reading and checking
    else:
        code, detail = None, text.removeprefix(_PREFIX)
    if unreachable := _UNREACHABLE.match(detail):
        detail = unreachable.group(1)
    if code == 535:
        return LoginFailure.REFUSED, code, detail
    if code == 538 or any(isinstance(e, (ssl.SSLError, ssl.CertificateError, smtplib.SMTPNotSupportedError))
                          for e in chain):
        return LoginFailure.TLS, code, detail
    if code in (530, 534):
        return LoginFailure.AUTH, code, detail
    if code is not None:
        return LoginFailure.SERVER, code, detail
    if (result is not None and result.transport_error is Transport.TIMEOUT) or any(
            isinstance(e, (TimeoutError, socket.timeout)) for e in chain):
        return LoginFailure.TIMEOUT, None, detail
    if any(word in detail.lower() for word in _TLS_WORDS):
        return LoginFailure.TLS, None, detail
    return LoginFailure.CONNECTION, None, detail


def _chain(exc: BaseException | None) -> Iterator[BaseException]:
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


@dataclass(frozen=True)
class EmailHold:
    """The mail server refused the login and the sender stopped sending e-mail until something changes."""

    code: str
    since: dt.datetime | None
    settings_changed_since: bool  # the password or settings changed: the sender tries again with the next e-mail


def email_hold(db: Database) -> EmailHold | None:
    with db.read() as session:
        hold = keys.SMTP_HOLD.read(session)
        config = email_channel.config_from_settings(session)
    if hold is None:
        return None
    changed = config is None
    if config is not None:
        try:
            password = email_channel.smtp_password() if config.user else None
        except secrets.SecretStoreError:
            password = None
        changed = email_channel.fingerprint(config, password) != hold.fingerprint
    return EmailHold(hold.code, hold.since, changed)
