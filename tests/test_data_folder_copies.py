"""Two copies of one data folder: retry keys derived from the database's identity, so LINE accepts
each delivery once whichever copy sends it; and an alert when another computer sent from it lately."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from core import alerts
from core.emulator import LineEmulator
from core.planning import planner
from core.publication import publish
from core.publication.image_store import ImageStore
from core.roster import rules
from core.sending.sender import Sender, SenderConfig
from core.store import identity, migrate, secrets
from core.store.bootstrap import open_database
from core.store.db import Database
from core.store.models import (
    AlertKind,
    Classroom,
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    Publication,
    SendingMachine,
    Shift,
    ShiftStatus,
    Teacher,
)
from core.store.paths import DataPaths, data_paths
from tests import factories as f
from tests.linefixtures import TOKEN, FakeClock, emulator, line_ready, make_reminders  # noqa: F401
from tests.s3server import hosted, s3_endpoint  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
TEACHERS = 12
LATER = 50  # teachers whose shift starts after the copy does
GROUP = "C" + "1" * 32


def _sender_until_idle(home: Path, emulator: LineEmulator) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "SHIFTCAST_DB_URL"} | {
        "SHIFTCAST_HOME": str(home),
        "SHIFTCAST_LINE_TOKEN": TOKEN,
        "SHIFTCAST_LINE_API_BASE": emulator.base_url,
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
    }
    return subprocess.Popen([sys.executable, "main.py", "sender", "--until-idle"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _rows(home: Path) -> dict[int, tuple[str, str | None]]:
    connection = sqlite3.connect(home / "shiftcast.db")
    try:
        return {i: (status, key) for i, status, key in connection.execute(
            "SELECT id, status, retry_key FROM deliveries WHERE kind = 'shift_reminder' AND retry_key IS NOT NULL")}
    finally:
        connection.close()


def _reminders(home: Path) -> dict[str, tuple[int, str, str | None]]:
    """Each reminder's (delivery id, status, retry key), by its dedup key."""
    connection = sqlite3.connect(home / "shiftcast.db")
    try:
        return {dedup: (i, status, key) for i, dedup, status, key in connection.execute(
            "SELECT id, dedup_key, status, retry_key FROM deliveries WHERE kind = 'shift_reminder'")}
    finally:
        connection.close()


def _open_alert_kinds(home: Path) -> list[str]:
    connection = sqlite3.connect(home / "shiftcast.db")
    try:
        return [k for (k,) in connection.execute("SELECT kind FROM alerts WHERE open_key IS NOT NULL")]
    finally:
        connection.close()


@pytest.mark.slow  # two sender processes
def test_two_copies_of_a_data_folder_send_each_reminder_once(db: Database, paths: DataPaths, tmp_path: Path) -> None:
    with LineEmulator(token=TOKEN) as emu:
        make_reminders(db, TEACHERS, now=dt.datetime.now(dt.UTC), emulator=emu)
        db.dispose()  # closed, as the manager's app would be, so the copy holds every committed row
        copy = tmp_path / "copied-home"
        shutil.copytree(paths.home, copy, symlinks=True)  # file by file, like `cp -a`
        senders = [_sender_until_idle(paths.home, emu), _sender_until_idle(copy, emu)]
        answers = [p.communicate(timeout=180) for p in senders]
        assert [p.returncode for p in senders] == [0, 0], [err.decode() for _, err in answers]
        stats = [json.loads(out.decode().strip().splitlines()[-1]) for out, _ in answers]

        inbox = emu.all_inbox()
        per_teacher: dict[str, int] = {}
        for message in inbox:
            per_teacher[message.recipient] = per_teacher.get(message.recipient, 0) + 1
        assert len(per_teacher) == TEACHERS and set(per_teacher.values()) == {1}, per_teacher
        pushes = [r.status for r in emu.request_log() if r.path.endswith("/push")]
        # Each copy sent every reminder; LINE accepted each key once and refused the other copy's.
        assert pushes.count(200) == TEACHERS and pushes.count(409) == TEACHERS, pushes

    original, copied = _rows(paths.home), _rows(copy)
    assert len(original) == TEACHERS and original == copied  # the same key for the same delivery
    assert {status for status, _ in original.values()} == {DeliveryStatus.SENT.value}
    assert sum(s["sent"] for s in stats) == 2 * TEACHERS  # a 409 is recorded as sent: it was, once
    # The same computer (one machine identity) sending from both copies is not "another computer".
    assert _open_alert_kinds(paths.home) == _open_alert_kinds(copy) == []


