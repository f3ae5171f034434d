"""Senders that know about each other: registered with a heartbeat, listed by `main.py senders`, checked by
`main.py health`, and one sender per data folder on SQLite while a PostgreSQL server takes several."""

from __future__ import annotations

import datetime as dt
import json
import threading

import pytest
from sqlalchemy import select

import main
from core.outbox import queue
from core.sending import presence
from core.sending.engine import Engine
from core.sending.presence import SenderState
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.models import Delivery, DeliveryStatus, SenderRecord
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import FakeClock, make_reminders
from tests.waiting import wait_until

pytestmark = pytest.mark.backends("sqlite", "postgresql")
NO_LINE = SenderConfig(concurrency=1, poll_interval=0.05)


def _sender(db: Database, clock: FakeClock) -> Sender:
    return Sender(db, connect={"line": None}, paths=f.home_paths(), config=NO_LINE, clock=clock)


def _row(db: Database, owner: str) -> SenderRecord:
    with db.read() as s:
        row = s.get(SenderRecord, owner)
        assert row is not None
        return row


def test_a_sender_registers_keeps_a_heartbeat_and_says_when_it_stopped(db: Database, now: dt.datetime) -> None:
    clock = FakeClock(now)
    sender = _sender(db, clock).start()
    try:
        row = _row(db, sender.owner)
        assert (row.started_at, row.heartbeat_at, row.stopped_at) == (now, now, None)
        assert row.home == str(f.home_paths().home) and row.app == "sender"
        clock.now = now + presence.HEARTBEAT_EVERY
        sender.wake()
        assert wait_until(lambda: sender.presence.beats >= 1)
        assert _row(db, sender.owner).heartbeat_at == now + presence.HEARTBEAT_EVERY
    finally:
        sender.stop()
    assert _row(db, sender.owner).stopped_at is not None


def test_a_clean_stop_gives_back_everything_still_claimed(db: Database, now: dt.datetime) -> None:
    """A SIGTERM'd service must leave nothing in processing for the next sender to wait a lease for."""
    make_reminders(db, 3, now=now, start_in=dt.timedelta(minutes=30))
    clock = FakeClock(now + dt.timedelta(hours=1))
    sender = _sender(db, clock)
    sender.pause()  # its own loop claims nothing: the rows below are the ones it holds, whoever is quicker
    sender.start()
    with db.write() as s:  # as if its sends were still in flight when it was told to stop
        claimed = queue.claim(s, owner=sender.owner, now=clock.now, lease=dt.timedelta(minutes=2), limit=10)
    assert len(claimed) == 3
    sender.stop()
    with db.read() as s:
        rows = s.execute(select(Delivery.status, Delivery.lease_owner).where(Delivery.id.in_(claimed))).all()
    assert rows and all(status == DeliveryStatus.QUEUED and owner is None for status, owner in rows)


