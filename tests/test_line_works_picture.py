"""A classroom's month reaches its LINE WORKS message room as the month's picture, over real HTTP against
the stand-in: the wide grid uploaded once to the bot's storage and sent as ONE image message whose file is
the month's PNG byte for byte; an upload that fails is tried again and the month still arrives once; a
message sent again after a failure names the file already uploaded; the stand-in refuses an image
message naming a file it never issued, and an upload without the bearer token; refused credentials hold
the channel before anything is uploaded; a kept file ID lapses before LINE WORKS' 24 hours."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import select

from core.channels import line_works, line_works_rooms
from core.channels.line_works_client import KEY, BaseUrls, WorksClient
from core.emulator.line_works import WorksStandIn
from core.publication import publish
from core.publication.image_store import ImageStore
from core.sending.sender import Sender, SenderConfig
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.kinds import DeliveryKind, SubjectType
from core.store.models import Delivery, DeliveryStatus, Publication, ShiftStatus
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import FakeClock
from tests.worksfixtures import app, credentials, works, works_ready  # noqa: F401

ROOM = "room-1"


@pytest.fixture
def clock(now: dt.datetime) -> FakeClock:
    return FakeClock(now)


@pytest.fixture
def sender(db: Database, paths: DataPaths, clock: FakeClock, works_ready: WorksStandIn) -> Iterator[Sender]:
    """One sender for the whole test: its LINE WORKS connection, and the file IDs it keeps, live on."""
    running = Sender(db, paths=paths, config=SenderConfig(concurrency=2), clock=clock)
    try:
        yield running
    finally:
        running.stop()


def _month_for_the_room(db: Database, paths: DataPaths, now: dt.datetime, works: WorksStandIn) -> tuple[int, bytes]:
    """December published for a classroom whose message room is ROOM: the LINE WORKS delivery publishing
    queued, and the month's PNG."""
    works.add_channel(ROOM)
    with db.write() as s:
        room = f.classroom(s)
        line_works_rooms.set_room(s, room.id, ROOM)
        f.shift(s, room, f.teacher(s, "佐藤", 1), dt.date(2026, 12, 10), "16:00", "21:00", now=now,
                status=ShiftStatus.CONFIRMED)
        done = publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(paths.images))
        publication = s.get(Publication, done.publication_id)
        assert publication is not None
        # Publishing queued the month to the classroom's room on LINE WORKS, its only room.
        [delivery_id] = s.scalars(select(Delivery.id).where(Delivery.about(SubjectType.PUBLICATION, publication.id),
                                                            Delivery.kind == DeliveryKind.SHIFT_PUBLICATION,
                                                            Delivery.channel == KEY)).all()
        png = ImageStore(paths.images).get(publication.image_sha256, ".png")
    return delivery_id, png


def _delivery(db: Database, delivery_id: int) -> Delivery:
    with db.read() as s:
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None
        return delivery


def test_the_month_reaches_the_message_room_as_one_picture_uploaded_once(
        db: Database, paths: DataPaths, now: dt.datetime, works_ready: WorksStandIn, sender: Sender) -> None:
    delivery_id, png = _month_for_the_room(db, paths, now, works_ready)
    sender.run_until_idle()
    [content] = works_ready.to(ROOM)  # the picture alone: no second message with the news' text
    assert content["type"] == "image" and set(content) == {"type", "fileId"}
    assert works_ready.picture(content) == png
    assert (works_ready.attachment_requests, len(works_ready.files)) == (1, 1)
    assert _delivery(db, delivery_id).status == DeliveryStatus.SENT


def test_an_upload_that_fails_is_tried_again_and_the_month_goes_once(
        db: Database, paths: DataPaths, now: dt.datetime, clock: FakeClock, works_ready: WorksStandIn,
        sender: Sender) -> None:
    delivery_id, png = _month_for_the_room(db, paths, now, works_ready)
    works_ready.fail_uploads(503)
    sender.run_until_idle()
    delivery = _delivery(db, delivery_id)
    assert (delivery.status, delivery.last_error_code) == (DeliveryStatus.QUEUED, "UPLOAD_FAILED")
    assert works_ready.accepted == [] and works_ready.files == {}  # LINE WORKS' message endpoint not contacted
    clock.advance(minutes=5)  # past the first backoff
    sender.run_until_idle()
    [content] = works_ready.to(ROOM)
    assert works_ready.picture(content) == png
    assert _delivery(db, delivery_id).status == DeliveryStatus.SENT


