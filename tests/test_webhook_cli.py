"""`main.py webhook` as its own process: it says when it listens, records a signed emulator event
in the data folder's database, its handler acts on it, and SIGTERM stops it cleanly."""

from __future__ import annotations

import datetime as dt
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import select

import main
from core.emulator import LineEmulator
from core.receiving.pairing import issue_codes
from core.roster import rules
from core.store import secrets
from core.store import setting_keys as keys
from core.store.bootstrap import open_database
from core.store.db import Database
from core.store.models import Teacher, WebhookEvent
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import TOKEN, user_id
from tests.test_sender_processes import _Output

pytestmark = pytest.mark.slow  # every test here starts real processes

ROOT = Path(__file__).resolve().parent.parent
SECRET = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
STARTUP = 120.0  # a slow 2-core machine importing SQLAlchemy, Starlette and uvicorn


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _spawn(paths: DataPaths, *args: str, secret: str | None = SECRET, line: LineEmulator | None = None,
           preexec_fn: Callable[[], None] | None = None) -> subprocess.Popen[bytes]:
    env = os.environ | {"SHIFTCAST_HOME": str(paths.home), "SHIFTCAST_DB_URL": paths.database_url(),
                        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    env.pop("SHIFTCAST_LINE_CHANNEL_SECRET", None)
    if secret is not None:
        env["SHIFTCAST_LINE_CHANNEL_SECRET"] = secret
    if line is not None:  # the handlers' replies go to this emulator
        env |= {"SHIFTCAST_LINE_TOKEN": TOKEN, "SHIFTCAST_LINE_API_BASE": line.base_url}
    return subprocess.Popen([sys.executable, "main.py", "webhook", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=preexec_fn)


def _wait_for_row(db: Database, event_id: str, timeout: float) -> WebhookEvent | None:
    """The event's row once its handlers ran (a row is the signal; nothing here waits a fixed time)."""
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while time.monotonic() < deadline:
        with db.read() as s:
            row = s.scalar(select(WebhookEvent).where(WebhookEvent.event_id == event_id,
                                                      WebhookEvent.handled_at.is_not(None)))
        if row is not None:
            return row
        pause.wait(0.05)
    return None


@pytest.mark.parametrize("stop_with", [signal.SIGTERM, signal.SIGINT])
def test_the_headless_receiver_listens_records_handles_and_stops_on_a_signal(
        paths: DataPaths, db: Database, stop_with: signal.Signals) -> None:
    with db.write() as s:
        teacher_id = f.teacher(s, "佐藤", 1).id
    port = _free_port()
    process = _spawn(paths, "--port", str(port))
    output = _Output(process)
    try:
        url = f"http://127.0.0.1:{port}/line/webhook"
        assert output.wait_for(f"receiving LINE webhooks on {url}", STARTUP), output.stderr
        with LineEmulator(token=TOKEN, channel_secret=SECRET, loopback_webhooks=True) as line:
            line.set_webhook_endpoint(url)
            sent = line.unfollow(user_id(1))
        assert sent.result is not None and sent.result.status_code == 200
        row = _wait_for_row(db, sent.event["webhookEventId"], timeout=60)
        assert row is not None and row.type == "unfollow"
        with db.read() as s:
            teacher = s.get(Teacher, teacher_id)
            assert teacher is not None and f.reach(teacher).line_unreachable_at is not None
        process.send_signal(stop_with)
        assert process.wait(60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)
        output.close()
    assert output.stdout.count("receiving LINE webhooks on") == 1


def test_without_a_channel_secret_it_says_what_to_set_and_fails(paths: DataPaths) -> None:
    process = _spawn(paths, "--port", str(_free_port()), secret=None)
    _, err = process.communicate(timeout=STARTUP)
    assert process.returncode == 1
    assert "SHIFTCAST_LINE_CHANNEL_SECRET" in err.decode()


def test_line_channel_saves_the_id_in_the_settings_and_the_secret_in_the_keyring(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, paths: DataPaths) -> None:
    monkeypatch.delenv(secrets.LINE_CHANNEL_SECRET_ENV, raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO(SECRET + "\n"))
    assert main.main(["line-channel", "--id", "1234567890"]) == 0
    assert "saved" in capsys.readouterr().out
    assert secrets.line_channel_secret() == SECRET
    db = open_database(paths)
    try:
        with db.read() as s:
            assert keys.LINE_CHANNEL_ID.read(s) == "1234567890"
    finally:
        db.dispose()
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert main.main(["line-channel", "--id", "1234567890"]) == 1
    assert "no channel secret" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO(SECRET + "\n"))
    assert main.main(["line-channel", "--id", "@bot"]) == 1
    assert "digits" in capsys.readouterr().err


def test_the_headless_receiver_pairs_a_teacher_who_sends_the_code_and_replies(paths: DataPaths, db: Database) -> None:
    """The receiver runs every standard handler, not only follow/unfollow: a pairing code sent to the
    account binds the teacher and LINE's reply reaches the phone."""
    with db.write() as s:
        teacher_id = rules.create_teacher(s, name="青木").id
        [code] = issue_codes(s, dt.datetime.now(dt.UTC), None)
    port = _free_port()
    with LineEmulator(token=TOKEN, channel_secret=SECRET, loopback_webhooks=True) as line:
        process = _spawn(paths, "--port", str(port), line=line)
        output = _Output(process)
        try:
            url = f"http://127.0.0.1:{port}/line/webhook"
            assert output.wait_for(f"receiving LINE webhooks on {url}", STARTUP), output.stderr
            line.set_webhook_endpoint(url)
            line.follow(user_id(50), "青木")  # a teacher adds the account as a friend, then sends the code
            sent = line.send_text(user_id(50), code.code)
            assert sent.result is not None and sent.result.status_code == 200
            assert _wait_for_row(db, sent.event["webhookEventId"], timeout=60) is not None
            with db.read() as s:
                teacher = s.get(Teacher, teacher_id)
                assert teacher is not None and (f.reach(teacher).line_user_id, f.reach(teacher).line_opt_in) == (user_id(50), True)
            # The reply leaves after the pairing commits: the emulator receiving it is the signal.
            deadline, pause = time.monotonic() + 60, threading.Event()
            while not line.inbox(user_id(50)) and time.monotonic() < deadline:
                pause.wait(0.05)
            assert [m.via for m in line.inbox(user_id(50))] == ["reply"], (paths.logs / "shiftcast.log").read_text()
        finally:
            process.terminate()
            process.wait(60)
            output.close()