def test_senders_lists_who_sends_and_marks_the_stale(db: Database, now: dt.datetime, capsys) -> None:
    real_now = dt.datetime.now(dt.UTC)
    with db.write() as s:
        presence.register(s, "box-a:10:aaaa", home="/srv/shiftcast", app="sender", now=real_now, host="box-a", pid=10)
        presence.register(s, "box-b:11:bbbb", home="/srv/other", app="tray", host="box-b", pid=11,
                          now=real_now - presence.STALE_AFTER - dt.timedelta(seconds=5))
        presence.register(s, "box-c:12:cccc", home="/srv/third", app="window", host="box-c", pid=12,
                          now=real_now - dt.timedelta(hours=1))
        presence.stopped(s, "box-c:12:cccc", now=real_now - dt.timedelta(minutes=30))
    assert main.main(["senders", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["state"]) for r in listed] == [
        ("box-a:10:aaaa", "sending"), ("box-b:11:bbbb", "stale"), ("box-c:12:cccc", "stopped")]
    assert listed[0]["home"] == "/srv/shiftcast" and listed[1]["app"] == "tray"
    assert main.main(["senders"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith("box-a pid 10 (sender, /srv/shiftcast): sending since")
    assert "STALE" in text[1] and "stopped at" in text[2]


def test_health_needs_a_fresh_heartbeat_on_this_computer(db: Database, capsys) -> None:
    assert main.main(["health"]) == 1
    assert "unhealthy" in capsys.readouterr().err
    sender = Sender(db, connect={"line": None}, paths=f.home_paths(), config=NO_LINE).start()
    try:
        assert main.main(["health"]) == 0
        assert capsys.readouterr().out.startswith("ok: the database answers; 1 sender on")
    finally:
        sender.stop()
    assert main.main(["health"]) == 1


def test_the_state_is_a_pure_rule_of_the_row_and_the_clock(now: dt.datetime) -> None:
    assert presence.state_of(now, None, now=now + presence.STALE_AFTER) is SenderState.SENDING
    assert presence.state_of(now, None, now=now + presence.STALE_AFTER + dt.timedelta(seconds=1)) is SenderState.STALE
    assert presence.state_of(now, now, now=now + dt.timedelta(days=1)) is SenderState.STOPPED


def test_one_sender_per_folder_on_sqlite_several_on_postgresql(db: Database, paths: DataPaths, backend: str) -> None:
    first, second = Engine(db, paths), Engine(db, paths)
    try:
        assert first.start()
        assert second.start() is (backend == "postgresql")
        with db.read() as s:
            live = presence.listing(s, now=dt.datetime.now(dt.UTC), include_stopped=False)
        assert len(live) == (2 if backend == "postgresql" else 1)
    finally:
        second.stop()
        first.stop()



@pytest.mark.backends("sqlite")  # one sender per folder: the second engine does not start
def test_the_relay_syncs_beside_a_started_sender_only_and_stops_with_it(db: Database, paths: DataPaths) -> None:
    from core.relay.syncer import RelaySyncer

    beside_first, beside_second = RelaySyncer(db, paths), RelaySyncer(db, paths)
    first = Engine(db, paths, companions=[beside_first])
    second = Engine(db, paths, companions=[beside_second])  # the folder's sender.lock is taken: not started
    try:
        assert first.start() and not second.start()
        assert wait_until(lambda: beside_first.rounds >= 1)  # no relay attached: a round that does nothing
    finally:
        second.stop()
        first.stop()
    assert beside_second.rounds == 0
    rounds = beside_first.rounds
    beside_first.wake()  # stopped with the engine: nothing runs any more
    assert beside_first.rounds == rounds

@pytest.mark.backends("postgresql")
def test_computers_sharing_a_server_are_not_taken_for_a_copied_data_folder(db: Database, now: dt.datetime) -> None:
    """On SQLite a second computer's stamp means the folder was copied (tests/test_data_folder_copies.py);
    on a server it is how several senders work, and raises no alert."""
    from core import alerts
    from core.store import identity
    from core.store.models import AlertKind

    office = identity.Machine("11111111-1111-4111-8111-111111111111", "office-pc")
    nas = identity.Machine("22222222-2222-4222-8222-222222222222", "nas")
    with db.write() as s:
        identity.stamp(s, office, now=now)
        identity.stamp(s, nas, now=now)
    with db.write() as s:
        assert alerts.other_computers(s, nas, now=now) == ()
        opened, _ = alerts.evaluate(s, now=now, running_since=None)
        assert AlertKind.OTHER_COMPUTER not in [a.kind for a in opened]


def test_a_starting_sender_marks_this_computers_dead_senders_stopped(db: Database, now: dt.datetime) -> None:
    """A SIGKILLed sender never says it stopped; the next one on the same computer says it for it."""
    import socket
    import subprocess
    import sys

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    dead_pid = int(gone.stdout)
    host = socket.gethostname()
    last = now - dt.timedelta(minutes=5)
    with db.write() as s:
        presence.register(s, f"{host}:{dead_pid}:dead", home="/x", app="sender", now=last, host=host, pid=dead_pid)
        presence.register(s, "elsewhere:1:far", home="/y", app="sender", now=last, host="elsewhere", pid=1)
    sender = _sender(db, FakeClock(now)).start()
    sender.stop()
    assert _row(db, f"{host}:{dead_pid}:dead").stopped_at == last  # as of its last heartbeat
    assert _row(db, "elsewhere:1:far").stopped_at is None  # another computer's pids cannot be checked here


def test_a_predecessor_with_this_processs_pid_counts_as_dead(db: Database, now: dt.datetime) -> None:
    """A container's sender is pid 1 after every restart: a senders row and a lease with this pid
    that this process did not make belong to the killed predecessor, and are closed and freed at
    once instead of after the 2-minute lease; those of a sender of this process stay."""
    import os
    import socket

    from core.store.kinds import DeliveryKind

    host = socket.gethostname()
    predecessor = f"{host[:40]}:{os.getpid()}:0ldpid01"
    ours = queue.new_lease_owner()  # what a Sender of this process holds its leases under
    last = now - dt.timedelta(minutes=1)
    with db.write() as s:
        for n, owner in enumerate((predecessor, ours)):
            presence.register(s, owner, home="/x", app="sender", now=last, host=host, pid=os.getpid())
            queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, due_at=now, now=now, recipient=f"U{n:032x}",
                          dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{n}", 1))
            queue.claim(s, owner=owner, now=now, lease=dt.timedelta(minutes=2), limit=1)
    with db.write() as s:
        assert queue.release_orphans(s, now=now, is_alive=queue.pid_alive) == 1
        assert presence.close_dead_on_host(s, is_alive=queue.pid_alive) == 1
        still = {d.lease_owner for d in s.scalars(select(Delivery).where(Delivery.status == DeliveryStatus.PROCESSING))}
    assert still == {ours}
    assert _row(db, predecessor).stopped_at == last
    assert _row(db, ours).stopped_at is None


@pytest.mark.backends("postgresql")
def test_two_senders_of_one_computer_stamping_at_once_both_succeed(db: Database, now: dt.datetime) -> None:
    """The second stamp waits on the first one's row lock, then finds the row: no duplicate-key error
    after LINE already accepted the messages."""
    from sqlalchemy import text

    from core.store import identity
    from core.store.models import SendingMachine

    office = identity.Machine("33333333-3333-4333-8333-333333333333", "office-pc")
    first_stamped, errors = threading.Event(), []

    def second() -> None:
        first_stamped.wait(60)
        try:
            with db.write() as s:
                identity.stamp(s, office, now=now + dt.timedelta(seconds=1))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    thread = threading.Thread(target=second)
    thread.start()
    with db.write() as s:
        identity.stamp(s, office, now=now)
        first_stamped.set()
        # Commit only once the second stamp waits on this row (the server says so), so they overlap.
        waiting = False
        for _ in range(6000):
            with db.read() as watch:
                waiting = bool(watch.scalar(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")))
            if waiting:
                break
            threading.Event().wait(0.01)
        assert waiting
    thread.join(60)
    assert errors == []
    with db.read() as s:
        row = s.get(SendingMachine, office.machine_id)
        assert row is not None and row.last_sent_at == now + dt.timedelta(seconds=1) and row.first_sent_at == now
