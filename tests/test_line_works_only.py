"""A classroom on LINE WORKS alone, with no LINE Official Account: a fresh data folder still says to
connect LINE, but once LINE WORKS is set up with a classroom's message room and teachers' LINE WORKS
IDs, doctor is content, the month is published to the room, the reminders go through the stand-in,
the receiver starts without a LINE channel secret and takes a 了解 tap that the month grid then
shows, and the manager is nudged about a LINE WORKS reminder left untapped, never about an e-mail one
(e-mail has no 了解). Real stand-in over loopback, real SQLite, the in-memory keyring."""

from __future__ import annotations

import datetime as dt
import json
import threading
import urllib.error
import urllib.request

import pytest
from sqlalchemy import select

from core.channels import line_works_credentials
from core.channels.line_works_client import KEY
from core.emulator.line_works import WorksStandIn
from core.planning import month_grid
from core.planning.planner import plan
from core.publication import publish as publication
from core.publication.image_store import ImageStore
from core.receiving import acknowledge, line_works_callback
from core.receiving.address import LoopbackAddress
from core.roster import rooms, rules
from core.setup import publishing, readiness, receiving
from core.setup.line_connect import remember_address
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus, ShiftStatus, SubjectType
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import FakeClock
from tests.test_new_channel import _send
from tests.waiting import PATIENCE_S
from tests.worksfixtures import credentials, member, point_at, teacher_on_works, works  # noqa: F401

DAY = dt.date(2026, 12, 1)  # the tests' clock is 09:00 in Tokyo that day: a 10:00 shift's reminder is due
ROOM = "room-1"


@pytest.fixture
def clock(now: dt.datetime) -> FakeClock:
    return FakeClock(now)


def _set_up_works(db: Database, standin: WorksStandIn) -> None:
    line_works_credentials.save(db, credentials())
    point_at(db, standin)
    standin.add_channel(ROOM)
    for n in (1, 2):
        standin.add_user(member(n))


def _classroom(db: Database, now: dt.datetime) -> tuple[int, list[int]]:
    """A classroom whose month goes to its LINE WORKS room, and a confirmed shift for each of two
    teachers on LINE WORKS; (classroom id, shift ids)."""
    with db.write() as s:
        room = f.classroom(s)
        rooms.set_room(s, room.id, KEY, ROOM)
        shifts = [f.shift(s, room, rules.get_teacher(s, teacher_on_works(s, name, n)), DAY, start, end, now=now,
                          status=ShiftStatus.CONFIRMED).id
                  for name, n, start, end in (("佐藤", 1, "10:00", "12:00"), ("鈴木", 2, "10:30", "12:00"))]
        return room.id, shifts


def test_a_fresh_folder_says_connect_line_and_line_works_alone_is_ready_for_doctor(
        db: Database, now: dt.datetime, works: WorksStandIn, capsys: pytest.CaptureFixture[str]) -> None:
    first_day = readiness.check(db, now=now, autostart=None)
    [line] = [r for r in first_day if r.key == "line"]
    assert line.state is readiness.State.BLOCKING and line.says.code == "readiness.line.missing"

    _set_up_works(db, works)
    _classroom(db, now)
    import main

    code = main.main(["--lang", "en", "doctor", "--json"])
    report = json.loads(capsys.readouterr().out)
    by_key = {r["key"]: r for r in report["requirements"]}
    assert code == 0 and report["blocking"] is False, report
    assert (by_key["line"]["state"], by_key["line"]["code"]) == ("ok", "readiness.line.not_used")
    assert {by_key[k]["state"] for k in ("classroom_groups", "teachers", "line_works")} == {"ok"}

    with db.write() as s:  # a teacher who chose LINE makes LINE needed again
        f.teacher(s, "田中", 3)
    [line] = [r for r in readiness.check(db, now=now, autostart=None) if r.key == "line"]
    assert line.state is readiness.State.BLOCKING


def test_the_month_is_published_to_the_classroom_s_line_works_room(
        db: Database, paths: DataPaths, now: dt.datetime, clock: FakeClock, works: WorksStandIn) -> None:
    _set_up_works(db, works)
    room_id, _ = _classroom(db, now)
    with db.read() as s:
        planned = publication.plan_publish(s, room_id, 2026, 12, now=now)
    assert planned.rooms == {KEY: ROOM} and planned.group_id is None
    assert publishing.missing(db, room_id, now=now) == ()

    outcome = publishing.publish(db, room_id, 2026, 12, now=now, store=ImageStore(paths.images))
    assert outcome.waiting_for == () and outcome.published.delivery_id is None
    [delivery_id] = outcome.published.room_deliveries.values()
    assert list(outcome.published.room_deliveries) == [KEY]
    _send(db, clock)
    [content] = works.to(ROOM)
    assert content["type"] == "image"
    with db.read() as s:
        assert s.get(Delivery, delivery_id).status == DeliveryStatus.SENT  # type: ignore[union-attr]


