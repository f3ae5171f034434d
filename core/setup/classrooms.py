"""The classrooms as the screens list them, and Settings → Classrooms: each classroom's settings with
whether the manager is told of a reminder not acknowledged, read together and saved in one transaction,
so a bad value changes nothing. Each function opens and ends its own transaction."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from core.planning import unacknowledged
from core.planning.unacknowledged import NudgeSettings
from core.roster import queries
from core.roster.queries import ClassroomSettings
from core.store.db import Database


@dataclass(frozen=True)
class ClassroomChange:
    """What the Classrooms section saves for one classroom: every field it edits."""

    line_group_id: str  # empty: no LINE group
    reminder_lead_minutes: int
    quiet_hours: tuple[dt.time, dt.time] | None  # None: no quiet hours
    language: str
    liff_id: str  # empty: none
    # Channel → the classroom's room there besides its LINE group (LINE WORKS); blank: none. A channel
    # not named keeps its room.
    rooms: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Classrooms:
    rooms: tuple[ClassroomSettings, ...]  # by name
    nudges: Mapping[int, NudgeSettings]  # by classroom id


def listing(db: Database) -> tuple[ClassroomSettings, ...]:
    """Every classroom, by name."""
    with db.read() as session:
        return tuple(queries.classrooms(session))


def one(db: Database, classroom_id: int) -> ClassroomSettings:
    """One classroom; NotFoundError if it is gone."""
    with db.read() as session:
        return queries.classroom(session, classroom_id)


def with_nudges(db: Database) -> Classrooms:
    """Every classroom with its say on unacknowledged reminders, read together."""
    with db.read() as session:
        rooms = tuple(queries.classrooms(session))
        return Classrooms(rooms, MappingProxyType({r.id: unacknowledged.settings_of(session, r.id) for r in rooms}))


def save(db: Database, classroom_id: int, change: ClassroomChange, nudge: NudgeSettings | None = None
         ) -> ClassroomSettings:
    """Both or nothing: a refused value (ValidationError) leaves the classroom and its nudge as they were.
    Answers the classroom as saved."""
    with db.write() as session:
        if nudge is not None:
            unacknowledged.save_settings(session, classroom_id, nudge)
        return queries.update_classroom(
            session, classroom_id, line_group_id=change.line_group_id,
            reminder_lead_minutes=change.reminder_lead_minutes, quiet_hours=change.quiet_hours,
            language=change.language, liff_id=change.liff_id, rooms=dict(change.rooms))
