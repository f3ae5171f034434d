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

import pytest
from sqlalchemy import func, select

from core.emulator import FaultPlan, LineEmulator
from core.sending import presence
from core.store.db import Database
from core.store.models import Delivery, DeliveryAttempt, DeliveryStatus, SenderRecord
from core.store.paths import DataPaths
from tests.linefixtures import TOKEN, make_reminders
from tests.test_sender_processes import (
    SENDING,
    START_TIMEOUT_S,
    _assert_exactly_once,
    _Output,
    _spawn,
    _tune,
    _unfinished,
)

pytestmark = pytest.mark.backends("postgresql")
SENDERS = 3
DELIVERIES = 1000


def _processing(db: Database) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Delivery)
                        .where(Delivery.status == DeliveryStatus.PROCESSING)) or 0


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
                    # The random moment counts from when it says it sends (see the SQLite crash test);
                    # up to 2 s, so a round's work outweighs its start-up on a busy 2-core machine.
                    if not output.wait_for(SENDING, START_TIMEOUT_S):
                        failures.append(f"sender {n} never started sending:\n{output.stderr[-3000:]}")
                        done.set()
                        return
                    done.wait(rng.uniform(0.3, 2.0))
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
            while not done.is_set():
                left = _unfinished(db)
                progress.append(left)
                if left == 0:
                    break
                assert time.monotonic() - started < 240, f"no convergence: {progress[-20:]}"
                done.wait(0.5)
        finally:
            done.set()
            for t in threads:
                t.join(60)
        assert failures == []
        assert min(kills) >= 3, kills  # every sender was killed mid-work several times
        emulator.set_faults(FaultPlan())
        _assert_exactly_once(db, emulator, DELIVERIES)
        assert _processing(db) == 0
        with db.read() as s:
            attempts = s.scalar(select(func.count()).select_from(DeliveryAttempt))
            owners = s.scalar(select(func.count(func.distinct(DeliveryAttempt.delivery_id))))
        statuses = [r.status for r in emulator.request_log() if r.path.endswith("/push")]
        # The faults really happened: failures, and 409s where a retry met an earlier acceptance.
        assert statuses.count(500) > 50 and statuses.count(409) > 0 and attempts > DELIVERIES
        assert owners == DELIVERIES
        print(f"PostgreSQL crash test: {sum(kills)} kills {kills} in {time.monotonic() - started:.0f} s, "
              f"push answers:", {code: statuses.count(code) for code in sorted(set(statuses))})


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
