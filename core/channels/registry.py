"""Every channel's driver, by the key its deliveries and contacts carry. A new channel is its driver
module and one `register_channel` call; the built-in ones are registered below.

Registering also gives the roster the channel's address rules and its contact columns
(core/roster/contacts.py), which sits below the channels and checks what a manager types, and the catalog its words (its `texts`: its error
codes', its cancel reasons'); `register_channel` returns the call that undoes it all, for tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import TypeVar

from core.channels import email, line, line_works, webhook
from core.channels.base import ChannelDriver, Connection
from core.outbox import policy
from core.outbox.policy import SendResult, Verdict
from core.roster import contacts
from core.store.db import Database
from core.texts import Text
from core.texts.catalog import CATALOG
from core.texts.template import Template

# In the order a turn serves them; dicts keep it.
DRIVERS: dict[str, ChannelDriver] = {}

Source = Callable[[], Connection | None]
V = TypeVar("V")


def register_channel(driver: ChannelDriver) -> Callable[[], None]:
    """Make `driver`'s channel one Shiftcast sends on (replacing a driver with the same key). Returns
    the call that puts back what was there before."""
    key = driver.key
    before, addressing_before, columns_before = DRIVERS.get(key), contacts.ADDRESSING.get(key), contacts.COLUMNS.get(key)
    _check_columns(driver)
    # Its teacher reasons, and any other reason its texts give words to ("cancel.<code>": the manager's
    # address on it is not set up, which the alerts and the nudge cancel with).
    words = ({code.removeprefix("cancel."): Text(code) for code in driver.texts if code.startswith("cancel.")}
             | (dict(driver.cancel_reasons.words) if driver.cancel_reasons is not None else {}))
    words_before = {code: policy.CHANNEL_CANCEL_WORDS.get(code) for code in words}
    texts_before = _texts_in(driver, before)
    DRIVERS[key] = driver
    if driver.address is not None:
        contacts.ADDRESSING[key] = contacts.Addressing(driver.label, driver.address.check, driver.needs_consent)
    policy.CHANNEL_CANCEL_WORDS.update(words)
    _put_back(contacts.COLUMNS, key, tuple(driver.contact_columns) or None)

    def undo() -> None:
        _put_back(DRIVERS, key, before)
        _put_back(contacts.ADDRESSING, key, addressing_before)
        _put_back(contacts.COLUMNS, key, columns_before)
        for code, said in words_before.items():
            _put_back(policy.CHANNEL_CANCEL_WORDS, code, said)
        for code, entry in texts_before.items():
            _put_back(CATALOG, code, entry)

    return undo


def _entries(driver: ChannelDriver) -> dict[str, tuple[Template, Template]]:
    """The catalog entries a driver brings: its texts, and each contact column's name in messages."""
    named = {f"word.column.{c.name}": (c.name, (c.headings or (c.name,))[0]) for c in driver.contact_columns}
    return named | dict(driver.texts)


def _check_columns(driver: ChannelDriver) -> None:
    """A contact column names one thing in a teachers file: another channel's column is refused."""
    names = [column.name for column in driver.contact_columns]
    taken = {column.name for key, declared in contacts.COLUMNS.items() if key != driver.key for column in declared}
    if clash := sorted({name for name in names if name in taken or names.count(name) > 1}):
        raise ValueError(f"channel {driver.key!r} declares contact columns other channels use: {clash}")


def _texts_in(driver: ChannelDriver, replaced: ChannelDriver | None) -> dict[str, tuple[Template, Template] | None]:
    """Put the driver's catalog entries in place of those of the driver it replaces; returns what was
    there before. A code means one thing: one the catalog has with other words is refused."""
    texts, old = _entries(driver), _entries(replaced) if replaced is not None else {}
    clash = sorted(code for code, entry in texts.items() if code in CATALOG and code not in old
                   and CATALOG[code] != entry)
    if clash:
        raise ValueError(f"channel {driver.key!r} redefines catalog texts {clash}")
    before = {code: CATALOG.get(code) for code in {*texts, *old}}
    for code in old:
        CATALOG.pop(code, None)
    CATALOG.update(texts)
    return before


def _put_back(table: dict[str, V], key: str, value: V | None) -> None:
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value


def registered(key: str) -> bool:
    return key in DRIVERS


def driver(key: str) -> ChannelDriver:
    return DRIVERS[key]


def with_addresses() -> list[ChannelDriver]:
    """The channels a teacher has an address on that a manager types (LINE, e-mail; not the alert webhook)."""
    return [d for d in DRIVERS.values() if d.address is not None]


def classify(result: SendResult) -> Verdict:
    """A result in the outcome policy's terms, by the rules of the channel that sent it."""
    return DRIVERS[result.channel].classify(result)


def sources(db: Database, overrides: Mapping[str, Source | None] | None = None) -> dict[str, Source]:
    """How to connect each registered channel: as its driver says, unless `overrides` gives its own
    for a channel key; an override that is None leaves that channel unusable."""
    out: dict[str, Source] = {key: partial(d.connect, db) for key, d in DRIVERS.items()}
    for key, source in (overrides or {}).items():
        out[key] = source if source is not None else _unusable
    return out


def _unusable() -> Connection | None:
    return None


for _builtin in (line.DRIVER, email.DRIVER, webhook.DRIVER):
    register_channel(_builtin)
register_channel(line_works.DRIVER)
