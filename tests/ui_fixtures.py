"""Fixtures for widget tests: an AppContext over a real database in the test's data folder."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from core.store.db import Database
from core.store.paths import DataPaths
from ui.services.bridge import CoreBridge
from ui.services.context import AppContext
from ui.services.tasks import Tasks


@pytest.fixture
def ctx(qapp, paths: DataPaths, db: Database) -> Iterator[AppContext]:
    context = AppContext(paths=paths, db=db, tasks=Tasks(), bridge=CoreBridge(db.events))
    yield context
    if context.engine is not None:  # a test that started sending: its threads end with it
        context.engine.stop()
    context.tasks.wait()
    context.tasks.shutdown()
    context.bridge.detach()


def settle(qtbot, ctx: AppContext, timeout: int = 5000) -> None:
    """Wait until every background task has finished and its result reached the UI thread."""
    qtbot.waitUntil(lambda: ctx.tasks.pending == 0, timeout=timeout)


def running_app() -> QApplication:
    """The QApplication pytest-qt made (`qapp`); Qt types instance() as any core application or None."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    return app


@pytest.fixture
def computer_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Sets this process's time zone, as the PC's own; the original is back afterwards."""
    def use(name: str) -> None:
        monkeypatch.setenv("TZ", name)
        time.tzset()

    yield use
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user's home with a Documents folder, where the platform says documents go."""
    home = tmp_path / "user"
    (home / "Documents").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))  # no user-dirs.dirs: the usual ~/Documents
    return home / "Documents"
