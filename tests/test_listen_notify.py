"""Wake on enqueue across processes (PostgreSQL's LISTEN/NOTIFY): a delivery enqueued by another process
is sent by a waiting sender at once, because a notification woke it, not its poll — and after its
listening connection drops, it listens again."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select, text

from core.emulator import LineEmulator
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.models import Delivery, DeliveryStatus
from tests import factories as f
from tests.linefixtures import emulator, line_ready, user_id  # noqa: F401
from tests.waiting import wait_until

pytestmark = pytest.mark.backends("postgresql")
ROOT = Path(__file__).resolve().parent.parent
# A poll far longer than the test: only a notification can wake the sender in time.
NEVER_POLLS = dataclasses.replace(SenderConfig(), concurrency=2, poll_interval=600.0)
ENQUEUE = """
import datetime as dt, sys
from core.outbox import queue
from core.store.db import Database
from core.store.models import DeliveryKind, ShiftStatus
from tests import factories as f
db, n, now = Database(sys.argv[1]), int(sys.argv[2]), dt.datetime.now(dt.UTC)
with db.write() as s:
    room = f.classroom(s, f"教室{n}")
    teacher = f.teacher(s, f"講師{n}", n)
    shift = f.shift(s, room, teacher, (now + dt.timedelta(days=2)).date(), now=now, status=ShiftStatus.CONFIRMED)
    queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup=f"reminder:{shift.id}", due_at=now, now=now,
                  recipient=f.reach(teacher).line_user_id, teacher_id=teacher.id, classroom_id=room.id,
                  subject_type="shift", subject_id=shift.id, subject_version=shift.version)
db.dispose()
"""


def _enqueue_elsewhere(db_url: str, n: int) -> None:
    """Another process enqueues a reminder for teacher `n` (its after-commit hook cannot reach this one)."""
    subprocess.run([sys.executable, "-c", ENQUEUE, db_url, str(n)], cwd=ROOT, check=True, timeout=120)


def _sent(db: Database) -> int:
    with db.read() as s:
        return len(s.scalars(select(Delivery.id).where(Delivery.status == DeliveryStatus.SENT)).all())


def test_an_enqueue_in_another_process_wakes_a_waiting_sender(db: Database, db_url: str,
                                                              line_ready: LineEmulator) -> None:
    line_ready.add_user(user_id(1), "講師1")
    line_ready.add_user(user_id(2), "講師2")
    sender = Sender(db, paths=f.home_paths(), config=NEVER_POLLS).start()
    try:
        assert sender.listener is not None and sender.listener.listening.wait(30)
        _enqueue_elsewhere(db_url, 1)
        assert wait_until(lambda: _sent(db) == 1)
        assert sender.listener.notified >= 1
        assert len(line_ready.inbox(user_id(1))) == 1

        # The server drops the listening connection; the listener connects and LISTENs again.
        first = sender.listener.backend_pid
        with db.write() as s:
            s.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first})
        assert wait_until(lambda: sender.listener is not None and sender.listener.connects >= 2
                           and sender.listener.listening.is_set())
        assert sender.listener.backend_pid != first
        notified = sender.listener.notified
        _enqueue_elsewhere(db_url, 2)  # a second teacher's reminder, from the other process again
        assert wait_until(lambda: _sent(db) == 2)
        assert sender.listener.notified > notified
        assert len(line_ready.inbox(user_id(2))) == 1
    finally:
        sender.stop()
