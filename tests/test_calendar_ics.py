"""A teacher's shifts as iCalendar (core/calendar/ics.py), read back with the icalendar library: the
confirmed shifts of published months only, on the classroom's clock with its VTIMEZONE, a UID that stays
and a SEQUENCE that grows when a shift changes, canceled shifts gone; the feed's months and its entries."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar

from core.calendar import feed, feeds, ics
from core.publication import publish
from core.publication.image_store import ImageStore
from core.roster import rules
from core.store.db import Database
from core.store.models import ShiftStatus
from tests import factories as f

TOKYO = ZoneInfo("Asia/Tokyo")
RELAY = "https://relay.example.workers.dev"


def _events(data: bytes) -> dict[str, Any]:  # each property its own type: read as the test knows it
    calendar = Calendar.from_ical(data)
    return {str(e["UID"]): e for e in calendar.walk("VEVENT")}


def _roster(db: Database, now: dt.datetime, tmp_path: Path) -> dict[str, int]:
    """本校 publishes December; 佐藤 has two confirmed shifts there and a draft in January (unpublished),
    鈴木 one shift of their own."""
    with db.write() as s:
        room = f.classroom(s, "本町教室")
        other = f.classroom(s, "Riverside", language="en")
        sato, suzuki = f.teacher(s, "佐藤 花子", 1), f.teacher(s, "鈴木 次郎", 2)
        first = f.shift(s, room, sato, dt.date(2026, 12, 7), "16:00", "20:00", now=now, note="鍵当番")
        late = f.shift(s, room, sato, dt.date(2026, 12, 19), "22:00", "25:00", now=now)
        theirs = f.shift(s, room, suzuki, dt.date(2026, 12, 7), "16:00", "20:00", now=now)
        january = f.shift(s, room, sato, dt.date(2027, 1, 5), now=now, status=ShiftStatus.CONFIRMED)
        english = f.shift(s, other, sato, dt.date(2026, 12, 8), "10:00", "12:00", now=now)
        publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(tmp_path / "images"))
        publish.publish(s, other.id, 2026, 12, now=now, store=ImageStore(tmp_path / "images"))
        return {"room": room.id, "sato": sato.id, "suzuki": suzuki.id, "first": first.id, "late": late.id,
                "theirs": theirs.id, "january": january.id, "english": english.id}


def test_only_the_teachers_confirmed_shifts_of_published_months_with_the_classrooms_clock(
        db: Database, now: dt.datetime, tmp_path: Path) -> None:
    ids = _roster(db, now, tmp_path)
    with db.write() as s:
        unpublished_draft = f.shift(s, rules.get_classroom(s, ids["room"]), rules.get_teacher(s, ids["sato"]),
                                    dt.date(2026, 12, 20), now=now).id  # a draft added after publishing
    with db.read() as s:
        data = ics.calendar_for(s, ids["sato"], months=[(2026, 12), (2027, 1)], now=now)
    calendar = Calendar.from_ical(data)
    events = _events(data)
    assert set(events) == {ics.uid(ids["first"]), ics.uid(ids["late"]), ics.uid(ids["english"])}
    assert ics.uid(ids["theirs"]) not in events and ics.uid(unpublished_draft) not in events
    assert ics.uid(ids["january"]) not in events  # confirmed, but January was never published

    first = events[f"shift-{ids['first']}@shiftcast"]
    start = first["DTSTART"]
    assert start.params["TZID"] == "Asia/Tokyo"
    assert start.dt == dt.datetime(2026, 12, 7, 16, 0, tzinfo=TOKYO)
    assert first["DTEND"].dt == dt.datetime(2026, 12, 7, 20, 0, tzinfo=TOKYO)
    assert str(first["SUMMARY"]) == "本町教室のシフト"
    assert str(first["LOCATION"]) == "本町教室"
    assert str(first["DESCRIPTION"]) == "鍵当番"
    assert str(first["STATUS"]) == "CONFIRMED"
    assert "DTSTAMP" in first
    late = events[ics.uid(ids["late"])]
    assert late["DTEND"].dt == dt.datetime(2026, 12, 20, 1, 0, tzinfo=TOKYO)  # ends after midnight
    assert "DESCRIPTION" not in late
    assert str(events[ics.uid(ids["english"])]["SUMMARY"]) == "Riverside shift"  # in that classroom's language

    assert [str(z["TZID"]) for z in calendar.walk("VTIMEZONE")] == ["Asia/Tokyo"]
    assert str(calendar["X-WR-CALNAME"]) == "佐藤 花子さんのシフト"
    lines = data.decode().split("\r\n")
    assert "X-PUBLISHED-TTL:PT1H" in lines and "REFRESH-INTERVAL;VALUE=DURATION:PT1H" in lines


def test_a_changed_shift_keeps_its_uid_and_its_sequence_grows_and_a_canceled_one_leaves(
        db: Database, now: dt.datetime, tmp_path: Path) -> None:
    ids = _roster(db, now, tmp_path)
    with db.read() as s:
        before = _events(ics.calendar_for(s, ids["sato"], months=[(2026, 12)], now=now))
    with db.write() as s:
        rules.edit_shift(s, ids["first"], rules.ShiftChange(start_time=dt.time(17, 0)), now=now)
        rules.cancel_shift(s, ids["late"], now=now)
    with db.read() as s:
        after = _events(ics.calendar_for(s, ids["sato"], months=[(2026, 12)], now=now))
    uid = ics.uid(ids["first"])
    assert int(after[uid]["SEQUENCE"]) == int(before[uid]["SEQUENCE"]) + 1
    assert after[uid]["DTSTART"].dt == dt.datetime(2026, 12, 7, 17, 0, tzinfo=TOKYO)
    assert ics.uid(ids["late"]) in before and ics.uid(ids["late"]) not in after


def test_the_months_asked_for_and_the_feeds_own_months(db: Database, now: dt.datetime, tmp_path: Path) -> None:
    ids = _roster(db, now, tmp_path)
    with db.write() as s:
        publish.publish(s, ids["room"], 2027, 1, now=now, store=ImageStore(tmp_path / "images"))
    with db.read() as s:
        january = _events(ics.calendar_for(s, ids["sato"], months=[(2027, 1)], now=now))
        november = Calendar.from_ical(ics.calendar_for(s, ids["sato"], months=[(2026, 11)], now=now))
        around = _events(ics.calendar_for(s, ids["sato"], months=None, now=now))
    assert set(january) == {ics.uid(ids["january"])}
    assert november.walk("VEVENT") == [] and november.walk("VTIMEZONE") == []
    assert set(around) == {ics.uid(ids[k]) for k in ("first", "late", "english", "january")}
    # 1 Dec 00:00 UTC is 09:00 in Tokyo but still 30 Nov in Honolulu: both clocks' months are shown.
    assert ics.feed_months(now, ["Asia/Tokyo"]) == [(2026, 11), (2026, 12), (2027, 1)]
    assert ics.feed_months(now, ["Asia/Tokyo", "Pacific/Honolulu"]) == [(2026, 10), (2026, 11), (2026, 12), (2027, 1)]


def test_calendar_entries_carry_paired_teachers_with_an_address_under_the_tokens_hash(
        db: Database, now: dt.datetime, tmp_path: Path) -> None:
    ids = _roster(db, now, tmp_path)
    with db.write() as s:
        unpaired = rules.create_teacher(s, name="田中", email="tanaka@example.com", email_opt_in=True, channel="email")
        url = feeds.feed_url(s, ids["sato"], RELAY + "/")
        assert feeds.feed_url(s, ids["sato"], RELAY) == url  # made once
        feeds.feed_url(s, unpaired.id, RELAY)  # an address, but no LINE to open the page from
    token = url.removeprefix(RELAY + "/ics/").removesuffix(".ics")
    assert len(token) == 43 and url == f"{RELAY}/ics/{token}.ics"
    with db.read() as s:
        entries = feed.calendar_entries(s, now=now, relay_url=RELAY)
    assert [(e.kind.value, e.key) for e in entries] == [("calendar", hashlib.sha256(token.encode()).hexdigest())]
    entry = entries[0]
    assert entry.purge_after == dt.datetime(2027, 2, 8, 0, 0, tzinfo=TOKYO)  # January ends, and 7 days
    body = Calendar.from_ical(entry.body)
    assert str(body["SOURCE"]) == url
    assert {str(e["UID"]) for e in body.walk("VEVENT")} == {ics.uid(ids[k]) for k in ("first", "late", "english")}
    assert entry.as_put()["purge_after"] == "2027-02-07T15:00:00Z"


def test_a_new_address_replaces_the_old_one_in_the_entries(db: Database, now: dt.datetime, tmp_path: Path) -> None:
    ids = _roster(db, now, tmp_path)
    with db.write() as s:
        old = feeds.feed_url(s, ids["sato"], RELAY)
    with db.read() as s:
        before = {e.key for e in feed.calendar_entries(s, now=now, relay_url=RELAY)}
    with db.write() as s:
        feeds.revoke(s, ids["sato"])
        new = feeds.feed_url(s, ids["sato"], RELAY)
    assert new != old
    old_key = hashlib.sha256(old.split("/ics/")[1].removesuffix(".ics").encode()).hexdigest()
    new_key = hashlib.sha256(new.split("/ics/")[1].removesuffix(".ics").encode()).hexdigest()
    with db.read() as s:
        after = {e.key for e in feed.calendar_entries(s, now=now, relay_url=RELAY)}
    assert before == {old_key} and after == {new_key}


def test_an_unknown_teacher_is_refused(db: Database, now: dt.datetime) -> None:
    from core.errors import NotFoundError

    with db.read() as s, pytest.raises(NotFoundError):
        ics.calendar_for(s, 999, months=None, now=now)
