"""Migration 0028: classrooms get their rooms on other channels (LINE WORKS), and nothing else changes."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from core.store import migrate
from core.store.db import Database
from tests.test_migrations import _downgrade, _table_rows


@pytest.mark.backends("sqlite", "postgresql")
def test_0028_gives_classrooms_rooms_on_other_channels_and_keeps_every_row(db: Database, tmp_path: Path) -> None:
    """A database at 0027 with classrooms, a LINE group, shifts and a published month: every row stays as
    it was, no classroom has a room on another channel until given one; going back drops only the table."""
    from core.channels import line_works_rooms
    from core.publication import publish
    from core.publication.image_store import ImageStore
    from core.roster import rooms
    from tests import factories as f

    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    with db.write() as s:  # made with today's models, then taken down to 0027 with its rows
        room = f.classroom(s, line_group_id="C" + "1" * 32)
        f.shift(s, room, f.teacher(s, "佐藤", 1), dt.date(2026, 12, 3), now=now)
        publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(tmp_path / "images"))
        room_id = room.id
    _downgrade(db, "0027_staffing")
    kept = ("classrooms", "teachers", "teacher_contacts", "shifts", "publications", "deliveries")
    before = _table_rows(db, kept)
    assert not inspect(db.engine).has_table("classroom_rooms")

    migrate.upgrade(db)
    assert migrate.current_revision(db) == migrate.HEAD_REVISION
    assert _table_rows(db, kept) == before
    with db.read() as s:
        assert list(s.execute(text("SELECT * FROM classroom_rooms")).all()) == []
        assert rooms.rooms_of(s, room_id) == {"line": "C" + "1" * 32}
    with db.write() as s:
        line_works_rooms.set_room(s, room_id, "room-1")
    with db.read() as s:
        assert rooms.rooms_of(s, room_id) == {"line": "C" + "1" * 32, "line_works": "room-1"}

    _downgrade(db, "0027_staffing")
    assert _table_rows(db, kept) == before
    assert not inspect(db.engine).has_table("classroom_rooms")
    migrate.upgrade(db)
