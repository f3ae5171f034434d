"""What LINE WORKS needs to send as the classroom's bot: the app's client ID and secret, its service
account and that account's private key (API 2.0 service-account sign-in, a JWT signed RS256), and the
bot's ID and secret (the secret signs the bot's callbacks).

The ids are settings (core/store/setting_keys.py "line_works.*"); the three secrets are in the keyring
(core/store/secrets.py names). The private key's PEM text is longer than one Windows credential holds
(2,560 bytes, stored as UTF-16), so it is kept in the keyring in parts of at most `KEY_PART` characters,
"<name>.1", "<name>.2" …, the count under the name itself; nothing is written to a file. A headless
sender without a keyring takes the secrets from the environment instead (SHIFTCAST_LINE_WORKS_CLIENT_SECRET,
SHIFTCAST_LINE_WORKS_BOT_SECRET, and SHIFTCAST_LINE_WORKS_PRIVATE_KEY_FILE naming a PEM file).

`load` and `save` are what the Settings screen reads and writes; `check` asks LINE WORKS for a token with
them and sends nothing.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from core.channels.line_works_client import BaseUrls, WorksClient, resolve_base_urls
from core.channels.line_works_ids import check_user_id
from core.errors import ValidationError
from core.logs import secrets_registry
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import t

KEY_PART = 1000  # characters per keyring entry: under Windows' 1,280
_PARTS = re.compile(r"parts:(\d{1,2})")
_ID = re.compile(r"[A-Za-z0-9._@-]{1,200}")


@dataclass(frozen=True)
class WorksCredentials:
    client_id: str
    client_secret: str
    service_account: str
    private_key: str  # PEM text
    bot_id: str
    bot_secret: str
    domain_id: str | None = None

    def __repr__(self) -> str:  # never the secrets, in a log or a traceback
        return (f"WorksCredentials(client_id={self.client_id!r}, service_account={self.service_account!r}, "
                f"bot_id={self.bot_id!r}, domain_id={self.domain_id!r})")

    @property
    def fingerprint(self) -> str:
        """Changes whenever anything that decides the sign-in changes, so a hold lifts on any fix."""
        return secrets.fingerprint("\0".join((self.client_id, self.client_secret, self.service_account,
                                              self.private_key.strip(), self.bot_id)))


def checked(creds: WorksCredentials) -> WorksCredentials:
    """The credentials trimmed, or a ValidationError that names what is missing or malformed."""
    fields = {"client_id": creds.client_id, "client_secret": creds.client_secret,
              "service_account": creds.service_account, "private_key": creds.private_key,
              "bot_id": creds.bot_id, "bot_secret": creds.bot_secret}
    trimmed = {name: (value or "").strip() for name, value in fields.items()}
    for name, value in trimmed.items():
        if not value:
            raise ValidationError(t("line_works.missing", field=t(f"line_works.field.{name}")))
    for name in ("client_id", "service_account", "bot_id"):
        if not _ID.fullmatch(trimmed[name]):
            raise ValidationError(t("line_works.bad_id", field=t(f"line_works.field.{name}"), value=trimmed[name]))
    domain = (creds.domain_id or "").strip() or None
    if domain is not None and not domain.isdigit():
        raise ValidationError(t("line_works.bad_domain", value=domain))
    _check_key(trimmed["private_key"])
    trimmed["private_key"] += "\n"  # PEM text ends its last line
    return WorksCredentials(domain_id=domain, **trimmed)


def _check_key(pem: str) -> None:
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    try:
        key = load_pem_private_key(pem.encode("utf-8"), password=None)
    except (ValueError, TypeError):
        raise ValidationError(t("line_works.bad_key")) from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise ValidationError(t("line_works.bad_key"))


def load(db: Database) -> WorksCredentials | None:
    """The saved credentials, or None while any of them is missing (LINE WORKS not set up).
    Raises SecretStoreError when the keyring cannot be read."""
    with db.read() as session:
        client_id = keys.LINE_WORKS_CLIENT_ID.read(session)
        service_account = keys.LINE_WORKS_SERVICE_ACCOUNT.read(session)
        bot_id = keys.LINE_WORKS_BOT_ID.read(session)
        domain_id = keys.LINE_WORKS_DOMAIN_ID.read(session)
    if not client_id or not service_account or not bot_id:
        return None
    client_secret = _secret(secrets.LINE_WORKS_CLIENT_SECRET, secrets.LINE_WORKS_CLIENT_SECRET_ENV)
    bot_secret = _secret(secrets.LINE_WORKS_BOT_SECRET, secrets.LINE_WORKS_BOT_SECRET_ENV)
    private_key = private_key_pem()
    if not client_secret or not bot_secret or not private_key:
        return None
    return WorksCredentials(client_id, client_secret, service_account, private_key, bot_id, bot_secret, domain_id)


def save(db: Database, creds: WorksCredentials) -> WorksCredentials:
    """Check and keep the credentials: the secrets in the keyring, the ids in the settings. Bad input
    changes nothing; returns what was kept (trimmed)."""
    good = checked(creds)
    secrets.set_secret(secrets.LINE_WORKS_CLIENT_SECRET, good.client_secret, env=secrets.LINE_WORKS_CLIENT_SECRET_ENV)
    secrets.set_secret(secrets.LINE_WORKS_BOT_SECRET, good.bot_secret, env=secrets.LINE_WORKS_BOT_SECRET_ENV)
    _save_key(good.private_key)
    with db.write() as session:
        keys.LINE_WORKS_CLIENT_ID.write(session, good.client_id)
        keys.LINE_WORKS_SERVICE_ACCOUNT.write(session, good.service_account)
        keys.LINE_WORKS_BOT_ID.write(session, good.bot_id)
        keys.LINE_WORKS_DOMAIN_ID.write(session, good.domain_id)
    return good


def bot_secret() -> str | None:
    """The bot secret the callbacks are signed with (the receiver's check), or None while unset."""
    return _secret(secrets.LINE_WORKS_BOT_SECRET, secrets.LINE_WORKS_BOT_SECRET_ENV)


def _secret(name: str, env: str) -> str | None:
    from_env = os.environ.get(env, "").strip()
    if from_env:
        secrets_registry.add(from_env)
        return from_env
    return secrets.get_secret(name, env=env)


def private_key_pem() -> str | None:
    """The private key's PEM text: the file SHIFTCAST_LINE_WORKS_PRIVATE_KEY_FILE names, else the keyring's parts."""
    path = os.environ.get(secrets.LINE_WORKS_PRIVATE_KEY_FILE_ENV, "").strip()
    if path:
        return secrets.secret_file(secrets.LINE_WORKS_PRIVATE_KEY_FILE_ENV, "line-works-private-key")
    head = secrets.get_secret(secrets.LINE_WORKS_PRIVATE_KEY, env=secrets.LINE_WORKS_PRIVATE_KEY_FILE_ENV)
    found = _PARTS.fullmatch(head or "")
    if found is None:
        return None
    parts = [secrets.get_secret(f"{secrets.LINE_WORKS_PRIVATE_KEY}.{n}") for n in range(1, int(found.group(1)) + 1)]
    if any(not part for part in parts):
        return None  # a part went missing: as good as no key
    return "".join(p for p in parts if p)


def _save_key(pem: str) -> None:
    text = pem
    parts = [text[i:i + KEY_PART] for i in range(0, len(text), KEY_PART)]
    old = _PARTS.fullmatch(secrets.get_secret(secrets.LINE_WORKS_PRIVATE_KEY) or "")
    # The parts first, the count last: a key half-written reads as the old count over new parts only
    # when the count is unchanged, and then every part is already the new one's.
    for n, part in enumerate(parts, start=1):
        _set_raw(f"{secrets.LINE_WORKS_PRIVATE_KEY}.{n}", part)
    secrets.set_secret(secrets.LINE_WORKS_PRIVATE_KEY, f"parts:{len(parts)}")
    for n in range(len(parts) + 1, (int(old.group(1)) if old else 0) + 1):
        secrets.set_secret(f"{secrets.LINE_WORKS_PRIVATE_KEY}.{n}", "")


def _set_raw(name: str, value: str) -> None:
    """A part as it is: set_secret trims, and a part may end in a line break that the next one needs."""
    import keyring
    import keyring.errors

    try:
        keyring.set_password(secrets.SERVICE, name, value)
    except keyring.errors.NoKeyringError:
        raise secrets.SecretStoreError(secrets.no_backend_help(secrets.LINE_WORKS_PRIVATE_KEY_FILE_ENV)) from None
    except keyring.errors.KeyringError as exc:
        raise secrets.SecretStoreError(t("keyring.save_refused", name=name, detail=str(exc))) from None
    secrets_registry.add(value)


def check(creds: WorksCredentials, *, base_urls: BaseUrls | None = None, test_user_id: str | None = None) -> None:
    """Ask LINE WORKS for a token with these credentials; raises a ValidationError in the manager's words
    when they are malformed, refused, or LINE WORKS cannot be reached. A `test_user_id` is checked for its
    form only: nothing is sent to anyone. `base_urls`: where to ask (`base_urls(db)` for the configured
    ones; None: LINE WORKS itself, unless the environment names another)."""
    check_user_id(test_user_id)
    client = WorksClient(checked(creds), base_urls=base_urls)
    try:
        client.check()
    finally:
        client.close()


def base_urls(db: Database) -> BaseUrls:
    """The configured addresses (the environment, then the settings), checked for safety."""
    with db.read() as session:
        return resolve_base_urls(keys.LINE_WORKS_AUTH_BASE.read(session), keys.LINE_WORKS_API_BASE.read(session))
