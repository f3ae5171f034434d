"""The one interface every channel implements (`ChannelDriver`), and the plain data it is handed.

Everything a channel is, its driver declares; it is registered with one call in
core/channels/registry.py (`register_channel`), and nothing else names the channel:

- `key` and `label`: the value its deliveries and a teacher's contacts carry (any short string), and its
  name on screens (a catalog Text);
- `address`: how a manager's typing becomes an address on it (`check`, raising a ValidationError that
  says what is wrong), or None for a channel nobody types an address for (the alert webhook);
- `needs_consent`: whether a contact on it reaches its teacher only once they agreed to it;
- `recipient(contact)`: where a teacher's delivery goes, taken from their contact on the channel;
- `render(session, delivery, message, paths)`: a kind's channel-neutral message
  (core/messages/message.py) as this channel's request, to the address it finds itself: the
  teacher's contact on the channel, the classroom's group on it, or the manager's address on it
  (core/channels/addressing.py); raises CancelDelivery or CannotBuild (core/channels/build_errors.py);
- `cancel_reasons`: the codes its send-time checks cancel with (not agreed, cannot reach, blocked), and their words;
- `contact_columns`: the columns a teachers CSV file and the command line give a teacher's contact on
  it (core/roster/contacts.py `ContactColumn`: the address, the agreement), with the headings accepted;
- `texts`: the catalog entries it brings (core/texts/catalog.py form): the words of its own error
  codes ("send_error.<code>"), of its cancel reasons, and anything else it shows; registered with it;

and, for the sender (core/sending), which knows a channel only through its driver:

- `connect(db)`: what the channel needs from the settings and the keyring, as a `Connection` (the
  client and the fingerprint of the credentials it was made with), or None while it is not set up;
- `batch`: how a turn hands it work. None: one request per pool task, claimed against the pool's
  room (LINE pushes, webhook posts). A number: up to that many per turn, sent as one batch on one
  pool task with one batch in flight at a time (e-mail: one SMTP connection per batch);
- `classify(result)`: what its answer means, in the outcome policy's terms (core/outbox/policy.py),
  with the shared error codes (policy.ErrorCode) and its own;
- `failure(code, at_recipient=, dead=)`: what a teacher's delivery that failed on it with that code
  means for their next channel (policy.ChannelFailure), read by core/planning/fallback.py;
- `hold_key`: the hold setting (core/store/setting_keys.py) that holds the channel while its credentials are refused
  (core/outbox/holds.py; LINE's 401, SMTP's 535), None for a channel with nothing to hold;
- `retry_keys`: whether a request carries a retry key that the server deduplicates on (LINE);
- `postbacks`: whether its messages carry the message's postback actions, and a tap comes back to the
  receiver (LINE, LINE WORKS): only on such a channel can a teacher's 了解 be recorded or a call be answered.

It talks in policy's terms and plain data only: channels sit below sending in the layers, so the
sender's `Job` reaches a channel as a `Request` (any object with its four fields).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from sqlalchemy.orm import Session

from core.channels.email_draft import MailDraft
from core.messages.message import Message
from core.outbox.policy import ChannelFailure, SendResult, Verdict
from core.roster.contacts import ContactColumn, ContactView
from core.store.db import Database
from core.store.models import Delivery
from core.store.paths import DataPaths
from core.store.settings import HoldSetting
from core.texts import Text
from core.texts.template import Template


class RefusedBeforeSend(Exception):
    """Raised by an `Outgoing.before_send` whose work cannot succeed until the manager changes
    something (image hosting refuses its credentials): the request is not made, no retry budget is
    spent, and the delivery's builder, seeing the attempt, sends the message another way next time."""

    def __init__(self, text: Text | str) -> None:
        super().__init__(str(text))
        self.text = text


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


# What checks a delivery at send time and builds its request (raises CancelDelivery or CannotBuild).
Builder = Callable[[Session, Delivery, dt.datetime, DataPaths], Outgoing]


class AddressRule(Protocol):
    def check(self, text: str | None) -> str | None:
        """The address as stored (normalised), None for a blank; a ValidationError says what is wrong."""
        ...


@dataclass(frozen=True)
class CancelReasons:
    """The codes a channel's send-time checks cancel with, and their words (core/outbox/policy.py shows them)."""

    not_agreed: str  # the teacher has not agreed to the channel, or has no address on it
    unreachable: str  # the channel said it cannot reach the address; a fallback went instead
    words: dict[str, Text]
    # The teacher blocked the channel's account (LINE's unfollow): what waits for them is canceled.
    blocked: str | None = None


class ChannelDriver(Protocol):
    @property
    def key(self) -> str:
        """The value its deliveries and contacts carry: "line", "email", "webhook"."""
        ...

    @property
    def label(self) -> Text:
        """Its name on screens: LINE, メール."""
        ...

    @property
    def title(self) -> str:
        """Its name in the log: "LINE", "E-mail", "Webhook"."""
        ...

    @property
    def address(self) -> AddressRule | None: ...

    @property
    def needs_consent(self) -> bool: ...

    def recipient(self, contact: ContactView) -> str | None:
        """Where a teacher's delivery on this channel goes; None: the contact cannot be sent to."""
        ...

    def render(self, session: Session, delivery: Delivery, message: Message, paths: DataPaths) -> Outgoing:
        """The kind's message as this channel's request, to the address the channel finds for it now."""
        ...

    @property
    def cancel_reasons(self) -> CancelReasons | None:
        """None for a channel that reaches no teacher (the alert webhook)."""
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

    @property
    def postbacks(self) -> bool:
        """Its messages carry the message's postback actions, and a tap comes back to the receiver."""
        ...

    @property
    def contact_columns(self) -> tuple[ContactColumn, ...]:
        """Empty for a channel with no teacher address (the alert webhook)."""
        ...

    @property
    def texts(self) -> Mapping[str, tuple[Template, Template]]:
        """Catalog entries it brings: code → (English, Japanese)."""
        ...

    def connect(self, db: Database) -> Connection | None: ...

    def classify(self, result: SendResult) -> Verdict: ...

    def failure(self, code: str | None, *, at_recipient: bool, dead: bool) -> ChannelFailure:
        """A teacher's delivery on it ended failed with `code` (`at_recipient` and `dead` as the row
        keeps them): fall back to their next channel? Is their address on it unreachable?"""
        ...
