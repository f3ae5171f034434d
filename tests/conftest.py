from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from pathlib import Path

# Before anything imports Qt: widget tests run offscreen, on CI too.
os.environ["QT_QPA_PLATFORM"] = "offscreen"

import pytest

from core.store.bootstrap import open_database
from core.store.db import Database
from core.store.paths import DataPaths, data_paths

# Tests speak English whatever the machine's locale (core/texts/language.py reads these); a test that
# wants Japanese asks for it (tests/test_cli_language.py, the `japanese` fixture of tests/test_i18n.py).
for _name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

NOW = dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def memory_keyring(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
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


@pytest.fixture
def db(paths: DataPaths) -> Iterator[Database]:
    database = open_database(paths)
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

    def unexpected(kind: str):  # type: ignore[no-untyped-def]
        def show(parent, title, text, *args, **kwargs):  # type: ignore[no-untyped-def]
            raise AssertionError(f"unexpected {kind} message box: {title}: {text}")

        return staticmethod(show)

    for kind in ("warning", "critical", "information", "question"):
        monkeypatch.setattr(QMessageBox, kind, unexpected(kind))
