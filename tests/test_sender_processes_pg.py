"""Real sender processes sharing one PostgreSQL database: three at once, each killed with SIGKILL at random
moments and started again, against a LINE that fails and times out after accepting; and a SIGTERM that
leaves nothing claimed. The emulator is the witness, as in tests/test_sender_processes.py (whose helpers
these reuse): every teacher gets exactly one message and the database agrees."""

from __future__ import annotations

import datetime as dt
import json
import random
import signal
import threading
import time
from dataclasses import dataclass

import pytest
from sqlalchemy import func, select

from core.emulator import FaultPlan, LineEmulator
from core.sending import presence
from core.store.db import Database
from core.store.models import Delivery, DeliveryAttempt, DeliveryStatus, SenderRecord
from core.store.paths import DataPaths
from tests.linefixtures import TOKEN, make_reminders
from tests.test_sender_processes import (
    FINAL,
    SENDING,
    START_TIMEOUT_S,
    _assert_exactly_once,
    _Output,
    _spawn,
    _tune,
    _unfinished,
)
from tests.waiting import wait_until

pytestmark = pytest.mark.backends("postgresql")
SENDERS = 3
DELIVERIES = 1000
# Each sender is killed once the run has finished this many more deliveries (at random between the
# two) since it said it sends: about twenty kills per sender, whatever the machine's speed.
KILL_AFTER = (10, 80)
# How long the run may go with deliveries due and none attempted or finished before it fails.
STALL_S = 180.0


def _processing(db: Database) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Delivery)
                        .where(Delivery.status == DeliveryStatus.PROCESSING)) or 0


@dataclass(frozen=True)
class _Outbox:
    """What the run has done so far, as the database tells it."""

    unfinished: int
    attempts: int
    next_due: dt.datetime | None  # the earliest time an unfinished delivery may be tried (None: none left)

    @property
    def work(self) -> tuple[int, int]:
        """Changes whenever a sender finishes a delivery or starts an attempt: the run moves."""
        return self.unfinished, self.attempts


def _outbox(db: Database) -> _Outbox:
    with db.read() as s:
        open_rows = select(Delivery).where(Delivery.status.not_in(FINAL)).subquery()
        unfinished, next_due = s.execute(select(func.count(), func.min(open_rows.c.next_attempt_at))).one()
        attempts = s.scalar(select(func.count()).select_from(DeliveryAttempt)) or 0
    return _Outbox(unfinished, attempts, next_due)


def _stuck(db: Database) -> str:
    """Where the unfinished deliveries are, for the message of a run that stopped moving."""
    with db.read() as s:
        rows = s.execute(select(Delivery.status, Delivery.attempt_count, func.count())
                         .where(Delivery.status.not_in(FINAL))
                         .group_by(Delivery.status, Delivery.attempt_count)).all()
    return ", ".join(f"{count} {status.value} after {attempts} attempts" for status, attempts, count in rows)


