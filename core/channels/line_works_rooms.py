"""A classroom's LINE WORKS channel (talk room), where its month is posted on LINE WORKS: the room
the driver renders a group delivery to, kept with the classroom's rooms (core/roster/rooms.py)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from core.roster import rooms

KEY = "line_works"  # the channel's key (core/channels/line_works.py)


def room_of(session: Session, classroom_id: int) -> str | None:
    """The classroom's LINE WORKS channel ID; None while it has none."""
    return rooms.room_of(session, classroom_id, KEY)


def set_room(session: Session, classroom_id: int, room_id: str | None) -> str | None:
    """Give the classroom its LINE WORKS channel; blank removes it. Returns it as stored."""
    return rooms.set_room(session, classroom_id, KEY, room_id)
