"""What the app keeps about a relay it deployed: the Cloudflare token and the relay key in the keyring,
the relay's address in the settings (`relay.url`, which the relay client reads too), and the deployment
itself (`relay.deployment`: account, Worker, database, LINE's earlier webhook address, and a fingerprint
of each LINE secret the Worker was given).

The deployment is written after each step that made something, so a deploy that stopped half-way
resumes with the same names and Remove finds everything a deploy made, even one that never finished.
"""

from __future__ import annotations

import json
import secrets as random
from dataclasses import asdict, dataclass, replace
from typing import Any

from core.relay import settings as relay_settings
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database

# Keyring names; the relay key's is the relay client's own (core/relay/settings.py).
CLOUDFLARE_TOKEN = "cloudflare-api-token"
RELAY_KEY = relay_settings.KEY_NAME
RELAY_KEY_ENV = relay_settings.KEY_ENV
NAME_PREFIX = "shiftcast-relay-"


@dataclass(frozen=True)
class Deployment:
    short_id: str  # names the Worker and its database: shiftcast-relay-<short_id>
    account_id: str | None = None
    database_id: str | None = None
    subdomain: str | None = None
    url: str | None = None
    # LINE's webhook address before the relay's; `pointed` once ours is set (the saved one may be None).
    saved_endpoint: str | None = None
    pointed: bool = False
    our_endpoint: str | None = None
    # The LINE secrets the Worker was last given, as fingerprints by binding name (never the secrets);
    # None: not known (a relay deployed before the app kept them).
    line_credentials: dict[str, str] | None = None

    @property
    def name(self) -> str:
        return f"{NAME_PREFIX}{self.short_id}"

    def but(self, **changes: Any) -> Deployment:
        return replace(self, **changes)


def new_deployment() -> Deployment:
    return Deployment(short_id=random.token_hex(4))


def deployment(db: Database) -> Deployment | None:
    with db.read() as session:
        raw = keys.RELAY_DEPLOYMENT.read(session)
    return Deployment(**json.loads(raw)) if raw else None


def save(db: Database, found: Deployment | None) -> None:
    with db.write() as session:
        if found is None:
            keys.RELAY_DEPLOYMENT.clear(session)
        else:
            keys.RELAY_DEPLOYMENT.write(session, json.dumps(asdict(found), separators=(",", ":")))


WEBHOOK_PATH = "/line/webhook"  # where the relay's Worker takes LINE's webhooks (relay/src)


def relay_url(db: Database) -> str | None:
    with db.read() as session:
        return keys.RELAY_URL.read(session)


def relay_webhook(db: Database) -> str | None:
    """The attached relay's webhook address; None while no relay is attached."""
    url = relay_url(db)
    return url + WEBHOOK_PATH if url else None


def remember_relay(db: Database, url: str | None) -> None:
    with db.write() as session:
        if url is None:
            keys.RELAY_URL.clear(session)
        else:
            keys.RELAY_URL.write(session, url)


def cloudflare_token() -> str | None:
    return secrets.get_secret(CLOUDFLARE_TOKEN)


def set_cloudflare_token(token: str) -> None:
    secrets.set_secret(CLOUDFLARE_TOKEN, token)


def relay_key(*, create: bool) -> str | None:
    """The relay key (64 hex digits, 256 bits); made and kept in the keyring first when `create`."""
    key = secrets.get_secret(RELAY_KEY, env=RELAY_KEY_ENV)
    if not key and create:
        key = random.token_hex(32)
        secrets.set_secret(RELAY_KEY, key, env=RELAY_KEY_ENV)
    return key


def forget_relay_key() -> None:
    secrets.set_secret(RELAY_KEY, "", env=RELAY_KEY_ENV)
