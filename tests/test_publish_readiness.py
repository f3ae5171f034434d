"""Publish refuses, before anything is queued, a month that cannot reach its LINE group, and says
why; chosen explicitly ("send when LINE is connected"), it publishes and every place that shows
the delivery says what it waits for."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select

from core.emulator import LineEmulator
from core.outbox import policy
from core.publication.image_store import ImageStore
from core.setup import publishing
from core.store.db import Database
from core.store.models import Delivery, DeliveryStatus, Publication
from core.store.paths import DataPaths
from core.texts import render
from tests import factories as f
from tests.linefixtures import TOKEN, user_id
from tests.s3server import hosted, s3_endpoint  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
GROUP = "C" + "3" * 32
ROOM = "本校"


def _month(db: Database, now: dt.datetime) -> int:
    with db.write() as s:
        room = f.classroom(s, ROOM, line_group_id=GROUP)
        a = f.teacher(s, "佐藤", 1)
        f.shift(s, room, a, dt.date(2026, 12, 3), now=now)
        return room.id


def _publications(db: Database) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Publication)) or 0


def test_publish_without_line_refuses_naming_it(db: Database, paths: DataPaths, now: dt.datetime) -> None:
    room = _month(db, now)
    with pytest.raises(publishing.NotReady) as refused:
        publishing.publish(db, room, 2026, 12, now=now, store=ImageStore(paths.images))
    said = render(refused.value.text, "en")
    assert "LINE is not connected" in said and "hosting" not in said, said  # the month can go as a list
    assert "LINEに接続していない" in render(refused.value.text, "ja")
    assert _publications(db) == 0  # nothing was queued, nothing confirmed
    with db.read() as s:
        assert s.scalar(select(func.count()).select_from(Delivery)) == 0


def test_publish_when_ready_says_what_the_group_message_waits_for(db: Database, paths: DataPaths,
                                                                  now: dt.datetime) -> None:
    room = _month(db, now)
    outcome = publishing.publish(db, room, 2026, 12, now=now, store=ImageStore(paths.images), when_ready=True)
    assert [m.code for m in outcome.waiting_for] == ["readiness.line.missing"]
    with db.read() as s:
        delivery = s.get(Delivery, outcome.published.delivery_id)
        assert delivery is not None
        assert (delivery.status, delivery.attempt_count) == (DeliveryStatus.QUEUED, 0)
        assert delivery.last_error_code == policy.ErrorCode.NOT_SET_UP.value
        shown = render(policy.shown_error(delivery.last_error_message), "en")
    assert shown.startswith("waiting, not tried: LINE is not connected"), shown


def test_a_connected_and_hosted_classroom_publishes_without_waiting(
        db: Database, paths: DataPaths, now: dt.datetime, hosted: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.store import secrets

    room = _month(db, now)
    with LineEmulator(token=TOKEN, allow_loopback_media=True) as emu:
        emu.add_group(GROUP, "本校 講師", [user_id(1)])
        monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emu.base_url)
        secrets.set_line_token(TOKEN)
        outcome = publishing.publish(db, room, 2026, 12, now=now, store=ImageStore(paths.images))
    assert outcome.waiting_for == ()
    with db.read() as s:
        delivery = s.get(Delivery, outcome.published.delivery_id)
        assert delivery is not None and delivery.last_error_code is None


def test_a_connected_classroom_without_hosting_publishes_the_month_as_a_list(
        db: Database, paths: DataPaths, now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.sending.sender import Sender
    from core.store import secrets

    room = _month(db, now)
    with LineEmulator(token=TOKEN) as emu:
        emu.add_group(GROUP, "本校 講師", [user_id(1)])
        monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emu.base_url)
        secrets.set_line_token(TOKEN)
        outcome = publishing.publish(db, room, 2026, 12, now=now, store=ImageStore(paths.images))
        assert outcome.waiting_for == ()  # no hosting is no reason to refuse: the month goes as Flex
        sender = Sender(db, paths=paths, clock=lambda: now)
        try:
            sender.run_until_idle()
        finally:
            sender.stop()
        received = [m for m in emu.all_inbox() if m.recipient == GROUP]
    assert received and all(m.message["type"] == "flex" for m in received)  # a carousel or two, no image
    with db.read() as s:
        delivery = s.get(Delivery, outcome.published.delivery_id)
        assert delivery is not None and delivery.status == DeliveryStatus.SENT


def _main(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "main.py", "--home", str(home), *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=180,
                          env=os.environ | {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"} | env)


@pytest.mark.slow  # real processes
def test_cli_publish_refuses_with_one_line_and_exit_1_then_when_ready_publishes(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    _month(db, now)
    refused = _main(paths.home, "publish", "--classroom", ROOM, "--month", "2026-12")
    assert refused.returncode == 1, refused.stderr
    [line] = refused.stderr.strip().splitlines()
    assert "cannot reach its LINE group" in line and "keyring" in line and "--when-ready" in line, line
    assert _publications(db) == 0

    waiting = _main(paths.home, "publish", "--classroom", ROOM, "--month", "2026-12", "--when-ready")
    assert waiting.returncode == 0, waiting.stderr
    assert "as soon as LINE is connected" in waiting.stdout and "keyring" in waiting.stdout, waiting.stdout
    assert _publications(db) == 1


@pytest.mark.slow  # real processes
def test_cli_publish_when_ready_with_hosting_that_cannot_work_reaches_the_group_as_a_list(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    """Hosting is set up but its secret cannot be read (no keyring; LINE's token in the environment):
    `publish --when-ready` publishes without waiting, the sender sends the month as Flex, and
    `doctor` says hosting does not work, as a warning."""
    from core.store import setting_keys as keys

    _month(db, now)
    with db.write() as s:
        keys.HOSTING_ENDPOINT.write(s, "https://s3.example.com")
        keys.HOSTING_BUCKET.write(s, "rosters")
        keys.HOSTING_ACCESS_KEY_ID.write(s, "key")
    db.dispose()
    with LineEmulator(token=TOKEN) as emu:
        emu.add_group(GROUP, "本校 講師", [user_id(1)])
        line = {"SHIFTCAST_LINE_TOKEN": TOKEN, "SHIFTCAST_LINE_API_BASE": emu.base_url}
        doctor = _main(paths.home, "doctor", "--lang", "en", **line)
        assert "[warn] image hosting is set up but does not work" in doctor.stdout, doctor.stdout
        assert "cannot be read" in doctor.stdout, doctor.stdout
        published = _main(paths.home, "publish", "--classroom", ROOM, "--month", "2026-12", "--when-ready", **line)
        assert published.returncode == 0, published.stderr
        assert "waits" not in published.stdout, published.stdout
        sent = _main(paths.home, "sender", "--until-idle", **line)
        assert sent.returncode == 0, sent.stderr
        received = [m for m in emu.all_inbox() if m.recipient == GROUP]
    assert received and all(m.message["type"] == "flex" for m in received), received
    with db.read() as s:
        [delivery] = s.scalars(select(Delivery).where(Delivery.recipient == GROUP)).all()
        assert delivery.status == DeliveryStatus.SENT


def _reminder(db: Database, now: dt.datetime, *, due: dt.datetime) -> int:
    from core.outbox import queue
    from core.store.models import DeliveryKind

    with db.write() as s:
        room = f.classroom(s, ROOM, line_group_id=GROUP)
        a = f.teacher(s, "佐藤", 1)
        shift = f.shift(s, room, a, dt.date(2026, 12, 3), now=now)
        delivery_id, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER,
            dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift.id}", shift.version), due_at=due,
            now=now, recipient=f.reach(a).line_user_id, teacher_id=a.id, classroom_id=room.id,
            subject_type="shift", subject_id=shift.id, subject_version=shift.version)
        return delivery_id


def _row(db: Database, delivery_id: int) -> Delivery:
    with db.read() as s:
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None
        s.expunge(delivery)
        return delivery


def test_a_channel_not_set_up_says_so_on_its_waiting_rows_at_once_and_stops_once_it_connects(
        db: Database, now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.sending.sender import Sender, SenderConfig
    from core.store import secrets
    from tests.linefixtures import FakeClock

    reminder = _reminder(db, now, due=now + dt.timedelta(days=1))
    before = _row(db, reminder)
    # No LINE credentials at all: the sender finds LINE not set up and says so on the row, at its first turn.
    Sender(db, paths=f.home_paths(), config=SenderConfig(concurrency=1), clock=FakeClock(now)).run_until_idle()
    waiting = _row(db, reminder)
    assert (waiting.status, waiting.attempt_count) == (before.status, 0)  # no attempt spent, status kept
    assert waiting.last_error_code == "NOT_SET_UP"
    assert render(policy.shown_error(waiting.last_error_message), "en") == "waiting, not tried: LINE is not set up"
    assert render(policy.shown_error(waiting.last_error_message), "ja").startswith("送信待ちです")

    with LineEmulator(token=TOKEN) as emu:
        monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emu.base_url)
        secrets.set_line_token(TOKEN)
        Sender(db, paths=f.home_paths(), config=SenderConfig(concurrency=1), clock=FakeClock(now)).run_until_idle()
    connected = _row(db, reminder)
    assert (connected.status, connected.last_error_code, connected.last_error_message) == (before.status, None, None)


def test_a_real_error_on_a_waiting_row_is_not_hidden_by_the_set_up_reason(db: Database, now: dt.datetime) -> None:
    from core.outbox import not_set_up, queue
    from core.store.models import DeliveryStatus as S
    from core.texts import t

    reminder = _reminder(db, now, due=now)
    with db.write() as s:
        queue.transition(s, reminder, expected=[S.PENDING, S.QUEUED], now=now, status=S.QUEUED,
                         last_error_code="LINE_5XX", last_error_message="boom")
        assert not_set_up.mark(s, missing=t("sending.not_set_up", channel="LINE"), now=now, channel="line") == []
    assert _row(db, reminder).last_error_code == "LINE_5XX"



def test_the_publish_dry_run_names_what_is_missing_at_its_top(db: Database, now: dt.datetime,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    import main

    _month(db, now)
    assert main.main(["publish", "--classroom", ROOM, "--month", "2026-12", "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "NOT SENT until fixed: LINE is not connected: no message can be sent", lines
    assert lines[1].startswith(f"{ROOM} 2026-12: revision 1")
