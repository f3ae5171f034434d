from __future__ import annotations

import datetime as dt
import gc
import itertools
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

# Before anything imports Qt: widget tests run offscreen, on CI too.
os.environ["QT_QPA_PLATFORM"] = "offscreen"

import pytest

import core.relay.images  # registers the relay as an image host, as the front ends do
import core.sending.kinds  # noqa: F401 - registers the built-in message kinds, as the front ends do
from core.store.bootstrap import open_database
from core.store.db import Database
from core.store.paths import DataPaths, data_paths
from tests import pgserver
from tests.pgserver import PgServer

# Tests speak English whatever the machine's locale (core/texts/language.py reads these); a test that
# wants Japanese asks for it (tests/test_cli_language.py, the `japanese` fixture of tests/test_i18n.py).
for _name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

NOW = dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC)

FULL_COLLECTION_EVERY = 25  # tests
_tests_done = itertools.count(1)


def pytest_configure(config: pytest.Config) -> None:
    # As in the window's process (ui/shell/gc_tuning.py): cycles are collected on the main thread
    # only, between tests, never by a pool or sender thread that happens to allocate. A Qt object
    # in a cycle freed on such a thread is destroyed on the wrong one.
    gc.disable()


@pytest.fixture(autouse=True)
def _event_loops_still_run() -> Iterator[None]:
    """QCoreApplication.exit() (a quit, a smoke check's end) called while the application's own exec()
    is not running makes every later event loop return at once: every later widget test would wait
    for ever on events that never come. Such a test fails here, and the flag is cleared for the rest."""
    yield
    if "PySide6.QtCore" not in sys.modules:
        return
    from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer

    app = QCoreApplication.instance()
    if app is None:
        return
    probe = QEventLoop()
    QTimer.singleShot(0, probe.quit)
    if probe.exec() != -1:
        return
    QTimer.singleShot(0, lambda: app.exit(0))  # not quit(): a window left open could refuse to close
    app.exec()  # returning, it clears the flag
    pytest.fail("the test asked the application to quit outside its exec(): later event loops would not run")


@pytest.fixture(autouse=True)
def _collect_on_the_main_thread() -> Iterator[None]:
    yield
    gc.disable()  # a test of start-up may have turned it back on
    if next(_tests_done) % FULL_COLLECTION_EVERY == 0:
        gc.collect()
    else:
        gc.collect(1)


@pytest.fixture(autouse=True)
def memory_keyring(monkeypatch: pytest.MonkeyPatch):
    """Secrets go to an in-memory keyring in every test."""
    import keyring

    from tests.memory_keyring import MemoryKeyring

    backend = MemoryKeyring()
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    monkeypatch.delenv("SHIFTCAST_LINE_TOKEN", raising=False)
    monkeypatch.delenv("SHIFTCAST_LINE_API_BASE", raising=False)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data folder; nothing touches the real user data dir."""
    home = tmp_path / "home"
    monkeypatch.setenv("SHIFTCAST_HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))  # start-at-login entries
    monkeypatch.delenv("SHIFTCAST_DB_URL", raising=False)
    return home


@pytest.fixture
def paths(_isolated_home: Path) -> DataPaths:
    return data_paths(_isolated_home)


BACKENDS = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`@pytest.mark.backends("sqlite", "postgresql")` (on a test or a module) runs each test using
    `db` (or `backend`) once per backend: one contract suite, two databases. The PostgreSQL runs are
    slow: part of `make test`, not of `make check`."""
    marker = metafunc.definition.get_closest_marker("backends")
    if marker is None or "backend" not in metafunc.fixturenames:
        return
    chosen = marker.args or BACKENDS
    unknown = set(chosen) - set(BACKENDS)
    if unknown:
        raise pytest.UsageError(f"unknown backends {sorted(unknown)}; known: {BACKENDS}")
    # The PostgreSQL half runs against a server process, a fresh database per test: a third of the
    # fast tier's time. `make check` runs the contract on SQLite; `make test` runs both halves.
    params = [pytest.param(name, marks=pytest.mark.slow) if name == "postgresql" else name for name in chosen]
    metafunc.parametrize("backend", params, indirect=True)


