"""`main.py webhook` under a flood on loopback: many connections that never finish their headers, in a
process whose open-file limit is lowered below their number, and a client that sends its body slowly.
A signed LINE post is still answered and its event stored, the slow body is cut off with 408, and the
log keeps a few lines instead of a traceback per refused connection.

Every request goes to 127.0.0.1, their number is fixed and every wait has a deadline; nothing waits a
fixed time: the test waits for the receiver's line, its answers and the rows it writes."""

from __future__ import annotations

import datetime as dt
import json
import resource
import selectors
import socket
import time

import httpx
import pytest
from sqlalchemy import select

from core.receiving import signature
from core.receiving.guard import connection_cap
from core.store.db import Database
from core.store.models import TeacherContact
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import user_id
from tests.test_sender_processes import _Output
from tests.test_webhook_cli import SECRET, STARTUP, _free_port, _spawn, _wait_for_row

pytestmark = pytest.mark.slow  # a real receiver process under hundreds of slow connections
CHILD_FILES = 256  # the receiver's RLIMIT_NOFILE: the flood below is more than twice as many connections
SLOW = 600
DEADLINE = 60.0  # generous: a busy 2-core machine shared with other work
HEAD = b"POST /line/webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Slow: "


def _few_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (CHILD_FILES, CHILD_FILES))


def _slow_connections(port: int, count: int, deadline: float) -> list[socket.socket]:
    """`count` connections that each send the start of a request's headers and then nothing more."""
    sockets = []
    with selectors.DefaultSelector() as waiting:
        for _ in range(count):
            sock = socket.socket()
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            sockets.append(sock)
            waiting.register(sock, selectors.EVENT_WRITE)
        while waiting.get_map() and time.monotonic() < deadline:
            for key, _ in waiting.select(timeout=1.0):
                waiting.unregister(key.fileobj)
                try:
                    key.fileobj.send(HEAD)  # type: ignore[union-attr]
                except OSError:
                    pass  # refused or already closed by the receiver: one connection less in the flood
    return sockets


def _answer_of(sock: socket.socket, timeout: float) -> bytes:
    """What the receiver sends on `sock` until it closes it (or the timeout passes)."""
    sock.settimeout(timeout)
    answer = b""
    try:
        while chunk := sock.recv(65536):
            answer += chunk
    except TimeoutError:
        pass
    return answer


def _follow(event_id: str) -> bytes:
    event = {"type": "follow", "mode": "active", "timestamp": 1_700_000_000_000, "webhookEventId": event_id,
             "deliveryContext": {"isRedelivery": False}, "source": {"type": "user", "userId": user_id(1)},
             "replyToken": "r" * 32, "follow": {"isUnblocked": False}}
    return json.dumps({"destination": "U" + "f" * 32, "events": [event]}).encode()


def test_a_flood_of_slow_connections_does_not_starve_line_or_flood_the_log(paths: DataPaths, db: Database) -> None:
    with db.write() as s:
        teacher = f.teacher(s, "佐藤", 1)
        f.line(teacher).unreachable_since = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)
    port = _free_port()
    process = _spawn(paths, "--port", str(port), preexec_fn=_few_files)
    output = _Output(process)
    flood: list[socket.socket] = []
    try:
        url = f"http://127.0.0.1:{port}/line/webhook"
        assert output.wait_for(f"receiving LINE webhooks on {url}", STARTUP), output.stderr
        flood = _slow_connections(port, SLOW, time.monotonic() + DEADLINE)

        body = _follow("01HFLOODFLOODFLOODFLOODFLOO")
        started = time.monotonic()
        answer = httpx.post(url, content=body, timeout=DEADLINE,
                            headers={"x-line-signature": signature.sign(SECRET, body)})
        took = time.monotonic() - started
        assert answer.status_code == 200, answer.text
        assert _wait_for_row(db, "01HFLOODFLOODFLOODFLOODFLOO", timeout=DEADLINE) is not None
        with db.read() as s:
            assert s.scalar(select(TeacherContact.unreachable_since)) is None

        # A client that sends its headers and then its body slowly is cut off with 408.
        with socket.create_connection(("127.0.0.1", port), timeout=DEADLINE) as slow_body:
            slow_body.sendall(b"POST /line/webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n"
                              b"x-line-signature: " + signature.sign(SECRET, b"x" * 1000).encode() + b"\r\n\r\n"
                              + b"x" * 10)
            cut = _answer_of(slow_body, DEADLINE)
        assert cut.startswith(b"HTTP/1.1 408"), cut[:200]

        # The connections that never finished their headers are closed by the receiver.
        assert _answer_of(flood[-1], DEADLINE) == b""
        process.terminate()
        assert process.wait(DEADLINE) == 0
    finally:
        for sock in flood:
            sock.close()
        if process.poll() is None:
            process.kill()
            process.wait(30)
        output.close()
    logs = sorted(paths.logs.glob("shiftcast.log*"))
    assert [p.name for p in logs] == ["shiftcast.log"]  # nothing rotated away
    text = logs[0].read_text(encoding="utf-8")
    print(f"LINE's post answered in {took:.2f} s; {len(text.splitlines())} log lines")
    assert "Too many open files" not in text, text[-5000:]
    assert text.count("Traceback") <= 2 and len(text.splitlines()) < 100, text[-3000:]


def test_the_connection_cap_leaves_room_under_the_open_file_limit() -> None:
    assert [connection_cap(limit) for limit in (None, 64, 256, 1024, 1_000_000)] == [256, 8, 96, 256, 256]
