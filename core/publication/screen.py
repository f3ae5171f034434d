"""What the Publish area reads, each in a transaction of its own: a month's state (what publishing would
do, the cells changed since the last revision, every revision), the month as publishing now would draw
it, and what the group would receive — or, for a classroom whose month goes only to rooms on other
channels (LINE WORKS), the one picture those rooms receive."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from core.publication import group_preview, month_image
from core.publication import history as publication_history
from core.publication import publish as publication
from core.publication.group_preview import Preview
from core.publication.history import CellChange, Revision
from core.publication.publish import PublishPlan
from core.roster import month as month_roster
from core.roster import queries
from core.roster import rooms as classroom_rooms
from core.roster.queries import ClassroomSettings
from core.store.db import Database
from core.store.kinds import Channel


@dataclass(frozen=True)
class MonthState:
    room: ClassroomSettings
    plan: PublishPlan
    changes: tuple[CellChange, ...]  # since the last revision; none before the first
    revisions: tuple[Revision, ...]  # newest first


def month_state(db: Database, classroom_id: int, year: int, month: int, *, now: dt.datetime,
                members: int | None = None, each_teacher: bool = False) -> MonthState:
    """`members`, `each_teacher`: as publish.plan_publish takes them. NotFoundError if the classroom is gone."""
    with db.read() as session:
        room = queries.classroom(session, classroom_id)
        plan = publication.plan_publish(session, room.id, year, month, now=now, members=members,
                                        each_teacher=each_teacher)
        _view, changes = publication_history.pending_changes(session, room.id, year, month, now=now)
        revisions = publication_history.revisions(session, room.id, year, month)
    return MonthState(room, plan, tuple(changes), tuple(revisions))


def month_view(db: Database, classroom_id: int, year: int, month: int, *, now: dt.datetime) -> month_roster.MonthRoster:
    """The month as publishing it now would show it, drafts included."""
    with db.read() as session:
        return publication.preview_month(session, classroom_id, year, month, now=now)


def group_view(db: Database, classroom_id: int, year: int, month: int, *, now: dt.datetime) -> Preview:
    """What publishing would send the group (core/publication/group_preview.py)."""
    with db.read() as session:
        return group_preview.preview(session, classroom_id, year, month, now=now)


@dataclass(frozen=True)
class RoomsPreview:
    png: bytes  # the month's wide grid, as publishing now would store it
    channels: tuple[str, ...]  # the channels whose rooms get it (LINE WORKS)


def rooms_view(db: Database, classroom_id: int, year: int, month: int, *, now: dt.datetime) -> RoomsPreview | None:
    """The month's wide grid when the classroom has no LINE group but a room on another channel: that
    room receives it as one picture (core/sending/kinds/shift_publication.py); None: a LINE group gets
    the month, or will once it is chosen (`group_view` says how)."""
    with db.read() as session:
        rooms = classroom_rooms.rooms_of(session, classroom_id)
        if not rooms or Channel.LINE.value in rooms:
            return None
        view = publication.preview_month(session, classroom_id, year, month, now=now)
    return RoomsPreview(month_image.render_png(view), tuple(rooms))  # the slow part, with the database let go
