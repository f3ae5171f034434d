"""The courier: the sender's LINE requests sent from a child process (core/sending/courier.py).

The outcome table runs through it in test_sender.py (every test there runs in both modes); here
is what only a second process can do wrong: die with requests in hand, fail to start, leak the
token, outlive the sender, or lose a result on the pipe.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from core.channels.line import (
    LineClient,
    access_from_settings,
    encode_multicast,
    encode_push,
)
from core.emulator import FaultPlan, LineEmulator
from core.outbox import deliveries
from core.outbox.policy import BackoffPolicy, SendResult
from core.sending import courier
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.models import Delivery, DeliveryStatus
from tests.linefixtures import (  # noqa: F401
    TOKEN,
    FakeClock,
    emulator,
    line_ready,
    make_reminders,
    user_id,
)

CONFIG = SenderConfig(concurrency=4, courier=True, lease=dt.timedelta(seconds=30),
                      backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0))
ROOT = Path(__file__).resolve().parent.parent
LINUX_PROC = Path("/proc/self/cmdline").exists()


@pytest.fixture
def clock(now: dt.datetime) -> FakeClock:
    return FakeClock(now)


def _gone(pid: int, timeout: float = 15.0) -> bool:
    """The process has exited (or is a zombie nobody reaped yet)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


def test_a_courier_killed_with_requests_in_hand_loses_nothing_and_duplicates_nothing(
        db: Database, line_ready: LineEmulator, clock: FakeClock) -> None:
    ids = make_reminders(db, 30, now=clock.now, emulator=line_ready)
    line_ready.set_faults(FaultPlan(latency_ms=400))
    sender = Sender(db, lambda: access_from_settings(db), config=CONFIG, clock=clock)
    try:
        sender.turn()  # all 30 handed to the courier; 4 threads there, 0.4 s each
        assert sender.stats.by_courier == 30
        pid = sender.courier_pid
        assert pid is not None
        deadline = time.monotonic() + 10
        while not line_ready.all_inbox() and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(pid, signal.SIGKILL)
        sender.run_until_idle()  # what it never answered comes back as connection errors
        with db.read() as s:
            rows = s.scalars(select(Delivery).where(Delivery.id.in_(ids))).all()
        waiting = [d for d in rows if d.status == DeliveryStatus.QUEUED]
        with db.read() as s:
            dbg = [(d.id, d.status.value, d.last_error_code, [(a.http_status, a.error_code) for a in deliveries.attempts(s, d.id)]) for d in rows]
        assert waiting and all(d.last_error_code == "CONNECTION_ERROR" for d in waiting), dbg
        assert all(d.status in (DeliveryStatus.SENT, DeliveryStatus.QUEUED) for d in rows)

        line_ready.set_faults(FaultPlan())
        clock.advance(minutes=2)
        sender.run_until_idle()  # a new courier sends the retries with the same keys
        assert sender.courier_pid not in (None, pid)
    finally:
        sender.stop()
    with db.read() as s:
        rows = s.scalars(select(Delivery).where(Delivery.id.in_(ids))).all()
        attempts = {d.id: deliveries.attempts(s, d.id) for d in rows}
    assert [d.id for d in rows if d.status != DeliveryStatus.SENT] == []
    inbox = line_ready.all_inbox()
    assert sorted(m.recipient for m in inbox) == sorted(d.recipient for d in rows)  # each teacher once
    accepted = {m.retry_key: m.request_id for m in inbox}
    for d in rows:
        assert {a.retry_key for a in attempts[d.id]} == {d.retry_key}
        assert accepted[d.retry_key] in (d.line_request_id, d.accepted_request_id)


