"""A change made by another process reaches a running sender: a shift confirmed from the command line
while `main.py sender` runs is planned and sent by that sender within seconds, not at its next
quarter-hour planning run or its next start (core/store/changes.py)."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from core.emulator import LineEmulator
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus, ShiftStatus
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import TOKEN
from tests.test_sender_processes import SENDING, START_TIMEOUT_S, _Output
from tests.waiting import PATIENCE_S, wait_until

pytestmark = pytest.mark.slow  # real processes

ROOT = Path(__file__).resolve().parent.parent
HEARD = "heard changes from another process: ShiftsChanged"  # the sender's log line


def _env(paths: DataPaths, db: Database, emulator: LineEmulator) -> dict[str, str]:
    return os.environ | {
        "SHIFTCAST_HOME": str(paths.home),
        "SHIFTCAST_DB_URL": db.url,
        "SHIFTCAST_LINE_TOKEN": TOKEN,
        "SHIFTCAST_LINE_API_BASE": emulator.base_url,
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",  # no keyring: the token comes from the environment
    }


def _shifts_due_now(db: Database, emulator: LineEmulator) -> int:
    """Two shifts starting within the hour (or two) whose reminders, four hours ahead, are due at once:
    one confirmed already, whose reminder the sender's first planning run sends (the sign that run is
    over), and one still a draft. Returns the month as YYYYMM."""
    now = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)
    start = now + dt.timedelta(minutes=61)
    if start.time() > dt.time(23, 0):  # keep it inside one day: start after midnight instead
        start = dt.datetime.combine(start.date() + dt.timedelta(days=1), dt.time(0, 30), dt.UTC)
    end = start + dt.timedelta(minutes=30)
    with db.write() as s:
        room = f.classroom(s, "本校", timezone="UTC", quiet_hours=None, reminder_lead_minutes=240)
        for n, status in ((1, ShiftStatus.CONFIRMED), (2, ShiftStatus.DRAFT)):
            teacher = f.teacher(s, f"講師{n}", n)
            line_user_id = f.reach(teacher).line_user_id
            assert line_user_id is not None and teacher.name is not None
            emulator.add_user(line_user_id, teacher.name)
            f.shift(s, room, teacher, start.date(), start.strftime("%H:%M"), end.strftime("%H:%M"), now=now,
                    status=status)
    return start.year * 100 + start.month


@pytest.mark.backends("sqlite", "postgresql")
def test_a_shift_confirmed_from_the_command_line_is_sent_by_the_running_sender(
        db: Database, paths: DataPaths, capsys: pytest.CaptureFixture[str]) -> None:
    with LineEmulator(token=TOKEN) as emulator:
        month = _shifts_due_now(db, emulator)
        env = _env(paths, db, emulator)
        sender = subprocess.Popen([sys.executable, "main.py", "sender"], cwd=ROOT, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        output = _Output(sender)
        try:
            assert output.wait_for(SENDING, START_TIMEOUT_S), output.stderr
            # Its first planning run is over once the confirmed shift's reminder arrived; the draft
            # was passed by.
            assert wait_until(lambda: len(emulator.all_inbox()) == 1), output.stderr
            confirming = dt.datetime.now(dt.UTC)
            confirm = subprocess.run([sys.executable, "main.py", "confirm", "--classroom", "本校", "--month",
                                      f"{month // 100}-{month % 100:02d}"], cwd=ROOT, env=env,
                                     capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
            exited = time.monotonic()
            assert confirm.returncode == 0, confirm.stderr
            assert wait_until(lambda: len(emulator.all_inbox()) == 2, PATIENCE_S), \
                "the running sender did not send the confirmed shift's reminder"
            seconds = time.monotonic() - exited
            # The running sender planned it, after hearing the other process: the same process, started once.
            assert sender.poll() is None
            assert output.stdout.count(SENDING) == 1
            # Its log (written on a thread of its own, so looked for until it comes) says why it planned.
            assert wait_until(lambda: HEARD in _log(paths)), _log(paths)
            assert wait_until(lambda: [status for status, _ in _reminders(db)] == [DeliveryStatus.SENT] * 2)
            assert _reminders(db)[1][1] >= confirming  # planned after the confirmation, not before it
            with capsys.disabled():
                print(f"\n[{db.engine.dialect.name}] CLI exit → reminder accepted by LINE: {seconds:.2f} s")
        finally:
            sender.send_signal(signal.SIGTERM)
            sender.wait(timeout=60)
            output.close()
        assert sender.returncode == 0, output.stderr


def _reminders(db: Database) -> list[tuple[DeliveryStatus, dt.datetime]]:
    """Each reminder's status (recorded after LINE accepted it) and when it was planned."""
    with db.read() as s:
        rows = s.execute(select(Delivery.status, Delivery.created_at)
                         .where(Delivery.kind == DeliveryKind.SHIFT_REMINDER).order_by(Delivery.id))
        return [(status, created) for status, created in rows]


def _log(paths: DataPaths) -> str:
    try:
        return (paths.logs / "shiftcast.log").read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
