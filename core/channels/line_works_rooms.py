"""Each classroom's LINE WORKS message room: the channel ID its group messages go to, kept as the
setting "line_works.room.<classroom id>" (core/store/setting_keys.py LINE_WORKS_ROOM)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from core.channels.line_works_ids import check_room_id
from core.store import setting_keys as keys


def room_of(session: Session, classroom_id: int) -> str | None:
    """The classroom's message room, or None while it has none."""
    return keys.LINE_WORKS_ROOM.of(classroom_id).read(session)


def set_room(session: Session, classroom_id: int, room_id: str | None) -> None:
    keys.LINE_WORKS_ROOM.of(classroom_id).write(session, check_room_id(room_id))