def test_the_sender_sends_from_its_threads_when_the_courier_cannot_start(
        db: Database, line_ready: LineEmulator, clock: FakeClock, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(courier, "command", lambda: [sys.executable, "-c", "import sys; sys.exit(3)"])
    ids = make_reminders(db, 5, now=clock.now, emulator=line_ready)
    sender = Sender(db, lambda: access_from_settings(db), config=CONFIG, clock=clock)
    try:
        stats = sender.run_until_idle()
    finally:
        sender.stop()
    assert (stats.sent, stats.by_courier) == (5, 0)
    with db.read() as s:
        assert [d.status for d in s.scalars(select(Delivery).where(Delivery.id.in_(ids)))] == [DeliveryStatus.SENT] * 5
    assert "sending process did not start" in caplog.text and "sending from this process instead" in caplog.text


def test_the_courier_answers_every_request_through_the_pipe(line_ready: LineEmulator) -> None:
    """The protocol alone: many requests in one write, every result back once, with LINE's ids."""
    results: dict[int, SendResult] = {}
    lock = threading.Lock()
    done = threading.Event()
    count = 300
    for n in range(count):
        line_ready.add_user(user_id(n), f"講師{n}")

    def on_result(delivery_id: int, result: SendResult) -> None:
        with lock:
            assert delivery_id not in results
            results[delivery_id] = result
            if len(results) == count:
                done.set()

    client = LineClient(TOKEN, base_url=line_ready.base_url)
    sender_side = courier.Courier(client, threads=4, push_rate=2000, multicast_rate=200, on_result=on_result)
    message = [{"type": "text", "text": "タブ\tと改行\nを含む"}]
    sender_side.send([(n, "push", f"00000000-0000-4000-8000-{n:012d}", encode_push(user_id(n), message))
                      for n in range(count - 1)])
    sender_side.send([(count - 1, "multicast", "00000000-0000-4000-8000-999999999999",
                       encode_multicast([user_id(1), user_id(2)], message))])
    assert done.wait(30)
    sender_side.close()
    client.close()
    assert sorted(results) == list(range(count)) and all(r.http_status == 200 for r in results.values())
    log = {r.retry_key: r.request_id for r in line_ready.request_log() if r.status == 200}
    assert all(results[n].request_id == log[f"00000000-0000-4000-8000-{n:012d}"] for n in range(count - 1))
    texts = {m.message["text"] for m in line_ready.all_inbox()}
    assert texts == {"タブ\tと改行\nを含む"}  # the body went through untouched


def test_encoded_bodies_never_contain_the_protocols_separators() -> None:
    text = "行1\n行2\t列\r\u2028\u0000 \"引用\" \\"
    for body in (encode_push("U" + "0" * 32, [{"type": "text", "text": text}]),
                 encode_multicast(["U" + "1" * 32], [{"type": "text", "text": text}])):
        assert b"\t" not in body and b"\n" not in body
        assert json.loads(body)["messages"] == [{"type": "text", "text": text}]


def test_a_child_that_dies_at_once_is_reported_as_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(courier, "command", lambda: [sys.executable, "-c", "print('not the courier')"])
    client = LineClient(TOKEN, base_url="http://127.0.0.1:9")
    with pytest.raises(courier.CourierUnavailable):
        courier.Courier(client, threads=1, push_rate=1, multicast_rate=1, on_result=lambda *_: None)
    client.close()


@pytest.mark.skipif(not LINUX_PROC, reason="reads /proc")
def test_the_token_reaches_the_courier_by_pipe_only(line_ready: LineEmulator) -> None:
    client = LineClient(TOKEN, base_url=line_ready.base_url)
    sender_side = courier.Courier(client, threads=1, push_rate=10, multicast_rate=10, on_result=lambda *_: None)
    try:
        pid = sender_side.pid
        assert TOKEN.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes()
        assert TOKEN.encode() not in Path(f"/proc/{pid}/environ").read_bytes()
    finally:
        sender_side.close()
        client.close()
    assert _gone(pid)


@pytest.mark.skipif(not LINUX_PROC, reason="reads /proc")
def test_the_courier_ends_when_its_sender_is_killed(db: Database, paths, line_ready: LineEmulator) -> None:
    make_reminders(db, 200, now=dt.datetime.now(dt.UTC), emulator=line_ready)
    line_ready.set_faults(FaultPlan(latency_ms=20))
    env = os.environ | {"SHIFTCAST_HOME": str(paths.home), "SHIFTCAST_DB_URL": paths.database_url(),
                        "SHIFTCAST_LINE_TOKEN": TOKEN, "SHIFTCAST_LINE_API_BASE": line_ready.base_url,
                        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    parent = subprocess.Popen([sys.executable, "main.py", "sender"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        children: list[int] = []
        deadline = time.monotonic() + 30
        while not children and time.monotonic() < deadline:
            if line_ready.all_inbox():
                # Each thread lists the children it started; the sender's loop thread starts the courier.
                children = [int(p) for task in Path(f"/proc/{parent.pid}/task").iterdir()
                            for p in (task / "children").read_text().split()]
            time.sleep(0.02)
        assert children, "the sender started no courier"
        [child] = children
        assert Path(f"/proc/{child}/cmdline").read_bytes().endswith(b"main.py\0courier\0")
    finally:
        parent.kill()
        parent.wait()
    assert _gone(child), "the courier outlived its sender"


def test_the_courier_is_started_from_this_app() -> None:
    command = courier.command()
    assert command[0] == sys.executable and command[-1] == "courier"
    if not getattr(sys, "frozen", False):
        assert Path(command[1]) == ROOT / "main.py"


def test_the_courier_serves_nothing_without_a_config() -> None:
    """`main.py courier` started by hand, with nothing on its input, exits without sending."""
    done = subprocess.run([sys.executable, "main.py", "courier"], cwd=ROOT, input=b"", capture_output=True,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == b""


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP")
def test_a_courier_that_stops_answering_is_replaced_and_nothing_is_lost(
        db: Database, line_ready: LineEmulator, clock: FakeClock, caplog: pytest.LogCaptureFixture) -> None:
    ids = make_reminders(db, 12, now=clock.now, emulator=line_ready)
    sender = Sender(db, lambda: access_from_settings(db), config=CONFIG, clock=clock)
    try:
        line_ready.set_faults(FaultPlan(latency_ms=300))
        sender.turn()  # handed over
        pid = sender.courier_pid
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)  # wedged: alive, but it will never answer
        clock.advance(minutes=5)  # its leases were renewed meanwhile (a live sender keeps its work)
        sender.turn()
        assert sender.courier_pid == pid  # not yet: a healthy courier may take this long
        clock.advance(minutes=20)  # longer than any healthy courier could take
        sender.run_until_idle()
        assert _gone(pid)
        assert "has not answered" in caplog.text
        line_ready.set_faults(FaultPlan())
        clock.advance(minutes=2)
        sender.run_until_idle()
    finally:
        sender.stop()
    with db.read() as s:
        rows = s.scalars(select(Delivery).where(Delivery.id.in_(ids))).all()
        keys = {d.id: {a.retry_key for a in deliveries.attempts(s, d.id)} for d in rows}
    assert [d.status for d in rows] == [DeliveryStatus.SENT] * 12
    assert all(keys[d.id] == {d.retry_key} for d in rows)
    assert sorted(m.recipient for m in line_ready.all_inbox()) == sorted(d.recipient for d in rows)


def test_a_line_client_builds_its_connection_pool_on_first_use(line_ready: LineEmulator) -> None:
    # The headless sender's own client rarely sends (its courier does): building it must cost nothing.
    line_ready.add_user(user_id(1), "講師")
    client = LineClient(TOKEN, base_url=line_ready.base_url)
    assert client._client is None
    result = client.push(user_id(1), [{"type": "text", "text": "こんにちは"}],
                         retry_key="00000000-0000-4000-8000-000000000001")
    assert result.http_status == 200 and client._client is not None
    client.close()
    with pytest.raises(RuntimeError):
        client.push(user_id(1), [{"type": "text", "text": "もう一度"}], retry_key="00000000-0000-4000-8000-000000000002")
    LineClient(TOKEN, base_url=line_ready.base_url).close()  # closing one never used is fine


def test_line_clients_share_one_verifying_tls_context() -> None:
    import ssl

    from core.channels.line import tls_context

    assert tls_context() is tls_context()
    assert tls_context().verify_mode == ssl.CERT_REQUIRED and tls_context().check_hostname


def test_a_courier_started_early_is_the_one_the_sender_uses(line_ready: LineEmulator) -> None:
    courier.start_early()
    spare = courier._spare
    assert spare is not None
    client = LineClient(TOKEN, base_url=line_ready.base_url)
    line_ready.add_user(user_id(1), "講師")
    results: list[SendResult] = []
    done = threading.Event()
    sender_side = courier.Courier(client, threads=1, push_rate=10, multicast_rate=10,
                                  on_result=lambda _id, r: (results.append(r), done.set()))
    try:
        assert sender_side.pid == spare.pid and courier._spare is None
        sender_side.send([(1, "push", "00000000-0000-4000-8000-000000000001",
                           encode_push(user_id(1), [{"type": "text", "text": "早い"}]))])
        assert done.wait(30) and results[0].http_status == 200
    finally:
        sender_side.close()
        client.close()


def test_a_courier_started_early_that_died_is_replaced(line_ready: LineEmulator) -> None:
    courier.start_early()
    spare = courier._spare
    assert spare is not None
    spare.kill()
    spare.wait()
    client = LineClient(TOKEN, base_url=line_ready.base_url)
    sender_side = courier.Courier(client, threads=1, push_rate=10, multicast_rate=10, on_result=lambda *_: None)
    try:
        assert sender_side.pid != spare.pid and sender_side.alive
    finally:
        sender_side.close()
        client.close()


def test_a_courier_started_early_and_never_used_ends() -> None:
    courier.start_early()
    spare = courier._spare
    assert spare is not None
    courier.discard_spare()  # at exit, or SPARE_TTL_S after it started
    assert courier._spare is None and spare.returncode == 2  # it saw no config and served nothing
