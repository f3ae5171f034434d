"""What a sync hands the relay, read from a real database: the request the sender would make, the
key it would derive, and pages that a delivery failing its send-time checks does not hold up."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from core.channels import line
from core.publication import publish
from core.publication.image_store import ImageStore
from core.relay import uploads
from core.roster import rules
from core.store import identity
from core.store.db import Database
from core.store.models import Delivery, DeliveryStatus, Publication, RelayUpload, Shift, Teacher
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import make_reminders

pytestmark = pytest.mark.backends("sqlite", "postgresql")


def test_an_upload_is_the_sender_s_request_with_the_key_it_derives_until_the_shift_starts(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    [reminder] = make_reminders(db, 1, now=now)
    with db.write() as s:
        page = uploads.sends(s, now=now, paths=paths)
        delivery, shift = s.get_one(Delivery, reminder), s.get_one(Shift, s.get_one(Delivery, reminder).subject_id)
        assert delivery.recipient is not None
        key = identity.retry_key(identity.database_identity(s), delivery.dedup_key, shift.uid, delivery.recipient,
                                 0)
        starts = rules.shift_instants(shift)[0]
    [upload] = page.uploads
    entry = upload.entry
    assert entry["id"] == f"d{reminder}" and entry["path"] == line.SEND_PATHS["push"]
    assert entry["body"]["to"] == delivery.recipient and entry["body"]["messages"][0]["type"] == "flex"
    assert entry["retry_key"] == key and "retry_key_issued_at" not in entry
    assert dt.datetime.fromisoformat(entry["not_after"]) == starts
    assert dt.datetime.fromisoformat(entry["due_at"]) == now
    with db.write() as s:  # handed over: not again
        uploads.remember(s, page.uploads, [], now=now)
        assert uploads.sends(s, now=now, paths=paths).uploads == []
        assert uploads.cancels(s) == []


def test_deliveries_that_fail_their_checks_now_do_not_hold_back_the_ones_after_them(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    first, second, third = make_reminders(db, 3, now=now)
    with db.write() as s:  # the first two teachers left: their reminders would be canceled at send time
        for delivery_id in (first, second):
            s.get_one(Teacher, s.get_one(Delivery, delivery_id).teacher_id).active = False
    with db.write() as s:
        page = uploads.sends(s, now=now, paths=paths, limit=2)
        assert page.uploads == [] and page.full
        rest = uploads.sends(s, now=now, paths=paths, after=page.last, limit=2)
        assert [u.delivery_id for u in rest.uploads] == [third] and not rest.full
        assert s.get(RelayUpload, third) is None  # only remember() records an upload


def _month_published(db: Database, paths: DataPaths, now: dt.datetime) -> tuple[int, int]:
    """December 2026 of a Tokyo classroom with a LINE group, published without any image host."""
    with db.write() as s:
        room = f.classroom(s, "分校", line_group_id="C" + "3" * 32)
        f.shift(s, room, f.teacher(s, "佐藤", 901), dt.date(2026, 12, 3), now=now)
        done = publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(paths.images))
    assert done.publication_id is not None and done.delivery_id is not None
    return done.publication_id, done.delivery_id


def test_a_published_month_is_handed_over_as_the_sender_s_request_until_the_month_is_over(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    publication_id, delivery_id = _month_published(db, paths, now)
    with db.write() as s:
        page = uploads.sends(s, now=now, paths=paths)
        delivery, publication = s.get_one(Delivery, delivery_id), s.get_one(Publication, publication_id)
        key = identity.retry_key(identity.database_identity(s), delivery.dedup_key, publication.uid,
                                 "C" + "3" * 32, 0)
    [upload] = page.uploads
    entry = upload.entry
    assert entry["id"] == f"d{delivery_id}" and entry["path"] == line.SEND_PATHS["push"]
    assert entry["body"]["to"] == "C" + "3" * 32
    assert [m["type"] for m in entry["body"]["messages"]] == ["flex"] * len(entry["body"]["messages"])
    assert entry["retry_key"] == key
    # Not after December on the classroom's clock: midnight of 1 January in Tokyo.
    assert dt.datetime.fromisoformat(entry["not_after"]) == dt.datetime(2026, 12, 31, 15, 0, tzinfo=dt.UTC)


def test_a_request_larger_than_the_relay_takes_stays_with_the_app_and_holds_back_nothing(
        db: Database, paths: DataPaths, now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    [reminder] = make_reminders(db, 1, now=now)
    _, month = _month_published(db, paths, now)
    with db.write() as s:
        sizes = {u.delivery_id: len(json.dumps(u.entry["body"], ensure_ascii=False, separators=(",", ":")))
                 for u in uploads.sends(s, now=now, paths=paths).uploads}
    assert sizes[reminder] < sizes[month]
    monkeypatch.setattr(uploads, "MAX_BODY_CHARS", sizes[month] - 1)  # the reminder fits, the Flex month not
    with db.write() as s:
        assert [u.delivery_id for u in uploads.sends(s, now=now, paths=paths).uploads] == [reminder]
        assert s.get(RelayUpload, month) is None


def test_a_hand_over_is_recorded_before_the_relay_answers_so_its_cancel_follows_and_it_is_offered_again(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    first, second = make_reminders(db, 2, now=now)
    with db.write() as s:  # picked and recorded; the relay's answer never came
        picked = uploads.sends(s, now=now, paths=paths).uploads
        uploads.hand_over(s, picked, now=now)
    with db.write() as s:
        assert [u.delivery_id for u in uploads.sends(s, now=now, paths=paths).uploads] == [first, second]
        s.get_one(Delivery, first).status = DeliveryStatus.CANCELED
    with db.write() as s:
        [cancel] = uploads.cancels(s)
        assert cancel.entry == {"id": f"d{first}", "subject_version": cancel.subject_version, "cancel": True}
        again = uploads.sends(s, now=now, paths=paths).uploads
        assert [u.delivery_id for u in again] == [second]
        uploads.remember(s, again, [cancel], now=now)
    with db.write() as s:
        assert uploads.sends(s, now=now, paths=paths).uploads == [] and uploads.cancels(s) == []
        assert s.get_one(RelayUpload, second).confirmed_at == now