@pytest.mark.slow
def test_three_senders_killed_at_random_moments_send_each_message_once(db: Database, paths: DataPaths) -> None:
    with LineEmulator(token=TOKEN) as emulator:
        make_reminders(db, DELIVERIES, now=dt.datetime.now(dt.UTC), emulator=emulator)
        _tune(db, poll_seconds=0.05, concurrency=6, backoff_base_seconds=0.05, max_retries=60,
              http_timeout_seconds=0.5, lease_seconds=3)
        emulator.set_faults(FaultPlan(error_rate=0.2, timeout_after_accept_rate=0.03, accept_then_error_rate=0.03,
                                      hang_seconds=1.0, latency_ms=15, seed=11))
        done = threading.Event()
        kills = [0] * SENDERS
        failures: list[str] = []

        def slot(n: int) -> None:
            rng = random.Random(20261201 + n)
            while not done.is_set():
                # Each its own data folder (its log, no shared lock file), all on the one database.
                process = _spawn(paths, emulator, home=paths.home / f"sender-{n}")
                output = _Output(process)
                try:
                    if not output.wait_for(SENDING, START_TIMEOUT_S):
                        failures.append(f"sender {n} never started sending:\n{output.stderr[-3000:]}")
                        done.set()
                        return
                    # The moment is a random amount of the run's work after it says it sends, not a
                    # time: a busy machine does less in a second, and a kill after a fixed time would
                    # cut more requests short per delivery finished, until backoff outgrew the run.
                    goal = _unfinished(db) - rng.randint(KILL_AFTER[0], KILL_AFTER[1])
                    def reached(goal: int = goal) -> bool:
                        return done.is_set() or _unfinished(db) <= goal
                    wait_until(reached, timeout=STALL_S, pause=0.05)
                finally:
                    process.send_signal(signal.SIGKILL)
                    process.wait(timeout=30)
                    output.close()
                kills[n] += 1

        threads = [threading.Thread(target=slot, args=(n,), daemon=True) for n in range(SENDERS)]
        started = time.monotonic()
        for t in threads:
            t.start()
        progress: list[int] = []
        try:
            state = _outbox(db)
            moved = time.monotonic()
            while not done.is_set() and state.unfinished:
                done.wait(0.5)
                now, before, state = time.monotonic(), state, _outbox(db)
                if state.work != before.work or state.next_due is None or state.next_due > dt.datetime.now(dt.UTC):
                    moved = now  # it moved, or what is left waits out its backoff: not a stall
                if state.unfinished != before.unfinished:
                    progress.append(state.unfinished)
                # No convergence is a long while with work due and nothing done, however slow the
                # machine; a backoff that put the next try that far off would be as bad.
                waiting = (state.next_due - dt.datetime.now(dt.UTC)).total_seconds() if state.next_due else 0.0
                assert now - moved < STALL_S and waiting < STALL_S, (
                    f"no convergence: {_stuck(db)}; unfinished after each change {progress[-20:]}; kills {kills}")
        finally:
            done.set()
            for t in threads:
                t.join(STALL_S + 60)
        assert failures == []
        assert min(kills) >= 3, kills  # every sender was killed mid-work several times
        emulator.set_faults(FaultPlan())
        _assert_exactly_once(db, emulator, DELIVERIES)
        assert _processing(db) == 0
        with db.read() as s:
            attempts = s.execute(select(func.count()).select_from(DeliveryAttempt)).scalar_one()
            owners = s.scalar(select(func.count(func.distinct(DeliveryAttempt.delivery_id))))
        statuses = [r.status for r in emulator.request_log() if r.path.endswith("/push")]
        # The faults really happened: failures, and 409s where a retry met an earlier acceptance.
        assert statuses.count(500) > 50 and statuses.count(409) > 0 and attempts > DELIVERIES
        assert owners == DELIVERIES
        print(f"PostgreSQL crash test: {sum(kills)} kills {kills} in {time.monotonic() - started:.0f} s, "
              f"push answers:", {code: statuses.count(code) for code in sorted(set(statuses), key=str)})


def test_sigterm_leaves_nothing_claimed(db: Database, paths: DataPaths) -> None:
    """A service manager's stop: the sender finishes or gives back what it holds, says it stopped, exits 0."""
    with LineEmulator(token=TOKEN) as emulator:
        make_reminders(db, 300, now=dt.datetime.now(dt.UTC), emulator=emulator)
        _tune(db, concurrency=8)
        emulator.set_faults(FaultPlan(latency_ms=40))
        process = _spawn(paths, emulator)
        output = _Output(process)
        try:
            assert output.wait_for(SENDING, START_TIMEOUT_S), output.stderr
            deadline = time.monotonic() + 60
            while _processing(db) == 0 and time.monotonic() < deadline:  # it holds claims right now
                threading.Event().wait(0.01)
            assert _processing(db) > 0
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=90)
            output.close()
        assert process.returncode == 0, output.stderr[-3000:]
        assert _processing(db) == 0
        stats = json.loads(output.stdout.strip().splitlines()[-1])
        with db.read() as s:
            sent = s.scalar(select(func.count()).select_from(Delivery).where(Delivery.status == DeliveryStatus.SENT))
            [row] = s.scalars(select(SenderRecord)).all()
            state = presence.state_of(row.heartbeat_at, row.stopped_at, now=dt.datetime.now(dt.UTC))
        assert stats["sent"] == sent == len(emulator.all_inbox()) < 300
        assert state is presence.SenderState.STOPPED and row.pid == process.pid
