"""The one interface every channel implements (`ChannelDriver`), and the plain data it is handed.

The sender (core/sending) knows a channel only through its driver, registered in
core/channels/registry.py:

- `connect(db)`: what the channel needs from the settings and the keyring, as a `Connection` (the
  client and the fingerprint of the credentials it was made with), or None while it is not set up;
- `batch`: how a turn hands it work. None: one request per pool task, claimed against the pool's
  room (LINE pushes, webhook posts). A number: up to that many per turn, sent as one batch on one
  pool task with one batch in flight at a time (e-mail: one SMTP connection per batch);
- `classify(result)`: what its answer means, in the outcome policy's terms (core/outbox/policy.py);
- `hold_key`: the hold setting (core/store/setting_keys.py) that holds the channel while its credentials are refused
  (core/outbox/holds.py; LINE's 401, SMTP's 535), None for a channel with nothing to hold;
- `retry_keys`: whether a request carries a retry key that the server deduplicates on (LINE).

It talks in policy's terms and plain data only: channels sit below sending in the layers, so the
sender's `Job` reaches a channel as a `Request` (any object with its four fields).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from core.channels.email_draft import MailDraft
from core.outbox.policy import SendResult, Verdict
from core.store.db import Database
from core.store.models import Channel
from core.store.settings import HoldSetting
from core.texts import Text


@dataclass(frozen=True)
class Outgoing:
    """One request as a message builder made it, for the channel that sends it."""

    endpoint: str  # the channel's own name for it: "push" or "multicast" (LINE), "email", "webhook"
    to: str | tuple[str, ...]
    messages: tuple[dict[str, Any], ...]
    # Work that must succeed before the request leaves (image uploads); run on a send thread.
    before_send: Callable[[], None] | None = None
    mail: MailDraft | None = None  # the e-mail, when endpoint is "email"


class Request(Protocol):
    """One attempt of one delivery, as a channel sends it; its retry key is on disk already."""

    @property
    def delivery_id(self) -> int: ...

    @property
    def retry_key(self) -> str | None: ...

    @property
    def outgoing(self) -> Outgoing: ...

    @property
    def started_at(self) -> dt.datetime: ...


R = TypeVar("R", bound=Request)


class Connection(Protocol):
    """A channel made usable with the credentials of the moment; used from one pool task at a time
    for a batch channel, from many at once for the others."""

    @property
    def fingerprint(self) -> str | None:
        """Of the credentials it was made with: a hold names them and lifts when they change."""
        ...

    def send(self, requests: Sequence[R], report: Callable[[R, SendResult], None], *, time_budget: float) -> None:
        """Send each request and report each result once, as soon as it is known. Requests not
        started within `time_budget` seconds come back untried (Transport.DEFERRED), so none is
        still waiting here when its lease runs out. If it raises, the sender reports every request
        it had not reported as a connection error (retried)."""
        ...

    def close(self) -> None: ...


class ChannelDriver(Protocol):
    @property
    def channel(self) -> Channel: ...

    @property
    def title(self) -> str:
        """Its name on screens and in the log: "LINE", "E-mail", "Webhook"."""
        ...

    @property
    def batch(self) -> int | None: ...

    @property
    def hold_key(self) -> HoldSetting | None: ...

    @property
    def hold_title(self) -> Text:
        """The alert's words while the channel is held."""
        ...

    @property
    def retry_keys(self) -> bool: ...

    def connect(self, db: Database) -> Connection | None: ...

    def classify(self, result: SendResult) -> Verdict: ...
