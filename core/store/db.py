"""Engine and sessions. All dialect-specific SQL of Shiftcast lives in this module.

SQLite is the default store. Every connection runs in WAL mode with foreign keys on, a busy timeout
and synchronous=FULL: a notification the manager saw as queued must survive a power cut. pysqlite's
own transaction handling is switched off so that SQLAlchemy emits BEGIN itself (the recipe from
SQLAlchemy's pysqlite notes): write transactions begin with BEGIN IMMEDIATE, which takes the write
lock up front, so two writers queue on the busy timeout instead of failing on commit with
"database is locked" after doing their work.

On macOS fsync() only hands the data to the drive, whose cache a power cut empties; SQLite asks for
F_FULLFSYNC there only when told to, so every connection on macOS sets fullfsync and
checkpoint_fullfsync as well.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from core.errors import DatabaseError
from core.store.events import Events
from core.texts import Text, t

_READ_OPTION = "shiftcast_read_only"
DEFAULT_BUSY_TIMEOUT_S = 30.0
SERVER_CONNECT_TIMEOUT_S = 5


class ServerUnreachable(DatabaseError):
    """The database server cannot be reached: whatever was being saved was refused, and nothing of it applied."""


def is_connection_error(exc: BaseException) -> bool:
    """Did `exc` come from a lost or refused connection to the server (rather than from the SQL)?

    SQLAlchemy marks an error that invalidated its connection; psycopg's own connection errors are
    OperationalErrors with SQLSTATE class 08 (connection exception) or 57P (the server shutting down),
    or none at all when the connection never opened."""
    current: BaseException | None = exc
    seen: set[int] = set()
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, ServerUnreachable):
            return True
        if isinstance(current, DBAPIError) and current.connection_invalidated:
            return True
        original = getattr(current, "orig", None) or current
        if type(original).__module__.startswith("psycopg") and type(original).__name__ in (
                "OperationalError", "InterfaceError"):
            sqlstate = getattr(original, "sqlstate", None)
            if sqlstate is None or sqlstate.startswith(("08", "57P")):
                return True
        current = current.__cause__ or current.__context__
    return False


def durability_pragmas(platform: str) -> tuple[str, ...]:
    """The pragmas, beyond synchronous=FULL, that make a commit reach the disk on `platform` (sys.platform)."""
    if platform == "darwin":
        return ("PRAGMA fullfsync = ON", "PRAGMA checkpoint_fullfsync = ON")
    return ()


def sqlite_supports_returning() -> bool:
    """UPDATE … RETURNING arrived in SQLite 3.35."""
    return sqlite3.sqlite_version_info >= (3, 35, 0)


class Database:
    """One database: an engine, write and read session scopes, and the events its commits announce."""

    def __init__(self, url: str, *, busy_timeout_s: float = DEFAULT_BUSY_TIMEOUT_S, platform: str = sys.platform,
                 password: str | None = None) -> None:
        """`password`: for a server URL that has none (the keyring's, chosen in Settings → Database)."""
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        connect_args: dict[str, Any] = {}
        if self.is_sqlite:
            connect_args = {"timeout": busy_timeout_s, "check_same_thread": False}
        else:
            # A server that went away must fail a click within seconds, not hang it for libpq's default.
            connect_args = {"connect_timeout": SERVER_CONNECT_TIMEOUT_S}
        self.connect_url = with_password_file(url)
        if password and self.connect_url.password is None:
            self.connect_url = self.connect_url.set(password=password)
        # pool_pre_ping: a pooled connection the server dropped (a restart, a network blip) is replaced
        # before use instead of failing the next click.
        self.engine: Engine = create_engine(self.connect_url, connect_args=connect_args, pool_pre_ping=not self.is_sqlite)
        if self.is_sqlite:
            _install_sqlite_hooks(self.engine, busy_timeout_ms=int(busy_timeout_s * 1000),
                                  extra_pragmas=durability_pragmas(platform))
        self._write_sessions = sessionmaker(bind=self.engine, expire_on_commit=False)
        self._read_sessions = sessionmaker(
            bind=self.engine.execution_options(**{_READ_OPTION: True}), expire_on_commit=False
        )
        # Owned here, not by the process: two databases open at once never hear each other's changes.
        self.events = Events()
        self.events.attach(self._write_sessions)
        self.events.attach(self._read_sessions)
        self._has_counters = False  # known once seen: until migrated to 0012 there are none to bump
        self.events.count_changes(self._bump_change)

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A write transaction (BEGIN IMMEDIATE on SQLite); commits on success, rolls back on error.

        On a server, a lost connection raises ServerUnreachable: the change was refused, not half made."""
        with self._server_reachable(), self._write_sessions() as session, session.begin():
            yield session

    def ping(self) -> bool:
        """A cheap round trip: can the database be reached now? (The banner's periodic check.)"""
        try:
            with self.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except Exception as exc:
            if is_connection_error(exc):
                return False
            raise
        return True

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A read scope (a deferred transaction on SQLite, so readers never take the write lock).

        Objects loaded here stay usable after the scope ends (expire_on_commit is off)."""
        with self._server_reachable(), self._read_sessions() as session, session.begin():
            yield session

    @contextmanager
    def _server_reachable(self) -> Iterator[None]:
        """A lost connection to a server becomes ServerUnreachable, in the manager's words."""
        try:
            yield
        except ServerUnreachable:
            raise
        except Exception as exc:
            if not self.is_sqlite and is_connection_error(exc):
                raise ServerUnreachable(t("db.unreachable")) from exc
            raise

    def _bump_change(self, session: Session, topic: str) -> int | None:
        if not self._has_counters:
            from sqlalchemy import inspect

            self._has_counters = bool(inspect(session.connection()).has_table("changes"))
            if not self._has_counters:
                return None
        return bump_change(session, topic)

    def dispose(self) -> None:
        self.engine.dispose()


DB_PASSWORD_FILE_ENV = "SHIFTCAST_DB_PASSWORD_FILE"
DB_PASSWORD_CREDENTIAL = "db-password"


def with_password_file(url: str) -> Any:
    """The URL to connect with: a server URL without a password takes it from SHIFTCAST_DB_PASSWORD_FILE
    (or systemd's credential db-password), so a service's password is kept in a file, never in its
    environment or command line. Returned as a URL object, whose text hides the password."""
    from sqlalchemy.engine import make_url

    from core.store.secrets import secret_file

    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" or parsed.password is not None:
        return parsed
    password = secret_file(DB_PASSWORD_FILE_ENV, DB_PASSWORD_CREDENTIAL)
    return parsed if password is None else parsed.set(password=password)


def _install_sqlite_hooks(engine: Engine, *, busy_timeout_ms: int, extra_pragmas: tuple[str, ...]) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = FULL")
            cursor.execute("PRAGMA foreign_keys = ON")
            for pragma in extra_pragmas:
                cursor.execute(pragma)
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        read_only = connection.get_execution_options().get(_READ_OPTION, False)
        connection.exec_driver_sql("BEGIN DEFERRED" if read_only else "BEGIN IMMEDIATE")


def sqlite_file_of(url: str) -> str | None:
    """The file path of a file-backed SQLite URL, or None (memory or another dialect)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database
    if not database or database == ":memory:" or database.startswith("file::memory:"):
        return None
    return database


def backup_sqlite(source: str, target: str) -> None:
    """A consistent copy through SQLite's online backup API (a plain file copy could miss the WAL)."""
    src = sqlite3.connect(source)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


def erase_deleted(path: str, *, busy_timeout_s: float = DEFAULT_BUSY_TIMEOUT_S) -> bool:
    """Rebuild the SQLite file (VACUUM) and fold its WAL into it (checkpoint, TRUNCATE), so rows deleted
    before leave no bytes behind: a DELETE only marks their space free, and the WAL keeps older copies
    of pages. False when another connection's read kept the checkpoint from finishing; SQLite's own
    checkpoints overwrite the rest later."""
    connection = sqlite3.connect(path, timeout=busy_timeout_s, isolation_level=None)
    try:
        connection.execute("VACUUM")
        busy, _, _ = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        connection.close()
    return not busy


def describe_error(exc: BaseException) -> str:
    """One line for the user: the driver's own message, without SQLAlchemy's background link."""
    original = getattr(exc, "orig", None) or exc
    return str(original).splitlines()[0] if str(original) else original.__class__.__name__


# SQLite's own words for storage the manager must fix, and the message for each in the catalog. A failure
# inside a savepoint is often reported as "no such savepoint" (SQLite rolled the whole transaction back on
# a full disk), so the whole chain of an error is searched, not just its last message.
_STORAGE_PROBLEMS = (
    ("readonly database", "storage.read_only"),
    ("database or disk is full", "storage.database_full"),
    ("unable to open database file", "storage.cannot_open"),
    ("disk i/o error", "storage.disk_error"),
)


_NEARLY_FULL_BYTES = 1024 * 1024  # less free space than this beside a database that failed to write: it is full


def _no_room_beside(database: str) -> bool:
    import shutil
    from pathlib import Path

    try:
        return shutil.disk_usage(Path(database).parent).free < _NEARLY_FULL_BYTES
    except OSError:
        return False


def storage_problem(exc: BaseException, *, database: str | None = None) -> Text | None:
    """The message for a database or file the disk refused (read-only, full, unwritable), else None.

    `database` is the file shown when SQLite's message names none."""
    import errno

    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        original = getattr(current, "orig", None)
        for candidate in (original, current):
            if isinstance(candidate, sqlite3.Error):
                message = str(candidate).lower()
                for needle, code in _STORAGE_PROBLEMS:
                    if needle in message:
                        if code == "storage.disk_error" and database and _no_room_beside(database):
                            code = "storage.database_full"  # SQLite says only "disk I/O error" when it runs out
                        return t(code, path=database or t("word.database_file"))
            elif isinstance(candidate, OSError) and candidate.errno in (errno.ENOSPC, errno.EROFS, errno.EACCES):
                where: str | Text = candidate.filename or database or t("word.data_folder")
                if candidate.errno == errno.ENOSPC:
                    return t("storage.disk_full", path=where)
                return t("storage.not_writable", path=where)
        current = current.__cause__ or current.__context__
    return None


def insert_unless_exists(session: Any, table: Any, values: dict[str, Any], *, unique: list[str]) -> int | None:
    """INSERT … ON CONFLICT DO NOTHING RETURNING id: the new row's id, or None if the key existed."""
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    elif dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert  # type: ignore[assignment]
    else:  # pragma: no cover - only SQLite and PostgreSQL are supported
        raise NotImplementedError(f"database dialect {dialect} is not supported")
    statement = insert(table).values(**values).on_conflict_do_nothing(index_elements=unique).returning(table.c.id)
    new_id: int | None = session.execute(statement).scalar_one_or_none()
    return new_id


def supports_update_returning(session: Any) -> bool:
    dialect = session.get_bind().dialect
    if dialect.name == "sqlite":
        return sqlite_supports_returning()
    return bool(dialect.update_returning)


OUTBOX_CHANNEL = "shiftcast_outbox"  # the NOTIFY channel an enqueue signals on PostgreSQL
CHANGES_CHANNEL = "shiftcast_changes"  # the NOTIFY channel a bumped change counter signals on PostgreSQL


def bump_change(session: Session, topic: str) -> int:
    """Count one more change of `topic` in the caller's transaction; the counter's new value.

    The UPDATE holds the row until commit, so two transactions bump one after the other and every
    value belongs to exactly one commit."""
    bumped = session.execute(text("UPDATE changes SET seq = seq + 1 WHERE topic = :topic"), {"topic": topic})
    if not bumped.rowcount:  # type: ignore[attr-defined]  # a topic newer than the migration that seeded them
        session.execute(text("INSERT INTO changes (topic, seq) VALUES (:topic, 0) ON CONFLICT (topic) DO NOTHING"),
                        {"topic": topic})
        session.execute(text("UPDATE changes SET seq = seq + 1 WHERE topic = :topic"), {"topic": topic})
    notify(session, CHANGES_CHANNEL)
    return int(session.execute(text("SELECT seq FROM changes WHERE topic = :topic"), {"topic": topic}).scalar_one())


COUNTERS = "SELECT topic, seq FROM changes"  # plain SQL: run on SQLAlchemy's connections and on a bare sqlite3 one


def change_counters(rows: Iterable[Any]) -> dict[str, int]:
    """Every topic's counter, from the rows of COUNTERS."""
    return {str(topic): int(seq) for topic, seq in rows}


def notify(session: Any, channel: str) -> None:
    """Signal `channel` when the caller's transaction commits (PostgreSQL's NOTIFY; nothing elsewhere).

    The server delivers it only on commit and folds repeats within one transaction into one, so a
    rolled-back enqueue wakes nobody and a thousand enqueues wake each listener once."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_notify(:channel, '')"), {"channel": channel})


class Listener:
    """A connection of its own that LISTENs on one channel (PostgreSQL only), for a thread to wait on.

    Kept apart from the engine's pool: a pooled connection is handed to other work between uses, and
    LISTEN belongs to one session for as long as it lives."""

    def __init__(self, url: Any, channel: str) -> None:
        import psycopg
        from sqlalchemy.engine import make_url

        conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self._connection = psycopg.connect(conninfo, autocommit=True, connect_timeout=10)
        self._connection.execute(sql_identifier_statement("LISTEN", channel))
        self.backend_pid = int(self._connection.info.backend_pid)

    def wait(self, timeout: float) -> int:
        """Wait up to `timeout` seconds; how many notifications came (0: none). Raises once the
        connection is lost, so the caller can listen again on a new one."""
        count = 0
        for _ in self._connection.notifies(timeout=timeout, stop_after=1):
            count += 1
        if count == 0 and self._connection.closed:
            raise ConnectionError("the listening connection was closed")
        return count

    def close(self) -> None:
        self._connection.close()


def sql_identifier_statement(verb: str, name: str) -> Any:
    """`verb "name"` with the name quoted as an identifier (LISTEN takes no bound parameter)."""
    from psycopg import sql

    return sql.SQL("{} {}").format(sql.SQL(verb), sql.Identifier(name))


def is_postgresql(url: str) -> bool:
    from sqlalchemy.engine import make_url

    return make_url(url).get_backend_name() == "postgresql"


def supports_skip_locked(session: Any) -> bool:
    """Row locks that a query can skip (SELECT … FOR UPDATE SKIP LOCKED): PostgreSQL, not SQLite."""
    return bool(session.get_bind().dialect.name == "postgresql")


# SQLSTATEs after which the whole transaction may simply run again: serialization_failure and
# deadlock_detected (the server rolled the transaction back; nothing of it was applied).
_RETRYABLE_SQLSTATES = frozenset({"40001", "40P01"})


def retryable(exc: BaseException) -> bool:
    """Did the database roll the transaction back only because of a concurrent one (run it again)?"""
    original = getattr(exc, "orig", None) or exc
    return getattr(original, "sqlstate", None) in _RETRYABLE_SQLSTATES


class BulkStatement:
    """A Core statement compiled once per dialect and run as one executemany straight through the driver.

    SQLAlchemy's own executemany builds and type-converts a parameter dict per row in Python, which
    cost the sender more than the rest of recording a result. Here a row becomes a tuple in the
    compiled order, and each distinct value of a typed parameter goes through the type's bind
    processor once per call (the rows of one call share the same few timestamps). Only plain
    equality and value binds are supported: no expanding IN lists.
    """

    def __init__(self, statement: Any) -> None:
        self.statement = statement
        self._compiled: dict[str, _CompiledBulk] = {}

    def execute(self, session: Session, rows: list[dict[str, Any]]) -> int:
        """Run for every row (a dict of bind name → value); returns the summed row count."""
        if not rows:
            return 0
        connection = session.connection()
        dialect = connection.dialect
        compiled = self._compiled.get(dialect.name)
        if compiled is None:
            compiled = self._compiled[dialect.name] = _CompiledBulk(self.statement, dialect)
        result = connection.exec_driver_sql(compiled.sql, compiled.parameters(rows))
        return int(result.rowcount)


class _CompiledBulk:
    def __init__(self, statement: Any, dialect: Any) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = compiled.string
        self.positional = bool(compiled.positional)
        names = list(compiled.positiontup) if self.positional else list(compiled.binds)
        self.names = names
        self.processors = []
        self.constants: dict[str, Any] = {}
        for name in names:
            bind = compiled.binds[name]
            if bind.expanding:
                raise ValueError(f"{name}: expanding parameters cannot run as executemany")
            self.processors.append(bind.type.dialect_impl(dialect).bind_processor(dialect))
            if not bind.required:
                self.constants[name] = bind.effective_value

    def parameters(self, rows: list[dict[str, Any]]) -> list[Any]:
        columns = []
        for name, process in zip(self.names, self.processors, strict=True):
            if name in self.constants:
                value = self.constants[name]
                column: list[Any] = [process(value) if process else value] * len(rows)
            elif process is None:
                column = [row[name] for row in rows]
            else:
                seen: dict[Any, Any] = {}
                column = []
                for row in rows:
                    value = row[name]
                    try:
                        converted = seen[value]
                    except KeyError:
                        converted = seen[value] = process(value)
                    except TypeError:  # unhashable: convert every time
                        converted = process(value)
                    column.append(converted)
            columns.append(column)
        if self.positional:
            return list(zip(*columns, strict=True))
        return [dict(zip(self.names, values, strict=True)) for values in zip(*columns, strict=True)]
