"""The teachers' page documents (core/pages/documents.py) for a seeded, published month on a real SQLite
database: exactly the fields the page reads, a teacher's own shifts and classrooms only, what changed since
they were told, the 了解 data and whether it was given, the manager's two days, and the size of a full month."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from core.calendar import feeds
from core.messages import ack
from core.outbox import policy
from core.pages import documents, jsontext
from core.pages.entry import PageEntry, PageKind
from core.publication import publish
from core.publication.image_store import ImageStore
from core.receiving import acknowledge
from core.roster import availability, edits, rules
from core.roster.availability_text import DayAnswer
from core.store import ack_key
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Channel, Delivery, DeliveryKind, DeliveryStatus, Shift, ShiftStatus, SubjectType
from core.texts import render, t
from tests import factories as f
from tests.linefixtures import user_id

NOW = dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC)  # 09:00 on 1 December in Tokyo
RELAY = "https://relay.example"
MANAGER = "U" + "f" * 32
PERSON_FIELDS = {"v", "role", "name", "language", "built_at", "classrooms", "shifts", "availability", "covers",
                 "calendar_url", "manager"}


@dataclass(frozen=True)
class Seeded:
    honcho: int  # 本町教室: 佐藤 and 鈴木, December published
    ekimae: int  # 駅前教室: 田中, December published
    sato: int
    suzuki: int
    tanaka: int
    shifts: dict[str, int]


def seed(db: Database) -> Seeded:
    """Two classrooms, each with its teachers' shifts in December, both published at NOW."""
    with db.write() as s:
        honcho, ekimae = f.classroom(s, "本町教室"), f.classroom(s, "駅前教室")
        sato, suzuki, tanaka = f.teacher(s, "佐藤 花子", 1), f.teacher(s, "鈴木 次郎", 2), f.teacher(s, "田中 一郎", 3)
        shifts = {
            "sato_1": f.shift(s, honcho, sato, dt.date(2026, 12, 1), "16:00", "20:00", now=NOW).id,
            "sato_7": f.shift(s, honcho, sato, dt.date(2026, 12, 7), "16:00", "20:00", now=NOW, note="国語").id,
            "suzuki_2": f.shift(s, honcho, suzuki, dt.date(2026, 12, 2), "17:00", "21:00", now=NOW).id,
            "tanaka_5": f.shift(s, ekimae, tanaka, dt.date(2026, 12, 5), "15:00", "19:00", now=NOW).id,
        }
        ids = honcho.id, ekimae.id, sato.id, suzuki.id, tanaka.id
    with db.write() as s:
        for room in ids[:2]:
            publish.publish(s, room, 2026, 12, now=NOW, store=ImageStore(f.home_paths().images))
    return Seeded(*ids, shifts)


def built(db: Database, now: dt.datetime = NOW) -> dict[tuple[str, str], PageEntry]:
    with db.write() as s:  # a teacher's calendar address is made the first time
        return {(e.kind.value, e.key): e for e in documents.entries(s, now=now, relay_url=RELAY)}


def body(entry: PageEntry) -> dict[str, Any]:
    document = json.loads(entry.body)
    assert isinstance(document, dict)
    return document


def sent_reminder(s: Session, shift_id: int, *, kind: str = DeliveryKind.SHIFT_REMINDER.value,
                  status: DeliveryStatus = DeliveryStatus.SENT, error: bool = False) -> int:
    """A reminder of the shift's current version as the sender leaves it once LINE took it (or refused it)."""
    shift = s.get(Shift, shift_id)
    assert shift is not None
    row = Delivery(kind=kind, channel=Channel.LINE.value, dedup_key=f"test:{kind}:{shift.id}:{shift.version}",
                   recipient=user_id(shift.teacher_id), teacher_id=shift.teacher_id, classroom_id=shift.classroom_id,
                   subject_type=SubjectType.SHIFT.value, subject_id=shift.id, subject_version=shift.version,
                   status=status, last_error_code="LINE_400" if error else None,
                   last_error_message=policy.stored_error(t("send_error.CONNECTION_ERROR", said="")) if error else None, due_at=NOW, next_attempt_at=NOW,
                   sent_at=NOW if status == DeliveryStatus.SENT else None)
    s.add(row)
    s.flush()
    return row.id


