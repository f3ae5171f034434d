"""A teacher's calendar address as the teacher dialog shows it: offered while the teachers' page is on and
a relay is attached (the relay serves the address), copied as it is, renewed when the manager asks."""

from __future__ import annotations

from sqlalchemy.orm import Session

from core.calendar import feeds
from core.errors import ValidationError
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import t


def offered(db: Database) -> bool:
    """Whether a teacher has a calendar address to give out: the page on, and a relay to serve it."""
    with db.read() as session:
        return keys.PAGES_ENABLED.read(session) and keys.RELAY_URL.read(session) is not None


def _relay(session: Session) -> str:
    url = keys.RELAY_URL.read(session)
    if url is None:
        raise ValidationError(t("calendar.no_relay"))
    return url


def address(db: Database, teacher_id: int) -> str:
    """The teacher's calendar address, made now if they had none."""
    with db.write() as session:
        return feeds.feed_url(session, teacher_id, _relay(session))


def new_address(db: Database, teacher_id: int) -> str:
    """A new address for the teacher's calendar; the old one stops working at the next sync."""
    with db.write() as session:
        relay = _relay(session)
        feeds.revoke(session, teacher_id)
        return feeds.feed_url(session, teacher_id, relay)