def _zone_near_noon(now: dt.datetime) -> str:
    """A fixed-offset zone where it is within half an hour of noon now: the test's shifts then never
    cross midnight, whenever it runs. (Etc/GMT names count the other way: Etc/GMT-9 is UTC+9.)"""
    offset = (12 - now.hour - (1 if now.minute >= 30 else 0) + 12) % 24 - 12
    return "Etc/GMT" if offset == 0 else f"Etc/GMT{-offset:+d}"


def _wall(moment: dt.datetime, zone: str) -> tuple[dt.date, str]:
    local = moment.astimezone(ZoneInfo(zone))
    return local.date(), f"{local:%H:%M}"


@pytest.mark.slow  # two sender processes
def test_copies_that_planned_apart_send_each_reminder_once(db: Database, paths: DataPaths, tmp_path: Path) -> None:
    """Copied before planning, the copy started after the earliest shift began: it plans one
    reminder fewer, so every later reminder has another delivery id there. The keys name the
    message, not the row, so each teacher still gets one."""
    now = dt.datetime.now(dt.UTC)
    zone = _zone_near_noon(now)
    with LineEmulator(token=TOKEN) as emu:
        with db.write() as s:
            room = f.classroom(s, "本校", timezone=zone, quiet_hours=None)
            first = f.teacher(s, "講師00000", 0)
            day, start = _wall(now - dt.timedelta(minutes=10), zone)
            _, end = _wall(now + dt.timedelta(minutes=50), zone)
            f.shift(s, room, first, day, start, end, now=now, status=ShiftStatus.CONFIRMED)  # began just now
            day, start = _wall(now + dt.timedelta(minutes=60), zone)
            _, end = _wall(now + dt.timedelta(minutes=120), zone)
            later = [f.teacher(s, f"講師{n:05d}", n) for n in range(1, LATER + 1)]
            for teacher in later:
                f.shift(s, room, teacher, day, start, end, now=now, status=ShiftStatus.CONFIRMED)
            for teacher in [first, *later]:
                user_id, name = f.reach(teacher).line_user_id, teacher.name
                assert user_id is not None and name is not None
                emu.add_user(user_id, name)
            first_id = f.reach(first).line_user_id
            assert first_id is not None
        db.dispose()
        copy = tmp_path / "copied-home"
        shutil.copytree(paths.home, copy, symlinks=True)  # before either plans
        with db.write() as s:  # the original planned before the earliest shift began
            planned = planner.plan(s, now=now - dt.timedelta(minutes=30)).created
        db.dispose()
        assert len(planned) == LATER + 1
        # The copy plans when its sender starts, after the earliest shift began: one reminder fewer.
        senders = [_sender_until_idle(paths.home, emu), _sender_until_idle(copy, emu)]
        answers = [p.communicate(timeout=180) for p in senders]
        assert [p.returncode for p in senders] == [0, 0], [err.decode() for _, err in answers]

        per_teacher: dict[str, int] = {}
        for message in emu.all_inbox():
            per_teacher[message.recipient] = per_teacher.get(message.recipient, 0) + 1
        pushes = [r.status for r in emu.request_log() if r.path.endswith("/push")]

    original, copied = _reminders(paths.home), _reminders(copy)
    assert len(original) == LATER + 1 and len(copied) == LATER
    moved = [key for key, (delivery_id, _, _) in copied.items() if original[key][0] != delivery_id]
    assert len(moved) == LATER  # every later reminder has another delivery id in the copy
    # The earliest shift had begun when the senders ran, so its reminder went nowhere (canceled).
    assert per_teacher.get(first_id, 0) == 0
    assert len(per_teacher) == LATER and set(per_teacher.values()) == {1}, per_teacher
    assert {key: row[1:] for key, row in copied.items()} == {
        key: row[1:] for key, row in original.items() if key in copied}  # same key, sent, in both
    assert pushes.count(200) == LATER and pushes.count(409) == LATER, pushes


def _add_and_plan(db: Database, teacher_name: str, day: dt.date, start: str, end: str, now: dt.datetime) -> int:
    """A new confirmed shift for the teacher, planned at once; the id it got."""
    with db.write() as s:
        room = s.scalars(select(Classroom)).one()
        teacher = s.scalars(select(Teacher).where(Teacher.name == teacher_name)).one()
        shift = f.shift(s, room, teacher, day, start, end, now=now, status=ShiftStatus.CONFIRMED)
        planned = planner.plan(s, now=now).created
        assert [p.shift_id for p in planned] == [shift.id]  # only the new shift's reminder: the rest was planned
        return shift.id


