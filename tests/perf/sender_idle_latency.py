"""The running sender at low load: enqueue-to-accepted latency, and its CPU use with nothing to do."""

from __future__ import annotations

import datetime as dt
import statistics
import time
from typing import Any
from zoneinfo import ZoneInfo

from core.outbox import queue
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.models import DeliveryKind, ShiftStatus, utcnow
from tests import factories as f
from tests.perf.emulator_process import EmulatorProcess
from tests.perf.figures import percentile
from tests.perf.shiftcast_run import line_access
from tests.perf.workload import paths_of


def _started(db: Database, emulator: EmulatorProcess) -> Sender:
    """A Sender with default settings, running."""
    access = line_access(emulator.base_url, emulator.token)
    sender = Sender(db, connect={"line": lambda: access}, paths=paths_of(db), config=SenderConfig()).start()
    if not sender.ready.wait(30):
        raise AssertionError("the sender did not start")
    return sender


def _shifts_without_reminders(db: Database, count: int, now: dt.datetime) -> list[tuple[int, int, int, str]]:
    """Like tests/linefixtures.make_reminders, but the reminders are left for the caller to enqueue.

    Returns (teacher id, shift id, shift version, LINE user ID) per teacher."""
    out = []
    with db.write() as session:
        room = f.classroom(session, "本校")
        for n in range(1, count + 1):
            teacher = f.teacher(session, f"講師{n:05d}", n)
            local = (now + dt.timedelta(days=2)).astimezone(ZoneInfo("Asia/Tokyo"))
            day = local.date() + dt.timedelta(days=n // 50)
            shift = f.shift(session, room, teacher, day, "16:00", "21:00", now=now, status=ShiftStatus.CONFIRMED)
            out.append((teacher.id, shift.id, shift.version, str(f.reach(teacher).line_user_id)))
    return out


def enqueue_to_accepted(db: Database, emulator: EmulatorProcess, *, samples: int, per_second: float) -> dict[str, Any]:
    """Enqueue one reminder at a time, each in its own transaction, into a running Sender.

    The clock starts when the enqueuing transaction has committed (an after-commit listener
    registered before the sender's, so it runs first) and stops at the emulator's `acceptedAt` for
    that message, taken inside the emulator process when it accepted the push. Both are the host's
    UTC clock, so no polling interval blurs the figure.
    """
    now = utcnow()
    targets = _shifts_without_reminders(db, samples, now)
    committed: dict[str, float] = {}
    pending: list[str] = []

    def stamp() -> None:
        if pending:
            committed[pending.pop()] = time.time()

    remove_stamp = queue.on_enqueued(db, stamp)
    sender = _started(db, emulator)  # default configuration: 2 s poll, woken by the enqueue
    try:
        time.sleep(0.5)  # past its start-up
        interval = 1.0 / per_second
        next_at = time.perf_counter()
        for teacher_id, shift_id, version, recipient in targets:
            pending.append(recipient)
            with db.write() as session:
                queue.enqueue(session, kind=DeliveryKind.SHIFT_REMINDER,
                               dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift_id}", version),
                               due_at=utcnow(), now=utcnow(), recipient=recipient, teacher_id=teacher_id,
                               subject_type="shift", subject_id=shift_id, subject_version=version)
            next_at += interval
            time.sleep(max(0.0, next_at - time.perf_counter()))
        deadline = time.monotonic() + 30
        while emulator.stats()["delivered"] < samples and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        sender.stop()
        remove_stamp()
    emulator.check_exactly_once(samples)
    accepted = emulator.accepted_at()
    latencies = [(accepted[r].timestamp() - committed[r]) * 1000 for r in committed]
    if len(latencies) != samples:
        raise AssertionError(f"{len(latencies)} of {samples} enqueues were timed")
    return {
        "samples": samples,
        "enqueues_per_s": per_second,
        "p50_ms": round(statistics.median(latencies), 2),
        "p99_ms": round(percentile(latencies, 0.99), 2),
        "max_ms": round(max(latencies), 2),
        "method": "commit time from an after-commit listener that runs before the sender's wake-up; "
                  "accepted time from the emulator inbox's acceptedAt (same host clock)",
    }


def idle_cpu(db: Database, emulator: EmulatorProcess, *, seconds: float) -> dict[str, Any]:
    """CPU time of this whole process while a started Sender has nothing to do."""
    sender = _started(db, emulator)
    try:
        time.sleep(1.0)  # past its start-up
        cpu, wall = time.process_time(), time.perf_counter()
        time.sleep(seconds)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        sender.stop()
    return {
        "seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 4),
        "percent_of_one_core": round(100 * cpu / wall, 3),
        "poll_interval_s": sender.config.poll_interval,
    }
