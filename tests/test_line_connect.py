"""The connect flow (core/setup/line_connect.py) against the LINE emulator over real HTTP: channel ID and
secret → a stateless token and the bot's name → receiver and loopback address → LINE's earlier
endpoint saved, ours set and tested → finish puts the earlier one back. Also: the test's failures in
words, "Use webhook" off, the cases a restore must leave alone, and a flow killed mid-way whose saved
endpoint the next start (`main.py webhook`) puts back."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from core.emulator import LineEmulator
from core.errors import ValidationError
from core.receiving.address import LoopbackAddress
from core.setup.line_connect import (
    ConnectLine,
    FlowEnded,
    Restore,
    TestOutcome,
    explain,
    restore_if_pending,
)
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.paths import DataPaths
from tests.test_sender_processes import _Output

ROOT = Path(__file__).resolve().parent.parent
CHANNEL_ID = "2001234567"
SECRET = "0123456789abcdef0123456789abcdef"
EARLIER = "https://old-bot.example.jp/callback"
STARTUP = 120.0  # a child Python importing SQLAlchemy, Starlette and uvicorn on a slow 2-core machine


@pytest.fixture
def line(db: Database) -> Iterator[LineEmulator]:
    # A long-lived token nobody has: only the stateless tokens from the channel ID and secret get through.
    with LineEmulator(token="long-lived-token-nobody-has", channel_id=CHANNEL_ID, channel_secret=SECRET,
                      loopback_webhooks=True) as emu:
        with db.write() as s:
            keys.LINE_API_BASE.write(s, emu.base_url)
        yield emu


@pytest.fixture
def flow(db: Database, line: LineEmulator) -> Iterator[ConnectLine]:
    connect = ConnectLine(db)
    yield connect
    connect.close()


def _settings(db: Database) -> tuple[bool, str | None, str | None]:
    with db.read() as s:
        return (keys.LINE_WEBHOOK_RESTORE_PENDING.read(s), keys.LINE_WEBHOOK_SAVED.read(s),
                keys.LINE_WEBHOOK_OURS.read(s))


def _unused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class FixedAddress:
    """A public address that is wrong on purpose (nothing there, or the wrong path)."""

    name = "fixed"
    description = "a fixed address"

    def __init__(self, base: str) -> None:
        self.base = base

    def start(self, local_port: int) -> str:
        return self.base.format(port=local_port)

    def stop(self) -> None:
        pass


def test_the_whole_flow_sets_tests_and_puts_the_earlier_endpoint_back(
        db: Database, line: LineEmulator, flow: ConnectLine) -> None:
    line.set_webhook_endpoint(EARLIER)
    bot = flow.check_credentials(f" {CHANNEL_ID} ", SECRET + "\n")
    assert bot.display_name == "Shiftcast Emulator" and bot.basic_id.startswith("@")
    assert secrets.line_channel_secret() == SECRET
    with db.read() as s:
        assert keys.LINE_CHANNEL_ID.read(s) == CHANNEL_ID
    assert line.stateless_tokens_issued == 1

    ours = flow.start_receiving(LoopbackAddress())
    assert ours.startswith("http://127.0.0.1:") and ours.endswith("/line/webhook")
    previous = flow.point_line_here()
    assert (previous.endpoint, previous.active) == (EARLIER, True)
    assert line.webhook_endpoint == ours
    assert _settings(db) == (True, EARLIER, ours)  # saved before ours was set, until put back

    result = flow.test()
    assert result.works and result.outcome is TestOutcome.OK and result.status_code == 200
    assert "webhooks work" in result.words
    sent = line.webhooks_sent()[-1]
    assert sent.url == ours and sent.body["events"] == []

    finished = flow.finish()
    assert finished.restore is Restore.RESTORED and not finished.kept_receiving
    assert line.webhook_endpoint == EARLIER
    assert _settings(db) == (False, None, None)
    with pytest.raises(httpx.ConnectError):  # the receiver stopped with the flow
        httpx.post(ours, content=b"{}", timeout=5)


def test_wrong_credentials_are_refused_and_nothing_is_saved(db: Database, line: LineEmulator,
                                                           flow: ConnectLine) -> None:
    with pytest.raises(ValidationError, match="refused this channel ID and secret"):
        flow.check_credentials(CHANNEL_ID, "f" * 32)
    with pytest.raises(ValidationError, match="channel ID is a number"):
        flow.check_credentials("@bot", SECRET)
    assert secrets.line_channel_secret() is None
    with db.read() as s:
        assert keys.LINE_CHANNEL_ID.read(s) is None
    with pytest.raises(RuntimeError):
        flow.start_receiving(LoopbackAddress())


def test_a_failed_webhook_test_is_reported_in_words(line: LineEmulator, flow: ConnectLine) -> None:
    flow.check_credentials(CHANNEL_ID, SECRET)
    flow.start_receiving(FixedAddress(f"http://127.0.0.1:{_unused_port()}"))
    flow.point_line_here()
    nobody = flow.test()
    assert nobody.outcome is TestOutcome.COULD_NOT_CONNECT and not nobody.works and nobody.status_code <= 0
    assert "could not connect" in nobody.words

    flow.start_receiving(FixedAddress("http://127.0.0.1:{port}/elsewhere"))
    flow.point_line_here()
    wrong_path = flow.test()
    assert (wrong_path.outcome, wrong_path.status_code) == (TestOutcome.NOT_FOUND, 404)
    assert "not Shiftcast's receiver" in wrong_path.words


def test_use_webhook_switched_off_is_said(line: LineEmulator, flow: ConnectLine) -> None:
    flow.check_credentials(CHANNEL_ID, SECRET)
    flow.start_receiving(LoopbackAddress())
    flow.point_line_here()
    line.set_webhook_active(False)
    result = flow.test()
    assert result.outcome is TestOutcome.OK and not result.works  # it answers, but LINE will not send
    assert "switch “Use webhook” on" in result.words


def test_without_an_earlier_endpoint_ours_stays_since_line_cannot_remove_one(
        db: Database, line: LineEmulator, flow: ConnectLine) -> None:
    flow.check_credentials(CHANNEL_ID, SECRET)
    ours = flow.start_receiving(LoopbackAddress())
    assert flow.point_line_here().endpoint is None
    assert _settings(db) == (True, None, ours)
    assert flow.finish().restore is Restore.KEPT_OURS
    assert line.webhook_endpoint == ours and _settings(db) == (False, None, None)


def test_an_endpoint_changed_by_someone_else_meanwhile_is_left_alone(
        db: Database, line: LineEmulator, flow: ConnectLine) -> None:
    line.set_webhook_endpoint(EARLIER)
    flow.check_credentials(CHANNEL_ID, SECRET)
    flow.start_receiving(LoopbackAddress())
    flow.point_line_here()
    line.set_webhook_endpoint("https://another-computer.example.jp/hook")
    assert flow.finish().restore is Restore.CHANGED_SINCE
    assert line.webhook_endpoint == "https://another-computer.example.jp/hook"


def test_keep_receiving_leaves_ours_and_the_receiver_up(db: Database, line: LineEmulator,
                                                        flow: ConnectLine) -> None:
    line.set_webhook_endpoint(EARLIER)
    flow.check_credentials(CHANNEL_ID, SECRET)
    ours = flow.start_receiving(LoopbackAddress())
    flow.point_line_here()
    finished = flow.finish(keep_receiving=True)
    assert (finished.restore, finished.kept_receiving) == (None, True)
    assert line.webhook_endpoint == ours and _settings(db) == (False, None, None)
    assert flow.test().works  # still receiving
    flow.close()
    assert restore_if_pending(db) is Restore.NOTHING_PENDING


def test_a_restore_that_cannot_reach_line_stays_pending_and_a_second_run_keeps_the_first_saved(
        db: Database, line: LineEmulator, flow: ConnectLine) -> None:
    line.set_webhook_endpoint(EARLIER)
    flow.check_credentials(CHANNEL_ID, SECRET)
    first = flow.start_receiving(LoopbackAddress())
    flow.point_line_here()
    flow.close()  # as if it crashed: nothing restored
    with db.write() as s:
        keys.LINE_API_BASE.write(s, f"http://127.0.0.1:{_unused_port()}")
    assert restore_if_pending(db) is Restore.FAILED
    assert _settings(db) == (True, EARLIER, first)
    with db.write() as s:
        keys.LINE_API_BASE.write(s, line.base_url)

    again = ConnectLine(db)
    try:
        again.check_credentials(CHANNEL_ID, SECRET)
        second = again.start_receiving(LoopbackAddress())
        assert again.point_line_here().endpoint == first  # LINE still has the first run's
        assert _settings(db) == (True, EARLIER, second)  # but the owner's is what stays saved
        assert again.finish().restore is Restore.RESTORED
    finally:
        again.close()
    assert line.webhook_endpoint == EARLIER


@pytest.mark.parametrize(("answer", "outcome"), [
    ({"success": True, "statusCode": 200, "reason": "OK", "detail": "200"}, TestOutcome.OK),
    ({"success": False, "statusCode": 0, "reason": "COULD_NOT_CONNECT", "detail": "Connection failed"},
     TestOutcome.COULD_NOT_CONNECT),
    ({"success": False, "statusCode": -1, "reason": "could_not_connect", "detail": "Connection refused"},
     TestOutcome.COULD_NOT_CONNECT),
    ({"success": False, "statusCode": 0, "reason": "REQUEST_TIMEOUT", "detail": "Request timeout"},
     TestOutcome.TIMEOUT),
    ({"success": False, "statusCode": 401, "reason": "ERROR_STATUS_CODE", "detail": "401"}, TestOutcome.SIGNATURE),
    ({"success": False, "statusCode": 404, "reason": "Not Found", "detail": "404"}, TestOutcome.NOT_FOUND),
    ({"success": False, "statusCode": 502, "reason": "ERROR_STATUS_CODE", "detail": "502"},
     TestOutcome.ERROR_STATUS),
    ({"success": False, "statusCode": 0, "reason": "UNCLASSIFIED", "detail": "?"}, TestOutcome.UNCLASSIFIED),
    ({}, TestOutcome.COULD_NOT_CONNECT),
])
def test_lines_answers_in_plain_words(answer: dict[str, object], outcome: TestOutcome) -> None:
    result = explain(answer, active=True)
    assert result.outcome is outcome
    assert result.words and "Use webhook" not in result.words
    if outcome is TestOutcome.ERROR_STATUS:
        assert "HTTP 502" in result.words


# ----- a flow killed mid-way, and the next start -----


CHILD = textwrap.dedent("""
    import sys, threading
    from core.receiving.address import LoopbackAddress
    from core.setup.line_connect import ConnectLine
    from core.store.bootstrap import open_database
    from core.store.paths import data_paths
    flow = ConnectLine(open_database(data_paths()))
    flow.check_credentials(sys.argv[1], sys.argv[2])
    flow.start_receiving(LoopbackAddress())
    flow.point_line_here()
    print("endpoint set", flow.endpoint, flush=True)
    threading.Event().wait()
