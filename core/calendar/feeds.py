"""A teacher's private calendar address: `<relay>/ics/<token>.ics`, the token a secret of 32 random bytes.

The relay keeps the calendar under the token's SHA-256 only, so its database alone cannot give the
address away. Revoking makes a new token: the next sync hands the calendar over under the new one and
the relay's copy under the old one is deleted, so the old address answers 404 from then on.
"""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.roster import rules
from core.store.models import CalendarFeed, utcnow


def token_key(token: str) -> str:
    """What the relay knows the calendar by: the hex SHA-256 of the token."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def address(relay_url: str, token: str) -> str:
    return f"{relay_url.rstrip('/')}/ics/{token}.ics"


def feed_of(session: Session, teacher_id: int) -> CalendarFeed | None:
    return session.scalar(select(CalendarFeed).where(CalendarFeed.teacher_id == teacher_id))


def feed_url(session: Session, teacher_id: int, relay_url: str) -> str:
    """The teacher's calendar address, made the first time it is asked for."""
    feed = feed_of(session, teacher_id)
    if feed is None:
        rules.get_teacher(session, teacher_id)
        feed = CalendarFeed(teacher_id=teacher_id, token=secrets.token_urlsafe(32), created_at=utcnow())
        session.add(feed)
        session.flush()
    return address(relay_url, feed.token)


def revoke(session: Session, teacher_id: int) -> None:
    """A new address for the teacher's calendar; the old one stops working at the next sync."""
    feed = feed_of(session, teacher_id)
    if feed is None:
        rules.get_teacher(session, teacher_id)
        session.add(CalendarFeed(teacher_id=teacher_id, token=secrets.token_urlsafe(32), created_at=utcnow()))
    else:
        feed.token = secrets.token_urlsafe(32)
        feed.created_at = utcnow()
    session.flush()