def test_a_teacher_s_document_has_exactly_the_page_s_fields_and_only_their_own_classroom(db: Database) -> None:
    seeded = seed(db)
    found = built(db)
    sato = body(found[("person", user_id(1))])
    assert set(sato) == PERSON_FIELDS
    assert (sato["v"], sato["role"], sato["name"], sato["language"], sato["built_at"]) == (
        1, "teacher", "佐藤 花子", "ja", "2026-12-01T00:00:00Z")
    # December is published, January not: the page has nothing to show of January yet.
    assert sato["classrooms"] == [{"key": f"c{seeded.honcho}", "name": "本町教室", "time_zone": "Asia/Tokyo",
                                   "months": ["2026-12"]}]
    assert sato["shifts"] == [
        {"id": seeded.shifts["sato_1"], "classroom": f"c{seeded.honcho}", "date": "2026-12-01", "start": "16:00",
         "end": "20:00", "note": "", "change": None, "acked": False, "ack": None},
        {"id": seeded.shifts["sato_7"], "classroom": f"c{seeded.honcho}", "date": "2026-12-07", "start": "16:00",
         "end": "20:00", "note": "国語", "change": None, "acked": False, "ack": None}]
    assert (sato["availability"], sato["covers"], sato["manager"]) == ([], [], None)
    with db.read() as s:
        feed = feeds.feed_of(s, seeded.sato)
        assert feed is not None
    # The teacher's private calendar address, made once and kept.
    assert sato["calendar_url"] == f"{RELAY}/ics/{feed.token}.ics" == body(built(db)[("person", user_id(1))])["calendar_url"]
    tanaka = body(found[("person", user_id(3))])
    assert [c["key"] for c in tanaka["classrooms"]] == [f"c{seeded.ekimae}"]
    assert [s["id"] for s in tanaka["shifts"]] == [seeded.shifts["tanaka_5"]]
    # 7 days after December ends in Tokyo, as the contract's example.
    assert found[("person", user_id(1))].as_put()["purge_after"] == "2027-01-07T15:00:00Z"


