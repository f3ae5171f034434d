from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from core.outbox import queue, retention
from core.roster import rules
from core.sending.scheduler import Scheduler, WakeDetector
from core.store.db import Database
from core.store.models import (
    Delivery,
    DeliveryAttempt,
    DeliveryKind,
    DeliveryStatus,
    RelayUpload,
    ShiftStatus,
)
from tests import factories as f
from tests.linefixtures import FakeClock


def test_wake_detector_sees_sleep_on_both_kinds_of_clock() -> None:
    detector = WakeDetector(wall=1000.0, mono=50.0)
    assert not detector.check(1030.0, 80.0)  # an ordinary tick
    assert detector.check(1030.0 + 3600, 110.0)  # wall moved an hour, monotonic 30 s: slept (Linux, macOS)
    assert detector.check(4630.0 + 3600, 3710.0 + 3600)  # both moved an hour: the tick came late (Windows)
    assert not detector.check(8230.0 + 31, 7310.0 + 31)


def test_scheduler_plans_at_start_after_edits_and_after_a_wake(db: Database, now: dt.datetime) -> None:
    clock = FakeClock(now)
    wall = [1000.0]
    mono = [10.0]
    wakes: list[int] = []
    with db.write() as s:
        room = f.classroom(s)
        teacher = f.teacher(s)
        shift = f.shift(s, room, teacher, dt.date(2026, 12, 10), now=now, status=ShiftStatus.CONFIRMED)
    scheduler = Scheduler(db, wake_sender=lambda: wakes.append(1), clock=clock,
                          wall=lambda: wall[0], mono=lambda: mono[0]).start()
    try:
        assert scheduler.wait_for_plans(1)  # right after start-up
        with db.read() as s:
            assert s.scalar(select(func.count()).select_from(Delivery)) == 1
        assert wakes  # planning wakes the sender rather than sending itself

        with db.write() as s:  # a shift edit triggers planning once it commits
            rules.edit_shift(s, shift.id, rules.ShiftChange(start_time=dt.time(15)), now=clock.now)
        assert scheduler.wait_for_plans(2)
        with db.read() as s:
            statuses = sorted(d.status.value for d in s.scalars(select(Delivery)))
        assert statuses == ["canceled", "pending"]

        wall[0] += 7200  # the laptop slept two hours
        mono[0] += 30
        assert scheduler.check_clock() is True
        assert scheduler.wait_for_plans(3)
        assert scheduler.check_clock() is False
    finally:
        scheduler.shutdown()



def test_purge_removes_an_old_delivery_handed_to_the_relay_with_its_upload(db: Database, now: dt.datetime) -> None:
    old = now - dt.timedelta(days=100)
    with db.write() as s:
        delivery_id, _ = queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="relayed", due_at=old, now=old)
        s.add(RelayUpload(delivery_id=delivery_id, subject_version=1, uploaded_at=old, canceled_at=old))
        s.flush()
        s.execute(f.table(Delivery).update().where(Delivery.id == delivery_id).values(status="sent", updated_at=old))
    assert retention.purge(db, now=now, days=90) == 1
    with db.read() as s:
        assert s.scalar(select(func.count()).select_from(RelayUpload)) == 0

@pytest.mark.backends("sqlite", "postgresql")  # retention works the same on both
def test_purge_keeps_anything_still_needed(db: Database, now: dt.datetime) -> None:
    old = now - dt.timedelta(days=100)
    with db.write() as s:
        for status in DeliveryStatus:
            delivery_id, _ = queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup=f"old-{status.value}",
                                            due_at=old, now=old)
            s.execute(f.table(Delivery).update().where(Delivery.id == delivery_id).values(status=status.value))
            s.add(DeliveryAttempt(delivery_id=delivery_id, number=1, started_at=old, outcome="x"))
        queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="recent", due_at=now, now=now)
        s.execute(f.table(Delivery).update().where(Delivery.dedup_key == "recent").values(status="sent"))
        s.execute(f.table(Delivery).update().where(Delivery.dedup_key != "recent").values(updated_at=old))
    assert retention.purge(db, now=now, days=90) == 2
    with db.read() as s:
        left = sorted(s.scalars(select(Delivery.dedup_key)))
        attempts = s.scalar(select(func.count()).select_from(DeliveryAttempt))
    assert left == ["old-failed", "old-pending", "old-processing", "old-queued", "recent"]
    assert attempts == 4


@pytest.mark.backends("sqlite", "postgresql")  # retention works the same on both
def test_purge_removes_old_cleared_incidents_only(db: Database, now: dt.datetime) -> None:
    from core.store.models import Alert

    old = now - dt.timedelta(days=100)
    with db.write() as s:
        s.add_all([
            Alert(kind="dead_letter", scope="", open_key=None, title="old, cleared", detail="", opened_at=old,
                  last_seen_at=old, cleared_at=old),
            Alert(kind="dead_letter", scope="", open_key="dead_letter:", title="old, still open", detail="",
                  opened_at=old, last_seen_at=old, cleared_at=None),
            Alert(kind="quota_exhausted", scope="", open_key=None, title="recent, cleared", detail="",
                  opened_at=now, last_seen_at=now, cleared_at=now),
        ])
    retention.purge(db, now=now, days=90)
    with db.read() as s:
        titles = sorted(a.title for a in s.scalars(select(Alert)))
    assert titles == ["old, still open", "recent, cleared"]
