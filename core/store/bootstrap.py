"""Opening the data directory and database the same way in every mode (GUI, tray, sender, CLI)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from core.errors import DatabaseError
from core.store import migrate
from core.store.db import Database, describe_error
from core.store.paths import DataPaths, data_paths


def open_database(paths: DataPaths | None = None, *, url: str | None = None) -> Database:
    """Open the database and bring its schema to head (backing the file up first when it changes)."""
    paths = paths or data_paths()
    db = Database(url or paths.database_url())
    try:
        migrate.upgrade(db, backup_dir=paths.backups)
    except DatabaseError:
        db.dispose()
        raise
    except SQLAlchemyError as exc:
        db.dispose()
        raise DatabaseError(f"could not open the database: {describe_error(exc)}") from exc
    return db


def open_home(home: Path | None = None) -> tuple[DataPaths, Database]:
    paths = data_paths(home)
    return paths, open_database(paths)
