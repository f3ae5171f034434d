"""Receiving that lives with the app (core/setup/receiving.py) against the LINE emulator over real HTTP:
the address chosen when Connect LINE finished is started again, LINE is pointed at it only when it
calls another address, tested while "Use webhook" is on, and events reach the database; a fake
`cloudflared` on PATH that prints a new trycloudflare address at each start stands in for the tunnel
(LINE's test of it is never asked: it would reach the internet), and LINE is re-pointed each time."""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.emulator import LineEmulator
from core.receiving.address import LoopbackAddress, QuickTunnel
from core.receiving.server import PATH
from core.setup.line_connect import ENDPOINT_PATH, ConnectLine, remember_address
from core.setup.receiving import STARTING, Receiving, ReceivingState
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import render
from tests.waiting import wait_until

CHANNEL_ID = "2001234567"
SECRET = "0123456789abcdef0123456789abcdef"
OLD_TUNNEL = "https://old-river-1.trycloudflare.com/line/webhook"

# cloudflared's lines (to stderr), shortened; each start prints the next address: river-1, river-2 …
NEW_ADDRESS_EACH_START = """count="$(dirname "$0")/count"
n=$(( $(cat "$count" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "$count"
echo "2026-12-01T09:00:00Z INF Requesting new quick Tunnel on trycloudflare.com..." >&2
echo "2026-12-01T09:00:01Z INF |  https://river-$n.trycloudflare.com                |" >&2
echo "2026-12-01T09:00:02Z INF Registered tunnel connection connIndex=0 location=nrt01" >&2
sleep 600 &
wait
"""


@pytest.fixture
def line(db: Database) -> Iterator[LineEmulator]:
    with LineEmulator(token="long-lived-token-nobody-has", channel_id=CHANNEL_ID, channel_secret=SECRET,
                      loopback_webhooks=True) as emu:
        with db.write() as s:
            keys.LINE_API_BASE.write(s, emu.base_url)
            keys.LINE_CHANNEL_ID.write(s, CHANNEL_ID)
        secrets.set_line_channel_secret(SECRET)
        yield emu


@pytest.fixture
def receiving(db: Database) -> Iterator[Receiving]:
    service = Receiving(db)
    yield service
    service.stop()


def _settled(service: Receiving) -> ReceivingState:
    assert wait_until(lambda: service.state is not STARTING), "receiving never settled"
    return service.state


def _puts(line: LineEmulator) -> int:
    return sum(1 for r in line.request_log() if r.method == "PUT" and r.path == ENDPOINT_PATH)


def test_without_a_chosen_address_the_app_does_not_receive(db: Database, line: LineEmulator,
                                                           receiving: Receiving) -> None:
    state = _settled(receiving.start())
    assert not state.receiving
    assert render(state.words, "en") == ("not receiving from LINE: LINE is not connected "
                                         "(Settings → LINE → Connect LINE)")
    assert line.webhook_endpoint is None


def test_loopback_receives_points_line_once_and_tests_it(db: Database, line: LineEmulator,
                                                         receiving: Receiving) -> None:
    remember_address(db, LoopbackAddress(), 0)
    state = _settled(receiving.start())
    assert state.receiving, render(state.words, "en")
    assert line.webhook_endpoint == state.endpoint
    assert state.endpoint is not None and state.endpoint.startswith("http://127.0.0.1:")
    assert render(state.words, "en") == f"receiving from LINE at {state.endpoint}"
    assert [w.result.status_code for w in line.webhooks_sent()] == [200]  # LINE's test reached it
    # A teacher's follow reaches the database through the app's receiver.
    line.add_user("U" + "1" * 32, "Tanaka", friend=False)
    line.follow("U" + "1" * 32, "Tanaka")
    assert wait_until(lambda: len(line.webhooks_sent()) == 2)
    assert line.webhooks_sent()[-1].result.status_code == 200
    assert _puts(line) == 1
    with db.read() as s:
        assert keys.LINE_RECEIVE_ENDPOINT.read(s) == state.endpoint


def test_webhook_off_is_said_and_not_tested(db: Database, line: LineEmulator, receiving: Receiving) -> None:
    remember_address(db, LoopbackAddress(), 0)
    line.set_webhook_active(False)
    state = _settled(receiving.start())
    assert render(state.words, "en") == ("not receiving from LINE: “Use webhook” is off in the LINE "
                                         "Developers console")
    assert line.webhooks_sent() == []


