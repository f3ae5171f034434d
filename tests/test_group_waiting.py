"""Day one: a month published before LINE and the classroom's group are there is recorded, and its
group message goes out by itself, once, as soon as both are; reminders never wait for the group."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from sqlalchemy import select

from core.emulator import LineEmulator
from core.planning import group_waiting, planner
from core.publication.image_store import ImageStore
from core.receiving import groups
from core.sending.sender import Sender, SenderConfig
from core.setup import publishing
from core.store import events
from core.store.db import Database
from core.store.models import (
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    ProposedGroup,
    Publication,
    Shift,
    ShiftStatus,
)
from core.store.paths import DataPaths
from core.texts import render
from tests import factories as f
from tests.linefixtures import TOKEN, FakeClock, user_id

GROUP = "C" + "5" * 32
ROOM = "本校"


def _first_day(db: Database, now: dt.datetime) -> int:
    """A classroom and its month's drafts; no LINE, no group."""
    with db.write() as s:
        room = f.classroom(s, ROOM)
        sato = f.teacher(s, "佐藤", 1)
        f.shift(s, room, sato, dt.date(2026, 12, 3), now=now)
        f.shift(s, room, sato, dt.date(2026, 12, 10), now=now)
        return room.id


def _group_messages(db: Database) -> list[Delivery]:
    with db.read() as s:
        rows = list(s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.SHIFT_PUBLICATION,
                                                     Delivery.channel == "line", Delivery.teacher_id.is_(None))))
        s.expunge_all()
        return rows


def _plan(db: Database, now: dt.datetime) -> planner.PlanReport:
    with db.write() as s:
        return planner.plan(s, now=now)


def _choose_group(db: Database, room_id: int, now: dt.datetime) -> None:
    """What Connect LINE's group step does once the account joined the group."""
    with db.write() as s:
        s.add(ProposedGroup(group_id=GROUP, name="本校 講師", member_count=2, joined_at=now))
        s.flush()
        groups.accept_group(s, room_id, GROUP, now)


