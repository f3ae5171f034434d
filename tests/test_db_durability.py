"""A commit must reach the disk itself: on macOS that takes F_FULLFSYNC, which SQLite uses only when asked."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from core.store.db import Database, durability_pragmas


@pytest.mark.parametrize("platform", ["darwin"])
def test_macos_asks_for_full_fsync(platform: str) -> None:
    assert set(durability_pragmas(platform)) == {"PRAGMA fullfsync = ON", "PRAGMA checkpoint_fullfsync = ON"}


@pytest.mark.parametrize("platform", ["linux", "win32", "freebsd14"])
def test_other_platforms_need_nothing_more_than_synchronous_full(platform: str) -> None:
    assert durability_pragmas(platform) == ()


def _pragmas(db: Database) -> tuple[int, int]:
    with db.read() as session:
        return (session.execute(text("PRAGMA fullfsync")).scalar_one(),
                session.execute(text("PRAGMA checkpoint_fullfsync")).scalar_one())


def test_every_connection_on_macos_sets_both_pragmas(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'mac.db'}", platform="darwin")
    try:
        assert _pragmas(db) == (1, 1)
        db.engine.dispose()  # a new connection runs the hook again
        assert _pragmas(db) == (1, 1)
    finally:
        db.dispose()


def test_elsewhere_the_pragmas_stay_at_sqlites_default(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'linux.db'}", platform="linux")
    try:
        assert _pragmas(db) == (0, 0)
    finally:
        db.dispose()
