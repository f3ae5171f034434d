"""What one operation changed: the answer a screen shows and the events its transaction committed.

A screen runs an operation on a pool thread and shows the outcome on its own; it never holds the
transaction. So an operation that writes opens its own, commits it, and hands back `ChangesMade`: the
value it answers with (ids, counts, frozen values, never ORM rows) and what it changed, as the same
merged events every listener heard (core/store/events.py), so a screen can tell what to show again
without reading the database to find out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy.orm import Session

from core.store import events
from core.store.db import Database

T = TypeVar("T")
E = TypeVar("E")


@dataclass(frozen=True)
class ChangesMade(Generic[T]):
    """A committed operation's answer and the events it emitted (one per kind, merged)."""

    value: T
    events: tuple[Any, ...] = ()

    def of(self, kind: type[E]) -> E | None:
        """The operation's event of `kind`, if it emitted one."""
        return next((item for item in self.events if isinstance(item, kind)), None)


def committed(db: Database, work: Callable[[Session], T]) -> ChangesMade[T]:
    """Run `work` in one write transaction of `db`; what it answered and emitted once it committed.
    Nothing is kept if it raises."""
    with db.write() as session:
        value = work(session)
        session.flush()
        made = events.pending(session)
    return ChangesMade(value, made)