def test_publishing_without_line_or_a_group_is_refused_unless_asked_and_names_both(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    room = _first_day(db, now)
    with pytest.raises(publishing.NotReady) as refused:
        publishing.publish(db, room, 2026, 12, now=now, store=ImageStore(paths.images))
    said = render(refused.value.text, "en")
    assert "LINE is not connected" in said and "no LINE group yet" in said, said

    outcome = publishing.publish(db, room, 2026, 12, now=now, store=ImageStore(paths.images), when_ready=True)
    assert outcome.published.delivery_id is None and outcome.published.revision == 1
    assert [m.code for m in outcome.waiting_for] == ["readiness.line.missing", "publish.no_group"]
    assert render(publishing.promise(outcome.waiting_for), "en") == (
        "The month will be sent to the group as soon as LINE is connected and the group chosen.")
    with db.read() as s:
        publication = s.scalars(select(Publication)).one()
        assert group_waiting.owed(s, publication.id)
        assert {shift.status for shift in s.scalars(select(Shift))} == {ShiftStatus.CONFIRMED}
    assert _plan(db, now).by_kinds == [] and _group_messages(db) == []  # no group: nothing to send to yet


def test_the_owed_month_goes_to_the_group_once_line_and_the_group_are_there(
        db: Database, paths: DataPaths, now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.store import secrets

    room = _first_day(db, now)
    publishing.publish(db, room, 2026, 12, now=now, store=ImageStore(paths.images), when_ready=True)
    heard: list[events.ShiftsChanged] = []
    remove = db.events.listen(events.ShiftsChanged, heard.append)
    try:
        _choose_group(db, room, now)
    finally:
        remove()
    # Choosing the group is heard by the scheduler, which plans at once.
    assert heard and heard[0].classroom_ids == frozenset({room})
    later = now + dt.timedelta(minutes=5)
    created = _plan(db, later).by_kinds
    [message] = _group_messages(db)
    assert created == [message.id] and message.recipient == GROUP and message.status == DeliveryStatus.QUEUED
    assert _plan(db, later).by_kinds == [] and len(_group_messages(db)) == 1  # never queued twice
    with db.read() as s:
        assert not group_waiting.owed(s, message.subject_id or 0)

    with LineEmulator(token=TOKEN) as emu:
        emu.add_group(GROUP, "本校 講師", [user_id(1), user_id(2)])
        monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emu.base_url)
        secrets.set_line_token(TOKEN)
        for _ in range(2):  # a second sender finds nothing more to send
            Sender(db, paths=paths, config=SenderConfig(concurrency=1), clock=FakeClock(later)).run_until_idle()
            _plan(db, later)
        received = [m for m in emu.all_inbox() if m.recipient == GROUP]
    assert received and all(m.message["type"] == "flex" for m in received)  # no image hosting: the cards
    [sent] = _group_messages(db)
    assert sent.status == DeliveryStatus.SENT


def test_only_the_newest_revision_is_owed_and_a_month_that_is_over_is_not_sent(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    from core.roster import rules

    room = _first_day(db, now)
    store = ImageStore(paths.images)
    publishing.publish(db, room, 2026, 12, now=now, store=store, when_ready=True)
    with db.write() as s:
        shift = s.scalars(select(Shift)).first()
        assert shift is not None
        rules.edit_shift(s, shift.id, rules.ShiftChange(start_time=dt.time(15)), now=now)
    second = publishing.publish(db, room, 2026, 12, now=now, store=store, when_ready=True).published
    _choose_group(db, room, now)
    _plan(db, now)
    [message] = _group_messages(db)
    assert message.subject_id == second.publication_id  # revision 1 is not sent after revision 2

    with db.write() as s:  # November's month, published and owed, when December has begun
        other = f.classroom(s, "分校")
        f.shift(s, other, f.teacher(s, "鈴木", 2), dt.date(2026, 11, 20), now=now)
    november = publishing.publish(db, other.id, 2026, 11, now=now, store=store, when_ready=True).published
    with db.write() as s:
        rules.update_classroom(s, other.id, line_group_id="C" + "6" * 32)
    assert _plan(db, dt.datetime(2026, 12, 5, tzinfo=dt.UTC)).by_kinds == []
    with db.read() as s:
        assert not group_waiting.owed(s, november.publication_id)


def test_a_reminder_reaches_its_teacher_without_the_classroom_group(
        db: Database, paths: DataPaths, now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.store import secrets

    with db.write() as s:
        room = f.classroom(s, ROOM)  # no group
        sato = f.teacher(s, "佐藤", 1)
        f.shift(s, room, sato, dt.date(2026, 12, 2), now=now, status=ShiftStatus.CONFIRMED)
    with LineEmulator(token=TOKEN) as emu:
        emu.add_user(user_id(1), "佐藤")
        monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emu.base_url)
        secrets.set_line_token(TOKEN)
        _plan(db, now)
        due = dt.datetime(2026, 12, 2, 6, 30, tzinfo=dt.UTC)  # 15:30 in Tokyo, before the 16:00 shift
        Sender(db, paths=paths, config=SenderConfig(concurrency=1), clock=FakeClock(due)).run_until_idle()
        received = [m for m in emu.all_inbox() if m.recipient == user_id(1)]
    assert received


def test_cli_publish_when_ready_waits_for_the_group_and_says_so(
        db: Database, now: dt.datetime, capsys: pytest.CaptureFixture[str]) -> None:
    import main

    _first_day(db, now)
    argv = ["--lang", "en", "publish", "--classroom", ROOM, "--month", "2026-12"]
    assert main.main(argv) == 1
    refused = capsys.readouterr().err
    assert "no LINE group yet" in refused and "--when-ready" in refused, refused
    assert main.main([*argv, "--when-ready"]) == 0
    said = capsys.readouterr().out
    assert "revision 1 saved" in said, said
    assert "as soon as LINE is connected and the group chosen" in said, said
    assert main.main([*argv[:-2], "--month", "2026-12", "--dry-run", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["revision"] == 2 and "no LINE group ID" not in str(plan["warning"])
    assert any("no LINE group yet" in missing for missing in plan["missing"]), plan