""")


def _env(paths: DataPaths, line: LineEmulator) -> dict[str, str]:
    env = os.environ | {"SHIFTCAST_HOME": str(paths.home), "SHIFTCAST_DB_URL": paths.database_url(),
                        "SHIFTCAST_LINE_API_BASE": line.base_url,
                        # the flow's own keyring, empty and in memory: nothing reaches this machine's keyring
                        "PYTHON_KEYRING_BACKEND": "tests.memory_keyring.MemoryKeyring",
                        "PYTHONPATH": str(ROOT)}
    env.pop("SHIFTCAST_LINE_CHANNEL_SECRET", None)
    return env


@pytest.mark.slow  # a real process killed
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL is POSIX")
def test_a_flow_killed_after_setting_its_endpoint_is_repaired_at_the_next_start(
        paths: DataPaths, db: Database, line: LineEmulator) -> None:
    line.set_webhook_endpoint(EARLIER)
    child = subprocess.Popen([sys.executable, "-c", CHILD, CHANNEL_ID, SECRET], cwd=ROOT, env=_env(paths, line),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    output = _Output(child)
    try:
        assert output.wait_for("endpoint set", STARTUP), output.stderr
        ours = output.stdout.split()[-1]
        child.send_signal(signal.SIGKILL)
        child.wait(60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(30)
        output.close()
    assert line.webhook_endpoint == ours and _settings(db) == (True, EARLIER, ours)

    port = _unused_port()
    # The next start is a headless receiver without any keyring: the secret comes from its environment.
    webhook = subprocess.Popen([sys.executable, "main.py", "webhook", "--port", str(port)], cwd=ROOT,
                               env=_env(paths, line) | {"SHIFTCAST_LINE_CHANNEL_SECRET": SECRET,
                                                        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    output = _Output(webhook)
    try:
        # The line is printed after the restore: it is the signal that the restore has run.
        assert output.wait_for("receiving LINE webhooks on", STARTUP), output.stderr
        assert line.webhook_endpoint == EARLIER
        assert _settings(db) == (False, None, None)
        webhook.send_signal(signal.SIGTERM)
        assert webhook.wait(60) == 0
    finally:
        if webhook.poll() is None:
            webhook.kill()
            webhook.wait(30)
        output.close()


def test_the_sender_puts_a_pending_endpoint_back_when_it_starts(db: Database, line: LineEmulator) -> None:
    import main

    tunnel = "https://gone-tunnel-1234.trycloudflare.com/line/webhook"
    line.set_webhook_endpoint(tunnel)
    secrets.set_line_channel_secret(SECRET)
    with db.write() as s:
        keys.LINE_CHANNEL_ID.write(s, CHANNEL_ID)
        keys.LINE_WEBHOOK_SAVED.write(s, EARLIER)
        keys.LINE_WEBHOOK_OURS.write(s, tunnel)
        keys.LINE_WEBHOOK_RESTORE_PENDING.write(s, True)
    assert main.main(["sender", "--until-idle"]) == 0
    assert line.webhook_endpoint == EARLIER and _settings(db) == (False, None, None)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="a fake cloudflared shell script")
def test_finishing_while_the_tunnel_still_starts_stops_it_at_once(
        tmp_path: Path, db: Database, line: LineEmulator, flow: ConnectLine) -> None:
    from core.receiving.address import AddressError, QuickTunnel
    from tests.test_public_address import _gone, _script
    from tests.waiting import wait_until

    line.set_webhook_endpoint(EARLIER)
    fake = _script(tmp_path / "bin", 'echo "$$" > "$(dirname "$0")/pid"\nwhile :; do sleep 1; done\n')
    flow.check_credentials(CHANNEL_ID, SECRET)
    outcome: list[BaseException | str] = []

    def start() -> None:
        try:
            outcome.append(flow.start_receiving(QuickTunnel(fake, url_timeout=600.0)))
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            outcome.append(exc)

    starter = threading.Thread(target=start)
    starter.start()
    pid_file = fake.parent / "pid"
    seen = threading.Event()
    for _ in range(6000):  # the signal: the fake cloudflared runs (it wrote its pid)
        if pid_file.exists() and pid_file.read_text().strip():
            break
        seen.wait(0.01)
    pid = int(pid_file.read_text())
    finished = flow.finish()  # the wizard closed while cloudflared had not answered yet
    starter.join(30)
    assert not starter.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], AddressError)
    assert finished.restore is Restore.NOTHING_PENDING and line.webhook_endpoint == EARLIER
    assert wait_until(lambda: _gone(pid)) and flow.receiver is None  # its `sleep` ends a moment after
    with pytest.raises(FlowEnded):
        flow.test()


def test_without_a_network_line_s_client_and_the_flow_say_it_is_the_network_in_each_language(db: Database) -> None:
    """What the sender, the CLI and Connect LINE say when nothing answers at LINE's address (a closed port)."""
    from core.channels.line import LineApiError, LineClient
    from core.texts import describe

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{s.getsockname()[1]}"
    with db.write() as session:
        keys.LINE_API_BASE.write(session, closed)
    with LineClient("a-token", base_url=closed) as client, pytest.raises(LineApiError) as from_client:
        client.bot_info()
    flow = ConnectLine(db)
    try:
        with pytest.raises(LineApiError) as from_flow:
            flow.check_credentials(CHANNEL_ID, SECRET)
    finally:
        flow.close()
    for failed in (from_client.value, from_flow.value):
        assert failed.status is None
        english, japanese = describe(failed, "en"), describe(failed, "ja")
        assert english.startswith("could not connect to LINE") and "internet connection" in english, english
        assert "firewall" in english and "Error" not in english
        assert japanese.startswith("LINEに接続できませんでした。") and "インターネット" in japanese, japanese
        assert "Error" not in japanese and japanese.count("LINEに接続できませんでした") == 1
    assert secrets.line_channel_secret() is None


def test_keeping_receiving_gives_line_s_webhook_back_to_the_relay_that_had_it(
        db: Database, line: LineEmulator, flow: ConnectLine) -> None:
    """With the always-on relay taking LINE's events, keeping receiving after Connect LINE must not take
    them away from it: the relay keeps them while every PC sleeps, and the app pulls them from it."""
    relay = "https://shiftcast-relay-1a2b3c4d.example.workers.dev"
    with db.write() as s:
        keys.RELAY_URL.write(s, relay)
    line.set_webhook_endpoint(relay + "/line/webhook")  # as the relay's deploy pointed it
    flow.check_credentials(CHANNEL_ID, SECRET)
    flow.start_receiving(LoopbackAddress())
    flow.point_line_here()
    assert flow.test().works
    finished = flow.finish(keep_receiving=True)
    assert finished.kept_receiving and finished.restore is Restore.RESTORED
    assert line.webhook_endpoint == relay + "/line/webhook"
    assert _settings(db) == (False, None, None)
    with db.read() as s:
        assert keys.LINE_RECEIVE_ADDRESS.read(s) == "loopback"  # where the app receives once the relay is gone
