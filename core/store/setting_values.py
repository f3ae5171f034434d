"""One setting read or written in its own transaction: for a front end that keeps a single value (the
folder a file dialog opens at) and holds no session of its own. The rule is the declaration's
(core/store/settings.py), so a bad value is refused in words and nothing is written."""

from __future__ import annotations

from typing import TypeVar

from core.store.db import Database
from core.store.settings import Declared

T = TypeVar("T")


def read(db: Database, setting: Declared[T]) -> T:
    """The setting's value, or its default while unset."""
    with db.read() as session:
        return setting.read(session)


def write(db: Database, setting: Declared[T], value: T | None) -> None:
    """Save `value` (None: unset)."""
    with db.write() as session:
        setting.write(session, value)