@pytest.mark.slow  # two sender processes
def test_copies_that_each_made_a_shift_under_one_id_send_both(db: Database, paths: DataPaths, tmp_path: Path) -> None:
    """After the copy, each copy adds a shift for one teacher on another day. Both get the same id,
    version 1 and teacher, so their reminders have one dedup key; they are two messages, and the
    teacher gets both. The reminders both copies held still go once."""
    now = dt.datetime.now(dt.UTC)
    zone = _zone_near_noon(now)
    with LineEmulator(token=TOKEN) as emu:
        with db.write() as s:
            # A day's lead and no quiet hours: a shift within the next day is reminded at once.
            room = f.classroom(s, "本校", timezone=zone, quiet_hours=None, reminder_lead_minutes=24 * 60)
            day, start = _wall(now + dt.timedelta(minutes=60), zone)
            _, end = _wall(now + dt.timedelta(minutes=120), zone)
            teachers = [f.teacher(s, f"講師{n:05d}", n) for n in range(TEACHERS)]
            for teacher in teachers:
                f.shift(s, room, teacher, day, start, end, now=now, status=ShiftStatus.CONFIRMED)
                user_id, name = f.reach(teacher).line_user_id, teacher.name
                assert user_id is not None and name is not None
                emu.add_user(user_id, name)
            assert len(planner.plan(s, now=now).created) == TEACHERS
            name, line_id = teachers[0].name, f.reach(teachers[0]).line_user_id
            assert name is not None and line_id is not None
        db.dispose()
        copy = tmp_path / "copied-home"
        shutil.copytree(paths.home, copy, symlinks=True)  # file by file, like `cp -a`
        # Later the same day in the original, the next morning in the copy.
        later, later_start = _wall(now + dt.timedelta(hours=3), zone)
        _, later_end = _wall(now + dt.timedelta(hours=4), zone)
        here = _add_and_plan(db, name, later, later_start, later_end, now)
        db.dispose()
        copied = open_database(data_paths(copy))
        try:
            there = _add_and_plan(copied, name, later + dt.timedelta(days=1), "09:00", "10:00", now)
        finally:
            copied.dispose()
        assert here == there
        new_key = f"shift_reminder:shift:{here}:v1"
        senders = [_sender_until_idle(paths.home, emu), _sender_until_idle(copy, emu)]
        answers = [p.communicate(timeout=180) for p in senders]
        assert [p.returncode for p in senders] == [0, 0], [err.decode() for _, err in answers]

        per_teacher: dict[str, list[str | None]] = {}
        for message in emu.all_inbox():
            per_teacher.setdefault(message.recipient, []).append(message.retry_key)
        pushes = [r.status for r in emu.request_log() if r.path.endswith("/push")]

    original, copied_rows = _reminders(paths.home), _reminders(copy)
    assert set(original) == set(copied_rows) and len(original) == TEACHERS + 1 and new_key in original
    assert {row[1] for row in original.values()} == {row[1] for row in copied_rows.values()} == {
        DeliveryStatus.SENT.value}
    # The reminders both copies held: the same key in both, sent once.
    assert all(original[key][2] == copied_rows[key][2] for key in original if key != new_key)
    # The two new shifts' reminders: one dedup key, two shifts, two keys, and the teacher got both.
    assert original[new_key][2] != copied_rows[new_key][2]
    assert sorted(len(keys) for keys in per_teacher.values()) == [1] * (TEACHERS - 1) + [3], per_teacher
    assert {original[new_key][2], copied_rows[new_key][2]} <= set(per_teacher[line_id])
    assert pushes.count(200) == TEACHERS + 2 and pushes.count(409) == TEACHERS, pushes


