"""The month to a LINE group as a button to the teachers' page instead of pictures (PAGES_MONTH_AS_BUTTON),
all real: the sender, the LINE emulator over HTTP, a real S3-compatible bucket (moto) and, as the relay, a
loopback server that counts every request it gets, or the relay itself (`wrangler dev`). With the choice on and the page ready the group gets
one message, the announcement with the button to the page's classroom view, and no picture is uploaded
anywhere; off, or the page not ready, the month goes as pictures as before. While the page is ready its
classroom view also replaces the classroom's own LIFF link from before the page."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from core.emulator import LineEmulator
from core.emulator.faults import FaultPlan
from core.pages.addresses import page_url
from core.publication import image_hosts, publish
from core.publication.image_store import ImageStore
from core.relay import settings as relay_settings
from core.sending.sender import Sender, SenderConfig
from core.setup import readiness, teachers_page
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Classroom, Delivery, DeliveryStatus, Publication
from core.store.paths import DataPaths
from core.texts import render
from tests import factories as f
from tests import test_relay_images as relay_images
from tests.linefixtures import FakeClock, line_ready  # noqa: F401 - line_ready is a fixture
from tests.relayfixtures import LocalRelay, relay  # noqa: F401 - relay is a fixture
from tests.s3server import BUCKET, RefusingBucket, hosted, s3_endpoint  # noqa: F401 - fixtures
from tests.test_publication import GROUP, line_group  # noqa: F401 - line_group is a fixture
from tests.test_relay_images import emulator  # noqa: F401 - the relay's LINE

LIFF = "1657000000-AbCdEfGh"
ANNOUNCEMENT = "【シフト表】本校 2026年12月のシフト表を公開しました。"


@pytest.fixture
def relay_address(db: Database) -> Iterator[RefusingBucket]:
    """A relay attached (its address and key), one of the page's conditions and an image host: a loopback
    server that counts every request and answers 503, so a picture put there would show, and not go through."""
    with RefusingBucket(503) as relay:
        relay_settings.attach(db, relay.endpoint, "ab" * 32)
        yield relay


def _page(db: Database, *, as_button: bool, relay_url: str | None = None) -> None:
    """The page ready (with the relay attached, or at `relay_url`, which the bucket comes before)."""
    teachers_page.save(db, login_channel_id="1657000000", liff_id=LIFF, enabled=True)
    with db.write() as s:
        keys.PAGES_MONTH_AS_BUTTON.write(s, as_button)
        if relay_url is not None:
            keys.RELAY_URL.write(s, relay_url)


def _published(db: Database, paths: DataPaths, now: dt.datetime, *, liff_id: str = "") -> tuple[int, int]:
    """December 2026 of 本校, published: (classroom, delivery to its group)."""
    with db.write() as s:
        room = f.classroom(s, line_group_id=GROUP)
        room.liff_id = liff_id
        a, b = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        f.shift(s, room, a, dt.date(2026, 12, 3), now=now)
        f.shift(s, room, b, dt.date(2026, 12, 4), "09:00", "12:00", now=now)
        done = publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(paths.images))
    assert done.delivery_id is not None
    return room.id, done.delivery_id


def _send(db: Database, paths: DataPaths, now: dt.datetime) -> None:
    Sender(db, paths=paths, config=SenderConfig(concurrency=2), clock=FakeClock(now)).run_until_idle()


def _status(db: Database, delivery_id: int) -> DeliveryStatus:
    with db.read() as s:
        row = s.get(Delivery, delivery_id)
        assert row is not None
        return row.status


def _bucket_keys(endpoint: str) -> list[str]:
    from minio import Minio

    from tests.s3server import ACCESS_KEY, SECRET_KEY

    client = Minio(endpoint.removeprefix("http://"), access_key=ACCESS_KEY, secret_key=SECRET_KEY, secure=False,
                   region="us-east-1")
    return [str(item.object_name) for item in client.list_objects(BUCKET, recursive=True)]


def _the_button_message(line: LineEmulator, room_id: int) -> None:
    """The group's one message: the announcement, and its one button opening the page's classroom view."""
    [received] = [m.message for m in line.inbox(GROUP)]
    assert received["type"] == "flex" and received["altText"] == ANNOUNCEMENT
    bubble = received["contents"]
    assert bubble["type"] == "bubble" and "hero" not in bubble
    assert [c["text"] for c in bubble["body"]["contents"]] == [ANNOUNCEMENT]
    [button] = bubble["footer"]["contents"]
    assert button["action"] == {"type": "uri", "label": "今月のシフトを見る",
                                "uri": page_url(LIFF, "classroom", classroom=f"c{room_id}", month="2026-12")}
    assert button["action"]["uri"] == f"https://liff.line.me/{LIFF}?view=classroom&classroom=c{room_id}&month=2026-12"


@pytest.mark.parametrize("bucket", [True, False], ids=["bucket-and-relay", "relay-only"])
def test_with_the_page_ready_and_chosen_the_group_gets_a_button_and_no_picture_is_put_online(
        db: Database, paths: DataPaths, line_group: LineEmulator, relay_address: RefusingBucket, now: dt.datetime,
        request: pytest.FixtureRequest, bucket: bool) -> None:
    endpoint = request.getfixturevalue("hosted") if bucket else None
    _page(db, as_button=True)
    with db.read() as s:  # both would take the month's pictures, were they asked
        assert [h.name for h in image_hosts.set_up(s)] == (["hosting", "relay"] if bucket else ["relay"])
    room_id, delivery_id = _published(db, paths, now)
    _send(db, paths, now)
    assert _status(db, delivery_id) is DeliveryStatus.SENT
    _the_button_message(line_group, room_id)
    assert relay_address.requests == 0  # no PUT /api/images
    if endpoint is not None:
        assert _bucket_keys(endpoint) == []
    with db.read() as s:
        assert keys.RELAY_IMAGES.read(s) is None
    # One message to a group of five: the quota counts it once per member.
    assert line_group.consumption == 5


def test_a_retry_sends_the_same_bytes(db: Database, paths: DataPaths, line_group: LineEmulator,
                                      relay_address: RefusingBucket, now: dt.datetime) -> None:
    _page(db, as_button=True)
    room_id, delivery_id = _published(db, paths, now)
    line_group.set_faults(FaultPlan(fail_next=1))
    _send(db, paths, now)
    assert _status(db, delivery_id) is DeliveryStatus.QUEUED and line_group.inbox(GROUP) == []
    _send(db, paths, now + dt.timedelta(minutes=5))
    assert _status(db, delivery_id) is DeliveryStatus.SENT
    _the_button_message(line_group, room_id)
    pushes = [r for r in line_group.request_log() if r.path.endswith("/push")]
    assert [r.status for r in pushes] == [500, 200]
    assert pushes[0].retry_key == pushes[1].retry_key and pushes[0].body_sha256 == pushes[1].body_sha256
    assert relay_address.requests == 0


def _pictures(line: LineEmulator) -> tuple[str, list[dict[str, Any]]]:
    announcement, *images = [m.message for m in line.inbox(GROUP)]
    assert announcement["type"] == "text" and len(images) == 4
    assert all(image["type"] == "image" for image in images)
    return announcement["text"], images


@pytest.mark.parametrize("how", ["off", "page off"])
def test_off_or_without_the_page_the_month_goes_as_pictures(
        db: Database, paths: DataPaths, hosted: str, line_group: LineEmulator, now: dt.datetime,
        how: str) -> None:
    _page(db, as_button=how != "off", relay_url="https://relay.example.com")
    if how == "page off":
        teachers_page.set_enabled(db, False)
    room_id, delivery_id = _published(db, paths, now)
    _send(db, paths, now)
    assert _status(db, delivery_id) is DeliveryStatus.SENT
    text, images = _pictures(line_group)
    page = page_url(LIFF, "classroom", classroom=f"c{room_id}", month="2026-12")
    assert text == ANNOUNCEMENT + (f"\n今月のシフトを見る: {page}" if how == "off" else "")
    assert len(_bucket_keys(hosted)) == 2 * len(images)


def _published_before_pages(db: Database, room_id: int) -> None:
    with db.write() as s:
        for publication in s.scalars(select(Publication).where(Publication.classroom_id == room_id)):
            publication.pages_json = None  # as migration 0016 leaves a publication made before it


@pytest.mark.parametrize("form", ["pages", "card"])
@pytest.mark.parametrize("ready", [True, False], ids=["page-ready", "no-page"])
def test_the_page_s_classroom_view_replaces_the_classroom_s_own_liff_link_while_ready(
        db: Database, paths: DataPaths, hosted: str, line_group: LineEmulator, now: dt.datetime,
        ready: bool, form: str) -> None:
    if ready:
        _page(db, as_button=False, relay_url="https://relay.example.com")
    room_id, _ = _published(db, paths, now, liff_id="1650000000-OldRoomA")
    if form == "card":
        _published_before_pages(db, room_id)
    _send(db, paths, now)
    with db.read() as s:
        room = s.get(Classroom, room_id)
        assert room is not None and room.liff_id == "1650000000-OldRoomA"  # kept, for the old data
    page = page_url(LIFF, "classroom", classroom=f"c{room_id}", month="2026-12")
    if form == "pages":
        lines = _pictures(line_group)[0].split("\n")
        assert lines[0] == ANNOUNCEMENT and len(lines) == 2
        if ready:
            assert lines[1] == f"今月のシフトを見る: {page}"
        else:
            assert lines[1].startswith("https://liff.line.me/1650000000-OldRoomA?document=")
        return
    card, *after = [m.message for m in line_group.inbox(GROUP)]
    opened = {card["contents"]["hero"]["action"]["uri"], card["contents"]["footer"]["contents"][0]["action"]["uri"]}
    if ready:
        assert opened == {page}
    else:
        [old] = opened
        assert old.startswith("https://liff.line.me/1650000000-OldRoomA?document=")
    assert after == []  # the card opens it: no second link after it


def test_the_readiness_check_needs_no_image_host_while_the_month_goes_as_a_button(
        db: Database, relay_address: RefusingBucket, now: dt.datetime) -> None:
    with db.write() as s:  # the relay would be the route for pictures; the button needs none
        f.classroom(s, line_group_id=GROUP)

    def month() -> readiness.Requirement:
        return {r.key: r for r in readiness.check(db, now=now, autostart=None)}["month_image"]

    assert render(month().says, "en") == "the month image is posted through the relay"
    _page(db, as_button=True)
    said = month()
    assert said.state is readiness.State.OK and said.fix is None
    assert render(said.says, "en") == (
        "the month goes to the group as a button to the teachers' page: no image hosting needed")
    assert relay_address.requests == 0


@pytest.mark.slow
@pytest.mark.parametrize("as_button", [True, False], ids=["button", "pictures"])
def test_with_the_real_relay_the_pictures_are_put_there_only_when_the_month_goes_as_pictures(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator, as_button: bool) -> None:
    """The relay (`wrangler dev`, local D1) as the page's relay and the only image host: what it was asked
    is in the lines it prints, one a request."""
    relay_settings.attach(db, relay.url, relay.key)
    _page(db, as_button=as_button)
    _, delivery_id = relay_images._published(db, paths, dt.datetime.now(dt.UTC))
    Sender(db, paths=paths, config=SenderConfig(concurrency=2), clock=FakeClock(dt.datetime.now(dt.UTC))).run_until_idle()
    assert _status(db, delivery_id) is DeliveryStatus.SENT
    received = [m.message for m in line_ready.inbox(relay_images.GROUP)]
    put = [line for line in relay.output if "PUT /api/images" in line]
    with db.read() as s:
        held = keys.RELAY_IMAGES.read(s)
    if as_button:
        assert [m["type"] for m in received] == ["flex"] and received[0]["altText"].startswith("【シフト表】")
        assert put == [] and held is None
    else:
        assert [m["type"] for m in received][1:] == ["image"] * (len(received) - 1) and len(received) == 5
        assert put and held is not None
