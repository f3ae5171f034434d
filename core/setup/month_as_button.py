"""The manager's choice of how the month goes to LINE groups while the teachers' page is ready: as a
button to the page instead of pictures (core/pages/month_message.py), as the window reads and saves it."""

from __future__ import annotations

from core.store import setting_keys as keys
from core.store.db import Database


def read(db: Database) -> bool:
    with db.read() as session:
        return keys.PAGES_MONTH_AS_BUTTON.read(session)


def save(db: Database, on: bool) -> bool:
    """Kept whether or not the page is on: it takes effect while the page is ready."""
    with db.write() as session:
        keys.PAGES_MONTH_AS_BUTTON.write(session, on)
    return on
