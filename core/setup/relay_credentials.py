"""The LINE credentials a deployed relay holds as Worker secrets, and keeping them the ones saved here.

The relay gets what the app itself sends with (core/channels/line.py): with a long-lived channel access
token saved, that token and the channel secret; with only the channel ID and secret (Connect LINE), those
two, and the Worker issues itself 15-minute stateless tokens from them (relay/src/token.ts). The secret
always goes: it checks LINE's webhook signatures.

What the Worker was given is remembered as a fingerprint per secret in the deployment (never a secret),
so the app can tell, offline, whether the relay still holds credentials saved before (`held`). When the
manager saves new ones, `push` gives them to the relay at once through Cloudflare's secrets calls (each a
new version of the Worker, its code unchanged), or says why it cannot yet (no Cloudflare token, the
relay older than the bundled one); the update at the next start (core/setup/relay_deploy.py) then
pushes them. A relay older than the bundled one is left to that update, whose upload carries the new
credentials with the new code, so a Worker that does not yet know LINE_CHANNEL_ID never loses its token.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from core.errors import ShiftcastError
from core.setup import relay_state as state
from core.setup.relay_bundle import Bundle, is_older, load
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import Text, t

log = logging.getLogger(__name__)
SECRET = "LINE_CHANNEL_SECRET"
TOKEN = "LINE_CHANNEL_ACCESS_TOKEN"
CHANNEL_ID = "LINE_CHANNEL_ID"
# The Worker prefers a long-lived token when it has one: the two ways never both stay.
ALTERNATIVES = (TOKEN, CHANNEL_ID)


def saved(db: Database) -> dict[str, str] | None:
    """The LINE secrets the relay should hold, by binding name; None while LINE is not set up here
    (no channel secret, or neither a long-lived token nor a channel ID)."""
    secret = secrets.line_channel_secret()
    if not secret:
        return None
    token = secrets.line_token_if_any()
    if token:
        return {SECRET: secret, TOKEN: token}
    with db.read() as session:
        channel_id = keys.LINE_CHANNEL_ID.read(session)
    return {SECRET: secret, CHANNEL_ID: channel_id} if channel_id else None


def fingerprints(values: Mapping[str, str]) -> dict[str, str]:
    return {name: secrets.fingerprint(value) for name, value in sorted(values.items())}


def changes(pushed: Mapping[str, str] | None, values: Mapping[str, str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the secrets to set, the secrets to delete) to bring a Worker given `pushed` (fingerprints; None:
    not known) to `values`. Pure. The new ones go first and the way no longer used is deleted last, so
    the Worker always has one way to a token."""
    wanted = fingerprints(values)
    put = tuple(name for name in sorted(values, key=lambda n: (n in ALTERNATIVES, n))
                if pushed is None or pushed.get(name) != wanted[name])
    delete = tuple(name for name in ALTERNATIVES if name not in values and (pushed is None or name in pushed))
    return put, delete


class Held(enum.Enum):
    NOT_DEPLOYED = "not_deployed"  # no relay deployed from this app
    CURRENT = "current"  # the relay holds the credentials saved here
    OLD = "old"  # the relay holds credentials saved before (or ones the app never recorded)
    NOT_SAVED = "not_saved"  # LINE is not set up here: nothing to give the relay


def held(db: Database) -> Held:
    """Whether the deployed relay holds the LINE credentials saved here, read offline."""
    found = state.deployment(db)
    # A deploy that stopped before its upload left no Worker to hold anything.
    if found is None or not found.url or (found.line_credentials is None and state.relay_url(db) != found.url):
        return Held.NOT_DEPLOYED
    try:
        values = saved(db)
    except secrets.SecretStoreError:
        return Held.NOT_SAVED  # the keyring's own problem is what readiness names
    if values is None:
        return Held.NOT_SAVED
    return Held.CURRENT if found.line_credentials == fingerprints(values) else Held.OLD


class Push(enum.Enum):
    NOT_DEPLOYED = "not_deployed"
    NOT_SAVED = "not_saved"
    CURRENT = "current"  # nothing to push
    PUSHED = "pushed"
    NO_TOKEN = "no_token"  # no Cloudflare token in the keyring: at the next start that has one
    OLDER = "older"  # the relay is older than the bundled one: the update at the next start carries them
    UNREACHABLE = "unreachable"  # /health did not answer: at the next start


def push(db: Database, *, bundle: Bundle | None = None) -> Push:
    """Give the deployed relay the LINE credentials saved here, when it holds others. Raises
    RelayCloudError (the manager's words) when Cloudflare refuses; what was set by then is recorded."""
    found = state.deployment(db)
    if found is None or not found.url or not found.account_id:
        return Push.NOT_DEPLOYED
    values = saved(db)
    if values is None:
        return Push.NOT_SAVED
    if found.line_credentials == fingerprints(values):
        return Push.CURRENT
    token = state.cloudflare_token()
    if not token:
        log.warning("the relay holds older LINE credentials, but no Cloudflare token is in the keyring")
        return Push.NO_TOKEN
    # Cloudflare's SDK is imported only when there is something to push: `held` (readiness, doctor) and
    # saving credentials without a relay never load it.
    from core.setup.relay_cloud import Cloud, health

    said = health(found.url)
    if said is None:
        return Push.UNREACHABLE
    if is_older(str(said.get("version")), (bundle or load()).relay_version):
        return Push.OLDER
    put, delete = changes(found.line_credentials, values)
    wanted = fingerprints(values)
    given = dict(found.line_credentials or {})
    with Cloud(token) as cloud:
        for name in put:
            cloud.put_secret(found.account_id, found.name, name, values[name])
            given[name] = wanted[name]
            state.save(db, found.but(line_credentials=dict(given)))  # each as it lands: a failure half-way is seen
        for name in delete:
            cloud.delete_secret(found.account_id, found.name, name)
            given.pop(name, None)
    state.save(db, found.but(line_credentials=wanted))
    log.info("the relay got the LINE credentials saved here (%s)", ", ".join(put + delete))
    return Push.PUSHED


# What `push` answers when the relay now holds what is saved here, or there is no relay to give it to.
DELIVERED = frozenset({Push.NOT_DEPLOYED, Push.NOT_SAVED, Push.CURRENT, Push.PUSHED})


@dataclass(frozen=True)
class AfterSaving:
    """What became of giving the relay the credentials just saved: `result` None when Cloudflare refused
    or did not answer (`problem`, in the manager's words)."""

    result: Push | None
    problem: Text | str | None = None

    @property
    def delivered(self) -> bool:
        return self.result in DELIVERED


def push_after_saving(db: Database) -> AfterSaving:
    """`push` right after the manager saved LINE credentials: a failure is logged and returned, never
    raised, since the credentials are saved either way; the relay gets them at the next start."""
    try:
        return AfterSaving(push(db))
    except ShiftcastError as exc:
        log.warning("could not give the relay the new LINE credentials yet: %s", exc)
        return AfterSaving(None, exc.text)
    except httpx.HTTPError as exc:
        log.warning("could not give the relay the new LINE credentials yet: %s", exc)
        return AfterSaving(None, t("relay_setup.unreachable", detail=type(exc).__name__))
