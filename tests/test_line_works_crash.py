"""A sender process sending on LINE WORKS killed with SIGKILL, against the stand-in (the witness).

LINE WORKS has no retry key, so what a kill can cost depends on where the request was
(docs/reliability.md, "LINE WORKS"):
- killed before the request left (here: while it waited for its token): the reminder goes once, after
  the restart — nothing lost, nothing twice;
- killed after the answer was recorded: nothing is sent again;
- killed after LINE WORKS took the message but before its answer came back: the restart sends it
  again, and the teacher has it twice. That is the risk that is left, pinned here so it stays known.
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from core.channels.line_works_client import KEY
from core.emulator.line_works import WorksStandIn
from core.emulator.line_works.server import Gate
from core.outbox import queue
from core.roster import rules
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus, ShiftStatus
from core.store.paths import DataPaths
from tests import factories as f
from tests.worksfixtures import (
    BOT_ID,
    BOT_SECRET,
    CLIENT_ID,
    CLIENT_SECRET,
    SERVICE_ACCOUNT,
    app,
    key_pair,
    member,
    point_at,
    teacher_on_works,
)

pytestmark = pytest.mark.slow  # real processes

ROOT = Path(__file__).resolve().parent.parent
WAIT_S = 120.0  # generous: a slow, busy machine starts a sender in seconds, not minutes


def _reminders(db: Database, count: int, standin: WorksStandIn) -> list[int]:
    """`count` teachers on LINE WORKS, each with a confirmed shift and its reminder due now."""
    now = dt.datetime.now(dt.UTC)
    ids = []
    with db.write() as s:
        for name, value in (("CLIENT_ID", CLIENT_ID), ("SERVICE_ACCOUNT", SERVICE_ACCOUNT), ("BOT_ID", BOT_ID)):
            getattr(keys, f"LINE_WORKS_{name}").write(s, value)
        keys.SENDER_POLL_SECONDS.write(s, 0.05)
        room = f.classroom(s, "本校")
        day = (now + dt.timedelta(days=2)).astimezone(ZoneInfo("Asia/Tokyo")).date()
        for n in range(1, count + 1):
            teacher = rules.get_teacher(s, teacher_on_works(s, f"講師{n:03d}", n))
            shift = f.shift(s, room, teacher, day, "16:00", "21:00", now=now, status=ShiftStatus.CONFIRMED)
            standin.add_user(member(n))
            delivery_id, _ = queue.enqueue(
                s, kind=DeliveryKind.SHIFT_REMINDER, channel=KEY, recipient=member(n),
                dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift.id}", shift.version),
                due_at=now, now=now, teacher_id=teacher.id, classroom_id=room.id, subject_type="shift",
                subject_id=shift.id, subject_version=shift.version)
            ids.append(delivery_id)
    point_at(db, standin)
    return ids


def _spawn(paths: DataPaths, *, until_idle: bool = False) -> subprocess.Popen[bytes]:
    key_file = paths.home / "works-test-key.pem"
    key_file.write_text(key_pair()[0], encoding="utf-8")
    env = os.environ | {
        "SHIFTCAST_HOME": str(paths.home),
        "SHIFTCAST_DB_URL": paths.database_url(),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
        "SHIFTCAST_LINE_TOKEN": "unused-line-token",  # LINE has nothing to send here
        secrets.LINE_WORKS_CLIENT_SECRET_ENV: CLIENT_SECRET,
        secrets.LINE_WORKS_BOT_SECRET_ENV: BOT_SECRET,
        secrets.LINE_WORKS_PRIVATE_KEY_FILE_ENV: str(key_file),
    }
    verb = ["sender", "--until-idle"] if until_idle else ["sender"]
    return subprocess.Popen([sys.executable, str(ROOT / "main.py"), *verb], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _kill_while_held(paths: DataPaths, standin: WorksStandIn, gate: Gate) -> None:
    """A sender started, killed with SIGKILL as soon as a request of it waits at `gate`, the gate opened again."""
    standin.hold(gate)
    process = _spawn(paths)
    try:
        assert standin.wait_held(gate, 1, WAIT_S), "no request of the sender reached the stand-in"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    standin.release(gate)


def _finish(paths: DataPaths) -> None:
    """A sender run until nothing is left, as after a restart."""
    process = _spawn(paths, until_idle=True)
    _, err = process.communicate(timeout=WAIT_S * 2)
    assert process.returncode == 0, err.decode(errors="replace")[-4000:]


def _statuses(db: Database, ids: list[int]) -> list[DeliveryStatus]:
    with db.read() as s:
        return list(s.scalars(select(Delivery.status).where(Delivery.id.in_(ids)).order_by(Delivery.id)))


def test_a_sender_killed_before_its_requests_leave_loses_nothing_and_sends_each_once(
        db: Database, paths: DataPaths) -> None:
    with WorksStandIn(app()) as standin:
        ids = _reminders(db, 3, standin)
        _kill_while_held(paths, standin, standin.before_token)  # every request waits for its token: none left
        assert standin.accepted == []
        _finish(paths)
        assert {n: len(standin.to(member(n))) for n in (1, 2, 3)} == {1: 1, 2: 1, 3: 1}
        assert _statuses(db, ids) == [DeliveryStatus.SENT] * 3
        _finish(paths)  # recorded as sent: a further run sends nothing again
        assert len(standin.accepted) == 3


def test_a_sender_killed_while_line_works_holds_the_answer_sends_that_message_again(
        db: Database, paths: DataPaths) -> None:
    with WorksStandIn(app()) as standin:
        ids = _reminders(db, 1, standin)
        _kill_while_held(paths, standin, standin.after_taking)  # LINE WORKS took it and has not answered yet
        _finish(paths)
        # No retry key: the restart cannot know LINE WORKS took it. Twice, never none.
        assert len(standin.to(member(1))) == 2
        assert _statuses(db, ids) == [DeliveryStatus.SENT]
