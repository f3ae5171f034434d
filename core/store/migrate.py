"""Schema migrations with Alembic, applied at start-up after a backup of the database file.

Every start-up of every mode opens the database, and loading Alembic and reading its script folder
cost more than the rest of a CLI call. So the common case, a schema already at head, is a plain read
of alembic_version compared with HEAD_REVISION, and Alembic is imported only when there is something
to upgrade.
"""

from __future__ import annotations

import datetime as dt
import logging
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text

from core.child_environment import LIBPQ_PREFIX, child_environment
from core.errors import DatabaseError
from core.store.db import Database, backup_sqlite, describe_error, is_postgresql, sqlite_file_of
from core.texts import Text, t

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger(__name__)
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
KEEP_BACKUPS = 10
# The newest file in migrations/versions. A new migration must change this too; tests/test_migrations.py
# fails while it differs from what Alembic's script folder says is head.
HEAD_REVISION = "0029_calendar_feeds"
VERSION_TABLE = "alembic_version"  # Alembic's default, which migrations/env.py keeps


def alembic_config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def head_revision() -> str:
    """Head as Alembic's script folder says (slow: it imports every migration)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(db: Database) -> str | None:
    """The revision the database is at, None for a database without Alembic's table (a new one)."""
    revisions = _stamped(db)
    if len(revisions) > 1:  # branches are never made here; let Alembic say what it makes of them
        from alembic.runtime.migration import MigrationContext

        with db.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    return revisions[0] if revisions else None


def _stamped(db: Database) -> list[str]:
    # A read scope: checking the version must not queue behind a sender holding the write lock.
    with db.read() as session:
        connection = session.connection()
        if not inspect(connection).has_table(VERSION_TABLE):
            return []
        return list(connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars())


def upgrade(db: Database, *, revision: str = "head", backup_dir: Path | None = None) -> Path | None:
    """Bring the schema to `revision`. Returns the backup taken first, if any.

    A backup is taken only when an existing database with data is about to change, so a failed
    upgrade can always be undone by the manager (or support) from `<home>/backups`: SQLite's own
    copy of the file, or on PostgreSQL a pg_dump where one is installed (dump_postgresql).
    """
    if revision in ("head", HEAD_REVISION) and _stamped(db) == [HEAD_REVISION]:
        return None
    from alembic import command
    from alembic.script import ScriptDirectory

    config = alembic_config()
    target = ScriptDirectory.from_config(config).get_revision(revision)
    current = current_revision(db)
    if target is not None and current == target.revision:
        return None
    backup = None
    source = sqlite_file_of(db.url)
    if backup_dir is not None and source and Path(source).exists() and current is not None:
        backup = _backup(source, backup_dir, current)
    elif backup_dir is not None and current is not None and is_postgresql(db.url):
        backup = dump_postgresql(db, backup_dir, current)
    try:
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    except Exception as exc:
        hint: Text | str = t("db.backup_at", path=str(backup)) if backup else ""
        raise DatabaseError(t("db.upgrade_failed", detail=describe_error(exc), hint=hint)) from exc
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


PG_DUMP_TIMEOUT_S = 600


def dump_postgresql(db: Database, backup_dir: Path, revision: str, *, pg_dump: str | None = None) -> Path | None:
    """A pg_dump of the server's database before it changes, into `backup_dir` like the SQLite copy.

    None, with the reason logged, when this computer has no pg_dump: the server's own backups apply
    then (a managed or NAS server has them; the app cannot copy a server it does not run). A pg_dump
    that fails stops the upgrade, as a failed SQLite copy would."""
    program = pg_dump or shutil.which("pg_dump")
    if program is None:
        log.warning("%s", t("db.server_backups_apply"))
        return None
    backup_dir.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    target = backup_dir / f"shiftcast-{stamp}-before-{revision}.pgdump"
    url = db.connect_url
    # The password alone, never on the command line (where other users could read it) and never the
    # rest of this process's environment, which may hold the URL with it and the other secrets.
    given = {} if url.password is None else {"PGPASSWORD": str(url.password)}
    env = child_environment(prefixes=[LIBPQ_PREFIX], given=given)
    command = [program, "--format=custom", "--no-owner", f"--file={target}",
               f"--host={url.host or 'localhost'}", f"--port={url.port or 5432}", f"--dbname={url.database}"]
    if url.username:
        command.append(f"--username={url.username}")
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=PG_DUMP_TIMEOUT_S,
                              check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        target.unlink(missing_ok=True)
        raise DatabaseError(t("db.dump_failed", detail=str(exc))) from exc
    if done.returncode != 0:
        target.unlink(missing_ok=True)
        detail = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise DatabaseError(t("db.dump_failed", detail=detail))
    log.info("database dumped to %s before migration", target)
    for old in sorted(backup_dir.glob("shiftcast-*-before-*.pgdump"))[:-KEEP_BACKUPS]:
        old.unlink(missing_ok=True)
    return target
