"""Publishing end to end: render → store → upload to a real S3-compatible server → the pages to the group."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import logging

import httpx
import pytest
from PIL import Image
from sqlalchemy import select

from core.emulator import LineEmulator
from core.emulator.faults import FaultPlan
from core.errors import ValidationError
from core.messages import flex_text
from core.outbox import policy
from core.publication import hosting, month_image, month_pages, publish
from core.publication.image_store import ImageStore
from core.publication.month_image import CHANGED_BG
from core.roster import rules
from core.sending.sender import Sender, SenderConfig
from core.setup import readiness
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Delivery, DeliveryAttempt, DeliveryStatus, Publication, ShiftStatus
from core.store.paths import DataPaths
from core.store.settings import StoredQuota
from core.texts import render
from tests import factories as f
from tests.linefixtures import TOKEN, FakeClock, user_id
from tests.s3server import RefusingBucket, hosted, s3_endpoint  # noqa: F401

GROUP = "C" + "1" * 32


@pytest.fixture
def line_group(monkeypatch: pytest.MonkeyPatch):
    from core.store import secrets

    with LineEmulator(token=TOKEN, allow_loopback_media=True) as emu:
        emu.add_group(GROUP, "本校 講師", [user_id(n) for n in range(1, 6)])
        monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emu.base_url)
        secrets.set_line_token(TOKEN)
        yield emu


def _month(db: Database, now: dt.datetime) -> dict[str, int]:
    with db.write() as s:
        room = f.classroom(s, line_group_id=GROUP)
        a, b = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        s1 = f.shift(s, room, a, dt.date(2026, 12, 3), now=now)
        f.shift(s, room, b, dt.date(2026, 12, 4), "09:00", "12:00", now=now)
        return {"room": room.id, "s1": s1.id}


def _send(db: Database, now: dt.datetime) -> None:
    Sender(db, paths=f.home_paths(), config=SenderConfig(concurrency=2), clock=FakeClock(now)).run_until_idle()


def test_publish_end_to_end_through_s3_to_the_group(db: Database, paths: DataPaths, hosted: str,
                                                     line_group: LineEmulator, now: dt.datetime) -> None:
    ids = _month(db, now)
    with db.write() as s:
        done = publish.publish(s, ids["room"], 2026, 12, now=now, store=ImageStore(paths.images))
        assert all(x.status == ShiftStatus.CONFIRMED for x in rules.month_shifts(s, ids["room"], 2026, 12))
    assert done.revision == 1
    _send(db, now)
    announcement, *images = [m.message for m in line_group.inbox(GROUP)]
    assert announcement == {"type": "text", "text": "【シフト表】本校 2026年12月のシフト表を公開しました。"}
    with db.read() as s:
        pub = s.get(Publication, done.publication_id)
        delivery = s.get(Delivery, done.delivery_id)
    assert pub is not None and pub.pages_json is not None
    assert delivery is not None and delivery.status == DeliveryStatus.SENT
    # The group receives the month's pages for phones, each as LINE loads it: the stored bytes.
    pages = json.loads(pub.pages_json)
    assert len(images) == len(pages) == 5 - 1  # December 2026: five calendar weeks on four pages
    stored = ImageStore(paths.images)
    for image, page in zip(images, pages, strict=True):
        assert image["type"] == "image"
        preview = httpx.get(image["previewImageUrl"])
        assert preview.status_code == 200 and preview.content == stored.get(page["preview"], ".jpg")
        original = httpx.get(image["originalContentUrl"])
        assert original.content == stored.get(page["image"], ".png")
        assert hashlib.sha256(original.content).hexdigest() == page["image"]
        assert Image.open(io.BytesIO(original.content)).size == (page["width"], page["height"])
        assert page["width"] == month_pages.PAGE_WIDTH
    assert pub.image_sha256 not in {p["image"] for p in pages}  # the wide grid stays for printing and e-mail
    assert pub.original_key and pub.document_id in pub.original_key
    assert len(pub.document_id) >= 24  # unguessable
    # A group push counts once per member against the monthly quota.
    assert line_group.consumption == 5


def test_second_revision_highlights_changes_and_supersedes_the_unsent_first(
        db: Database, paths: DataPaths, hosted: str, line_group: LineEmulator, now: dt.datetime) -> None:
    ids = _month(db, now)
    store = ImageStore(paths.images)
    with db.write() as s:
        first = publish.publish(s, ids["room"], 2026, 12, now=now, store=store)
    with db.write() as s, pytest.raises(ValidationError, match="nothing changed"):
        publish.publish(s, ids["room"], 2026, 12, now=now, store=store)
    with db.write() as s:
        rules.edit_shift(s, ids["s1"], rules.ShiftChange(start_time=dt.time(15)), now=now)
        second = publish.publish(s, ids["room"], 2026, 12, now=now, store=store)
    assert second.revision == 2 and second.changed_cells == 1 and second.superseded == [first.delivery_id]
    _send(db, now)
    with db.read() as s:
        old = s.get(Delivery, first.delivery_id)
        pub2 = s.get(Publication, second.publication_id)
    assert old is not None and pub2 is not None
    assert old.status == DeliveryStatus.CANCELED and old.cancel_reason == "SUPERSEDED"
    assert json.loads(pub2.changes_json) == [["佐藤", 3]] and pub2.is_update
    announcement, *images = [m.message for m in line_group.inbox(GROUP)]
    assert "更新" in announcement["text"] and "第2版" in announcement["text"]
    # The changed shift (the 3rd) is marked on the page that lists it, and on no other: every page has
    # the legend's small swatch of the colour, only that page a whole entry in it.
    marked = [dict((c, n) for n, c in _page(image).getcolors(1 << 20) or ()).get(CHANGED_BG, 0) > 5000
              for image in images]
    assert marked == [True, False, False, False]


def _page(message: dict[str, str]) -> Image.Image:
    return Image.open(io.BytesIO(httpx.get(message["originalContentUrl"]).content)).convert("RGB")


def test_upload_failure_is_retried_and_nothing_is_sent_meanwhile(
        db: Database, paths: DataPaths, hosted: str, line_group: LineEmulator, now: dt.datetime) -> None:
    ids = _month(db, now)
    with db.write() as s:
        done = publish.publish(s, ids["room"], 2026, 12, now=now, store=ImageStore(paths.images))
        keys.HOSTING_BUCKET.write(s, "no-such-bucket")
    _send(db, now)
    with db.read() as s:
        d = s.get(Delivery, done.delivery_id)
    assert d is not None
    assert (d.status, d.last_error_code) == (DeliveryStatus.QUEUED, "UPLOAD_FAILED")
    assert line_group.inbox(GROUP) == [] and line_group.request_log() == []
    with db.write() as s:
        keys.HOSTING_BUCKET.write(s, "rosters")
    _send(db, now + dt.timedelta(minutes=3))
    assert len(line_group.inbox(GROUP)) == 1 + 4  # one push: the announcement and the four pages


def test_a_revision_published_before_pages_goes_out_with_its_grid(
        db: Database, paths: DataPaths, hosted: str, line_group: LineEmulator, now: dt.datetime) -> None:
    ids = _month(db, now)
    with db.write() as s:
        done = publish.publish(s, ids["room"], 2026, 12, now=now, store=ImageStore(paths.images))
        pub = s.get(Publication, done.publication_id)
        assert pub is not None
        pub.pages_json = None  # as migration 0016 leaves a publication made before it
    _send(db, now)
    [received] = line_group.inbox(GROUP)
    assert received.message["type"] == "flex"
    preview = httpx.get(received.message["contents"]["hero"]["url"])
    with db.read() as s:
        pub = s.get(Publication, done.publication_id)
        assert pub is not None
        assert preview.content == ImageStore(paths.images).get(pub.preview_sha256, ".jpg")


def test_a_big_month_reaches_the_group_as_pages_within_line_s_limits(
        db: Database, paths: DataPaths, hosted: str, line_group: LineEmulator, now: dt.datetime) -> None:
    """30 teachers on every day of December: one push of five messages (the emulator validates them),
    every page and preview within LINE's sizes, and the quota cost the dry run foretold."""
    with db.write() as s:
        room = f.classroom(s, line_group_id=GROUP)
        for n in range(1, 31):
            teacher = f.teacher(s, f"講師{n:02d}", n)
            for day in range(1, 32):
                f.shift(s, room, teacher, dt.date(2026, 12, day), now=now)
        plan = publish.plan_publish(s, room.id, 2026, 12, now=now, members=5)
        publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(paths.images))
    _send(db, now)
    announcement, *images = [m.message for m in line_group.inbox(GROUP)]
    assert announcement["type"] == "text" and len(images) == 4
    for image in images:
        original, preview = httpx.get(image["originalContentUrl"]), httpx.get(image["previewImageUrl"])
        assert len(original.content) <= month_image.MAX_ORIGINAL_BYTES
        assert len(preview.content) <= month_image.MAX_PREVIEW_BYTES
        assert Image.open(io.BytesIO(original.content)).width == month_pages.PAGE_WIDTH
    # Five message objects to a five-member group count five, as the dry run said.
    assert line_group.consumption == plan.messages == 5