def _fake_cloudflared(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cloudflared"
    path.write_text("#!/bin/sh\n" + NEW_ADDRESS_EACH_START, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


@pytest.mark.skipif(not Path("/bin/sh").exists(), reason="a fake cloudflared shell script")
def test_a_new_tunnel_address_is_set_at_line_at_every_start(db: Database, line: LineEmulator, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _fake_cloudflared(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{fake.parent}:/usr/bin:/bin")
    line.set_webhook_endpoint(OLD_TUNNEL)  # where the last run's tunnel was
    line.set_webhook_active(False)  # LINE's test would call the internet: switched off, it is not asked
    remember_address(db, QuickTunnel(), 0)
    for n in (1, 2):
        service = Receiving(db).start()
        try:
            state = _settled(service)
        finally:
            service.stop()
        assert line.webhook_endpoint == f"https://river-{n}.trycloudflare.com{PATH}"
        assert _puts(line) == n
        assert not state.receiving and state.why is not None and state.why.code == "receiving.why.webhook_off"
    assert line.webhooks_sent() == []


def test_finishing_connect_line_and_keeping_stores_the_address(db: Database, line: LineEmulator) -> None:
    flow = ConnectLine(db)
    try:
        flow.check_credentials(CHANNEL_ID, SECRET)
        flow.start_receiving(LoopbackAddress())
        flow.point_line_here()
        flow.finish(keep_receiving=True)
    finally:
        flow.close()
    with db.read() as s:
        assert keys.LINE_RECEIVE_ADDRESS.read(s) == "loopback"
    flow = ConnectLine(db)
    flow.check_credentials(CHANNEL_ID, SECRET)
    flow.finish(keep_receiving=False)  # connected again without keeping: the app no longer receives
    with db.read() as s:
        assert keys.LINE_RECEIVE_ADDRESS.read(s) is None


def test_an_endpoint_a_crashed_connect_flow_left_pending_is_settled_before_ours_is_set(
        db: Database, line: LineEmulator, receiving: Receiving) -> None:
    crashed = "https://gone-tunnel-1234.trycloudflare.com/line/webhook"
    line.set_webhook_endpoint(crashed)
    with db.write() as s:
        keys.LINE_WEBHOOK_SAVED.write(s, "https://old-bot.example.jp/callback")
        keys.LINE_WEBHOOK_OURS.write(s, crashed)
        keys.LINE_WEBHOOK_RESTORE_PENDING.write(s, True)
    remember_address(db, LoopbackAddress(), 0)
    state = _settled(receiving.start())
    assert state.receiving, render(state.words, "en")
    assert line.webhook_endpoint == state.endpoint  # ours last: the restore came first, not after
    with db.read() as s:
        assert not keys.LINE_WEBHOOK_RESTORE_PENDING.read(s)


def test_a_webhook_the_deployed_relay_takes_is_left_with_it(db: Database, line: LineEmulator,
                                                            receiving: Receiving) -> None:
    """With a relay deployed, LINE calls the relay day and night and the app pulls the events from it;
    an app start pointing LINE back at this computer would leave them unheard while it sleeps."""
    relay = "https://shiftcast-relay-1a2b3c4d.example.workers.dev"
    remember_address(db, LoopbackAddress(), 0)  # Connect LINE kept receiving here before the relay came
    with db.write() as s:
        keys.RELAY_URL.write(s, relay)
    line.set_webhook_endpoint(relay + "/line/webhook")  # as the relay's deploy pointed it
    state = _settled(receiving.start())
    assert state.receiving and state.endpoint == relay + "/line/webhook"
    assert line.webhook_endpoint == relay + "/line/webhook"
    assert _puts(line) == 0 and line.webhooks_sent() == []  # not re-pointed, not tested from here


def test_a_relay_that_does_not_take_line_s_webhook_leaves_receiving_here(db: Database, line: LineEmulator,
                                                                         receiving: Receiving) -> None:
    """The demo attaches a relay of its own on this computer and keeps receiving itself."""
    remember_address(db, LoopbackAddress(), 0)
    with db.write() as s:
        keys.RELAY_URL.write(s, "http://127.0.0.1:8787")
    state = _settled(receiving.start())
    assert state.receiving and state.endpoint is not None and state.endpoint.startswith("http://127.0.0.1:")
    assert state.endpoint != "http://127.0.0.1:8787/line/webhook"
    assert line.webhook_endpoint == state.endpoint and _puts(line) == 1
