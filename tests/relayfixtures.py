"""The real relay (relay/, a Cloudflare Worker) on loopback for a test: `wrangler dev` in local mode on a
free port (core/relay/local.py, as `shiftcast relay local` runs it), with a fresh local D1 in the test's
temporary folder and LINE's calls going to the project's emulator.

The test waits for the line wrangler prints when it is ready, never for time to pass. Without node
or relay/node_modules (`make test` installs them: it runs `npm ci` in relay/ first) the tests that
need it are skipped, saying so.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.emulator import LineEmulator
from core.relay.local import LocalRelay, RelaySecrets, missing
from tests.linefixtures import TOKEN
from tests.waiting import PATIENCE_S

__all__ = ["LocalRelay", "relay", "start_relay"]


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