def test_publish_without_hosting_sends_the_month_as_a_flex_carousel(
        db: Database, paths: DataPaths, line_group: LineEmulator, now: dt.datetime) -> None:
    ids = _month(db, now)
    with db.write() as s:
        done = publish.publish(s, ids["room"], 2026, 12, now=now, store=ImageStore(paths.images))
    _send(db, now)
    with db.read() as s:
        d = s.get(Delivery, done.delivery_id)
    assert d is not None and d.status == DeliveryStatus.SENT  # the emulator took it: within LINE's limits
    [received] = line_group.inbox(GROUP)
    flex = received.message
    assert flex["type"] == "flex" and flex["contents"]["type"] == "carousel"
    assert flex["altText"] == "【シフト表】本校 2026年12月のシフト表を公開しました。"
    weeks = flex["contents"]["contents"]
    assert len(weeks) == 5  # 1 Dec 2026 is a Tuesday: five weeks Monday to Sunday
    header = flex_text.lines(weeks[0]["header"])
    assert header == ["本校 2026年12月 シフト表", "12月1日(火) – 12月6日(日)"]
    assert flex_text.lines(weeks[0]["body"]) == ["12月3日(木)", "佐藤  16:00-21:00", "12月4日(金)", "鈴木  09:00-12:00"]
    assert "●" not in json.dumps(flex, ensure_ascii=False)
    assert line_group.consumption == 5


