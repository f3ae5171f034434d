"""What the Settings screen asks of LINE and the keyring, as plain blocking functions.

The screen runs each of these on a background thread. The token itself never comes back out of
here: callers learn only whether one is saved, so it is never shown again or held by a widget.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.addresses import secure_or_local
from core.channels.line import (
    BASE_URL_ENV,
    DEFAULT_BASE_URL,
    LineApiError,
    LineClient,
    Quota,
    access_from_settings,
)
from core.errors import ShiftcastError, ValidationError
from core.planning import forecast
from core.roster import ids
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.settings import ChannelHold
from core.texts import Text, t

if TYPE_CHECKING:
    from core.setup.relay_credentials import AfterSaving

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Hold:
    """LINE refused the token and the sender stopped sending until it changes."""

    code: str
    since: dt.datetime | None
    token_changed_since: bool  # a different token has been saved: the sender will try it next


@dataclass(frozen=True)
class TokenState:
    saved: bool  # a token is in the keyring
    from_environment: bool  # SHIFTCAST_LINE_TOKEN wins over the keyring (demo mode, headless sender)
    keyring_problem: Text | str | None  # the keyring cannot be used: why, in a sentence
    hold: Hold | None
    api_base: str | None  # the configured API address override; None means LINE itself
    api_base_from_environment: str | None  # SHIFTCAST_LINE_API_BASE, which wins over the setting


@dataclass(frozen=True)
class BotCheck:
    display_name: str
    basic_id: str
    quota: Quota


@dataclass(frozen=True)
class GroupCheck:
    group_id: str
    name: str
    members: int | None  # None when LINE would not say (it may refuse the count to some accounts)


def token_state(db: Database) -> TokenState:
    from_env = bool(os.environ.get(secrets.LINE_TOKEN_ENV, "").strip())
    saved, problem, current = False, None, None
    try:
        stored = secrets.get_secret(secrets.LINE_TOKEN, env=secrets.LINE_TOKEN_ENV)
        saved = bool(stored)
        current = secrets.line_token()
    except secrets.SecretStoreError as exc:
        problem = exc.text  # rendered where it is shown, in the reader's language
    with db.read() as session:
        hold = keys.LINE_HOLD.read(session)
        api_base = keys.LINE_API_BASE.read(session)
    return TokenState(saved, from_env, problem, _hold(hold, current), api_base,
                      os.environ.get(BASE_URL_ENV, "").strip() or None)


def _hold(hold: ChannelHold | None, current_token: str | None) -> Hold | None:
    """The sender's hold as the screen shows it: has a different token been saved since?"""
    if hold is None:
        return None
    changed = current_token is not None and secrets.fingerprint(current_token) != hold.fingerprint
    return Hold(hold.code, hold.since, changed)


def save_token(db: Database, token: str) -> bool:
    """Into the keyring only. The sender notices the new token itself and lifts its hold; a relay deployed
    to Cloudflare is given it too. True when the token in use changed (`store_token`)."""
    changed = store_token(db, token)
    if changed:
        credentials_saved(db)
    return changed


def store_token(db: Database, token: str) -> bool:
    """Into the keyring, the relay not told (`credentials_saved` does that).

    A token that changes the one in use may be another account's: what Shiftcast remembers of the
    account (its name, its monthly quota) is forgotten until a connection test asks LINE again, so no
    screen names the previous account for the new one. True when the token in use changed."""
    token = token.strip()
    if not token:
        raise ValidationError(t("setup.line.paste_token"))
    before = _token_in_use()
    secrets.set_line_token(token)
    changed = _token_in_use() != before
    if changed:
        forget_account(db)
    return changed


def credentials_saved(db: Database) -> AfterSaving:
    """New LINE credentials are saved: a relay deployed to Cloudflare gets them now when it can, else at
    the next start (core/setup/relay_credentials.py). What became of that, for the caller to say."""
    from core.setup import relay_credentials  # Cloudflare's SDK loads only when a relay is deployed

    return relay_credentials.push_after_saving(db)


def _token_in_use() -> str | None:
    try:
        return secrets.line_token()
    except secrets.SecretStoreError:  # unreadable before: the saved one counts as a change
        return None


def forget_account(db: Database) -> None:
    """Forget which account the credentials were, and its quota, until LINE is asked again."""
    with db.write() as session:
        keys.LINE_ACCOUNT.clear(session)
        keys.LINE_QUOTA.clear(session)


def check_connection(db: Database, token: str | None = None) -> BotCheck:
    """Ask LINE who the bot is and how much of the monthly quota is used.

    With `token` None the saved token is tested, and the quota is remembered for the quota forecast.
    """
    typed = (token or "").strip()
    if typed:
        with db.read() as session:
            base = keys.LINE_API_BASE.read(session)
        client = LineClient(typed, base_url=base)
    else:
        access = access_from_settings(db)
        if access is None:
            raise ValidationError(t("setup.line.no_token"))
        client = access.client
    with client:
        info = client.bot_info()
        quota = client.quota()
    if not typed:
        remember_account(db, str(info.get("displayName") or ""), str(info.get("basicId") or ""))
        try:
            forecast.refresh_quota(db)
        except ShiftcastError as exc:  # the check itself succeeded; the forecast can wait an hour
            log.warning("could not remember the LINE quota: %s", exc)
    return BotCheck(str(info.get("displayName") or ""), str(info.get("basicId") or ""), quota)


def remember_account(db: Database, display_name: str, basic_id: str) -> None:
    """Which account the saved credentials are, for the readiness check, which never asks LINE."""
    name = " ".join(part for part in (display_name.strip(), f"({basic_id.strip()})" if basic_id.strip() else "")
                    if part)
    with db.write() as session:
        keys.LINE_ACCOUNT.write(session, name or None)


def check_group(db: Database, group_id: str) -> GroupCheck:
    """Is the account in this group? LINE answers 404 when it is not (or the ID is wrong)."""
    checked = ids.line_group_id(group_id)
    if checked is None:
        raise ValidationError(t("setup.line.enter_group"))
    access = access_from_settings(db)
    if access is None:
        raise ValidationError(t("setup.line.save_token"))
    with access.client as client:
        summary = client.group_summary(checked)
        try:
            members: int | None = client.group_member_count(checked)
        except LineApiError as exc:
            log.info("group member count unavailable: %s", exc)
            members = None
    return GroupCheck(checked, str(summary.get("groupName") or ""), members)


def check_api_base(value: str) -> str | None:
    """The typed API address, checked by the rules of `resolve_base_url`; None means LINE itself.

    Checked here rather than through `resolve_base_url`, because that one lets the environment
    variable win, and the typed value must be checked even when the variable is set."""
    value = value.strip().rstrip("/")
    if not value or value == DEFAULT_BASE_URL:
        return None
    if secure_or_local(value):
        return value
    raise ValidationError(t("line.insecure_base", address=value))


def save_api_base(db: Database, value: str) -> str | None:
    checked = check_api_base(value)
    with db.write() as session:
        keys.LINE_API_BASE.write(session, checked)
    return checked
