"""Opening the data directory and database the same way in every mode (GUI, tray, sender, CLI)."""

from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError

from core.errors import DatabaseError
from core.store import ack_key, migrate
from core.store.db import Database, describe_error
from core.store.paths import DataPaths
from core.store.secrets import DATABASE_PASSWORD, get_secret
from core.texts import t


def open_database(paths: DataPaths, *, url: str | None = None, keyring: bool = True) -> Database:
    """Open the database of `paths` and bring its schema to head (backing the file up first when it
    changes), then move a 了解 button key an earlier version kept in it to the keyring. `keyring`
    False: a process whose keyring is not the manager's (the demo's) leaves that key where it is."""
    password = None
    if url is None and paths.database_url_is_chosen():
        # The server chosen in Settings → Database: its password lives in the keyring, never in the URL.
        password = get_secret(DATABASE_PASSWORD)
    db = Database(url or paths.database_url(), password=password)
    try:
        migrate.upgrade(db, backup_dir=paths.backups)
    except DatabaseError:
        db.dispose()
        raise
    except SQLAlchemyError as exc:
        db.dispose()
        raise DatabaseError(t("db.open_failed", detail=describe_error(exc))) from exc
    if keyring:
        ack_key.move_out_of_database(db)
    return db
