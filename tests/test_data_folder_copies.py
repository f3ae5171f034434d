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
from pathlib import Path

import pytest
from sqlalchemy import select

from core import alerts
from core.channels.line import access_from_settings
from core.emulator import LineEmulator
from core.sending.sender import Sender, SenderConfig
from core.store import identity, migrate
from core.store.bootstrap import open_database
from core.store.db import Database
from core.store.models import AlertKind, Delivery, DeliveryStatus, SendingMachine
from core.store.paths import DataPaths, data_paths
from tests.linefixtures import TOKEN, FakeClock, emulator, line_ready, make_reminders  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
TEACHERS = 12


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


def test_keys_differ_by_database_delivery_generation_and_content() -> None:
    one, other = "0b7c7f0e-2f5e-4c8b-9a55-3f0b9a1d2c11", "5d2a7c1e-8b3f-4e6a-9c0d-1e2f3a4b5c6d"
    digest = identity.request_digest("push", "U1", [{"type": "text", "text": "明日 16:00"}])
    key = identity.retry_key(one, 7, 0, digest)
    assert key == identity.retry_key(one, 7, 0, digest)  # derived, so every copy computes it alike
    assert len({key, identity.retry_key(other, 7, 0, digest), identity.retry_key(one, 8, 0, digest),
                identity.retry_key(one, 7, 1, digest),
                identity.retry_key(one, 7, 0, identity.request_digest("push", "U2", [{"type": "text", "text": "明日 16:00"}]))}) == 5


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
    sender = Sender(db, lambda: access_from_settings(db), paths=data_paths(home), config=SenderConfig(concurrency=2),
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
            s.execute(Delivery.__table__.update().values(status=DeliveryStatus.QUEUED.value, retry_key=None,
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