@pytest.hookimpl(tryfirst=True)  # before `-m "not slow"` deselects by the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that needs the PostgreSQL server is slow too: the server is a process of its own,
    and a fast tier without it does not start one at all."""
    for item in items:
        if "pg_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One throwaway PostgreSQL cluster for the session, started on first use (tests/pgserver.py).

    Skips where PostgreSQL or psycopg is missing, with the reason; under CI (CI=true) that fails."""
    reason = pgserver.available()
    if reason is not None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"PostgreSQL is required under CI: {reason}")
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    server = PgServer()
    try:
        server.start()
    except BaseException:
        server.stop()
        raise
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """The URL of a fresh PostgreSQL database at the schema's head, dropped after the test."""
    url = pg_server.create_database(template=PgServer.MIGRATED)
    yield url
    pg_server.drop_database(url)


@pytest.fixture
def pg_empty_url(pg_server: PgServer) -> Iterator[str]:
    """The URL of a fresh, empty PostgreSQL database (no schema), dropped after the test."""
    url = pg_server.create_database()
    yield url
    pg_server.drop_database(url)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """Which database `db` is: "sqlite" unless the test is marked `backends(...)`."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def db_url(backend: str, paths: DataPaths, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The test's database URL. On PostgreSQL it is also SHIFTCAST_DB_URL, so every part of the app the
    test starts (a CLI verb, a `main.py` process) opens the same database."""
    if backend == "sqlite":
        return paths.database_url()
    url = str(request.getfixturevalue("pg_url"))
    monkeypatch.setenv("SHIFTCAST_DB_URL", url)
    return url


@pytest.fixture(scope="session")
def sqlite_at_head(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated to the schema's head once per session, closed (its WAL folded in).

    `db` starts each SQLite test from a copy, as the PostgreSQL tests start from PgServer.MIGRATED:
    migrating a new file takes 0.1-0.2 s and a copy a millisecond, in a suite where most tests open a
    database. Opening the copy still goes through open_database, which finds it at head."""
    at_head = data_paths(tmp_path_factory.mktemp("sqlite-at-head") / "home")
    # The file's own URL: a PostgreSQL test that asks first has SHIFTCAST_DB_URL set to its server.
    open_database(at_head, url=at_head.local_database_url()).dispose()
    return at_head.database


@pytest.fixture
def db(paths: DataPaths, db_url: str, request: pytest.FixtureRequest) -> Iterator[Database]:
    if db_url == paths.local_database_url() and not paths.database.exists():
        paths.home.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(request.getfixturevalue("sqlite_at_head"), paths.database)
    database = open_database(paths, url=db_url)
    yield database
    database.dispose()


@pytest.fixture
def now() -> dt.datetime:
    return NOW


@pytest.fixture(autouse=True)
def _no_unexpected_message_box(monkeypatch: pytest.MonkeyPatch) -> None:
    """A modal message box nobody expected fails the test with its text, instead of waiting forever.

    Tests that expect a dialog replace the method themselves (their monkeypatch comes later and wins).
    """
    from PySide6.QtWidgets import QMessageBox

    def unexpected(kind: str):
        def show(parent, title, text, *args, **kwargs):
            raise AssertionError(f"unexpected {kind} message box: {title}: {text}")

        return staticmethod(show)

    for kind in ("warning", "critical", "information", "question"):
        monkeypatch.setattr(QMessageBox, kind, unexpected(kind))


@pytest.fixture
def qtbot(qapp, request: pytest.FixtureRequest):
    """pytest-qt's `qtbot`, patient on a busy machine: see tests/waiting.py."""
    from tests.waiting import PatientQtBot

    return PatientQtBot(request)
