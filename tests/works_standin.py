"""A stand-in for the LINE WORKS driver, as far as set-up and the readiness check see a channel: its key
and label, a LINE WORKS ID as a teacher's address, whether its credentials are saved and readable
(`connect`), and its hold. It sends nothing; the tests register it with `register_channel`, as the
channel's own module is registered in core/channels/registry.py.

`credentials_module` stands in for core/channels/line_works_credentials.py (the values kept in a
dict, as the keyring and the settings would keep them), for what Settings saves and reads back.

`TokenServer` is a LINE WORKS token endpoint on loopback, answering each request with the status a
test asks for, and `checker` asks it for a token the way the channel's client does, for
core/setup/line_works.py `test`.
"""

from __future__ import annotations

import json
import sys
import threading
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import MappingProxyType
from typing import Any

import httpx
import pytest

import core.channels
from core.channels import registry
from core.channels.base import AddressRule, Builder, CancelReasons, R
from core.errors import ValidationError
from core.outbox.policy import Outcome, SendResult, Verdict
from core.roster.contacts import ContactView
from core.store import secrets
from core.store.db import Database
from core.store.settings import HoldSetting
from core.texts import Text, t

KEY = "line_works"
HOLD = HoldSetting("line_works.standin_hold", t("text.plain", text="LINE WORKS held"))


class WorksId:
    def check(self, text: str | None) -> str | None:
        value = (text or "").strip()
        if value and " " in value:
            raise ValidationError(t("text.plain", text=f"not a LINE WORKS ID: {value}"))
        return value or None


class StandinConnection:
    def __init__(self, fingerprint: str) -> None:
        self.fingerprint: str | None = fingerprint

    def send(self, requests: Sequence[R], report: Callable[[R, SendResult], None], *, time_budget: float) -> None:
        raise AssertionError("the stand-in sends nothing")

    def close(self) -> None:
        pass


class WorksStandin:
    key = KEY
    label: Text = t("text.plain", text="LINE WORKS")
    title = "LINE WORKS"
    address: AddressRule | None = WorksId()
    needs_consent = False
    builders: Mapping[str, Builder] = MappingProxyType({})
    cancel_reasons: CancelReasons | None = CancelReasons(
        not_agreed="WORKS_NO_ID", unreachable="WORKS_UNREACHABLE",
        words={"WORKS_NO_ID": t("text.plain", text="no LINE WORKS ID"),
               "WORKS_UNREACHABLE": t("text.plain", text="LINE WORKS cannot reach the teacher")})
    batch: int | None = None
    hold_key: HoldSetting | None = HOLD
    hold_title: Text = t("text.plain", text="LINE WORKS is held")
    retry_keys = False

    def __init__(self) -> None:
        self.fingerprint: str | None = None  # None: not set up
        self.keyring_broken = False

    def recipient(self, contact: ContactView) -> str | None:
        return contact.address

    def connect(self, db: Database) -> StandinConnection | None:
        if self.keyring_broken:
            raise secrets.SecretStoreError(t("text.plain", text="the keyring is locked"))
        return StandinConnection(self.fingerprint) if self.fingerprint is not None else None

    def classify(self, result: SendResult) -> Verdict:
        return Verdict(Outcome.SENT)


@dataclass(frozen=True)
class WorksCredentials:
    client_id: str
    client_secret: str
    service_account: str
    private_key: str
    bot_id: str
    bot_secret: str
    domain_id: str | None = None


def credentials_module(kept: dict[str, WorksCredentials], token_url: Callable[[], str] | None = None) -> types.ModuleType:
    """A module with the credentials module's names: what is saved is kept in `kept["saved"]` (a value
    left empty is refused, as the real one refuses it); `check` asks the token endpoint `token_url` gives."""
    module = types.ModuleType("core.channels.line_works_credentials")

    def load(db: Database) -> WorksCredentials | None:
        return kept.get("saved")

    def save(db: Database, creds: WorksCredentials) -> WorksCredentials:
        for name in ("client_id", "client_secret", "service_account", "private_key", "bot_id", "bot_secret"):
            if not getattr(creds, name).strip():
                raise ValidationError(t("text.plain", text=f"{name} is missing"))
        kept["saved"] = creds
        return creds

    def base_urls(db: Database) -> str:
        assert token_url is not None, "no token endpoint given"
        return token_url()

    def check(creds: WorksCredentials, *, base_urls: str | None = None) -> None:
        assert base_urls is not None
        ask_for_token(base_urls, creds.client_id)

    module.__dict__.update(WorksCredentials=WorksCredentials, load=load, save=save, base_urls=base_urls, check=check)
    return module


def ask_for_token(url: str, client_id: str) -> None:
    """As the channel's client asks; a refusal raises with LINE WORKS's own words."""
    answer = httpx.post(url, data={"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
                                   "client_id": client_id, "scope": "bot"}, timeout=10.0)
    if answer.status_code != 200:
        raise ValidationError(t("text.plain", text=f"LINE WORKS refused the app: {answer.json()['error_description']}"))


class TokenServer:
    """LINE WORKS's token endpoint on loopback: `answer` is the status it gives; every form it was sent is kept."""

    def __init__(self) -> None:
        self.answer = 200
        self.forms: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                server.forms.append(self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode())
                body = (json.dumps({"access_token": "token-1", "token_type": "Bearer", "expires_in": "86400"})
                        if server.answer == 200 else json.dumps({"error": "invalid_client",
                                                                 "error_description": "client authentication failed"}))
                data = body.encode()
                self.send_response(server.answer)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/oauth2/v2.0/token"

    @contextmanager
    def running(self) -> Iterator[TokenServer]:
        thread = threading.Thread(target=self._server.serve_forever, name="works-token", daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._server.shutdown()
            self._server.server_close()
            thread.join()

    def checker(self) -> Callable[[], None]:
        """Asks for a token as the channel's client does, for core/setup/line_works.py `test`."""
        return lambda: ask_for_token(self.url, "client-1")


@pytest.fixture
def server() -> Iterator[TokenServer]:
    with TokenServer().running() as running:
        yield running


@pytest.fixture
def kept(monkeypatch: pytest.MonkeyPatch, server: TokenServer) -> Iterator[dict[str, WorksCredentials]]:
    """LINE WORKS registered (the stand-in driver), its credentials kept in this dict, its token asked of `server`."""
    store: dict[str, WorksCredentials] = {}
    module = credentials_module(store, lambda: server.url)
    # In place of the channel's own module, whether or not it was imported already.
    monkeypatch.setitem(sys.modules, "core.channels.line_works_credentials", module)
    monkeypatch.setattr(core.channels, "line_works_credentials", module, raising=False)
    undo = registry.register_channel(WorksStandin())
    try:
        yield store
    finally:
        undo()


@pytest.fixture
def without_works(monkeypatch: pytest.MonkeyPatch) -> None:
    """LINE WORKS not part of Shiftcast, whether or not its driver is registered."""
    monkeypatch.delitem(registry.DRIVERS, KEY, raising=False)
