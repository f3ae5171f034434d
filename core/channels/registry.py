"""Every channel's driver, by the `Channel` value its deliveries carry. A new channel is one line here."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from core.channels import email, line, webhook
from core.channels.base import ChannelDriver, Connection
from core.outbox.policy import SendResult, Verdict
from core.store.db import Database
from core.store.models import Channel

# In the order a turn serves them; dicts keep it.
DRIVERS: dict[Channel, ChannelDriver] = {driver.channel: driver for driver in (
    line.DRIVER,
    email.DRIVER,
    webhook.DRIVER,
)}

Source = Callable[[], Connection | None]


def driver(channel: Channel) -> ChannelDriver:
    return DRIVERS[channel]


def classify(result: SendResult) -> Verdict:
    """A result in the outcome policy's terms, by the rules of the channel that sent it."""
    return DRIVERS[result.channel].classify(result)


def sources(db: Database, **given: Source | None) -> dict[Channel, Source]:
    """How to connect each channel: as its driver says, unless the caller gave its own (a keyword
    per channel value, e.g. line=…); a source that is None leaves that channel unusable."""
    out: dict[Channel, Source] = {channel: partial(d.connect, db) for channel, d in DRIVERS.items()}
    for name, source in given.items():
        out[Channel(name)] = source if source is not None else _unusable
    return out


def _unusable() -> Connection | None:
    return None
