"""What a sync hands the relay, read from a real database: the request the sender would make, the
key it would derive, and pages that a delivery failing its send-time checks does not hold up."""

from __future__ import annotations

import datetime as dt

import pytest

from core.channels import line
from core.relay import uploads
from core.roster import rules
from core.store import identity
from core.store.db import Database
from core.store.models import Delivery, RelayUpload, Shift, Teacher
from core.store.paths import DataPaths
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
