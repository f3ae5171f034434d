"""Cover requests as the manager's window shows them, with who could take each shift, read together;
and the manager giving a shift to a teacher, in its own transaction."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy.orm import Session

from core.roster import cover
from core.roster.cover import CoverRequestView
from core.store.changes_made import ChangesMade, committed
from core.store.db import Database


@dataclass(frozen=True, slots=True)
class Shown:
    """A request and the teachers who could take its shift (id, name), in the roster's order."""

    request: CoverRequestView
    free: tuple[tuple[int, str], ...]


def read(db: Database) -> list[Shown]:
    """The requests still waiting for the manager, oldest first."""
    with db.read() as session:
        return [Shown(view, tuple((teacher.id, teacher.display_name)
                                  for teacher in cover.free_teachers(session, view.shift_id)))
                for view in cover.requests(session)]


def assign(db: Database, request_id: int, teacher_id: int, *, now: dt.datetime) -> ChangesMade[None]:
    """Give the request's shift to `teacher_id` through the normal shift edit (cover.assign)."""

    def work(session: Session) -> None:
        cover.assign(session, request_id, teacher_id, now=now)

    return committed(db, work)
