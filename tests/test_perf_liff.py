"""The teachers' page's benchmark (tests/perf/liff_bench.py, `make bench BENCH_ARGS="--only liff"`): the
30-teacher month's documents stay within the page's 50 KB aim, and a quick run gives every figure with its
peer."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.perf import liff_bench


def test_a_30_teacher_months_documents_stay_within_50_kb(tmp_path: Path) -> None:
    sizes = liff_bench.document_sizes(tmp_path / "home")
    assert sizes["teachers"] == 30 and sizes["shifts"] >= 28 * liff_bench.PER_DAY
    # a whole month of names and times: far more than a few hundred bytes, and within the aim
    assert 10_000 < sizes["classroom_month_bytes"] <= liff_bench.DOCUMENT_AIM_BYTES
    assert 1_000 < sizes["person_bytes_largest_teacher"] <= liff_bench.DOCUMENT_AIM_BYTES
    assert sizes["person_bytes_manager"] is not None and sizes["within_aim"] is True


@pytest.mark.slow
def test_a_quick_run_gives_first_paint_against_its_peer_and_each_calls_cpu() -> None:
    why = liff_bench.why_not()
    if why is not None:
        pytest.skip(why)
    report = liff_bench.measure(quick=True)
    paint = report["first_paint"]
    assert len(paint["relay_fcp_ms"]) == len(paint["peer_fcp_ms"]) == liff_bench.QUICK_LOADS
    assert paint["relay_fcp_ms_median"] > 0 and paint["relay_vs_peer"] > 0
    assert paint["bytes"]["page_total"] == paint["bytes"]["html"] + paint["bytes"]["script"] + paint["bytes"]["style"]
    for route in ("GET /liff/api/me", "GET /liff/api/classroom", "POST /liff/api/answers"):
        figures = report["api_cpu"][route]
        assert 0 < figures["js_ms_per_call"] <= figures["cpu_ms_per_call"] and figures["wall_ms_per_call"] > 0
    assert report["documents"]["within_aim"] is True
