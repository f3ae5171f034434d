"""Real sender processes on one database: two at once, and one killed with SIGKILL again and again.

The emulator is the witness: every delivery must be accepted exactly once, none missing, and the
database must agree with it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest
from sqlalchemy import func, select

from core.channels.line import LineError
from core.emulator import FaultPlan, LineEmulator
from core.emulator.records import RequestRecord
from core.outbox.policy import BackoffPolicy
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Alert, Delivery, DeliveryAttempt, DeliveryStatus
from core.store.paths import DataPaths
from tests.linefixtures import TOKEN, make_reminders

pytestmark = pytest.mark.slow  # every test here starts real processes

ROOT = Path(__file__).resolve().parent.parent
FINAL = (DeliveryStatus.SENT, DeliveryStatus.FAILED, DeliveryStatus.CANCELED)
SENDING = "sending from "  # what `main.py sender` prints once its loop runs
# How long a sender may take to start before a test gives up: far above the 1–1.5 s a slow 2-core
# machine needs (6 s with both cores busy); waiting for the line costs nothing when it comes sooner.
START_TIMEOUT_S = 60.0


def _tune(db: Database, **values: float) -> None:
    with db.write() as s:
        for key, value in values.items():
            getattr(keys, f"SENDER_{key.upper()}").write(s, value)


def _spawn(paths: DataPaths, emulator: LineEmulator, *, home: Path | None = None,
           until_idle: bool = False) -> subprocess.Popen[bytes]:
    """A `main.py sender` process (`--until-idle` if asked). With `home`, it keeps its own data folder
    (and so its own sender lock) but uses the same database file: two senders really racing for the
    same outbox."""
    env = os.environ | {
        "SHIFTCAST_HOME": str(home or paths.home),
        "SHIFTCAST_DB_URL": paths.database_url(),
        "SHIFTCAST_LINE_TOKEN": TOKEN,
        "SHIFTCAST_LINE_API_BASE": emulator.base_url,
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
    }
    verb = ["sender", "--until-idle"] if until_idle else ["sender"]
    return subprocess.Popen([sys.executable, "main.py", *verb], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


class _Output:
    """A process's stdout and stderr, read on threads while it runs: it never blocks on a full pipe,
    and a test can wait for a line it prints (with a timeout) instead of guessing how long it takes."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None and process.stderr is not None
        self._changed = threading.Condition()
        self._stdout: list[str] = []
        self._stderr: list[str] = []
        self._open = 2  # streams not at their end yet
        self._readers = [threading.Thread(target=self._read, args=(stream, lines), daemon=True)
                         for stream, lines in ((process.stdout, self._stdout), (process.stderr, self._stderr))]
        for reader in self._readers:
            reader.start()

    def _read(self, stream: IO[bytes], lines: list[str]) -> None:
        for raw in stream:
            with self._changed:
                lines.append(raw.decode(errors="replace"))
                self._changed.notify_all()
        with self._changed:
            self._open -= 1
            self._changed.notify_all()

    def wait_for(self, text: str, timeout: float) -> bool:
        """Has stdout had a line containing `text`? False once the timeout passed or the process
        closed its output without printing it."""
        with self._changed:
            return self._changed.wait_for(lambda: any(text in line for line in self._stdout) or self._open == 0,
                                          timeout) and any(text in line for line in self._stdout)

    def close(self, timeout: float = 30.0) -> None:
        """After the process ended: let the readers reach the end of its output."""
        for reader in self._readers:
            reader.join(timeout)

    @property
    def stdout(self) -> str:
        with self._changed:
            return "".join(self._stdout)

    @property
    def stderr(self) -> str:
        with self._changed:
            return "".join(self._stderr)


