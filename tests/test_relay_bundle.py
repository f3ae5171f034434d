"""The relay Worker the app ships (resources/relay/) is what relay/ builds today, small, and readable by
the deployer; the token link asks for exactly the permissions the deploy needs."""

from __future__ import annotations

import json
import sys
import urllib.parse
from pathlib import Path

import pytest

from core.setup.relay_bundle import is_older, load
from core.setup.relay_cloud import token_link

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "packaging"))
from relay_bundle import RELAY, TARGET, build, differences, manifest

ESBUILD = RELAY / "node_modules" / ".bin" / "esbuild"


@pytest.mark.skipif(not ESBUILD.exists(), reason="relay/node_modules is missing: `make relay-test` installs it")
def test_the_shipped_bundle_is_what_relay_builds_now(tmp_path: Path) -> None:
    build(tmp_path / "relay")
    assert differences(tmp_path / "relay", TARGET) == [], "run python packaging/relay_bundle.py"


def test_the_bundle_is_small_and_says_what_the_relay_says() -> None:
    bundle = load()
    assert len(bundle.module) < 200_000  # the free plan allows 3 MB
    assert f'var RELAY_VERSION = "{bundle.relay_version}";' in bundle.module.decode()
    assert manifest()["relay_version"] == bundle.relay_version
    assert [m.name for m in bundle.migrations] == sorted(p.name for p in (RELAY / "migrations").glob("*.sql"))
    assert bundle.crons == ("* * * * *",) and bundle.d1_binding == "DB"
    assert "RELAY_KEY" not in bundle.vars and bundle.vars["ALLOW_HTTP"] == "0"


def test_versions_compare_as_numbers() -> None:
    assert is_older("0.1.0", "0.2.0") and is_older("0.9.0", "0.10.0") and is_older(None, "0.1.0")
    assert not is_older("0.2.0", "0.2.0") and not is_older("1.0.0", "0.9.9")
    assert is_older("garbage", "0.1.0")


def test_the_token_link_prefills_the_relay_permissions() -> None:
    link = urllib.parse.urlsplit(token_link())
    assert (link.scheme, link.netloc, link.path) == ("https", "dash.cloudflare.com", "/profile/api-tokens")
    query = dict(urllib.parse.parse_qsl(link.query))
    assert json.loads(query["permissionGroupKeys"]) == [
        {"key": "workers_scripts", "type": "edit"}, {"key": "d1", "type": "edit"}, {"key": "account_settings", "type": "read"}]
    assert query["accountId"] == "*" and query["zoneId"] == "all"