def test_a_republication_without_hosting_marks_the_changed_shifts(
        db: Database, paths: DataPaths, line_group: LineEmulator, now: dt.datetime) -> None:
    ids = _month(db, now)
    store = ImageStore(paths.images)
    with db.write() as s:
        publish.publish(s, ids["room"], 2026, 12, now=now, store=store)
    _send(db, now)
    with db.write() as s:
        rules.edit_shift(s, ids["s1"], rules.ShiftChange(start_time=dt.time(15)), now=now)
        publish.publish(s, ids["room"], 2026, 12, now=now, store=store)
    _send(db, now)
    [_, received] = line_group.inbox(GROUP)
    flex = received.message
    assert flex["altText"] == "【シフト表・更新】本校 2026年12月のシフト表が更新されました（第2版・変更1件）。"
    week = flex["contents"]["contents"][0]
    assert "第2版です。変更1件に●を付けています。" in flex_text.lines(week["header"])
    spans = [span for text in week["body"]["contents"] for span in text.get("contents", [])]
    changed = [span for span in spans if span["text"].lstrip("\n").startswith("●")]
    assert [span["text"] for span in changed] == ["● 佐藤  15:00-21:00"] and changed[0]["weight"] == "bold"
    assert "鈴木  09:00-12:00" in flex_text.lines(week["body"])  # unchanged: not marked


def _set_up_without_secret(db: Database) -> None:
    with db.write() as s:
        keys.HOSTING_ENDPOINT.write(s, "https://s3.example.com")  # set up, but its secret is not kept
        keys.HOSTING_BUCKET.write(s, "rosters")
        keys.HOSTING_ACCESS_KEY_ID.write(s, "key")


def _attempts(db: Database, delivery_id: int | None) -> list[tuple[str, str | None, str]]:
    """Each attempt's outcome, code and message as the Deliveries detail shows it in English."""
    with db.read() as s:
        found = s.scalars(select(DeliveryAttempt).where(DeliveryAttempt.delivery_id == delivery_id)
                          .order_by(DeliveryAttempt.number)).all()
        return [(a.outcome, a.error_code, render(policy.shown_error(a.error_message), "en") if a.error_message else "")
                for a in found]


