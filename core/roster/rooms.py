"""Where a classroom's month is posted on each channel: LINE's group (the classroom's `line_group_id`)
and, on any other channel, the room kept in `classroom_rooms` (a LINE WORKS channel).

Publishing (core/publication/publish.py) and the month owed to a classroom without a room yet
(core/planning/group_waiting.py) ask `rooms_of`; a channel's driver asks `room_of` for its own key
when it renders a month. Setting a room is checked loosely (the channel's server is the judge) and,
like choosing a LINE group, makes the planner look at once for a month owed to it.
"""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.errors import NotFoundError, ValidationError
from core.store import events
from core.store.models import Channel, Classroom, ClassroomRoom
from core.texts import t

# No channel's room ID has spaces or slashes (it goes into a request's path); the server checks the rest.
ROOM_ID = re.compile(r"[A-Za-z0-9._:@-]{1,200}")


def rooms_of(session: Session, classroom_id: int) -> dict[str, str]:
    """Channel key → the classroom's room on it, LINE's group first; channels without one are left out."""
    found: dict[str, str] = {}
    group = session.scalar(select(Classroom.line_group_id).where(Classroom.id == classroom_id))
    if group:
        found[Channel.LINE.value] = group
    found.update({channel: room for channel, room in session.execute(select(
        ClassroomRoom.channel, ClassroomRoom.room_id).where(ClassroomRoom.classroom_id == classroom_id)
        .order_by(ClassroomRoom.channel))})
    return found


def room_of(session: Session, classroom_id: int, channel: str) -> str | None:
    return rooms_of(session, classroom_id).get(channel)


def with_rooms(session: Session, channel: str) -> frozenset[int]:
    """The classrooms that have a room on `channel`."""
    if channel == Channel.LINE:
        return frozenset(session.scalars(select(Classroom.id).where(Classroom.line_group_id.is_not(None))))
    return frozenset(session.scalars(select(ClassroomRoom.classroom_id).where(ClassroomRoom.channel == channel)))


def with_any_room(session: Session) -> frozenset[int]:
    """The classrooms that have a room on some channel."""
    return with_rooms(session, Channel.LINE) | frozenset(session.scalars(select(ClassroomRoom.classroom_id)))


def check_room_id(value: str | None) -> str | None:
    """The room ID as stored, None for a blank; a ValidationError says what is wrong."""
    value = (value or "").strip()
    if not value:
        return None
    if not ROOM_ID.fullmatch(value):
        raise ValidationError(t("roster.bad_room_id", value=value))
    return value


def set_room(session: Session, classroom_id: int, channel: str, room_id: str | None) -> str | None:
    """Give the classroom its room on `channel` (not LINE: its group is a classroom setting); blank
    removes it. Returns the room as stored."""
    if channel == Channel.LINE:
        raise ValueError("LINE's group is the classroom's line_group_id")
    if session.get(Classroom, classroom_id) is None:
        raise NotFoundError(t("roster.no_classroom_id", id=classroom_id))
    checked = check_room_id(room_id)
    row = session.get(ClassroomRoom, (classroom_id, channel))
    if checked is None:
        if row is not None:
            session.delete(row)
        return None
    if row is not None and row.room_id == checked:
        return checked
    if row is None:
        session.add(ClassroomRoom(classroom_id=classroom_id, channel=channel, room_id=checked))
    else:
        row.room_id = checked
    session.flush()
    # A month published while the classroom had no room is owed to it now: plan at once.
    events.emit(session, events.ShiftsChanged(frozenset(), frozenset(), frozenset({classroom_id})))
    return checked
