"""`shiftcast relay local` as a real process: the bundled relay (wrangler dev, a local D1 in the data
folder) started with the app's LINE credentials, its address printed and attached, answering /health
and its cron over HTTP, and gone with everything it started after Ctrl+C."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from core.emulator import LineEmulator
from core.relay import local
from core.setup.relay_bundle import load
from core.store.db import Database
from core.store.paths import DataPaths
from core.store.setting_keys import RELAY_URL
from tests.linefixtures import TOKEN
from tests.waiting import PATIENCE_S

pytestmark = pytest.mark.slow  # a real process that starts wrangler

ROOT = Path(__file__).resolve().parent.parent
KEY = "c0" * 32


@pytest.fixture
def emulator() -> Iterator[LineEmulator]:
    with LineEmulator(token=TOKEN) as emu:
        yield emu


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def lines_of(child: subprocess.Popen[str]) -> queue.Queue[str | None]:
    said: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            said.put(line)
        said.put(None)

    threading.Thread(target=read, daemon=True).start()
    return said


def next_line(said: queue.Queue[str | None], output: list[str]) -> str | None:
    line = said.get(timeout=PATIENCE_S * 3)
    if line is not None:
        output.append(line)
    return line


def test_relay_local_starts_the_bundled_relay_attaches_it_and_stops_cleanly_on_ctrl_c(
        paths: DataPaths, db: Database, emulator: LineEmulator) -> None:
    why = local.missing()
    if why is not None:
        pytest.skip(str(why))
    db.dispose()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIFTCAST_")} | {
        "SHIFTCAST_HOME": str(paths.home),
        # No keyring, as on a headless server: LINE's credentials and the relay key from the environment.
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring", "SHIFTCAST_LINE_TOKEN": TOKEN,
        "SHIFTCAST_LINE_CHANNEL_SECRET": emulator.channel_secret, "SHIFTCAST_RELAY_KEY": KEY}
    command = [sys.executable, "main.py", "--lang", "en", "relay", "local", "--port", str(port), "--line-api-base", emulator.base_url]
    child = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, text=True, start_new_session=True)
    said, output = lines_of(child), list[str]()
    try:
        url = f"http://127.0.0.1:{port}"
        while (line := next_line(said, output)) is not None and url not in line:
            pass
        assert line is not None, "relay local ended before it said its address:\n" + "".join(output)
        assert httpx.get(f"{url}/health", timeout=PATIENCE_S).json() == {"version": load().relay_version,
                                                                       "schema_version": load().schema_version}
        httpx.get(f"{url}/cdn-cgi/handler/scheduled", timeout=PATIENCE_S).raise_for_status()  # the cron, on demand
        page = httpx.get(f"{url}/liff/", timeout=PATIENCE_S)  # the teachers' page loads the emulator's LIFF SDK
        assert f'<script src="{emulator.base_url}/liff/sdk.js"></script>' in page.text, page.text
        with db.read() as s:
            assert RELAY_URL.read(s) == url  # attached: `relay sync` finds it
        assert (paths.home / "relay-local" / "state").is_dir()  # its D1 lives in the data folder

        os.kill(child.pid, signal.SIGINT)  # Ctrl+C
        assert child.wait(PATIENCE_S) == 0, "".join(output)
        while next_line(said, output) is not None:
            pass
        assert "the local relay stopped" in "".join(output)
        with pytest.raises(httpx.TransportError):  # wrangler and its workerd are gone with it
            httpx.get(f"{url}/health", timeout=5)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait(PATIENCE_S)


def test_four_relays_started_at_once_on_one_computer_all_answer(tmp_path: Path, emulator: LineEmulator) -> None:
    """The demo's relay beside a test's, or two test runs: each wrangler dev gets its own inspector port
    (they all asked for 9229 at once before, and in one try three of four stopped with "address already
    in use"; being a race, that does not happen every time)."""
    if (why := local.missing()) is not None:
        pytest.skip(str(why))
    relays = [local.LocalRelay(tmp_path / f"relay-{n}", local.RelaySecrets(emulator.channel_secret, TOKEN, KEY),
                               line_api_base=emulator.base_url) for n in range(4)]
    failures: list[BaseException] = []

    def start(relay: local.LocalRelay) -> None:
        try:
            relay.start(PATIENCE_S * 2)
        except BaseException as exc:  # noqa: BLE001 - reported by the test below
            failures.append(exc)

    starting = [threading.Thread(target=start, args=(relay,)) for relay in relays]
    try:

        for thread in starting:
            thread.start()
        for thread in starting:
            thread.join()
        assert failures == []
        for relay in relays:
            assert relay.url is not None
            assert httpx.get(f"{relay.url}/health", timeout=PATIENCE_S).json()["version"]
    finally:
        for relay in relays:
            relay.stop(PATIENCE_S)
