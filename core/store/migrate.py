"""Schema migrations with Alembic, applied at start-up after a backup of the database file."""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from core.errors import DatabaseError
from core.store.db import Database, backup_sqlite, describe_error, sqlite_file_of

log = logging.getLogger(__name__)
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
KEEP_BACKUPS = 10


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(db: Database) -> str | None:
    with db.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(db: Database, *, revision: str = "head", backup_dir: Path | None = None) -> Path | None:
    """Bring the schema to `revision`. Returns the backup taken first, if any.

    A backup is taken only when an existing SQLite database with data is about to change, so a
    failed upgrade can always be undone by the manager (or support) from `<home>/backups`.
    """
    config = alembic_config()
    target = ScriptDirectory.from_config(config).get_revision(revision)
    current = current_revision(db)
    if target is not None and current == target.revision:
        return None
    backup = None
    source = sqlite_file_of(db.url)
    if backup_dir is not None and source and Path(source).exists() and current is not None:
        backup = _backup(source, backup_dir, current)
    try:
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    except Exception as exc:
        hint = f"; the database before the upgrade is saved at {backup}" if backup else ""
        raise DatabaseError(f"could not upgrade the database: {describe_error(exc)}{hint}") from exc
    return backup


def _backup(source: str, backup_dir: Path, revision: str) -> Path:
    backup_dir.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    target = backup_dir / f"shiftcast-{stamp}-before-{revision}.db"
    backup_sqlite(source, str(target))
    log.info("database backed up to %s before migration", target)
    for old in sorted(backup_dir.glob("shiftcast-*-before-*.db"))[:-KEEP_BACKUPS]:
        old.unlink(missing_ok=True)
    return target
