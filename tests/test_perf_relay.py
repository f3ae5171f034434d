"""The relay's benchmark (tests/perf/relay_bench.py, `make bench BENCH_ARGS="--only relay"`) at a tiny
size: every figure comes out, with its peers and ratios, and every check of what it measured passed
(events stored once, messages accepted once, deliveries marked sent by the relay's outcomes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.relay.local import missing
from tests.perf import bench, relay_bench

pytestmark = pytest.mark.slow  # two relays under wrangler, the LINE servers and `relay sync` as processes

TINY = relay_bench.RelaySizes(webhooks=6, rounds=3, send_runs=1, sync_deliveries=25)


def test_the_relay_figures_come_with_their_peers_and_the_checks_of_what_was_measured(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    why = missing()
    if why is not None:
        pytest.skip(str(why))
    monkeypatch.setenv("SHIFTCAST_HOME", str(tmp_path / "home"))  # the workload points it elsewhere; put back after
    report = relay_bench.measure(tmp_path, TINY)

    webhook = report["webhook"]
    for name in ("relay", "line_bot_sdk", "receiver", "receiver_nodelay"):
        assert webhook[name]["requests"] == 6
        assert 0 < webhook[name]["median_ms"] <= webhook[name]["p95_ms"] <= webhook[name]["max_ms"]
    assert webhook["relay_vs_line_bot_sdk_median"] > 0 and webhook["relay_vs_receiver_p95"] > 0

    for server in ("emulator", "standin"):
        due = report["due_to_sent"][server]
        assert due["relay_cron"]["messages"] == due["plain_client"]["messages"] == relay_bench.SENDS_PER_RUN
        cron = due["relay_cron"]
        assert 0 < cron["first_ms_median"] <= cron["last_ms_median"] and due["per_send_vs_plain"] > 0

    sync = report["sync"]
    assert sync["deliveries"] == 25 and sync["cron"]["runs"] == 2  # 20 and 5
    for step in ("push", "pull"):
        assert sync[step]["seconds"] > 0 and sync[step]["peak_rss_mb"] > 0 and sync[step]["vs_plain_client"] > 0
    assert sync["relay_memory"]["resident_mb"] > 0
    json.dumps(report)  # printed as JSON by the bench


def test_make_bench_takes_the_relay_as_a_section_of_its_own() -> None:
    assert "relay" in bench.SECTIONS