def _until(condition: Callable[[], bool], timeout: float) -> bool:
    """Whether `condition` came true before `timeout`: a signal the program gives (a row it wrote, a
    request the emulator received), looked for often, never a guess of how long it takes."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _pushes(emulator: LineEmulator, fault: str | None = None) -> list[RequestRecord]:
    return [r for r in emulator.request_log() if r.path.endswith("/push") and (fault is None or r.fault == fault)]


def _leased_to(db: Database, pid: int) -> int:
    """How many deliveries the sender process `pid` holds (its lease owner is host:pid:random)."""
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Delivery).where(
            Delivery.status == DeliveryStatus.PROCESSING, Delivery.lease_owner.like(f"%:{pid}:%"))) or 0


def _unfinished(db: Database) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Delivery).where(Delivery.status.not_in(FINAL))) or 0


def _attempts(db: Database) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(DeliveryAttempt)) or 0


def _wait_until_done(db: Database, timeout: float) -> None:
    """Until every delivery is final, or `timeout` seconds passed without one more becoming final: a busy
    machine sends slower, and only a run that stopped moving is given up on."""
    left, moved = _unfinished(db), time.monotonic()
    while left and time.monotonic() - moved < timeout:
        time.sleep(0.1)
        now_left = _unfinished(db)
        if now_left < left:
            left, moved = now_left, time.monotonic()


def _assert_exactly_once(db: Database, emulator: LineEmulator, expected: int) -> None:
    with db.read() as s:
        rows = s.scalars(select(Delivery)).all()
    assert len(rows) == expected
    assert [d.id for d in rows if d.status != DeliveryStatus.SENT] == []
    inbox = emulator.all_inbox()
    by_recipient: dict[str, list[object]] = {}
    for message in inbox:
        by_recipient.setdefault(message.recipient, []).append(message)
    duplicates = {r: len(m) for r, m in by_recipient.items() if len(m) != 1}
    assert duplicates == {}
    assert len(inbox) == expected
    accepted = {m.retry_key: m.request_id for m in inbox}
    for d in rows:
        # The database agrees with the emulator: same key, and the request LINE accepted.
        assert d.retry_key in accepted
        assert accepted[d.retry_key] in (d.line_request_id, d.accepted_request_id)


@pytest.mark.slow
def test_two_sender_processes_never_send_one_delivery_twice(db: Database, paths: DataPaths) -> None:
    with LineEmulator(token=TOKEN) as emulator:
        make_reminders(db, 600, now=dt.datetime.now(dt.UTC), emulator=emulator)
        _tune(db, poll_seconds=0.05, concurrency=8)
        emulator.set_faults(FaultPlan(latency_ms=3))
        senders = [_spawn(paths, emulator, home=paths.home / "one"), _spawn(paths, emulator, home=paths.home / "two")]
        try:
            _wait_until_done(db, 120)
        finally:
            for p in senders:
                p.send_signal(signal.SIGTERM)
            answers = [p.communicate(timeout=60) for p in senders]
            outputs = [err.decode() for _, err in answers]
        assert [p.returncode for p in senders] == [0, 0], outputs
        stats = [json.loads(out.decode().strip().splitlines()[-1]) for out, _ in answers]
        assert sum(s["sent"] for s in stats) == 600, stats
        _assert_exactly_once(db, emulator, 600)
        with db.read() as s:
            owners = s.scalars(select(func.count(func.distinct(DeliveryAttempt.id)))).one()
            assert owners == 600  # one attempt each: nobody sent anything twice, nobody got a 409
        statuses = [r.status for r in emulator.request_log() if r.path.endswith("/push")]
        assert statuses.count(200) == 600 and 409 not in statuses

    # Secrets never reach the database or the logs.
    secret = TOKEN.encode()
    files = [*paths.home.glob("shiftcast.db*"), *paths.home.glob("*/logs/*")]
    assert any(p.name.startswith("shiftcast.log") for p in files)
    for path in files:
        assert secret not in path.read_bytes(), path


def test_a_second_sender_on_the_same_data_folder_is_refused(db: Database, paths: DataPaths) -> None:
    with LineEmulator(token=TOKEN) as emulator:
        first = _spawn(paths, emulator)
        output = _Output(first)
        try:
            # It says so once it holds the folder's lock (taken before its loop starts); probing the
            # lock instead could take it at the very moment the first sender tries to.
            assert output.wait_for(SENDING, START_TIMEOUT_S), output.stderr
            second = _spawn(paths, emulator)
            _, err = second.communicate(timeout=60)
            assert second.returncode == 1 and b"already sending" in err
        finally:
            first.send_signal(signal.SIGTERM)
            first.wait(timeout=60)
            output.close()
        assert first.returncode == 0


def test_the_sender_says_it_is_sending_once_and_then_sends(db: Database, paths: DataPaths) -> None:
    """The line the crash test (and a person at the terminal) goes by: printed once, when the loop
    runs; what is enqueued from then on goes out without the process doing anything else first."""
    with LineEmulator(token=TOKEN) as emulator:
        process = _spawn(paths, emulator)
        output = _Output(process)
        try:
            assert output.wait_for(SENDING, START_TIMEOUT_S), output.stderr
            [delivery_id] = make_reminders(db, 1, now=dt.datetime.now(dt.UTC), emulator=emulator)
            _wait_until_done(db, 30)  # another process's enqueue is seen by the 2 s poll
            with db.read() as s:
                assert s.get(Delivery, delivery_id).status == DeliveryStatus.SENT  # type: ignore[union-attr]
            assert len(emulator.all_inbox()) == 1
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
            output.close()
        assert process.returncode == 0
        assert output.stdout.count(SENDING) == 1


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing_and_duplicates_nothing(db: Database, paths: DataPaths) -> None:
    rng = random.Random(20261130)
    with LineEmulator(token=TOKEN) as emulator:
        make_reminders(db, 1000, now=dt.datetime.now(dt.UTC), emulator=emulator)
        # The default retry budget (five retries): a kill must not spend it. Only the backoff is
        # shortened, so the run takes minutes, not the hour that 2, 4, 8, 16 and 32 minutes add up to.
        _tune(db, poll_seconds=0.05, concurrency=4, backoff_base_seconds=0.05, http_timeout_seconds=0.5,
              lease_seconds=3)
        # 10 % refused outright. The policy itself gives a delivery up when all six tries fail (or the
        # sixth is accepted but answered 500): 1.6 in a million here, one run in 600. At 20 % it would
        # be one run in 12, so a reminder lost here was lost by a kill, not by the faults.
        emulator.set_faults(FaultPlan(error_rate=0.1, timeout_after_accept_rate=0.03, accept_then_error_rate=0.03,
                                      hang_seconds=1.0, latency_ms=15, seed=7))
        rounds = 0
        progress: list[int] = []
        startups: list[float] = []  # spawn → "sending from", per round (reported, never assumed)
        stalled = 0.0  # seconds of sending since a round last finished a delivery
        left = _unfinished(db)
        while left:
            process = _spawn(paths, emulator)
            spawned = time.monotonic()
            output = _Output(process)
            try:
                # The random moment counts from when the sender says it sends, not from its start:
                # start-up alone takes 1–1.5 s on a slow machine (up to 6 s when busy), longer than
                # any delay that still leaves ten rounds.
                sending = output.wait_for(SENDING, START_TIMEOUT_S)
                startups.append(time.monotonic() - spawned)
                assert sending, f"round {rounds + 1}: the sender never started sending\n{output.stderr[-4000:]}"
                # 0.1–0.8 s of sending: the short end kills it among its first requests, the long
                # end with a few rounds of them answered and more in flight. Four threads against
                # these faults finish 30–50 deliveries a round: 20 rounds on an idle 2-core
                # machine, 25–31 with both cores busy. The emulator's latency and hangs bound the rate
                # more than the CPU does, so a faster machine still needs well over ten.
                delay = rng.uniform(0.1, 0.8)
                time.sleep(delay)
            finally:
                process.send_signal(signal.SIGKILL)
                process.wait(timeout=30)
                output.close()
            rounds += 1
            after = _unfinished(db)
            stalled = 0.0 if after < left else stalled + delay
            left = after
            progress.append(left)
            # Rounds that finish nothing are legitimate while the rest wait out their backoff
            # (it doubles with every attempt that had an answer), so the bound is time
            # spent sending without progress, not a number of rounds that depends on the machine.
            assert stalled < 120 and rounds < 1000, f"no convergence: {progress}, start-up times {startups}"
        emulator.set_faults(FaultPlan())
        with db.read() as s:
            attempts = s.execute(select(func.count()).select_from(DeliveryAttempt)).scalar_one()
            rows = s.execute(select(Delivery.recipient, Delivery.status, Delivery.retry_key)).all()
        statuses = [r.status for r in _pushes(emulator)]
        received: dict[str | None, int] = {}
        for message in emulator.all_inbox():
            received[message.recipient] = received.get(message.recipient, 0) + 1
        accepted = emulator.accepted_retry_keys()
        lost = sum(1 for recipient, _, _ in rows if recipient not in received)
        duplicates = sum(1 for count in received.values() if count > 1)
        failed_but_accepted = sum(1 for _, status, key in rows if status == DeliveryStatus.FAILED and key in accepted)
        print(f"crash test: {rounds} rounds (as many kills), start-up {min(startups):.2f}–{max(startups):.2f} s,"
              f" unfinished after each: {progress}, push answers:",
              {code: statuses.count(code) for code in sorted(set(statuses), key=str)},
              f"lost {lost}, duplicates {duplicates}, failed but accepted {failed_but_accepted}")
        assert (lost, duplicates, failed_but_accepted) == (0, 0, 0)
        # At least ten of the kills hit a sender in the middle of its work.
        assert rounds >= 10 and progress[9] > 0, progress
        _assert_exactly_once(db, emulator, 1000)
        # The faults really happened: failures, and 409s where a retry met an earlier acceptance.
        assert statuses.count(500) > 100 and statuses.count(409) > 0 and attempts > 1000



def test_kills_with_the_request_in_flight_do_not_spend_the_retry_budget(db: Database, paths: DataPaths) -> None:
    """A claim whose sender died is not an attempt: seven SIGKILLs while LINE holds the request,
    then a 5xx, and the reminder waits for its first backoff instead of being dead-lettered."""
    kills = BackoffPolicy().max_retries + 2  # more than the whole default budget
    with LineEmulator(token=TOKEN) as emulator:
        [delivery_id] = make_reminders(db, 1, now=dt.datetime.now(dt.UTC), emulator=emulator)
        # LINE takes each request and never answers it: every kill finds the request in flight.
        emulator.set_faults(FaultPlan(timeout_before_accept_rate=1.0, hang_seconds=300))
        for kill in range(1, kills + 1):
            process = _spawn(paths, emulator)
            output = _Output(process)
            try:
                def in_flight(n: int = kill) -> bool:
                    return len(_pushes(emulator, "timeout_before_accept")) >= n
                arrived = _until(in_flight, START_TIMEOUT_S)
                assert arrived, f"kill {kill}: no request reached the emulator\n{output.stderr[-4000:]}"
            finally:
                process.send_signal(signal.SIGKILL)
                process.wait(timeout=30)
                output.close()
        emulator.set_faults(FaultPlan(fail_next=1))  # the next request is answered 500
        process = _spawn(paths, emulator)
        output = _Output(process)
        try:
            assert _attempts(db) == 0  # the killed sends left no attempt
            recorded = _until(lambda: _attempts(db) > 0, START_TIMEOUT_S)
            assert recorded, output.stderr[-4000:]
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
            output.close()
        assert process.returncode == 0, output.stderr[-4000:]
        pushes = _pushes(emulator)
        assert [r.status for r in pushes] == [None] * kills + [500]
        assert len({r.retry_key for r in pushes}) == 1  # every try presented the key committed before the first
    with db.read() as s:
        delivery = s.get(Delivery, delivery_id)
        [attempt] = s.scalars(select(DeliveryAttempt)).all()
        alerts = s.scalars(select(Alert)).all()
    assert delivery is not None
    assert (delivery.status, delivery.attempt_count, delivery.last_error_code, delivery.dead_lettered_at) == (
        DeliveryStatus.QUEUED, 1, LineError.SERVER_ERROR.value, None)
    assert attempt.http_status == 500 and attempt.number == 1
    assert delivery.next_attempt_at is not None
    waits = (delivery.next_attempt_at - attempt.started_at).total_seconds()
    assert 0.9 * 120 <= waits <= 1.1 * 120, waits  # the first backoff (2 min ± 10 %)
    assert alerts == []  # nothing "failed after every retry"


def test_sender_until_idle_sends_what_a_killed_sender_held(db: Database, paths: DataPaths) -> None:
    """`main.py sender --until-idle` after a crash frees the dead sender's leases, as `main.py
    sender` does at its start, instead of exiting 0 with the rows still held for a whole lease."""
    with LineEmulator(token=TOKEN) as emulator:
        make_reminders(db, 5, now=dt.datetime.now(dt.UTC), emulator=emulator)
        emulator.set_faults(FaultPlan(timeout_before_accept_rate=1.0, hang_seconds=300))
        process = _spawn(paths, emulator)
        output = _Output(process)
        try:
            held = _until(lambda: _leased_to(db, process.pid) == 5, START_TIMEOUT_S)
            assert held, output.stderr[-4000:]
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
            output.close()
        emulator.set_faults(FaultPlan())
        drain = _spawn(paths, emulator, until_idle=True)
        out, err = drain.communicate(timeout=120)
        assert drain.returncode == 0, err.decode()[-4000:]
        assert json.loads(out.decode().strip().splitlines()[-1])["sent"] == 5
        assert _unfinished(db) == 0
        per_teacher: dict[str, int] = {}
        for message in emulator.all_inbox():
            per_teacher[message.recipient] = per_teacher.get(message.recipient, 0) + 1
        assert sorted(per_teacher.values()) == [1] * 5


def test_a_sender_stopped_while_it_starts_stops_cleanly(db: Database, paths: DataPaths) -> None:
    # The first message can leave while the engine is still starting (docs/performance.md, Start-up):
    # a SIGTERM from then on must stop the sender cleanly, every request it handed out answered and
    # recorded, and nothing sent once it has exited.
    with LineEmulator(token=TOKEN) as emulator:
        make_reminders(db, 200, now=dt.datetime.now(dt.UTC), emulator=emulator)
        emulator.set_faults(FaultPlan(latency_ms=20))
        process = _spawn(paths, emulator)
        lock = paths.home / "sender.lock"
        deadline = time.monotonic() + 60
        # The engine writes its pid into the lock first thing when it starts.
        while time.monotonic() < deadline and process.poll() is None:
            if lock.exists() and lock.read_text().strip() == str(process.pid):
                break
            time.sleep(0.001)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err.decode()[-2000:]
        stats = json.loads(out.decode().strip().splitlines()[-1])
        delivered = len(emulator.all_inbox())  # the process has exited: nothing of it sends any more
        with db.read() as s:
            sent = s.scalar(select(func.count()).select_from(Delivery).where(Delivery.status == DeliveryStatus.SENT))
        assert stats.get("sent", 0) == sent == delivered
