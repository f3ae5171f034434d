"""What Settings → Database asks of a database server: the URL it builds, and one blocking check.

The check answers in plain words what the owner needs before switching: can the server be reached,
does it take the user and password, and is its schema this app's (ready), older (upgraded at the
next start) or newer (refused: a newer Shiftcast made it, and this one would misread it). It runs
on a background thread of the screen and never changes the server.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from sqlalchemy import inspect, text
from sqlalchemy.engine import URL

from core.store.db import Database, describe_error, is_connection_error
from core.store.migrate import HEAD_REVISION, VERSION_TABLE
from core.texts import Text, t

DEFAULT_PORT = 5432
DRIVER = "postgresql+psycopg"


@dataclass(frozen=True)
class ServerAddress:
    """Where the server is and who connects; the password is apart (it goes to the keyring)."""

    host: str
    port: int
    database: str
    user: str

    def url(self) -> str:
        """The URL kept in database.json: never with a password."""
        return URL.create(DRIVER, username=self.user or None, host=self.host, port=self.port,
                          database=self.database).render_as_string(hide_password=False)

    @staticmethod
    def from_url(url: str) -> ServerAddress | None:
        """The address of a saved server URL, None for anything that is not PostgreSQL."""
        from sqlalchemy.engine import make_url

        parsed = make_url(url)
        if parsed.get_backend_name() != "postgresql":
            return None
        return ServerAddress(parsed.host or "", parsed.port or DEFAULT_PORT, parsed.database or "",
                             parsed.username or "")


class SchemaState(enum.Enum):
    UNREACHABLE = "unreachable"
    AUTH_REFUSED = "auth_refused"
    NO_DATABASE = "no_database"
    EMPTY = "empty"  # no schema yet: set up at the next start
    CURRENT = "current"
    OLDER = "older"  # upgraded at the next start (after a pg_dump where one is available)
    NEWER = "newer"  # refused: this app must be updated first


@dataclass(frozen=True)
class ServerCheck:
    state: SchemaState
    message: Text
    revision: str | None = None

    @property
    def reachable(self) -> bool:
        return self.state not in (SchemaState.UNREACHABLE, SchemaState.AUTH_REFUSED, SchemaState.NO_DATABASE)

    @property
    def usable(self) -> bool:
        """Can the app switch to this server (now, or after the upgrade the next start does)?"""
        return self.state in (SchemaState.EMPTY, SchemaState.CURRENT, SchemaState.OLDER)


def revision_number(revision: str) -> int | None:
    """The order of a revision: this project names them 0001_…, 0002_…; None for a name it did not make."""
    head = revision.split("_", 1)[0]
    return int(head) if head.isdigit() else None


def compare_schema(revision: str | None, *, head: str = HEAD_REVISION) -> SchemaState:
    """Pure: how a database stamped `revision` stands against this app's `head`."""
    if revision is None:
        return SchemaState.EMPTY
    if revision == head:
        return SchemaState.CURRENT
    theirs, ours = revision_number(revision), revision_number(head)
    if theirs is None or ours is None or theirs > ours:
        return SchemaState.NEWER  # a revision this app does not know is one it must not touch
    return SchemaState.OLDER


# SQLSTATEs of a refused login: invalid_authorization_specification, invalid_password.
_AUTH_SQLSTATES = ("28000", "28P01")
_AUTH_WORDS = ("password authentication failed", "authentication failed", "no password supplied",
               "role \"", "pg_hba.conf")


def check_server(address: ServerAddress, password: str | None, *, head: str = HEAD_REVISION) -> ServerCheck:
    """Connect once and read the schema version. Blocking (seconds at most); changes nothing."""
    db = Database(address.url(), password=password or None)
    try:
        with db.engine.connect() as connection:
            if not inspect(connection).has_table(VERSION_TABLE):
                if inspect(connection).get_table_names():
                    return ServerCheck(SchemaState.NEWER, t("dbcheck.newer", revision="?"))
                return ServerCheck(SchemaState.EMPTY, t("dbcheck.empty"))
            revisions = list(connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars())
    except Exception as exc:  # noqa: BLE001 - every failure is said in words; the caller shows them
        return _failure(exc)
    finally:
        db.dispose()
    revision = revisions[0] if len(revisions) == 1 else None
    state = compare_schema(revision, head=head) if revisions else SchemaState.EMPTY
    if len(revisions) > 1:
        state = SchemaState.NEWER  # branched history: never made by this app
    message = {
        SchemaState.EMPTY: t("dbcheck.empty"),
        SchemaState.CURRENT: t("dbcheck.current"),
        SchemaState.OLDER: t("dbcheck.older", revision=revision or ""),
        SchemaState.NEWER: t("dbcheck.newer", revision=", ".join(revisions)),
    }[state]
    return ServerCheck(state, message, revision)


def _failure(exc: BaseException) -> ServerCheck:
    detail = describe_error(exc)
    original = getattr(exc, "orig", None) or exc
    sqlstate = getattr(original, "sqlstate", None)
    lowered = str(original).lower()
    if sqlstate in _AUTH_SQLSTATES or any(word in lowered for word in _AUTH_WORDS):
        return ServerCheck(SchemaState.AUTH_REFUSED, t("dbcheck.auth", detail=detail))
    if sqlstate == "3D000" or ("database \"" in lowered and "does not exist" in lowered):
        return ServerCheck(SchemaState.NO_DATABASE, t("dbcheck.no_database", detail=detail))
    if is_connection_error(exc):
        return ServerCheck(SchemaState.UNREACHABLE, t("dbcheck.unreachable", detail=detail))
    raise exc
