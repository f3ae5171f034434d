"""A real SMTP server on loopback for the e-mail tests: aiosmtpd with STARTTLS or implicit TLS, a
throwaway CA from trustme (the client trusts it through the `smtp.ca_file` setting), AUTH with a test
password, and a handler that records every message and can answer chosen codes."""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import threading
import warnings
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes
from email import policy as email_policy
from email.message import EmailMessage, MIMEPart
from pathlib import Path
from typing import Any

import pytest
import trustme
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

from core.channels import email as email_channel
from core.store import setting_keys as keys
from core.store.db import Database

# aiosmtpd warns about its own deprecated session attribute on every login; not ours to fix.
logging.getLogger("mail.log").setLevel(logging.ERROR)

SMTP_USER = "shiftcast@example.com"
SMTP_PASSWORD = "correct horse battery staple"
FROM = "shifts@school.example.com"


@dataclass
class Received:
    mail_from: str
    rcpt_to: list[str]
    data: bytes

    @property
    def message(self) -> EmailMessage:
        return message_from_bytes(self.data, policy=email_policy.default)


@dataclass
class Recorder:
    """The handler: keeps what arrived; `rcpt_codes` refuse chosen recipients, `data_codes` answer the
    next DATA commands in turn (e.g. "421 …" then "450 …"), and `fail_logins` refuses passwords."""

    received: list[Received] = field(default_factory=list)
    rcpt_codes: dict[str, str] = field(default_factory=dict)
    data_codes: deque[str] = field(default_factory=deque)
    connections: int = 0
    logins: int = 0
    password: str = SMTP_PASSWORD
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: list[str]) -> str:
        refused = self.rcpt_codes.get(address)
        if refused:
            return refused
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            if self.data_codes:
                return self.data_codes.popleft()
            self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), bytes(envelope.content)))
        return "250 2.0.0 OK: queued"

    def authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> AuthResult:
        with self.lock:
            self.logins += 1
        ok = (isinstance(auth_data, LoginPassword) and auth_data.login.decode() == SMTP_USER
              and auth_data.password.decode() == self.password)
        return AuthResult(success=ok, handled=False)

    def to(self, address: str) -> list[Received]:
        return [r for r in self.received if address in r.rcpt_to]


class _CountingController(Controller):
    def __init__(self, recorder: Recorder, **kwargs: Any) -> None:
        super().__init__(recorder, **kwargs)
        self.recorder = recorder

    def factory(self) -> SMTP:
        with self.recorder.lock:
            self.recorder.connections += 1
        with warnings.catch_warnings():
            # "AUTH without TLS" does not apply to the implicit-TLS server, which aiosmtpd cannot tell.
            warnings.simplefilter("ignore", UserWarning)
            return SMTP(self.handler, **self.SMTP_kwargs)


@dataclass
class SmtpServer:
    recorder: Recorder
    host: str
    port: int
    security: str
    ca_file: Path

    def configure(self, db: Database, *, timeout: float = 5.0) -> None:
        """Point Shiftcast's e-mail settings at this server; the password goes into the keyring."""
        with db.write() as s:
            keys.SMTP_HOST.write(s, self.host)
            keys.SMTP_PORT.write(s, self.port)
            keys.SMTP_SECURITY.write(s, self.security)
            keys.SMTP_USER.write(s, SMTP_USER)
            keys.SMTP_FROM.write(s, FROM)
            keys.SMTP_FROM_NAME.write(s, "本校 シフト")
            keys.SMTP_CA_FILE.write(s, str(self.ca_file))
            keys.SMTP_TIMEOUT_SECONDS.write(s, timeout)
        email_channel.set_smtp_password(SMTP_PASSWORD)

    def config(self, *, timeout: float = 5.0) -> email_channel.SmtpConfig:
        return email_channel.SmtpConfig(self.host, self.port, self.security, SMTP_USER, FROM, None,
                                        str(self.ca_file), timeout)


def body(message: MIMEPart, subtype: str) -> str:
    """The message's text/<subtype> body, decoded; a message without one fails the test here."""
    part = message.get_body((subtype,))
    assert part is not None, f"no text/{subtype} part"
    return str(part.get_content())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def smtp_ca(tmp_path_factory: pytest.TempPathFactory) -> tuple[trustme.CA, Path]:
    ca = trustme.CA()
    path = tmp_path_factory.mktemp("smtp-ca") / "ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return ca, path


def start_server(ca: trustme.CA, ca_file: Path, *, security: str = "starttls") -> tuple[SmtpServer, Controller]:
    recorder = Recorder()
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1", "localhost").configure_cert(server_context)
    port = _free_port()
    common: dict[str, Any] = {"hostname": "127.0.0.1", "port": port, "authenticator": recorder.authenticate,
                              "auth_required": True, "loop": asyncio.new_event_loop()}
    if security == "tls":
        # aiosmtpd only notices TLS it negotiated itself (STARTTLS); this connection is TLS from the start.
        controller = _CountingController(recorder, ssl_context=server_context, auth_require_tls=False, **common)
    else:
        controller = _CountingController(recorder, tls_context=server_context, require_starttls=True, **common)
    controller.start()
    recorder.connections = 0  # the controller's own start-up probe is not a client
    return SmtpServer(recorder, "127.0.0.1", port, security, ca_file), controller


@pytest.fixture(params=["starttls", "tls"])
def smtp_server(request: pytest.FixtureRequest, smtp_ca: tuple[trustme.CA, Path]) -> Iterator[SmtpServer]:
    server, controller = start_server(*smtp_ca, security=request.param)
    try:
        yield server
    finally:
        controller.stop()


@pytest.fixture
def starttls_server(smtp_ca: tuple[trustme.CA, Path]) -> Iterator[SmtpServer]:
    server, controller = start_server(*smtp_ca, security="starttls")
    try:
        yield server
    finally:
        controller.stop()
