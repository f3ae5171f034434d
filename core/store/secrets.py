"""Credentials in the OS keyring (service "Shiftcast"). Never in the database, never in logs."""

from __future__ import annotations

import hashlib
import os

from core.errors import ShiftcastError
from core.logs import secrets_registry
from core.texts import Text, t

SERVICE = "Shiftcast"
LINE_TOKEN = "line-channel-access-token"
LINE_TOKEN_ENV = "SHIFTCAST_LINE_TOKEN"
# The channel secret signs LINE's webhooks and, with the channel ID, issues stateless tokens.
LINE_CHANNEL_SECRET = "line-channel-secret"
LINE_CHANNEL_SECRET_ENV = "SHIFTCAST_LINE_CHANNEL_SECRET"
# LINE WORKS (core/channels/line_works_credentials.py): the app's client secret, the bot secret that signs
# its callbacks, and the service account's private key. The key is kept in parts named "<name>.1",
# "<name>.2" …, with the count under the name itself: Windows' credential store holds at most 2,560 bytes a
# credential (1,280 characters as it stores them), and an RSA key's PEM text is about 1,700.
LINE_WORKS_CLIENT_SECRET = "line-works-client-secret"
LINE_WORKS_BOT_SECRET = "line-works-bot-secret"
LINE_WORKS_PRIVATE_KEY = "line-works-private-key"
# For a headless sender without a keyring: the secrets themselves, and the key as a file.
LINE_WORKS_CLIENT_SECRET_ENV = "SHIFTCAST_LINE_WORKS_CLIENT_SECRET"
LINE_WORKS_BOT_SECRET_ENV = "SHIFTCAST_LINE_WORKS_BOT_SECRET"
LINE_WORKS_PRIVATE_KEY_FILE_ENV = "SHIFTCAST_LINE_WORKS_PRIVATE_KEY_FILE"
# The password of the database server chosen in Settings → Database; the URL in database.json has none.
DATABASE_PASSWORD = "database-password"


def no_backend_help(env: str | None) -> Text:
    """Why the keyring cannot be used (what is missing and how to add it), naming the variable that stands
    in for this one secret."""
    from core.store import keyring_check

    why = keyring_check.why(keyring_check.diagnose())
    return t("keyring.missing_env", why=why, env=env) if env else t("keyring.missing", why=why)


class SecretStoreError(ShiftcastError):
    pass


def get_secret(name: str, *, env: str | None = None) -> str | None:
    """`env`: the environment variable that can stand in for this secret, named when the keyring fails."""
    # keyring is imported here, not above: loading it (and its backends) costs every start-up, and a
    # headless sender with SHIFTCAST_LINE_TOKEN never needs it.
    import keyring
    import keyring.errors

    try:
        value = keyring.get_password(SERVICE, name)
    except keyring.errors.NoKeyringError:
        raise SecretStoreError(no_backend_help(env)) from None
    except keyring.errors.KeyringError as exc:
        raise SecretStoreError(t("keyring.read_refused", name=name, detail=str(exc))) from None
    secrets_registry.add(value)
    return value


def set_secret(name: str, value: str, *, env: str | None = None) -> None:
    import keyring
    import keyring.errors

    value = value.strip()
    try:
        if value:
            keyring.set_password(SERVICE, name, value)
        else:
            try:
                keyring.delete_password(SERVICE, name)
            except keyring.errors.PasswordDeleteError:
                pass
    except keyring.errors.NoKeyringError:
        raise SecretStoreError(no_backend_help(env)) from None
    except keyring.errors.KeyringError as exc:
        raise SecretStoreError(t("keyring.save_refused", name=name, detail=str(exc))) from None
    secrets_registry.add(value)


def line_token() -> str | None:
    """The channel access token: SHIFTCAST_LINE_TOKEN for headless use, else a file (below), else the keyring."""
    from_env = os.environ.get(LINE_TOKEN_ENV, "").strip()
    if from_env:
        secrets_registry.add(from_env)
        return from_env
    from_file = secret_file(LINE_TOKEN_FILE_ENV, LINE_TOKEN_CREDENTIAL)
    if from_file:
        return from_file
    return get_secret(LINE_TOKEN, env=LINE_TOKEN_ENV)


def line_token_if_any() -> str | None:
    """`line_token`, or None also when no keyring can be read but the channel secret is in the
    environment: a headless box may have no keyring at all and issue stateless tokens from the ID and
    the secret. Without that secret, the keyring's failure is raised."""
    try:
        return line_token()
    except SecretStoreError:
        if not os.environ.get(LINE_CHANNEL_SECRET_ENV, "").strip():
            raise
        return None


# A service keeps secrets in files rather than in its environment or on its command line: a file
# named by SHIFTCAST_LINE_TOKEN_FILE (a Docker secret, /run/secrets/…), or a systemd credential
# (LoadCredential=line-token:…, which systemd hands over in $CREDENTIALS_DIRECTORY).
LINE_TOKEN_FILE_ENV = "SHIFTCAST_LINE_TOKEN_FILE"
LINE_TOKEN_CREDENTIAL = "line-token"
CREDENTIALS_DIRECTORY_ENV = "CREDENTIALS_DIRECTORY"


def secret_file(file_env: str, credential: str) -> str | None:
    """The secret kept in the file `file_env` names, else in systemd's credential `credential`; None
    if neither is set. A file that is named but unreadable is an error, not a silent fallback."""
    path = os.environ.get(file_env, "").strip()
    if not path:
        folder = os.environ.get(CREDENTIALS_DIRECTORY_ENV, "").strip()
        if not folder or not os.path.exists(os.path.join(folder, credential)):
            return None
        path = os.path.join(folder, credential)
    try:
        with open(path, encoding="utf-8") as handle:
            value = handle.read().strip()
    except OSError as exc:
        raise SecretStoreError(t("keyring.secret_file_unreadable", path=path, env=file_env,
                                 detail=str(exc.strerror or exc))) from None
    if not value:
        raise SecretStoreError(t("keyring.secret_file_empty", path=path, env=file_env))
    secrets_registry.add(value)
    return value


def set_line_token(token: str) -> None:
    set_secret(LINE_TOKEN, token, env=LINE_TOKEN_ENV)


def line_channel_secret() -> str | None:
    """The channel secret: SHIFTCAST_LINE_CHANNEL_SECRET for headless use, else the keyring."""
    from_env = os.environ.get(LINE_CHANNEL_SECRET_ENV, "").strip()
    if from_env:
        secrets_registry.add(from_env)
        return from_env
    return get_secret(LINE_CHANNEL_SECRET)


def set_line_channel_secret(secret: str) -> None:
    set_secret(LINE_CHANNEL_SECRET, secret)


def fingerprint(secret: str) -> str:
    """A short, non-reversible tag, so a hold can tell whether the token has changed since."""
    return hashlib.sha256(secret.encode()).hexdigest()[:16]
