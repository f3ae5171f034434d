"""The teachers' page on a local relay loads the LINE emulator's LIFF SDK stand-in when the relay runs
against the emulator, and the Worker's default (LINE's CDN) against LINE itself. `shiftcast relay local`
with the emulator, serving the page so, is in tests/test_relay_local.py."""

from __future__ import annotations

from pathlib import Path

from core.relay import local
from tests.linefixtures import TOKEN


def test_the_page_loads_the_emulators_sdk_with_the_emulator_and_lines_own_otherwise(tmp_path: Path) -> None:
    assert local.emulator_sdk_url("http://127.0.0.1:9000/") == "http://127.0.0.1:9000/liff/sdk.js"
    assert local.emulator_sdk_url("https://api.line.me") is None
    secrets = local.RelaySecrets("secret", TOKEN, "c0" * 32)
    relay = local.LocalRelay(tmp_path, secrets, liff_sdk_url="http://127.0.0.1:9000/liff/sdk.js")
    assert relay.variables["LIFF_SDK_URL"] == "http://127.0.0.1:9000/liff/sdk.js"
    assert "LIFF_SDK_URL" not in local.LocalRelay(tmp_path, secrets).variables
