"""The real relay (relay/, a Cloudflare Worker) on loopback for a test: `wrangler dev` in local mode on a
free port (core/relay/local.py, as `shiftcast relay local` runs it), with a fresh local D1 in the test's
temporary folder and LINE's calls going to the project's emulator.

The test waits for the line wrangler prints when it is ready, never for time to pass. Without node
or relay/node_modules (`make test` installs them: it runs `npm ci` in relay/ first) the tests that
need it are skipped, saying so.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from core.emulator import LineEmulator
from core.relay.local import LocalRelay, RelaySecrets, missing
from tests.linefixtures import TOKEN
from tests.waiting import PATIENCE_S

__all__ = ["LocalRelay", "LossyWay", "relay", "start_relay"]


def start_relay(tmp: Path, emulator: LineEmulator, *, quiet_minutes: int = 5) -> Iterator[LocalRelay]:
    why = missing()
    if why is not None:
        pytest.skip(str(why))
    relay = LocalRelay(tmp / "relay", RelaySecrets(emulator.channel_secret, TOKEN, secrets.token_hex(32)),
                       line_api_base=emulator.base_url, variables={"SENDER_QUIET_MINUTES": str(quiet_minutes)})
    relay.start(PATIENCE_S * 2)
    try:
        yield relay
    finally:
        relay.stop(PATIENCE_S)


@pytest.fixture
def relay(tmp_path: Path, emulator: LineEmulator) -> Iterator[LocalRelay]:
    """A relay whose cron sends only while no app sender checked in for 5 minutes, as deployed."""
    yield from start_relay(tmp_path, emulator)


class LossyWay:
    """A way to the relay on loopback that passes every call on and, when told, loses the relay's answer to
    the next call of a method and path: the relay did the work, the app hears nothing back (the
    connection closes without an answer), as when a network drops between the two."""

    def __init__(self, target: str) -> None:
        self._target = target
        self._lose: set[tuple[str, str]] = set()
        self.lost: list[tuple[str, str]] = []  # the calls whose answers were lost
        way = self

        class Handler(BaseHTTPRequestHandler):
            def _pass_on(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
                answer = httpx.request(self.command, way._target + self.path, content=body, headers=headers,
                                       timeout=PATIENCE_S)
                call = (self.command, self.path.split("?")[0])
                if call in way._lose:
                    way._lose.discard(call)
                    way.lost.append(call)
                    self.close_connection = True
                    return
                self.send_response(answer.status_code)
                for name, value in answer.headers.items():
                    if name.lower() not in ("content-length", "content-encoding", "transfer-encoding", "connection"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            do_GET = do_PUT = do_POST = do_HEAD = _pass_on

            def log_message(self, *_: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def lose_answer(self, method: str, path: str) -> None:
        self._lose.add((method, path))

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