def test_a_message_sent_again_names_the_picture_already_uploaded(
        db: Database, paths: DataPaths, now: dt.datetime, clock: FakeClock, works_ready: WorksStandIn,
        sender: Sender) -> None:
    delivery_id, png = _month_for_the_room(db, paths, now, works_ready)
    works_ready.force(500)  # the upload went through; the message itself fails
    sender.run_until_idle()
    delivery = _delivery(db, delivery_id)
    assert (delivery.status, delivery.last_error_code) == (DeliveryStatus.QUEUED, "LINE_WORKS_5XX")
    clock.advance(minutes=5)
    sender.run_until_idle()
    [content] = works_ready.to(ROOM)
    assert works_ready.picture(content) == png
    assert (works_ready.attachment_requests, len(works_ready.files)) == (1, 1)  # not uploaded again
    assert _delivery(db, delivery_id).status == DeliveryStatus.SENT


def test_the_stand_in_refuses_an_unknown_file_and_an_upload_without_the_token(works: WorksStandIn) -> None:
    works.add_channel(ROOM)
    client = WorksClient(credentials(), base_urls=_at(works))
    try:
        refused = client.send_to_channel(ROOM, {"type": "image", "fileId": "jp1.1628695315008671000.1.0.2000001.0.0.0"})
        assert refused.http_status == 400 and "content.fileId" in str(refused.message)
        plain = client.send_to_channel(ROOM, {"type": "image", "previewImageUrl": "http://example.com/p.png",
                                              "originalContentUrl": "https://example.com/o.png"})
        assert plain.http_status == 400 and "previewImageUrl" in str(plain.message)
        by_url = client.send_to_channel(ROOM, {"type": "image", "previewImageUrl": "https://example.com/p.png",
                                               "originalContentUrl": "https://example.com/o.png"})
        assert by_url.http_status == 201

        token = client.token()
        bot = f"{works.base_url}/v1.0/bots/{credentials().bot_id}/attachments"
        asked = httpx.post(bot, json={"fileName": "month.png"}, headers={"Authorization": f"Bearer {token}"})
        assert asked.status_code == 200
        upload_url, file_id = asked.json()["uploadUrl"], asked.json()["fileId"]
        assert httpx.post(bot, json={"fileName": ""}, headers={"Authorization": f"Bearer {token}"}).status_code == 400
        assert httpx.post(bot, json={"fileName": "month.png"}).status_code == 401
        form = {"Filedata": ("month.png", b"\x89PNG...", "image/png")}
        assert httpx.post(upload_url, files=form).status_code == 401  # without the bearer token: kept nothing
        assert works.files == {}
        assert client.send_to_channel(ROOM, {"type": "image", "fileId": file_id}).http_status == 400  # not uploaded yet
        assert httpx.post(upload_url, files={"other": ("month.png", b"x", "image/png")},
                          headers={"Authorization": f"Bearer {token}"}).status_code == 400
        assert httpx.post(upload_url, files=form, headers={"Authorization": f"Bearer {token}"}).status_code == 200
        assert works.files == {file_id: b"\x89PNG..."}
        assert httpx.post(upload_url, files=form, headers={"Authorization": f"Bearer {token}"}).status_code == 404
        assert client.send_to_channel(ROOM, {"type": "image", "fileId": file_id}).http_status == 201
    finally:
        client.close()


def _at(works: WorksStandIn) -> BaseUrls:
    return BaseUrls(works.base_url, works.base_url)


def test_refused_credentials_hold_line_works_before_the_picture_is_uploaded(
        db: Database, paths: DataPaths, now: dt.datetime, works_ready: WorksStandIn, sender: Sender) -> None:
    delivery_id, _ = _month_for_the_room(db, paths, now, works_ready)
    works_ready.app = dataclasses.replace(works_ready.app, client_secret="changed at LINE WORKS")
    sender.run_until_idle()
    delivery = _delivery(db, delivery_id)
    assert (delivery.status, delivery.attempt_count) == (DeliveryStatus.QUEUED, 0)  # held, no retry spent
    with db.read() as s:
        hold = keys.LINE_WORKS_HOLD.read(s)
    assert hold is not None and hold.code == line_works.AUTH_FAILED
    assert (works_ready.attachment_requests, works_ready.accepted) == (0, [])


def test_a_kept_file_id_is_used_for_23_hours_then_the_picture_is_uploaded_again() -> None:
    seconds = [1_800_000_000.0]  # one clock for both sides: the JWT's times and the file's life agree
    with WorksStandIn(app(), clock=lambda: seconds[0]) as works:
        client = WorksClient(credentials(), base_urls=_at(works), clock=lambda: seconds[0])
        try:
            first = client.upload(b"\x89PNG month", "shifts-2026-12-r1.png")
            seconds[0] += 23 * 3600 - 1
            assert client.upload(b"\x89PNG month", "shifts-2026-12-r1.png") == first
            assert client.upload(b"\x89PNG other month", "shifts-2027-01-r1.png") != first  # other bytes: their own
            seconds[0] += 1
            again = client.upload(b"\x89PNG month", "shifts-2026-12-r1.png")
        finally:
            client.close()
    assert again != first and works.attachment_requests == 3 and works.files[again] == b"\x89PNG month"
