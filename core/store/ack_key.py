"""The key that signs the 了解 buttons' postback data: kept with the other secrets, never in the database.

Whoever holds the key can make a valid button for any delivery, so a copy of the database (a backup,
a copied data folder, a pg_dump) must not carry it. It lives in the OS keyring, one entry per
database (named by the database's identity, so two data folders of one user never share or overwrite
a key), or comes from SHIFTCAST_LINE_ACK_KEY on a headless box, as the other secrets do.

Databases from before kept it in the settings (`line.ack_secret`). Every start calls
`move_out_of_database`: the first one that can write the keyring moves the key there and removes it
from the database, so buttons already sent keep working (the key is the same). A start without a
keyring leaves it where it is, unused: the key in the database never signs or checks anything, so
the buttons are off and taps are ignored until a keyring (or the variable) holds a key. That is the
safer choice of the two: a copy of the database can never acknowledge anything, and a run that
merely lacks a keyring for a while (a headless `main.py sender` on a desktop computer) does not
throw away the key of the buttons teachers already have.
"""

from __future__ import annotations

import logging
import os
import secrets as random_secrets
import sqlite3

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from core.store import setting_keys as keys
from core.store.db import Database, describe_error, erase_deleted, sqlite_file_of
from core.store.identity import database_identity
from core.store.secrets import SecretStoreError, get_secret, set_secret
from core.texts import t
from core.texts.message import logged

log = logging.getLogger(__name__)
ACK_KEY = "line-ack-key"
ACK_KEY_ENV = "SHIFTCAST_LINE_ACK_KEY"


def keyring_name(session: Session) -> str:
    return f"{ACK_KEY}-{database_identity(session)}"


def held_key(session: Session) -> str | None:
    """The key: SHIFTCAST_LINE_ACK_KEY, else this database's keyring entry; None if none was made
    yet. SecretStoreError when there is no keyring to ask."""
    from_env = os.environ.get(ACK_KEY_ENV, "").strip()
    if from_env:
        from core.logs import secrets_registry

        secrets_registry.add(from_env)
        return from_env
    return get_secret(keyring_name(session), env=ACK_KEY_ENV)


def signing_key(session: Session) -> str:
    """The key, made now and put in the keyring if there is none (the buttons were just switched on,
    or the key was made on another computer whose keyring this one cannot read)."""
    key = held_key(session)
    if key is None:
        key = random_secrets.token_urlsafe(32)
        set_secret(keyring_name(session), key, env=ACK_KEY_ENV)
        log.info("made a new 了解 button key for this database in this computer's keyring")
    return key


def move_out_of_database(db: Database) -> None:
    """Move a key an earlier version kept in the database into the keyring, then remove it there. A
    database that cannot be written now (read-only, a full disk) keeps it until a start that can."""
    try:
        _move(db)
    except (SQLAlchemyError, sqlite3.Error) as exc:
        log.warning("the 了解 button key stays in the database for now: %s", describe_error(exc))


def _move(db: Database) -> None:
    with db.read() as session:  # the common case, nothing to move, takes no write lock and no keyring
        if not keys.LINE_ACK_SECRET.is_set(session):
            return
    with db.write() as session:
        old = keys.LINE_ACK_SECRET.read(session)
        if not old:
            return
        name = keyring_name(session)
        try:
            held = get_secret(name, env=ACK_KEY_ENV)
            if held is None:
                set_secret(name, old, env=ACK_KEY_ENV)
                held = get_secret(name, env=ACK_KEY_ENV)  # read back: removed only once it is really kept
        except SecretStoreError as exc:
            log.warning("%s", logged(t("ack.key_stays_in_database", detail=exc.text)))
            return
        if held is None:
            log.warning("%s", logged(t("ack.key_stays_in_database", detail=t("ack.keyring_lost_key"))))
            return
        if held != old:
            log.warning("%s", logged(t("ack.database_key_replaced")))
        keys.LINE_ACK_SECRET.clear(session)
    log.info("the 了解 button key moved from the database to the keyring")
    path = sqlite_file_of(db.url)
    if path is not None and not erase_deleted(path):
        log.warning("the 了解 button key's old bytes stay in the database file until SQLite's next checkpoint:"
                    " another program was reading it")
