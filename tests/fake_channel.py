"""A channel that exists only in the tests: it implements core/channels/base.py and nothing else.

`install` puts it in the registry in place of one registered channel and gives the alert kind an
override on that channel (its deliveries here are about no incident), so a delivery goes claim → build → send → record through it without
the sender knowing which channel it is. Its server is a list: it refuses every request while the
credentials are among `refused`, and otherwise answers each with the status its recipient asks
for ("ok", "busy", "wrong").
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Mapping, Sequence

import pytest
from sqlalchemy.orm import Session

from core.channels import registry
from core.channels.base import AddressRule, CancelReasons, ChannelDriver, Outgoing, R
from core.messages.message import Message
from core.outbox import policy
from core.outbox.policy import ChannelFailure, ErrorCode, Outcome, SendResult, Verdict
from core.roster.contacts import ContactColumn, ContactView
from core.sending.kinds import alert as alert_kind
from core.store.db import Database
from core.store.models import Delivery
from core.store.paths import DataPaths
from core.store.settings import HoldSetting
from core.texts import Text, t
from core.texts.template import Template

HOLD = HoldSetting("fake.hold", t("text.plain", text="the fake channel's hold"))
ANSWERS = {"ok": 200, "busy": 503, "wrong": 400}


class FakeConnection:
    def __init__(self, channel: str, fingerprint: str, refused: set[str]) -> None:
        self.channel = channel
        self.fingerprint: str | None = fingerprint
        self._refused = refused
        self.batches: list[list[tuple[int, str, str | None]]] = []  # (delivery id, to, retry key) per send call
        self.closed = False
        self._lock = threading.Lock()  # pool threads call send at once

    def send(self, requests: Sequence[R], report: Callable[[R, SendResult], None], *, time_budget: float) -> None:
        with self._lock:
            self.batches.append([(r.delivery_id, str(r.outgoing.to), r.retry_key) for r in requests])
        for request in requests:
            word = str(request.outgoing.to).split(":", 1)[0]
            status = 401 if self.fingerprint in self._refused else ANSWERS[word]
            report(request, SendResult(channel=self.channel, http_status=status,
                                       request_id=f"fake-{request.delivery_id}", duration_ms=1))

    def close(self) -> None:
        self.closed = True

    @property
    def sent_to(self) -> list[str]:
        return [to for batch in self.batches for _, to, _ in batch]


class FakeDriver:
    def __init__(self, channel: str, *, batch: int | None, retry_keys: bool) -> None:
        self.key: str = channel
        self.label = t("text.plain", text="Fake")
        self.title = "Fake"
        self.address: AddressRule | None = None  # it stands in for a channel as the sender sees it; no teacher types an address
        self.needs_consent = False
        self.cancel_reasons: CancelReasons | None = None
        self.batch = batch
        self.hold_key: HoldSetting | None = HOLD
        self.hold_title = _said("The fake server refused us")
        self.retry_keys = retry_keys
        self.postbacks = False
        self.texts: Mapping[str, tuple[Template, Template]] = {}
        self.contact_columns: tuple[ContactColumn, ...] = ()  # its words are its server's own (text.plain)
        self.fingerprint = "key-1"  # what the credentials in the "keyring" are now
        self.refused: set[str] = set()  # credentials its server refuses
        self.connections: list[FakeConnection] = []

    def recipient(self, contact: ContactView) -> str | None:
        return contact.address

    def render(self, session: Session, delivery: Delivery, message: Message, paths: DataPaths) -> Outgoing:
        return Outgoing("fake", str(delivery.recipient), ({"text": message.text},))

    def connect(self, db: Database) -> FakeConnection:
        connection = FakeConnection(self.key, self.fingerprint, self.refused)
        self.connections.append(connection)
        return connection

    def classify(self, result: SendResult) -> Verdict:
        if result.transport_error is not None:
            return Verdict(Outcome.RETRY, ErrorCode.CONNECTION, _said(str(result.message or "no answer")))
        status = result.http_status or 0
        if status == 200:
            return Verdict(Outcome.SENT)
        if status == 401:
            return Verdict(Outcome.HOLD, ErrorCode.AUTH_FAILED, _said("the fake refused our key"))
        if status >= 500:
            return Verdict(Outcome.RETRY, "FAKE_5XX", _said("the fake is busy"))
        return Verdict(Outcome.FAILED, "FAKE_4XX", _said("the fake does not know this recipient"))

    def failure(self, code: str | None, *, at_recipient: bool, dead: bool) -> ChannelFailure:
        return policy.failure(code, dead=dead)

    @property
    def sent_to(self) -> list[str]:
        return [to for connection in self.connections for to in connection.sent_to]


def _said(words: str) -> Text:
    """The fake server's own words, carried as a catalog message that shows them as they are."""
    return t("text.plain", text=words)


def build(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    return Outgoing("fake", str(delivery.recipient), ({"text": f"fake message {delivery.id}"},))


def install(monkeypatch: pytest.MonkeyPatch, channel: str, *, batch: int | None = None,
            retry_keys: bool = False) -> FakeDriver:
    """The fake in the registry as `channel`, with a builder for that channel's alert deliveries."""
    driver = FakeDriver(channel, batch=batch, retry_keys=retry_keys)
    _typed: ChannelDriver = driver  # the fake implements the interface, checked by the type checker
    monkeypatch.setitem(registry.DRIVERS, channel, _typed)
    # The alert kind's message needs an incident; these deliveries have none, so the kind says this instead.
    monkeypatch.setitem(alert_kind.KIND.overrides, channel, build)
    return driver
