"""Each classroom's LINE WORKS message room: the channel ID its group messages go to, kept as the
setting "line_works.room.<classroom id>" (core/store/setting_keys.py LINE_WORKS_ROOM)."""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.store import setting_keys as keys
from core.texts import t

# LINE WORKS' message room IDs are letters, digits and dashes ("12345", or a UUID-like text).
_ROOM_ID = re.compile(r"[A-Za-z0-9-]{1,64}")


def check_room_id(value: str | None) -> str | None:
    text = (value or "").strip()
    if not text:
        return None
    if not _ROOM_ID.fullmatch(text):
        raise ValidationError(t("line_works.bad_room_id", value=text))
    return text


def room_of(session: Session, classroom_id: int) -> str | None:
    """The classroom's message room, or None while it has none."""
    return keys.LINE_WORKS_ROOM.of(classroom_id).read(session)


def set_room(session: Session, classroom_id: int, room_id: str | None) -> None:
    keys.LINE_WORKS_ROOM.of(classroom_id).write(session, check_room_id(room_id))
