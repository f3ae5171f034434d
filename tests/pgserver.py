"""A throwaway PostgreSQL cluster for the tests: its own data directory and loopback port, removed at the end.

`PgServer.start()` runs `initdb` in a fresh temporary directory, starts the server with `pg_ctl -w`
(which returns once the server accepts connections, so nothing here sleeps), and `stop()` stops it
and deletes the directory. PostgreSQL refuses to run as root, so under root every server command runs
as the `postgres` system user (through runuser, or su) and the directory is handed to it.

Tests get databases from it:

- `create_database()` → the URL of a new, empty database;
- `create_database(template=PgServer.MIGRATED)` → a new database already at the schema's head, copied
  from a template migrated once per session (CREATE DATABASE … TEMPLATE is a file copy, far cheaper
  than running every migration per test);
- `drop_database(url)` drops one, closing whatever is still connected to it.

conftest.py turns it into the `pg_server` (session) and `pg_url` (per test) fixtures and the `backend`
parameter of the `db` fixture. Where PostgreSQL is missing, `available()` says why; under CI (CI=true)
a missing PostgreSQL is a failure rather than a skip.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SERVER_USER = "postgres"  # the system user the server runs as when the tests run as root
SUPERUSER = "shiftcast"  # the cluster's superuser; loopback connections are trusted, no password
_BINARIES = ("initdb", "pg_ctl")


def find_bindir() -> Path | None:
    """The folder with initdb and pg_ctl: PATH first, then pg_config, then Debian's versioned folders."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(os.path.realpath(on_path)).parent
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False).stdout.strip()
        if out and all((Path(out) / b).exists() for b in _BINARIES):
            return Path(out)
    # Debian's postgresql package keeps its server programs off PATH.
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version_key, reverse=True):
        if all((Path(candidate) / b).exists() for b in _BINARIES):
            return Path(candidate)
    return None


def _version_key(path: str) -> float:
    try:
        return float(Path(path).parent.name)
    except ValueError:
        return 0.0


def available() -> str | None:
    """None when a cluster can be started here, else the reason it cannot (for a skip or a CI failure)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[test]' installs the postgres extra)"
    if find_bindir() is None:
        return "PostgreSQL's initdb and pg_ctl were not found (install Debian's postgresql package)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SERVER_USER)
        except KeyError:
            return f"running as root and there is no '{SERVER_USER}' system user to run PostgreSQL as"
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """One cluster on 127.0.0.1:<port>, data in a temporary directory."""

    MIGRATED = "shiftcast_migrated"  # the template database at the schema's head

    def __init__(self) -> None:
        bindir = find_bindir()
        if bindir is None:
            raise RuntimeError(available() or "PostgreSQL not found")
        self.bindir = bindir
        self.port = free_port()
        self.host = "127.0.0.1"
        self.root = Path(tempfile.mkdtemp(prefix="shiftcast-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._names = itertools.count(1)
        self._as_user: list[str] = []
        self._started = False
        self._template_ready = False

    # --- the cluster ---------------------------------------------------------------------------------

    def start(self) -> PgServer:
        if os.geteuid() == 0:
            user = pwd.getpwnam(SERVER_USER)
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self._as_user = _run_as(SERVER_USER)
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync", "--no-instructions")
        # Loopback only, its own socket folder (never the system's), and no fsync: a test cluster needs
        # no durability, and fsync is most of the cost of CREATE DATABASE.
        options = (f"-p {self.port} -c listen_addresses={self.host} -k {self.root} -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start")
        self._started = True
        return self

    def stop(self) -> None:
        try:
            if self._started:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)
                self._started = False
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def pause(self) -> None:
        """Stop the server but keep its data, as a server that went down for a while (fast shutdown:
        every client's connection is cut)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        self._started = False

    def resume(self) -> None:
        """Start a paused server again on the same port with the same data."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", self._options(), "-w", "-t", "60", "start")
        self._started = True

    def _options(self) -> str:
        # Loopback only, its own socket folder (never the system's), and no fsync: a test cluster needs
        # no durability, and fsync is most of the cost of CREATE DATABASE.
        return (f"-p {self.port} -c listen_addresses={self.host} -k {self.root} -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300")

    def _run(self, program: str, *args: str, check: bool = True) -> None:
        command = [*self._as_user, str(self.bindir / program), *args]
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=self.root)
        if check and done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr.strip()}\n{log}")

    # --- databases -----------------------------------------------------------------------------------

    def url(self, database: str = "postgres") -> str:
        """A SQLAlchemy URL for `database` (psycopg 3 driver)."""
        return f"postgresql+psycopg://{SUPERUSER}@{self.host}:{self.port}/{database}"

    def dsn(self, database: str = "postgres") -> str:
        """A libpq connection string for `database`, for psycopg or the command-line tools."""
        return f"host={self.host} port={self.port} user={SUPERUSER} dbname={database}"

    def admin(self, sql: str) -> None:
        """Run one statement outside a transaction (CREATE/DROP DATABASE need that)."""
        import psycopg

        with psycopg.connect(self.dsn(), autocommit=True) as connection:
            connection.execute(sql)

    def create_database(self, *, template: str | None = None, name: str | None = None) -> str:
        """A new database's URL: empty, or a copy of `template` (PgServer.MIGRATED: at head)."""
        name = name or f"t{os.getpid()}_{next(self._names)}"
        if template == self.MIGRATED:
            self._ensure_template()
        suffix = f" TEMPLATE {template}" if template else " TEMPLATE template0"
        self.admin(f'CREATE DATABASE "{name}"{suffix}')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        from sqlalchemy.engine import make_url

        name = make_url(url).database
        self.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _ensure_template(self) -> None:
        if self._template_ready:
            return
        from core.store import migrate
        from core.store.db import Database

        self.admin(f'CREATE DATABASE "{self.MIGRATED}" TEMPLATE template0')
        db = Database(self.url(self.MIGRATED))
        try:
            migrate.upgrade(db)
        finally:
            db.dispose()
        # A template must have no connections while it is copied; marking it one also keeps it from
        # being dropped by accident.
        self.admin(f'ALTER DATABASE "{self.MIGRATED}" WITH IS_TEMPLATE true')
        self._template_ready = True


def _run_as(user: str) -> list[str]:
    runuser = shutil.which("runuser")
    if runuser:
        return [runuser, "-u", user, "--"]
    sudo = shutil.which("sudo")
    if sudo:
        return [sudo, "-u", user, "--"]
    raise RuntimeError(f"running as root and neither runuser nor sudo is there to run PostgreSQL as {user}")
