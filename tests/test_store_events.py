"""The database's events: typed, delivered after commit only, owned by one Database, and heard from
other processes through the change counters (core/store/events.py, core/store/changes.py)."""

from __future__ import annotations

import datetime as dt
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from core.outbox import queue
from core.roster import rules
from core.store import events
from core.store.changes import ChangeWatcher
from core.store.db import Database
from core.store.models import Channel, DeliveryKind, Shift
from tests import factories as f

ROOT = Path(__file__).resolve().parent.parent


def _heard(db: Database, kind: type[events.E]) -> list[events.E]:
    heard: list[events.E] = []
    db.events.listen(kind, heard.append)
    return heard


def _add_shift(db: Database, now: dt.datetime, day: int = 5) -> int:
    with db.write() as s:
        room, teacher = f.classroom(s, f"教室{day}"), f.teacher(s, f"先生{day}", day)
        return f.shift(s, room, teacher, dt.date(2026, 12, day), now=now).id


def test_listeners_hear_a_typed_event_after_commit_never_after_rollback(db: Database, now: dt.datetime) -> None:
    heard = _heard(db, events.ShiftsChanged)
    with pytest.raises(RuntimeError), db.write() as s:
        room, teacher = f.classroom(s), f.teacher(s)
        f.shift(s, room, teacher, dt.date(2026, 12, 5), now=now)
        assert heard == []  # not while the transaction is open
        raise RuntimeError
    assert heard == []
    with db.write() as s:
        room, teacher = f.classroom(s), f.teacher(s)
        first = f.shift(s, room, teacher, dt.date(2026, 12, 5), now=now)
        second = f.shift(s, room, teacher, dt.date(2026, 12, 6), now=now)
        assert heard == []
    # One event per transaction, saying which shifts, whose and where.
    assert heard == [events.ShiftsChanged(frozenset({first.id, second.id}), frozenset({teacher.id}),
                                          frozenset({room.id}))]


def test_a_moved_shift_names_both_teachers(db: Database, now: dt.datetime) -> None:
    shift_id = _add_shift(db, now)
    with db.write() as s:
        other = f.teacher(s, "後藤", 9)
    heard = _heard(db, events.ShiftsChanged)
    with db.write() as s:
        before = s.get(Shift, shift_id)
        assert before is not None
        was = before.teacher_id
        rules.edit_shift(s, shift_id, rules.ShiftChange(teacher_id=other.id), now=now)
    assert [e.teacher_ids for e in heard] == [frozenset({was, other.id})]


def test_enqueue_says_which_channels(db: Database, now: dt.datetime) -> None:
    heard = _heard(db, events.DeliveriesEnqueued)
    with db.write() as s:
        queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="a", due_at=now, now=now)
        queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="b", due_at=now, now=now, channel=Channel.EMAIL)
    assert heard == [events.DeliveriesEnqueued(frozenset({Channel.LINE, Channel.EMAIL}))]


def test_two_databases_in_one_process_do_not_hear_each_other(db: Database, tmp_path: Path, now: dt.datetime) -> None:
    other = Database(db.url)  # a second handle, as a test or the demo beside the real data has
    try:
        mine, theirs = _heard(db, events.ShiftsChanged), _heard(other, events.ShiftsChanged)
        _add_shift(db, now)
        assert len(mine) == 1 and theirs == []
        with other.write() as s:
            events.emit(s, events.ShiftsChanged(frozenset({99})))
        assert len(mine) == 1 and theirs == [events.ShiftsChanged(frozenset({99}))]
    finally:
        other.dispose()


