"""`shiftcast doctor` as a real process: what a new manager sees on a fresh data folder, and on one
where LINE (the emulator), a classroom's group and a paired teacher are in place."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.emulator import LineEmulator
from core.store.db import Database
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import TOKEN, emulator  # noqa: F401 - emulator is a fixture

pytestmark = pytest.mark.slow  # real processes

ROOT = Path(__file__).resolve().parent.parent


def _doctor(home: Path, *argv: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIFTCAST_")}
    # A keyring that works and holds nothing, and a start-at-login folder of this test's own.
    env |= {"SHIFTCAST_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
            "XDG_CONFIG_HOME": str(home / "config")} | extra
    return subprocess.run([sys.executable, "main.py", *argv], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def test_a_fresh_data_folder_is_not_ready_and_names_line(tmp_path: Path) -> None:
    done = _doctor(tmp_path / "new", "doctor", "--lang", "en")
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == "[BLOCKS] LINE is not connected: no message can be sent"
    assert "connect LINE" in lines[1]
    assert lines[-1] == "not ready: 3 things stop the teachers' messages"
    ja = _doctor(tmp_path / "new", "check", "--lang", "ja")
    assert ja.returncode == 1 and ja.stdout.startswith("[要対応] LINEに接続していないため"), ja.stdout


def test_a_folder_with_line_a_group_and_a_paired_teacher_is_ready_to_send(paths: DataPaths, db: Database,
                                                                          emulator: LineEmulator) -> None:
    with db.write() as s:
        f.classroom(s, "本校", line_group_id="C" + "1" * 32)
        f.teacher(s, "佐藤", 1)  # paired on LINE and agreed
        f.teacher(s, "鈴木", 2, line_opt_in=False)
    db.dispose()
    done = _doctor(paths.home, "doctor", "--json", "--lang", "en", SHIFTCAST_LINE_TOKEN=TOKEN,
                   SHIFTCAST_LINE_API_BASE=emulator.base_url)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    by_key = {r["key"]: r for r in report["requirements"]}
    assert report["blocking"] is False and report["ready"] is False
    assert by_key["line"]["state"] == "ok" and by_key["classroom_groups"]["state"] == "ok"
    assert by_key["teachers"] == {
        "key": "teachers", "state": "warning", "says": "1 of 2 teachers can be reached", "code": "readiness.teachers.count",
        "fix": "teachers", "fix_says": "pair the teachers on LINE, or ask them to agree",
        "details": ["鈴木: has not agreed to LINE"]}
    assert {by_key[k]["state"] for k in ("month_image", "autostart", "sender")} == {"warning"}


def test_doctor_says_whether_line_reaches_the_app_s_receiver(paths: DataPaths, db: Database) -> None:
    """The app's receiving (here in the test's process, as in the window) records its state; doctor,
    another process, reads it and asks LINE where its webhook points."""
    from core.receiving.address import LoopbackAddress
    from core.setup.line_connect import remember_address
    from core.setup.receiving import STARTING, Receiving
    from core.store import secrets
    from core.store import setting_keys as keys
    from tests.waiting import wait_until

    elsewhere, secret = "https://old-bot.example.jp/callback", "0123456789abcdef0123456789abcdef"
    with LineEmulator(token=TOKEN, channel_secret=secret, loopback_webhooks=True) as line:
        with db.write() as s:
            keys.LINE_API_BASE.write(s, line.base_url)
        secrets.set_line_token(TOKEN)
        secrets.set_line_channel_secret(secret)  # the receiver checks LINE's signatures with it
        remember_address(db, LoopbackAddress(), 0)
        service = Receiving(db).start()
        try:
            assert wait_until(lambda: service.state is not STARTING)
            ours = service.state.endpoint
            assert ours is not None, service.state
            done = _doctor(paths.home, "doctor", "--json", "--lang", "en", SHIFTCAST_LINE_TOKEN=TOKEN)
            row = {r["key"]: r for r in json.loads(done.stdout)["requirements"]}["receiving"]
            assert (row["state"], row["says"]) == ("ok", f"LINE can reach Shiftcast at {ours}"), row
            line.set_webhook_endpoint(elsewhere)
            done = _doctor(paths.home, "doctor", "--lang", "en", SHIFTCAST_LINE_TOKEN=TOKEN)
            assert (f"[warn] LINE's webhook points at {elsewhere}, not at Shiftcast ({ours}): pairing codes and "
                    "了解 taps go there") in done.stdout.splitlines(), done.stdout
        finally:
            service.stop()
        done = _doctor(paths.home, "check", "--lang", "ja", SHIFTCAST_LINE_TOKEN=TOKEN)
    assert ("[注意] 現在LINEからShiftcastに届きません。Shiftcastを閉じている間は、ペアリングコードと了解ボタンの操作を"
            "受け取れません。") in done.stdout.splitlines(), done.stdout
    assert done.returncode == 1  # blocked by what else is missing here (no classroom), never by receiving


def test_doctor_names_the_shifts_whose_reminder_is_not_acknowledged(paths: DataPaths, db: Database) -> None:
    import datetime as dt
    from zoneinfo import ZoneInfo

    from core.outbox import queue
    from core.store import setting_keys as keys
    from core.store.models import Delivery, DeliveryKind, DeliveryStatus, ShiftStatus

    now = dt.datetime.now(dt.UTC)  # doctor reads the computer's clock
    start = (now + dt.timedelta(hours=2)).astimezone(ZoneInfo("Asia/Tokyo")).replace(second=0, microsecond=0)
    if start.hour == 23:  # the shift stays on one day
        start -= dt.timedelta(minutes=90)
    end = start + dt.timedelta(minutes=30)
    with db.write() as s:
        keys.LINE_ACK_BUTTON.write(s, True)
        room = f.classroom(s, "本校", line_group_id="C" + "1" * 32)
        teacher = f.teacher(s, "佐藤", 1)
        shift = f.shift(s, room, teacher, start.date(), start.strftime("%H:%M"), end.strftime("%H:%M"), now=now,
                        status=ShiftStatus.CONFIRMED)
        delivery_id, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER, dedup="test:reminder", due_at=now, now=now,
            recipient=f.reach(teacher).line_user_id, teacher_id=teacher.id, classroom_id=room.id,
            subject_type="shift", subject_id=shift.id, subject_version=shift.version)
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None
        delivery.status, delivery.sent_at = DeliveryStatus.SENT, now
    db.dispose()
    said = f"1 shift in the next 3 hours is not acknowledged: 佐藤 (本校 {start:%H:%M})"
    done = _doctor(paths.home, "doctor", "--lang", "en")
    assert f"[warn] {said}" in done.stdout.splitlines(), done.stdout + done.stderr
    assert "    to fix: ask these teachers whether they saw their reminder" in done.stdout.splitlines()
    ja = _doctor(paths.home, "doctor", "--lang", "ja")
    assert f"[注意] 3時間以内に始まる1件のシフトに了解がありません: 佐藤さん（本校 {start:%H:%M}）" in ja.stdout.splitlines(), \
        ja.stdout