def reminded(db: Database, now: dt.datetime, clock: FakeClock, works: WorksStandIn) -> tuple[int, list[int]]:
    """LINE WORKS set up, the classroom's two teachers reminded with a 了解 button; (classroom id, shift ids)."""
    _set_up_works(db, works)
    room_id, shifts = _classroom(db, now)
    with db.write() as s:
        acknowledge.enable(s, True)
        plan(s, now=now)
    _send(db, clock)
    return room_id, shifts


def test_reminders_go_and_a_tap_reaches_a_receiver_started_without_a_line_secret(
        db: Database, now: dt.datetime, clock: FakeClock, works: WorksStandIn) -> None:
    room_id, shifts = reminded(db, now, clock, works)
    [first] = works.to(member(1))
    [second] = works.to(member(2))
    assert "10:00" in first["contentText"] and "10:30" in second["contentText"]

    remember_address(db, LoopbackAddress(), 0)  # where the bot's callback reaches this computer
    service = receiving.Receiving(db, handlers=[], clock=clock)
    started = threading.Event()
    service.listeners.append(lambda state: started.set() if state.receiving else None)
    service.start()
    try:
        assert started.wait(PATIENCE_S), service.state.words
        callback = receiving.callback_address(db, line_works_callback.PATH)
        assert callback is not None and callback.endswith("/line-works/callback")
        works.callback_url = callback
        assert works.tap(member(1), "了解") == 200
        line_webhook = urllib.request.Request(service.state.endpoint or "", data=b'{"events":[]}', method="POST",
                                              headers={"X-Line-Signature": "c2lnbmVk"})
        with pytest.raises(urllib.error.HTTPError) as refused:  # no LINE channel secret: LINE's route refuses
            urllib.request.urlopen(line_webhook, timeout=PATIENCE_S)
        assert refused.value.code == 401
    finally:
        service.stop()

    month = month_grid.load_month(db, room_id, 2026, 12, now=now)
    marks = {item.id: item.acknowledged_at for item in month.shifts}
    assert marks[shifts[0]] is not None and marks[shifts[1]] is None
    requirements = readiness.check(db, now=now, autostart=None, receiving_now=readiness.receiving_facts(db))
    [heard] = [r for r in requirements if r.key == "receiving"]
    assert heard.says.code == "readiness.receiving.works_not"  # stopped now: the taps would not arrive


def test_the_manager_is_nudged_about_an_untapped_line_works_reminder_not_an_e_mail_one(
        db: Database, now: dt.datetime, clock: FakeClock, works: WorksStandIn) -> None:
    _set_up_works(db, works)
    room_id, [on_works, _] = _classroom(db, now)
    with db.write() as s:
        room = rules.get_classroom(s, room_id)
        mailed = rules.create_teacher(s, name="高橋", channel="email",
                                      contacts_in={"email": rules.ContactChange("takahashi@example.com", True)})
        by_mail = f.shift(s, room, mailed, DAY, "11:00", "12:00", now=now, status=ShiftStatus.CONFIRMED).id
        acknowledge.enable(s, True)
        keys.NUDGE_UNACKNOWLEDGED.of(room_id).write(s, True)
        keys.ALERTS_EMAIL.write(s, "manager@example.com")
        plan(s, now=now)
        # The e-mail reminder went (no mail server here: it is marked as the sender would have).
        for delivery in s.scalars(select(Delivery).where(Delivery.channel == "email",
                                                         Delivery.kind == DeliveryKind.SHIFT_REMINDER)):
            delivery.status, delivery.sent_at = DeliveryStatus.SENT, now
    _send(db, clock)
    assert len(works.to(member(1))) == 1
    later = now + dt.timedelta(minutes=30)
    with db.write() as s:
        plan(s, now=later)
        nudged = set(s.scalars(select(Delivery.subject_id).where(
            Delivery.kind == DeliveryKind.UNACKNOWLEDGED_NUDGE, Delivery.subject_type == SubjectType.SHIFT)))
        mailed_reminders = s.scalars(select(Delivery.subject_id).where(
            Delivery.channel == "email", Delivery.kind == DeliveryKind.SHIFT_REMINDER)).all()
    assert on_works in nudged and by_mail not in nudged, nudged
    assert by_mail in mailed_reminders  # it was reminded, on e-mail


def test_the_command_line_names_the_room_in_the_dry_run_and_when_publishing(
        db: Database, now: dt.datetime, works: WorksStandIn, capsys: pytest.CaptureFixture[str]) -> None:
    import main

    _set_up_works(db, works)
    _classroom(db, now)
    month = ["--classroom", "本校", "--month", "2026-12"]
    assert main.main(["--lang", "en", "publish", *month, "--dry-run"]) == 0
    said = capsys.readouterr().out
    assert "to the LINE WORKS room room-1: one message" in said and "LINE group" not in said, said
    assert "NOT SENT" not in said, said
    assert main.main(["--lang", "en", "publish", *month, "--when-ready"]) == 0
    said = capsys.readouterr().out
    with db.read() as s:
        [delivery_id] = s.scalars(select(Delivery.id).where(Delivery.kind == DeliveryKind.SHIFT_PUBLICATION,
                                                            Delivery.channel == KEY)).all()
    assert f"the LINE WORKS room message (delivery {delivery_id})" in said, said