def test_a_failing_listener_is_logged_and_the_others_still_hear(db: Database, now: dt.datetime,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    def fails(_event: events.ShiftsChanged) -> None:
        raise ValueError("listener bug")

    db.events.listen(events.ShiftsChanged, fails)
    heard = _heard(db, events.ShiftsChanged)
    with caplog.at_level(logging.ERROR):
        _add_shift(db, now)  # the commit stands
    assert len(heard) == 1
    assert "a listener for ShiftsChanged failed" in caplog.text


def test_unsubscribing_stops_the_listener(db: Database, now: dt.datetime) -> None:
    heard: list[events.ShiftsChanged] = []
    stop = db.events.listen(events.ShiftsChanged, heard.append)
    stop()
    stop()  # twice is harmless
    _add_shift(db, now)
    assert heard == []


def test_an_action_after_commit_runs_once_committed_and_not_after_a_rollback(db: Database) -> None:
    done: list[str] = []
    with pytest.raises(RuntimeError), db.write() as s:
        events.after_commit(s, lambda: done.append("rolled back"))
        raise RuntimeError
    with db.write() as s:
        events.after_commit(s, lambda: done.append("committed"))
        assert done == []
    assert done == ["committed"]


def _counter(db: Database, topic: str) -> int:
    with db.read() as s:
        return int(s.execute(text("SELECT seq FROM changes WHERE topic = :t"), {"t": topic}).scalar_one())


def test_a_commit_that_emits_bumps_its_topic_once_and_a_rollback_does_not(db: Database, now: dt.datetime) -> None:
    before = _counter(db, "shifts")
    with pytest.raises(RuntimeError), db.write() as s:
        events.emit(s, events.ShiftsChanged(frozenset({1})))
        raise RuntimeError
    assert _counter(db, "shifts") == before
    with db.write() as s:
        events.emit(s, events.ShiftsChanged(frozenset({1})))
        events.emit(s, events.ShiftsChanged(frozenset({2})))
        events.emit(s, events.WebhookEventsRecorded(1))  # this process's own business: no counter
    assert _counter(db, "shifts") == before + 1


_OTHER_PROCESS = """
import sys
from core.store import events
from core.store.db import Database
db = Database(sys.argv[1])
with db.write() as s:
    events.emit(s, events.ShiftsChanged(frozenset({7})))
db.dispose()
"""


def _commit_in_another_process(db: Database) -> None:
    subprocess.run([sys.executable, "-c", _OTHER_PROCESS, db.url], check=True, cwd=ROOT, timeout=120)


@pytest.mark.backends("sqlite", "postgresql")
def test_the_watcher_hears_another_process_once_and_not_this_one(db: Database, now: dt.datetime) -> None:
    heard = _heard(db, events.ShiftsChanged)
    watcher = ChangeWatcher(db)
    assert watcher.look() == []  # learns where the counters stand
    _add_shift(db, now)  # this process's own commit, through another of its connections
    assert len(heard) == 1  # heard after its commit, as ever
    assert watcher.look() == []  # and not again as news: the counter value is known as this process's
    _commit_in_another_process(db)
    assert watcher.look() == [events.ShiftsChanged()]  # "some shifts": which ones is not carried across
    assert heard[1:] == [events.ShiftsChanged()]
    assert watcher.look() == []  # once
    _add_shift(db, now, day=6)
    _commit_in_another_process(db)
    assert watcher.look() == [events.ShiftsChanged()]  # one of two commits was foreign: heard once
    assert watcher.heard == 2
    watcher.stop()


def test_the_watcher_thread_delivers_within_seconds(db: Database) -> None:
    from tests.waiting import wait_until

    heard = _heard(db, events.ShiftsChanged)
    watcher = ChangeWatcher(db, every=0.05).start()
    try:
        _commit_in_another_process(db)
        assert wait_until(lambda: heard == [events.ShiftsChanged()])
    finally:
        watcher.stop()


def test_a_topic_without_its_row_gets_one(db: Database) -> None:
    """A topic newer than the migration that seeded the counters starts counting at its first commit."""
    with db.write() as s:
        s.execute(text("DELETE FROM changes WHERE topic = 'acknowledgements'"))
    with db.write() as s:
        events.emit(s, events.DeliveriesAcknowledged(frozenset({1})))
    assert _counter(db, "acknowledgements") == 1