def test_a_classroom_document_lists_its_published_month_by_day_with_display_names_only(db: Database) -> None:
    seeded = seed(db)
    found = built(db)
    assert {k for k in found if k[0] == "classroom"} == {
        ("classroom", f"c{seeded.honcho}/2026-12"), ("classroom", f"c{seeded.ekimae}/2026-12")}
    entry = found[("classroom", f"c{seeded.honcho}/2026-12")]
    month = body(entry)
    assert set(month) == {"v", "classroom", "name", "month", "built_at", "days"}
    assert (month["classroom"], month["name"], month["month"]) == (f"c{seeded.honcho}", "本町教室", "2026-12")
    assert len(month["days"]) == 31
    assert month["days"][0] == {"date": "2026-12-01", "closed": False, "holiday": None,
                                "shifts": [{"teacher": "佐藤 花子", "start": "16:00", "end": "20:00"}]}
    assert month["days"][1]["shifts"] == [{"teacher": "鈴木 次郎", "start": "17:00", "end": "21:00"}]
    assert all(d["shifts"] == [] for d in month["days"] if d["date"] == "2026-12-05")  # 田中 is 駅前's
    assert "U0000" not in entry.body and "田中" not in entry.body
    assert entry.as_put()["purge_after"] == "2027-01-07T15:00:00Z"
    # Written one way: sorted keys, no spaces, so the same content is the same text.
    assert entry.body == json.dumps(month, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def test_what_changed_since_the_teacher_was_told_new_moved_and_canceled(db: Database) -> None:
    seeded = seed(db)
    later = NOW + dt.timedelta(hours=1)
    with db.write() as s:
        room, sato = rules.get_classroom(s, seeded.honcho), rules.get_teacher(s, seeded.sato)
        added = f.shift(s, room, sato, dt.date(2026, 12, 9), now=later, status=ShiftStatus.CONFIRMED).id
        change = edits.RosterEdits(s, later)
        change.edit_shift(seeded.shifts["sato_7"], rules.ShiftChange(start_time=dt.time(17, 0)))
        change.cancel_shift(seeded.shifts["sato_1"])
        draft_then_canceled = f.shift(s, room, sato, dt.date(2026, 12, 11), now=later, status=ShiftStatus.CONFIRMED).id
        change.cancel_shift(draft_then_canceled)  # never told of it: not listed
    sato_doc = body(built(db, later)[("person", user_id(1))])
    changes = {s["id"]: s["change"] for s in sato_doc["shifts"]}
    assert changes[added] == {"kind": "new", "was": None}
    assert changes[seeded.shifts["sato_7"]] == {"kind": "moved",
                                                "was": {"date": "2026-12-07", "start": "16:00", "end": "20:00"}}
    # A canceled shift stays listed, saying what it was.
    assert changes[seeded.shifts["sato_1"]] == {"kind": "canceled",
                                                "was": {"date": "2026-12-01", "start": "16:00", "end": "20:00"}}
    assert draft_then_canceled not in changes
    # 鈴木 was told by the publication and nothing changed for him.
    assert [s["change"] for s in body(built(db, later)[("person", user_id(2))])["shifts"]] == [None]


def test_the_了解_data_is_the_latest_reminder_s_button_and_acked_follows_any_channel(db: Database) -> None:
    seeded = seed(db)
    with db.write() as s:
        acknowledge.enable(s, True)
        reminder = sent_reminder(s, seeded.shifts["sato_7"])
        key = ack_key.held_key(s)
    assert key is not None
    [first, second] = body(built(db)[("person", user_id(1))])["shifts"]
    assert (first["ack"], first["acked"]) == (None, False)  # no reminder sent for it yet
    assert (second["ack"], second["acked"]) == (ack.postback_data(key, reminder), False)
    with db.write() as s:
        row = s.get(Delivery, reminder)
        assert row is not None
        row.channel = Channel.EMAIL.value  # acknowledged by e-mail: the page shows it all the same
        row.acknowledged_at = NOW
    [_, second] = body(built(db)[("person", user_id(1))])["shifts"]
    assert (second["ack"], second["acked"]) == (None, True)


def test_the_manager_s_document_shows_today_and_tomorrow_who_failed_and_who_has_not_answered(db: Database) -> None:
    seeded = seed(db)
    with db.write() as s:
        keys.ALERTS_LINE_USER_ID.write(s, MANAGER)
        sent_reminder(s, seeded.shifts["sato_1"], status=DeliveryStatus.FAILED, error=True)
        request = availability.ask(s, seeded.honcho, 2027, 1, dt.date(2026, 12, 20), [seeded.sato, seeded.suzuki],
                                   now=NOW)
        availability.record(s, request, seeded.sato, [DayAnswer(dt.date(2027, 1, 4), "yes")], source="page", at=NOW)
    found = built(db)
    boss = body(found[("person", MANAGER)])
    assert set(boss) == PERSON_FIELDS and boss["role"] == "manager"
    assert [c["key"] for c in boss["classrooms"]] == [f"c{seeded.honcho}", f"c{seeded.ekimae}"]
    days = boss["manager"]["days"]
    assert [d["date"] for d in days] == ["2026-12-01", "2026-12-02"]
    [honcho_today, ekimae_today] = days[0]["classrooms"]
    assert honcho_today["shifts"] == [{"teacher": "佐藤 花子", "start": "16:00", "end": "20:00", "acked": False,
                                       "failed": render(t("send_error.CONNECTION_ERROR", said=""), "ja")}]
    assert ekimae_today["shifts"] == [] and ekimae_today["unanswered"] == []
    assert honcho_today["unanswered"] == [{"request": request.id, "month": "2027-01", "teacher": seeded.suzuki,
                                           "name": "鈴木 次郎", "reminded": False}]
    assert days[1]["classrooms"][0]["shifts"][0]["teacher"] == "鈴木 次郎"
    # The teacher asked sees the open request with their answer and its source.
    sato = body(found[("person", user_id(1))])
    assert sato["availability"] == [{
        "request": request.id, "classroom": f"c{seeded.honcho}", "month": "2027-01", "deadline": "2026-12-20",
        "late": False, "closed_days": ["2027-01-01", "2027-01-11"],
        "answers": [{"date": "2027-01-04", "answer": "yes", "from": None, "to": None, "source": "page"}]}]


def test_an_unchanged_document_keeps_its_fingerprint_from_one_sync_to_the_next(db: Database) -> None:
    seed(db)
    first = {k: jsontext.fingerprint(e) for k, e in built(db).items()}
    again = {k: jsontext.fingerprint(e) for k, e in built(db, NOW + dt.timedelta(minutes=1)).items()}
    assert first == again
    assert all(e.kind in (PageKind.PERSON, PageKind.CLASSROOM) for e in built(db).values())


def test_a_month_of_thirty_teachers_is_a_classroom_document_of_at_most_50_kb(db: Database) -> None:
    with db.write() as s:
        room = f.classroom(s, "本町教室")
        for n in range(1, 31):
            who = f.teacher(s, f"講師 {n:02d}番", n)
            for day in range(1, 25, 2):
                f.shift(s, room, who, dt.date(2026, 12, day), "16:00", "20:30", now=NOW)
        room_id = room.id
    with db.write() as s:
        publish.publish(s, room_id, 2026, 12, now=NOW, store=ImageStore(f.home_paths().images))
    entry = built(db)[("classroom", f"c{room_id}/2026-12")]
    assert sum(len(d["shifts"]) for d in body(entry)["days"]) == 30 * 12
    assert len(entry.body.encode("utf-8")) <= 50_000