def test_every_kind_sent_on_line_names_its_subjects_uid(db: Database, paths: DataPaths, hosted: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Reminders (the lean path), corrections and publications (the builders) reach LINE: each key
    names the uid of the shift or publication the message is about."""
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    zone = _zone_near_noon(now)
    with LineEmulator(token=TOKEN, allow_loopback_media=True) as emu:
        monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emu.base_url)
        secrets.set_line_token(TOKEN)
        with db.write() as s:
            room = f.classroom(s, "本校", timezone=zone, quiet_hours=None, line_group_id=GROUP)
            teacher = f.teacher(s, "講師00001", 1)
            user_id, name = f.reach(teacher).line_user_id, teacher.name
            assert user_id is not None and name is not None
            emu.add_user(user_id, name)
            emu.add_group(GROUP, "本校 講師", [user_id])
            day, start = _wall(now + dt.timedelta(minutes=60), zone)
            _, end = _wall(now + dt.timedelta(minutes=120), zone)
            shift = f.shift(s, room, teacher, day, start, end, now=now, status=ShiftStatus.CONFIRMED)
            planner.plan(s, now=now)
            shift_id, room_id = shift.id, room.id
        _send_as(db, paths.home, identity.Machine(str(uuid.uuid4()), "office-pc"), FakeClock(now))
        _, later_end = _wall(now + dt.timedelta(minutes=150), zone)
        with db.write() as s:  # a change the teacher must hear of, and the month published
            rules.edit_shift(s, shift_id, rules.ShiftChange(end_time=dt.time.fromisoformat(later_end)), now=now)
            planner.plan(s, now=now)
            publish.publish(s, room_id, day.year, day.month, now=now, store=ImageStore(paths.images))
        _send_as(db, paths.home, identity.Machine(str(uuid.uuid4()), "office-pc"), FakeClock(now))
        received = emu.all_inbox()

    with db.read() as s:
        database = identity.database_identity(s)
        sent = {d.retry_key: d for d in s.scalars(select(Delivery).where(Delivery.status == DeliveryStatus.SENT))}
        shift_row = s.get(Shift, shift_id)
        assert shift_row is not None
        uids = {("shift", shift_id): shift_row.uid} | {
            ("publication", p.id): p.uid for p in s.scalars(select(Publication))}
    kinds = set()
    for message in received:
        delivery = sent[message.retry_key]
        assert delivery.subject_type is not None and delivery.subject_id is not None
        subject = (delivery.subject_type, delivery.subject_id)
        assert message.retry_key == identity.retry_key(database, delivery.dedup_key, uids[subject], message.recipient,
                                                       delivery.retry_key_generation), delivery.kind
        kinds.add(delivery.kind)
    assert kinds == {DeliveryKind.SHIFT_REMINDER, DeliveryKind.SHIFT_CORRECTION, DeliveryKind.SHIFT_PUBLICATION}


def test_keys_name_the_message_recipient_and_generation_in_their_database() -> None:
    one, other = "0b7c7f0e-2f5e-4c8b-9a55-3f0b9a1d2c11", "5d2a7c1e-8b3f-4e6a-9c0d-1e2f3a4b5c6d"
    reminder, uid = "shift_reminder:shift:7:v1", "7c0d3b52-1a4e-4f7b-8e2d-5a6b7c8d9e0f"
    key = identity.retry_key(one, reminder, uid, "U1", 0)
    assert key == identity.retry_key(one, reminder, uid, "U1", 0)  # derived, so every copy computes it alike
    assert len({key, identity.retry_key(other, reminder, uid, "U1", 0),
                identity.retry_key(one, "shift_reminder:shift:7:v2", uid, "U1", 0),
                identity.retry_key(one, reminder, uid, "U2", 0), identity.retry_key(one, reminder, uid, "U1", 1)}) == 5
    # A multicast's recipients are a set: their order does not make another message.
    assert identity.retry_key(one, reminder, uid, ("U1", "U2"), 0) == identity.retry_key(one, reminder, uid, ("U2", "U1"), 0)


def test_two_shifts_under_one_id_version_and_teacher_get_different_keys() -> None:
    """Copies that went apart can each make a shift with the same id (same version, same teacher):
    their reminders have one dedup key, but the shifts' uids differ, and so do the retry keys."""
    database, reminder = "0b7c7f0e-2f5e-4c8b-9a55-3f0b9a1d2c11", "shift_reminder:shift:7:v1"
    made_here, made_there = "7c0d3b52-1a4e-4f7b-8e2d-5a6b7c8d9e0f", "e3a1f6d4-0b2c-4d8e-9f7a-6b5c4d3e2f10"
    assert (identity.retry_key(database, reminder, made_here, "U1", 0)
            != identity.retry_key(database, reminder, made_there, "U1", 0))
    # A shift both copies hold (made before the copy) has one uid in both: one key.
    assert (identity.retry_key(database, reminder, made_here, "U1", 0)
            == identity.retry_key(database, reminder, made_here, "U1", 0))


def test_every_database_gets_its_own_identity_and_an_upgrade_gives_an_old_one_one(tmp_path: Path) -> None:
    old = Database(f"sqlite:///{(tmp_path / 'old.db').as_posix()}")
    try:
        migrate.upgrade(old, revision="0004_error_at_recipient")
        migrate.upgrade(old)
        with old.read() as s:
            upgraded = identity.database_identity(s)
    finally:
        old.dispose()
    fresh = [open_database(data_paths(tmp_path / name)) for name in ("a", "b")]
    try:
        made = []
        for database in fresh:
            with database.read() as s:
                made.append(identity.database_identity(s))
        assert len({upgraded, *made}) == 3
    finally:
        for database in fresh:
            database.dispose()


def _send_as(db: Database, home: Path, machine: identity.Machine, clock: FakeClock) -> None:
    sender = Sender(db, paths=data_paths(home), config=SenderConfig(concurrency=2),
                    clock=clock, machine=machine)
    try:
        sender.run_until_idle()
    finally:
        sender.stop()


def test_a_copy_sent_from_another_computer_raises_an_alert(db: Database, paths: DataPaths, tmp_path: Path,
                                                           line_ready: LineEmulator) -> None:
    clock = FakeClock(dt.datetime.now(dt.UTC).replace(microsecond=0))
    office = identity.Machine("11111111-1111-4111-8111-111111111111", "office-pc")
    laptop = identity.Machine("22222222-2222-4222-8222-222222222222", "home-laptop")
    make_reminders(db, 1, now=clock.now, emulator=line_ready)
    _send_as(db, paths.home, office, clock)
    db.dispose()
    copy = tmp_path / "moved-home"
    shutil.copytree(paths.home, copy, symlinks=True)

    copied = open_database(data_paths(copy))
    try:
        # The window on the new computer, before it sent anything: its minute watch notices.
        with copied.write() as s:
            opened, _ = alerts.evaluate(s, now=clock.now, running_since=None)
            assert [(a.kind, "office-pc" in str(alerts.title_of(a))) for a in opened] == [(AlertKind.OTHER_COMPUTER, True)]
            # Its copy of the reminder goes out again there (as if it had not been sent before the copy).
            s.execute(f.table(Delivery).update().values(status=DeliveryStatus.QUEUED.value, retry_key=None,
                                                          retry_key_issued_at=None, next_attempt_at=clock.now))
        # A sender there notices too, on its first send, and the incident stays one.
        clock.advance(minutes=5)
        _send_as(copied, copy, laptop, clock)
        with copied.read() as s:
            assert [a.kind for a in alerts.open_alerts(s)] == [AlertKind.OTHER_COMPUTER]
        # A day after the last send of every computer but this one (the test plays a third), it is over.
        clock.advance(hours=24, minutes=1)
        with copied.write() as s:
            _, cleared = alerts.evaluate(s, now=clock.now, running_since=None)
            assert [a.kind for a in cleared] == [AlertKind.OTHER_COMPUTER]
    finally:
        copied.dispose()

    original = open_database(paths)
    try:
        with original.read() as s:
            # The original never saw the copy's stamp: what docs/reliability.md says it cannot detect.
            assert alerts.open_alerts(s) == []
            assert alerts.other_computers(s, office, now=clock.now) == ()
            assert [m.host for m in s.scalars(select(SendingMachine))] == ["office-pc"]
    finally:
        original.dispose()


def test_the_machine_identity_is_kept_outside_the_data_folder_and_reused(paths: DataPaths, tmp_path: Path) -> None:
    first = identity.this_machine()
    assert first is not None and identity.machine_file() == tmp_path / "xdg-config" / "Shiftcast" / "machine-id"
    assert not identity.machine_file().is_relative_to(paths.home)  # a copied data folder does not carry it
    assert identity.load_machine(identity.machine_file()) == first  # read again, not made again
    broken = tmp_path / "broken" / "machine-id"
    broken.parent.mkdir()
    broken.write_text("not a uuid\n", encoding="ascii")
    remade = identity.load_machine(broken)
    assert remade is not None and remade.machine_id != first.machine_id
    assert broken.read_text(encoding="ascii").strip() == remade.machine_id
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="ascii")
    assert identity.load_machine(blocked / "machine-id") is None  # cannot be kept: the check is off, sending is not
