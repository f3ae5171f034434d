"""Where the relay is: its address in the settings table, its key in the keyring (SHIFTCAST_RELAY_KEY
stands in for it on a computer without one), and what the last sync did."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from core.errors import ValidationError
from core.relay import signing
from core.relay.client import RelayClient, checked_url
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import t

KEY_NAME = "relay-key"
KEY_ENV = "SHIFTCAST_RELAY_KEY"


@dataclass(frozen=True)
class Attached:
    url: str
    last_sync: dict[str, Any] | None


def relay_key() -> str | None:
    from_env = os.environ.get(KEY_ENV, "").strip()
    return from_env or secrets.get_secret(KEY_NAME, env=KEY_ENV)


def attach(db: Database, url: str, key_hex: str, *, keep_key: bool = True) -> None:
    """Keep the relay's address and key (checked first; the caller checked that the relay answers).
    Without `keep_key` the key is not put in the keyring: it comes from SHIFTCAST_RELAY_KEY."""
    key_hex = key_hex.strip().lower()
    if not signing.valid_key(key_hex):
        raise ValidationError(t("relay.bad_key"))
    url = checked_url(url)
    if keep_key:
        secrets.set_secret(KEY_NAME, key_hex, env=KEY_ENV)
    with db.write() as session:
        keys.RELAY_URL.write(session, url)
        keys.RELAY_LAST_SYNC.write(session, None)


def detach(db: Database) -> None:
    secrets.set_secret(KEY_NAME, "", env=KEY_ENV)
    with db.write() as session:
        keys.RELAY_URL.write(session, None)
        keys.RELAY_LAST_SYNC.write(session, None)


def attached(db: Database) -> Attached | None:
    with db.read() as session:
        url = keys.RELAY_URL.read(session)
        last = keys.RELAY_LAST_SYNC.read(session)
    if url is None:
        return None
    return Attached(url, json.loads(last) if last else None)


def client(db: Database) -> RelayClient | None:
    """A client for the attached relay, or None while none is attached (ValidationError without its key)."""
    found = attached(db)
    if found is None:
        return None
    key = relay_key()
    if not key:
        raise ValidationError(t("relay.no_key"))
    return RelayClient(found.url, key)


def remember_sync(db: Database, summary: dict[str, Any]) -> None:
    with db.write() as session:
        keys.RELAY_LAST_SYNC.write(session, json.dumps(summary, separators=(",", ":")))
