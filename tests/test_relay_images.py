"""The month's pages through the relay, all real: the relay (relay/, `wrangler dev` on loopback with a
local D1) keeps the pictures, the project's LINE emulator is LINE, the sender is the CLI's, and the
pictures LINE would load are fetched from the relay's /i/… addresses and compared byte for byte."""

from __future__ import annotations

import datetime as dt
import json
import socket
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import select

import main
from core.emulator import LineEmulator
from core.emulator.faults import FaultPlan
from core.outbox import policy
from core.publication import publish
from core.publication.image_store import ImageStore
from core.relay import settings as relay_settings
from core.sending.sender import Sender, SenderConfig
from core.setup import readiness
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Delivery, DeliveryAttempt, DeliveryStatus, Publication
from core.store.paths import DataPaths
from core.texts import render
from tests import factories as f
from tests.linefixtures import TOKEN, FakeClock, line_ready, user_id  # noqa: F401 - line_ready is a fixture
from tests.relayfixtures import LocalRelay, relay  # noqa: F401 - relay is a fixture
from tests.waiting import wait_until

GROUP = "C" + "2" * 32


@pytest.fixture
def emulator() -> Iterator[LineEmulator]:
    """LINE, with the teachers' group, taking image addresses on loopback (the local relay's)."""
    with LineEmulator(token=TOKEN, loopback_webhooks=True, allow_loopback_media=True) as emu:
        emu.add_group(GROUP, "本校 講師", [user_id(n) for n in range(1, 4)])
        yield emu