def _went_as_flex(db: Database, delivery_id: int | None, line_group: LineEmulator) -> None:
    with db.read() as s:
        d = s.get(Delivery, delivery_id)
        assert d is not None and d.status == DeliveryStatus.SENT
    [received] = line_group.inbox(GROUP)
    assert received.message["type"] == "flex" and received.message["contents"]["type"] == "carousel"


def test_hosting_without_its_secret_sends_the_month_as_a_message_and_says_why(
        db: Database, paths: DataPaths, line_group: LineEmulator, now: dt.datetime,
        caplog: pytest.LogCaptureFixture) -> None:
    ids = _month(db, now)
    _set_up_without_secret(db)
    with db.write() as s:
        done = publish.publish(s, ids["room"], 2026, 12, now=now, store=ImageStore(paths.images))
    with caplog.at_level(logging.INFO, logger="core.sending.record"):
        _send(db, now)  # the refused attempt and, at once, the month as a message
    assert any(r.getMessage().endswith("enter it in Settings [send_error.HOSTING_UNUSABLE] (throttled)")
               for r in caplog.records if r.name == "core.sending.record")  # the log: English and the code
    assert len(line_group.request_log()) == 1  # the refused attempt did not reach LINE
    _went_as_flex(db, done.delivery_id, line_group)
    [refused, sent] = _attempts(db, done.delivery_id)
    assert refused == ("throttled", "HOSTING_UNUSABLE",
                       "image hosting cannot be used, so the month goes to the group as a message, without the image: "
                       "the image hosting secret access key is missing; enter it in Settings")
    assert sent[:2] == ("sent", None)
    with db.read() as s:
        d = s.get(Delivery, done.delivery_id)
        assert d is not None and d.attempt_count == 1  # the refusal spent none of the retry budget
        attempt = s.scalars(select(DeliveryAttempt).where(DeliveryAttempt.delivery_id == d.id)).first()
        assert attempt is not None
    assert render(policy.shown_error(attempt.error_message), "ja").startswith(
        "画像ホスティングを使えないため、月のシフト表は画像ではなくメッセージでグループに送ります")
    # The secret entered since: the readiness check does not repeat what the last month met.
    month = {r.key: r for r in readiness.check(db, now=now, autostart=None)}["month_image"]
    assert month.state is readiness.State.WARNING and "secret access key is missing" in render(month.says, "en")
    secrets.set_secret(hosting.SECRET_NAME, "entered-since")
    assert {r.key: r for r in readiness.check(db, now=now, autostart=None)}["month_image"].state is readiness.State.OK


