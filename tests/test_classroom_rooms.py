"""A classroom's room on each channel: the month goes to its LINE group and to its LINE WORKS channel,
each once, and is owed only while the classroom has no room at all."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from core.channels import line_works_rooms
from core.errors import ValidationError
from core.planning import group_waiting, planner
from core.publication import publish
from core.publication.image_store import ImageStore
from core.roster import rooms
from core.store import events
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus, Publication
from core.store.paths import DataPaths
from tests import factories as f

GROUP = "C" + "5" * 32
WORKS_ROOM = "a1b2c3d4-0000-1111-2222-333344445555"


def _month(db: Database, now: dt.datetime, **room: object) -> int:
    with db.write() as s:
        classroom = f.classroom(s, "本校", **room)
        f.shift(s, classroom, f.teacher(s, "佐藤", 1), dt.date(2026, 12, 3), now=now)
        return classroom.id


def _group_messages(db: Database) -> list[tuple[str, str | None, DeliveryStatus]]:
    with db.read() as s:
        return sorted((d.channel, d.recipient, d.status) for d in s.scalars(select(Delivery).where(
            Delivery.kind == DeliveryKind.SHIFT_PUBLICATION, Delivery.teacher_id.is_(None))))


def test_the_month_goes_to_the_line_group_and_the_line_works_channel(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    room = _month(db, now, line_group_id=GROUP)
    with db.write() as s:
        assert line_works_rooms.set_room(s, room, f"  {WORKS_ROOM} ") == WORKS_ROOM
    with db.write() as s:
        done = publish.publish(s, room, 2026, 12, now=now, store=ImageStore(paths.images))
        assert not group_waiting.owed(s, done.publication_id)
    assert _group_messages(db) == [("line", GROUP, DeliveryStatus.QUEUED),
                                   ("line_works", WORKS_ROOM, DeliveryStatus.QUEUED)]
    assert done.delivery_id is not None and set(done.room_deliveries) == {"line_works"}
    with db.write() as s:  # asked again (the planner, another publish path): still one each
        publication = s.get(Publication, done.publication_id)
        assert publication is not None
        assert [created for _, created in group_waiting.enqueue_rooms(s, publication, now=now).values()] == [
            False, False]


def test_a_classroom_on_line_works_alone_gets_its_month_and_owes_nothing(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    room = _month(db, now)
    with db.write() as s:
        line_works_rooms.set_room(s, room, WORKS_ROOM)
        done = publish.publish(s, room, 2026, 12, now=now, store=ImageStore(paths.images))
        assert not group_waiting.owed(s, done.publication_id)
        assert line_works_rooms.room_of(s, room) == WORKS_ROOM
    assert done.delivery_id is None
    assert _group_messages(db) == [("line_works", WORKS_ROOM, DeliveryStatus.QUEUED)]


def test_a_month_owed_goes_to_the_line_works_channel_once_it_is_set(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    room = _month(db, now)
    with db.write() as s:
        done = publish.publish(s, room, 2026, 12, now=now, store=ImageStore(paths.images))
        assert group_waiting.owed(s, done.publication_id)
    heard: list[events.ShiftsChanged] = []
    remove = db.events.listen(events.ShiftsChanged, heard.append)
    try:
        with db.write() as s:
            line_works_rooms.set_room(s, room, WORKS_ROOM)
    finally:
        remove()
    assert heard and heard[0].classroom_ids == frozenset({room})  # the scheduler plans at once
    with db.write() as s:
        planner.plan(s, now=now)
    with db.write() as s:
        planner.plan(s, now=now)  # planned again: nothing more
    assert _group_messages(db) == [("line_works", WORKS_ROOM, DeliveryStatus.QUEUED)]


def test_a_bad_room_id_is_refused_and_changes_nothing_and_a_blank_removes_it(db: Database, now: dt.datetime) -> None:
    room = _month(db, now)
    with db.write() as s:
        line_works_rooms.set_room(s, room, WORKS_ROOM)
    for bad in ("two words", "a/b", "x" * 201):
        with pytest.raises(ValidationError, match="room ID"), db.write() as s:
            line_works_rooms.set_room(s, room, bad)
    with db.read() as s:
        assert rooms.rooms_of(s, room) == {"line_works": WORKS_ROOM}
    with db.write() as s:
        assert line_works_rooms.set_room(s, room, "  ") is None
    with db.read() as s:
        assert rooms.rooms_of(s, room) == {} and line_works_rooms.room_of(s, room) is None