def _published(db: Database, paths: DataPaths, now: dt.datetime, *, each_teacher: bool = False,
               line: LineEmulator | None = None) -> tuple[int, int]:
    """Next month of a classroom with a LINE group and no image hosting, published: (publication, delivery).
    With `line`, its teachers are friends of the account there, so their own months reach them."""
    first = (now.date().replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    with db.write() as s:
        room = f.classroom(s, line_group_id=GROUP)
        a, b = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        for teacher in (a, b):
            line_user_id = f.reach(teacher).line_user_id
            if line is not None and line_user_id is not None:
                line.add_user(line_user_id, str(teacher.name))
        f.shift(s, room, a, first + dt.timedelta(days=2), now=now)
        f.shift(s, room, b, first + dt.timedelta(days=3), "09:00", "12:00", now=now)
        done = publish.publish(s, room.id, first.year, first.month, now=now, store=ImageStore(paths.images),
                               each_teacher=each_teacher)
    assert done.publication_id is not None and done.delivery_id is not None
    return done.publication_id, done.delivery_id


def _attach(db: Database, relay: LocalRelay) -> None:
    relay_settings.attach(db, relay.url, relay.key)  # the key into the (in-memory) keyring


def _attempts(db: Database, delivery_id: int) -> list[tuple[str, str | None, str]]:
    with db.read() as s:
        return [(a.outcome, a.error_code, render(policy.shown_error(a.error_message), "en") if a.error_message else "")
                for a in s.scalars(select(DeliveryAttempt).where(DeliveryAttempt.delivery_id == delivery_id)
                                   .order_by(DeliveryAttempt.number))]


def _status(db: Database, delivery_id: int) -> DeliveryStatus:
    with db.read() as s:
        row = s.get(Delivery, delivery_id)
        assert row is not None
        return row.status


def _pages_fetched_from_the_relay(db: Database, paths: DataPaths, relay: LocalRelay, line: LineEmulator,
                                  publication_id: int) -> list[str]:
    """The group got the announcement and one image message per page, each address on the relay
    serving the page's exact bytes; the addresses, in order."""
    announcement, *images = [m.message for m in line.inbox(GROUP)]
    assert announcement["type"] == "text" and "シフト表" in announcement["text"]
    with db.read() as s:
        publication = s.get(Publication, publication_id)
        assert publication is not None and publication.pages_json
        pages = json.loads(publication.pages_json)
    assert len(images) == len(pages) >= 4
    store, urls = ImageStore(paths.images), []
    for image, page in zip(images, pages, strict=True):
        assert image["type"] == "image"
        for field, sha, suffix in (("originalContentUrl", page["image"], ".png"),
                                   ("previewImageUrl", page["preview"], ".jpg")):
            url = image[field]
            assert url.startswith(relay.url + "/i/"), url
            fetched = httpx.get(url, timeout=30)
            assert fetched.status_code == 200 and fetched.content == store.get(sha, suffix)
            urls.append(url)
    return urls


@pytest.mark.slow
def test_without_hosting_the_month_goes_to_the_group_as_pages_kept_on_the_relay(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator,
        capsys: pytest.CaptureFixture[str]) -> None:
    _attach(db, relay)
    month = {r.key: r for r in readiness.check(db, now=dt.datetime.now(dt.UTC), autostart=None)}["month_image"]
    assert month.state is readiness.State.OK and render(month.says, "en") == (
        "the month image is posted through the relay")
    publication_id, delivery_id = _published(db, paths, dt.datetime.now(dt.UTC))

    code = main.main(["sender", "--until-idle"])  # the CLI's own sender, as `shiftcast sender` runs it
    assert code == 0, capsys.readouterr().err
    assert _status(db, delivery_id) is DeliveryStatus.SENT
    urls = _pages_fetched_from_the_relay(db, paths, relay, line_ready, publication_id)
    assert len(set(urls)) == len(urls)
    assert _attempts(db, delivery_id) == [("sent", None, "")]
    with db.read() as s:  # remembered, with the relay they are on
        held = json.loads(keys.RELAY_IMAGES.read(s) or "{}")
    assert held["url"] == relay.url and {relay.url + p for p, _ in held["images"].values()} == set(urls)


@pytest.mark.slow
def test_a_retry_after_line_s_5xx_repeats_the_request_with_the_same_addresses(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator) -> None:
    now = dt.datetime.now(dt.UTC)
    _attach(db, relay)
    publication_id, delivery_id = _published(db, paths, now)
    line_ready.set_faults(FaultPlan(fail_next=1))
    Sender(db, paths=paths, config=SenderConfig(concurrency=2), clock=FakeClock(now)).run_until_idle()
    assert _status(db, delivery_id) is DeliveryStatus.QUEUED and line_ready.inbox(GROUP) == []
    # Even with the addresses forgotten, the pictures put again keep theirs on the relay.
    with db.write() as s:
        keys.RELAY_IMAGES.write(s, None)
    Sender(db, paths=paths, config=SenderConfig(concurrency=2),
           clock=FakeClock(now + dt.timedelta(minutes=5))).run_until_idle()
    assert _status(db, delivery_id) is DeliveryStatus.SENT
    _pages_fetched_from_the_relay(db, paths, relay, line_ready, publication_id)
    pushes = [r for r in line_ready.request_log() if r.path.endswith("/push")]
    assert [r.status for r in pushes] == [500, 200]
    assert pushes[0].retry_key == pushes[1].retry_key and pushes[0].body_sha256 == pushes[1].body_sha256
    assert [a[:2] for a in _attempts(db, delivery_id)] == [("retry", "LINE_5XX"), ("sent", None)]


@pytest.mark.slow
def test_a_relay_that_refuses_the_pictures_gets_the_month_sent_as_a_message_and_says_why(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator) -> None:
    now = dt.datetime.now(dt.UTC)
    _attach(db, relay)
    secrets.set_secret(relay_settings.KEY_NAME, "ab" * 32)  # another key: the relay answers 401
    _, delivery_id = _published(db, paths, now)
    Sender(db, paths=paths, config=SenderConfig(concurrency=2), clock=FakeClock(now)).run_until_idle()
    assert _status(db, delivery_id) is DeliveryStatus.SENT
    [received] = line_ready.inbox(GROUP)
    assert received.message["type"] == "flex" and received.message["contents"]["type"] == "carousel"
    [refused, sent] = _attempts(db, delivery_id)
    assert refused[:2] == ("throttled", "HOSTING_UNUSABLE") and "the relay did not take the month's picture" in refused[2]
    assert "HTTP 401" in refused[2], refused
    assert sent[:2] == ("sent", None)
    assert len([r for r in line_ready.request_log() if r.path.endswith("/push")]) == 1  # LINE once


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_relay_that_does_not_answer_is_retried_and_line_is_not_contacted(
        db: Database, paths: DataPaths, line_ready: LineEmulator, now: dt.datetime) -> None:
    relay_settings.attach(db, f"http://127.0.0.1:{_closed_port()}", "cd" * 32)
    _, delivery_id = _published(db, paths, now)
    Sender(db, paths=paths, config=SenderConfig(concurrency=2), clock=FakeClock(now)).run_until_idle()
    with db.read() as s:
        row = s.get(Delivery, delivery_id)
        assert row is not None
        assert (row.status, row.last_error_code) == (DeliveryStatus.QUEUED, "UPLOAD_FAILED")
    assert line_ready.request_log() == [] and line_ready.inbox(GROUP) == []
    assert [a[:2] for a in _attempts(db, delivery_id)] == [("retry", "UPLOAD_FAILED")]


def _sync(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    code = main.main(["relay", "sync"])
    out, err = capsys.readouterr()
    assert code == 0, err
    summary = json.loads(out)
    assert isinstance(summary, dict)
    return summary


@pytest.mark.slow
def test_a_month_published_while_no_sender_runs_is_sent_once_by_the_relay_and_recorded_so(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator,
        capsys: pytest.CaptureFixture[str]) -> None:
    _attach(db, relay)
    publication_id, delivery_id = _published(db, paths, dt.datetime.now(dt.UTC), each_teacher=True, line=line_ready)
    with db.read() as s:
        rows = s.execute(select(Delivery.id, Delivery.recipient).where(
            Delivery.kind == "teacher_month", Delivery.channel == "line").order_by(Delivery.id)).all()
    months, teachers = [r[0] for r in rows], [str(r[1]) for r in rows]
    assert len(months) == 2  # 佐藤's and 鈴木's own months
    assert _sync(capsys)["uploaded"] == 3  # the group's pages and the two teachers' months

    relay.run_cron()  # no app sender has checked in: the relay sends them
    assert wait_until(lambda: len(line_ready.inbox(GROUP)) >= 5 and all(line_ready.inbox(u) for u in teachers))
    urls = _pages_fetched_from_the_relay(db, paths, relay, line_ready, publication_id)
    assert [[m.message["type"] for m in line_ready.inbox(u)] for u in teachers] == [["flex"], ["flex"]]
    summary = _sync(capsys)
    assert summary["outcomes"] == summary["sent_by_relay"] == 3 and summary["uploaded"] == 0
    for sent in (delivery_id, *months):
        assert _status(db, sent) is DeliveryStatus.SENT
        with db.read() as s:
            assert [(a.via, a.outcome, a.http_status) for a in s.scalars(
                select(DeliveryAttempt).where(DeliveryAttempt.delivery_id == sent))] == [("relay", "sent", 200)]

    code = main.main(["sender", "--until-idle"])  # the app's own sender wakes up: nothing left to send
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["sent"] == 0, err
    relay.run_cron()
    assert _sync(capsys)["outcomes"] == 0
    assert [m.message.get("originalContentUrl") for m in line_ready.inbox(GROUP)][1:] == urls[::2]  # once
    assert [r.status for r in line_ready.request_log() if r.path.endswith("/push")] == [200, 200, 200]
