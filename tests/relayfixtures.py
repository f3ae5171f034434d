"""The real relay (relay/, a Cloudflare Worker) on loopback for a test: `wrangler dev` in local mode on a
free port, with a fresh local D1 (its migrations applied first) in the test's temporary folder, LINE's
calls going to the project's emulator, and the secrets in a `.dev.vars` of a temporary copy of relay/.

The test waits for the line wrangler prints when it is ready, never for time to pass. Without node
or relay/node_modules (`make test` installs them: it runs `npm ci` in relay/ first) the tests that
need it are skipped, saying so.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from core.emulator import LineEmulator
from tests.linefixtures import TOKEN
from tests.waiting import PATIENCE_S

ROOT = Path(__file__).resolve().parent.parent
RELAY = ROOT / "relay"
WRANGLER = RELAY / "node_modules" / ".bin" / "wrangler"
_READY = re.compile(r"Ready on (http://127\.0\.0\.1:\d+)")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass
class LocalRelay:
    url: str
    key: str
    output: list[str]

    def run_cron(self) -> None:
        """One cron run, as Cloudflare's trigger would start it (wrangler dev runs none by itself)."""
        httpx.get(f"{self.url}/cdn-cgi/handler/scheduled", timeout=PATIENCE_S).raise_for_status()


def _missing() -> str | None:
    if shutil.which("node") is None or shutil.which("npx") is None:
        return "node and npm are not installed: the relay's tests need them (`make test` says how)"
    if not WRANGLER.exists():
        return "relay/node_modules is missing: run `npm ci` in relay/ (`make test` does)"
    return None


def _copy(tmp: Path, emulator: LineEmulator, key: str) -> Path:
    folder = tmp / "relay"
    folder.mkdir()
    for name in ("src", "migrations"):
        shutil.copytree(RELAY / name, folder / name)
    for name in ("wrangler.toml", "package.json", "tsconfig.json"):
        shutil.copy(RELAY / name, folder / name)
    (folder / "node_modules").symlink_to(RELAY / "node_modules", target_is_directory=True)
    (folder / ".dev.vars").write_text(f"LINE_CHANNEL_SECRET={emulator.channel_secret}\n"
                                      f"LINE_CHANNEL_ACCESS_TOKEN={TOKEN}\nRELAY_KEY={key}\n", encoding="utf-8")
    return folder


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIFTCAST_")}
    # No test reaches the internet: no metrics, no update check (the banner's), no request.cf download
    # (Miniflare's fallback values serve).
    return env | {"WRANGLER_SEND_METRICS": "false", "WRANGLER_HIDE_BANNER": "true",
                  "CLOUDFLARE_CF_FETCH_ENABLED": "false", "CI": "1", "NO_COLOR": "1",
                  "XDG_CONFIG_HOME": str(tmp / "wrangler-config"), "WRANGLER_LOG_PATH": str(tmp / "wrangler-logs")}


def start_relay(tmp: Path, emulator: LineEmulator, *, quiet_minutes: int = 5) -> Iterator[LocalRelay]:
    missing = _missing()
    if missing is not None:
        pytest.skip(missing)
    key = secrets.token_hex(32)
    folder, state, env = _copy(tmp, emulator, key), tmp / "relay-state", _env(tmp)
    subprocess.run([str(WRANGLER), "d1", "migrations", "apply", "DB", "--local", "--persist-to", str(state)],
                   cwd=folder, env=env, check=True, capture_output=True, timeout=PATIENCE_S, stdin=subprocess.DEVNULL)
    command = [str(WRANGLER), "dev", "--local", "--ip", "127.0.0.1", "--port", "0", "--persist-to", str(state),
               "--var", "ALLOW_HTTP:1", "--var", f"LINE_API_BASE:{emulator.base_url}",
               "--var", f"SENDER_QUIET_MINUTES:{quiet_minutes}"]
    child = subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, text=True, start_new_session=True)
    output: list[str] = []
    ready: list[str] = []
    said = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            output.append(line)
            found = _READY.search(_ANSI.sub("", line))
            if found and not ready:
                ready.append(found.group(1))
                said.set()
        said.set()  # it ended

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert said.wait(PATIENCE_S * 2) and ready, "wrangler dev did not start:\n" + "".join(output)
        yield LocalRelay(ready[0], key, output)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGTERM)
            try:
                child.wait(PATIENCE_S)
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait(PATIENCE_S)
        reader.join(PATIENCE_S)


@pytest.fixture
def relay(tmp_path: Path, emulator: LineEmulator) -> Iterator[LocalRelay]:
    """A relay whose cron sends only while no app sender checked in for 5 minutes, as deployed."""
    yield from start_relay(tmp_path, emulator)
