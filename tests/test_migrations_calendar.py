"""Migration 0029: teachers get their calendar addresses (calendar_feeds), and nothing else changes."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from core.store import migrate
from core.store.db import Database
from tests.test_migrations import _downgrade, _table_rows

RELAY = "https://relay.example.workers.dev"


@pytest.mark.backends("sqlite", "postgresql")
def test_0029_gives_teachers_calendar_addresses_and_keeps_every_row(db: Database) -> None:
    """A database at 0028 with a classroom, teachers and shifts: every row stays as it was and no teacher
    has an address until asked; one address per teacher; going back drops only the table."""
    from core.calendar import feeds
    from tests import factories as f

    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    with db.write() as s:  # made with today's models, then taken down to 0028 with its rows
        room = f.classroom(s)
        sato = f.teacher(s, "佐藤", 1)
        f.shift(s, room, sato, dt.date(2026, 12, 3), now=now)
        sato_id = sato.id
    _downgrade(db, "0028_classroom_rooms")
    kept = ("classrooms", "teachers", "teacher_contacts", "shifts", "shift_revisions")
    before = _table_rows(db, kept)
    assert not inspect(db.engine).has_table("calendar_feeds")

    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    assert _table_rows(db, kept) == before
    with db.read() as s:
        assert list(s.execute(text("SELECT * FROM calendar_feeds")).all()) == []
    with db.write() as s:
        url = feeds.feed_url(s, sato_id, RELAY)
    with db.read() as s:
        assert s.execute(text("SELECT teacher_id, token FROM calendar_feeds")).all() == [
            (sato_id, url.removeprefix(RELAY + "/ics/").removesuffix(".ics"))]
    with pytest.raises(IntegrityError), db.write() as s:  # one address per teacher
        s.execute(text("INSERT INTO calendar_feeds (teacher_id, token, created_at) VALUES (:t, :k, :c)"),
                  {"t": sato_id, "k": "x" * 43, "c": now.replace(tzinfo=None)})

    _downgrade(db, "0028_classroom_rooms")
    assert _table_rows(db, kept) == before
    assert not inspect(db.engine).has_table("calendar_feeds")
    migrate.upgrade(db)