def test_an_unusable_keyring_sends_the_month_as_a_message(
        db: Database, paths: DataPaths, line_group: LineEmulator, now: dt.datetime,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring
    from keyring.backends import fail

    ids = _month(db, now)
    _set_up_without_secret(db)
    monkeypatch.setenv("SHIFTCAST_LINE_TOKEN", TOKEN)  # LINE works without the keyring; hosting's secret cannot
    keyring.set_keyring(fail.Keyring())  # the autouse memory_keyring fixture restores the real one
    with db.write() as s:
        done = publish.publish(s, ids["room"], 2026, 12, now=now, store=ImageStore(paths.images))
    _send(db, now)
    _went_as_flex(db, done.delivery_id, line_group)
    [refused, _sent] = _attempts(db, done.delivery_id)
    assert refused[1] == "HOSTING_UNUSABLE" and "cannot be read" in refused[2], refused


def _publish_and_send_through(bucket: RefusingBucket, db: Database, paths: DataPaths,
                              now: dt.datetime) -> tuple[publish.Published, int]:
    """Publish with hosting on `bucket` and run the sender once: what was published, and how often
    the bucket was asked."""
    ids = _month(db, now)
    with bucket:
        bucket.configure(db)
        with db.write() as s:
            done = publish.publish(s, ids["room"], 2026, 12, now=now, store=ImageStore(paths.images))
        _send(db, now)
    return done, bucket.requests


def test_a_bucket_that_refuses_the_credentials_gets_the_month_sent_as_a_message(
        db: Database, paths: DataPaths, line_group: LineEmulator, now: dt.datetime, hosted: str) -> None:
    line_group.set_faults(FaultPlan(fail_next=1))  # the month as a message meets a LINE 500 first
    done, asked = _publish_and_send_through(RefusingBucket(403), db, paths, now)
    assert asked >= 1 and line_group.inbox(GROUP) == []
    # The hosting works again before the retry: it still sends the month as a message, as LINE wants
    # a retry with the same key to repeat its request.
    with db.write() as s:
        keys.HOSTING_ENDPOINT.write(s, hosted)
    _send(db, now + dt.timedelta(minutes=5))
    _went_as_flex(db, done.delivery_id, line_group)
    [refused, failed, sent] = _attempts(db, done.delivery_id)
    assert refused[:2] == ("throttled", "HOSTING_UNUSABLE") and "AccessDenied" in refused[2], refused
    assert failed[:2] == ("retry", "LINE_5XX") and sent[0] == "sent"
    pushes = [r for r in line_group.request_log() if r.path.endswith("/push")]
    assert [r.status for r in pushes] == [500, 200] and pushes[0].retry_key == pushes[1].retry_key
    # The readiness check, offline, says what the last month met, with the settings as its fix.
    month = {r.key: r for r in readiness.check(db, now=now, autostart=None)}["month_image"]
    assert (month.state, month.fix) == (readiness.State.WARNING, readiness.Fix.HOSTING)
    said = render(month.says, "en")
    assert said.startswith("image hosting is set up but does not work"), said
    assert "the image hosting refused the month sent at " in said and said.endswith("/page1-r1.png: AccessDenied"), said


def test_a_bucket_down_for_now_is_retried_and_nothing_goes_meanwhile(
        db: Database, paths: DataPaths, line_group: LineEmulator, now: dt.datetime) -> None:
    done, _asked = _publish_and_send_through(RefusingBucket(503), db, paths, now)
    with db.read() as s:
        d = s.get(Delivery, done.delivery_id)
        assert d is not None and (d.status, d.last_error_code) == (DeliveryStatus.QUEUED, "UPLOAD_FAILED")
    assert line_group.request_log() == []


def test_dry_run_reports_recipients_cost_and_quota_warning(db: Database, now: dt.datetime) -> None:
    ids = _month(db, now)
    with db.write() as s:
        keys.LINE_QUOTA.write(s, StoredQuota(limit=200, used=197))
    with db.read() as s:
        plan = publish.plan_publish(s, ids["room"], 2026, 12, now=now, members=5)
    assert (plan.group_id, plan.members, plan.messages, plan.drafts_to_confirm, plan.revision) == (GROUP, 5, 5, 2, 1)
    assert plan.warning and "3 messages left" in plan.warning
    with db.read() as s:
        assert s.scalar(select(Publication.id)) is None  # a dry run stores nothing


def test_publishing_without_a_group_records_the_month_and_owes_it_to_the_group(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    from core.planning import group_waiting

    with db.write() as s:
        room = f.classroom(s)
        f.shift(s, room, f.teacher(s), dt.date(2026, 12, 3), now=now)
        done = publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(paths.images))
        assert done.delivery_id is None and done.revision == 1
        assert group_waiting.owed(s, done.publication_id)


def test_a_classroom_without_a_line_group_publishes_by_email(db: Database, paths: DataPaths, now: dt.datetime) -> None:
    from core.store.models import Channel

    with db.write() as s:
        room = f.classroom(s)
        by_mail = rules.create_teacher(s, name="メール先生", email="mail@example.com", email_opt_in=True,
                                        channel="email")
        line_only = f.teacher(s, "LINE先生", 7)
        f.shift(s, room, by_mail, dt.date(2026, 12, 3), now=now)
        f.shift(s, room, line_only, dt.date(2026, 12, 4), now=now)
        done = publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(paths.images))
        rows = s.scalars(select(Delivery).where(Delivery.about("publication", done.publication_id))).all()
    assert done.delivery_id is None and len(done.email_deliveries) == 1
    assert [(d.channel, d.teacher_id) for d in rows] == [(Channel.EMAIL, by_mail.id)]
