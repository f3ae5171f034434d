"""`python -m tests.perf.bench [--quick]` (`make bench`): one JSON document on stdout, progress on stderr.

Figures (docs/performance.md explains each):
1-2. deliveries/s end to end at 0 and 20 ms of LINE latency: Shiftcast's sender, huey, persist-queue
     and a plain client without a queue, same client, payloads and thread count, against two LINE
     servers, each in a separate process: the project's emulator (core/emulator) and an independent
     stand-in on Starlette/uvicorn (tests/perf/standin_server.py); each run ends with an exactly-once
     check of what the server accepted;
3. outbox.enqueue rows/s; 4. enqueue-to-accepted latency at low load; 5. claim cost against sent
   history; 6. CPU of an idle sender; 7. on PostgreSQL (tests/perf/postgres.py, `--only postgres`
   alone): 1, 2 and 4 senders against procrastinate, NOTIFY latency across processes, claim cost;
8. the teachers CSV import (tests/perf/teacher_import.py): 383,133 new teachers (19.5 MB; 50,000 with
   --quick) as `main.py import teachers`, its time and peak memory;
9. the relay (tests/perf/relay_bench.py, `--only relay` alone; skipped, saying why, without node and
   relay/node_modules): webhook answer time against two peers, due-to-sent delay of its cron, a sync
   of 1,000 deliveries;
9. the draft month's solver (tests/perf/drafting_bench.py, `--only drafting` alone): solve time,
   coverage against the proven bound and memory peak on HiGHS and CP-SAT, and each library's size;
10. the teachers' page (tests/perf/liff_bench.py, `--only liff` alone; skipped, saying why, without
   node, relay/node_modules or Chromium): first paint from the local relay against Python's
   http.server, each /liff/ API call's CPU time inside the Worker, the documents' sizes.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from core.channels.line import LineClient
from core.store.bootstrap import open_database
from core.store.db import Database
from core.store.models import utcnow
from tests.perf import (
    machine,
    outbox_costs,
    peers,
    render_cost,
    sender_idle_latency,
    shiftcast_run,
    teacher_import,
    ui_responsiveness,
    workload,
)
from tests.perf.emulator_process import EmulatorProcess
from tests.perf.figures import RunFigures
from tests.perf.standin_process import StandinProcess

# shiftcast is the sender as `main.py sender` runs it: its loop and its own sending threads in one process.
CONTENDERS = ("shiftcast", "huey", "persist_queue", "no_queue")
LATENCIES_MS = (0, 20)
TARGET_VS_PEER = 1.5
TARGET_VS_NO_QUEUE = 0.9
TARGET_LATENCY_P50_MS = 10.0
# Both in every run unless --servers says otherwise. The emulator (a bare ASGI app on uvicorn) and the
# stand-in (Starlette on uvicorn) share no code, so a result that holds only against the emulator is
# the emulator's.
SERVERS = ("emulator", "standin")
SECTIONS = ("all", "throughput", "postgres", "relay", "drafting", "liff")


class LineServer(Protocol):
    """What a throughput run needs of a LINE server in another process (EmulatorProcess, StandinProcess)."""

    base_url: str
    token: str

    def reset(self, *, latency_ms: float = 0.0) -> None: ...

    def check_exactly_once(self, expected: int) -> dict[str, Any]: ...

    def cpu_seconds(self) -> float: ...


@dataclass(frozen=True)
class Sizes:
    deliveries: int
    repeats: int
    latency_samples: int
    idle_seconds: float
    enqueue_single: int
    enqueue_batched: int
    history: tuple[int, ...]
    claim_repeats: int


FULL = Sizes(deliveries=5000, repeats=3, latency_samples=200, idle_seconds=10.0, enqueue_single=2000,
             enqueue_batched=20_000, history=(10_000, 100_000, 1_000_000), claim_repeats=200)
QUICK = Sizes(deliveries=1000, repeats=1, latency_samples=60, idle_seconds=4.0, enqueue_single=500,
              enqueue_batched=5000, history=(10_000, 100_000), claim_repeats=100)


def say(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def settle() -> None:
    """Before a timed section: write back what earlier runs left dirty, so it does not land in this
    run's fsyncs (on ext4 an fsync can wait for other files' data), and collect garbage."""
    os.sync()
    gc.collect()
    time.sleep(0.2)


def _one_run(name: str, latency_ms: int, wl: workload.Workload, server: LineServer, server_name: str,
             concurrency: int) -> RunFigures:
    server.reset(latency_ms=latency_ms)
    db = workload.fresh_database(wl, f"{server_name}-{name}-{latency_ms}ms")
    folder = Path(db.url.removeprefix("sqlite:///")).parent
    server_cpu = server.cpu_seconds()
    try:
        if name == "shiftcast":
            figures = shiftcast_run.drain(db, server.base_url, server.token, count=wl.count,
                                          concurrency=concurrency, ready=settle)
        else:
            messages = workload.prepared_messages(db, utcnow()) if name == "no_queue" else []
            with LineClient(server.token, base_url=server.base_url) as client:
                if name == "huey":
                    figures = peers.run_huey(db, client, wl.delivery_ids, workers=concurrency, folder=folder,
                                             ready=settle)
                elif name == "persist_queue":
                    figures = peers.run_persist_queue(db, client, wl.delivery_ids, workers=concurrency,
                                                      folder=folder, ready=settle)
                else:
                    figures = peers.run_no_queue(client, messages, workers=concurrency, ready=settle)
        # Read before the check, whose own requests are not the run's. It also counts the untimed
        # edges of a run (a sender's start and stop), which are a few requests at most.
        server_cpu = server.cpu_seconds() - server_cpu
        server.check_exactly_once(wl.count)
        if name != "no_queue" and workload.count_sent(db) != wl.count:
            raise AssertionError(f"{name}: the database does not show all {wl.count} deliveries sent")
    finally:
        db.dispose()
    # The server shares this machine's cores with the code under test; what it costs shows how
    # much CPU each contender was left with.
    return RunFigures(figures.deliveries, figures.seconds, figures.cpu_seconds, figures.extra | {
        "server_cpu_ms_per_delivery": round(server_cpu / wl.count * 1000, 3)})


def _table(runs: dict[tuple[str, int], list[RunFigures]], latency_ms: int) -> dict[str, Any]:
    """One server at one latency: each contender's median run and the ratios the targets are about."""
    table: dict[str, Any] = {}
    for name in CONTENDERS:
        all_runs = runs[(name, latency_ms)]
        middle = sorted(all_runs, key=lambda r: r.per_second)[len(all_runs) // 2]
        table[name] = middle.to_json() | {"all_runs_per_s": [round(r.per_second, 1) for r in all_runs]}
    rate = {name: float(table[name]["deliveries_per_s"]) for name in CONTENDERS}
    ours = rate["shiftcast"]
    better = max(("huey", "persist_queue"), key=lambda n: rate[n])
    vs_peer, vs_plain = ours / rate[better], ours / rate["no_queue"]
    return {
        "deliveries_per_s": table,
        "better_peer": better,
        "shiftcast_vs_better_peer": round(vs_peer, 2),
        "shiftcast_vs_no_queue": round(vs_plain, 2),
        "target_vs_better_peer": TARGET_VS_PEER,
        "target_vs_better_peer_met": vs_peer >= TARGET_VS_PEER,
        "target_vs_no_queue": TARGET_VS_NO_QUEUE,
        "target_vs_no_queue_met": vs_plain >= TARGET_VS_NO_QUEUE,
    }


def throughput(wl: workload.Workload, servers: dict[str, LineServer], *, repeats: int,
               concurrency: int) -> dict[str, Any]:
    runs: dict[str, dict[tuple[str, int], list[RunFigures]]] = {name: {} for name in servers}
    server_names = tuple(servers)
    load_before = os.getloadavg()
    for repeat in range(repeats):
        # Servers alternate inside a round, so a burst of other load on the machine hits both.
        for server_name in server_names[repeat % len(server_names):] + server_names[:repeat % len(server_names)]:
            for latency_ms in LATENCIES_MS:
                # Rotated each round, so no contender always runs first (or right after another).
                order = CONTENDERS[repeat % len(CONTENDERS):] + CONTENDERS[:repeat % len(CONTENDERS)]
                for name in order:
                    figures = _one_run(name, latency_ms, wl, servers[server_name], server_name, concurrency)
                    runs[server_name].setdefault((name, latency_ms), []).append(figures)
                    say(f"round {repeat + 1}/{repeats} {server_name:<8} {latency_ms:>2} ms {name:<21} "
                        f"{figures.per_second:7.0f}/s")
    out: dict[str, Any] = {
        server_name: {f"{latency_ms}ms": _table(runs[server_name], latency_ms) for latency_ms in LATENCIES_MS}
        for server_name in server_names}
    out["load_average_1_5_15_min"] = {"before": [round(x, 2) for x in load_before],
                                      "after": [round(x, 2) for x in os.getloadavg()]}
    return out


@contextmanager
def _empty_database(root: Path, name: str) -> Iterator[Database]:
    """A fresh data folder with an empty database (SHIFTCAST_HOME points there)."""
    db = open_database(workload.use_home(root / "runs" / name))
    try:
        yield db
    finally:
        db.dispose()


def _timed(label: str, root: Path, step: Callable[[Database], dict[str, Any]]) -> dict[str, Any]:
    say(f"{label} …")
    started = time.perf_counter()
    with _empty_database(root, label.replace(" ", "-")) as db:
        settle()
        result = step(db)
    say(f"{label} done in {time.perf_counter() - started:.0f} s")
    return result


def run(sizes: Sizes, *, concurrency: int, quick: bool, servers: Sequence[str] = SERVERS,
        only: str = "all") -> dict[str, Any]:
    started = time.perf_counter()
    report: dict[str, Any] = {
        "machine": machine.facts(),
        "mode": "quick" if quick else "full",
        "deliveries_per_run": sizes.deliveries,
        "threads_per_contender": concurrency,
        "runs_per_figure": sizes.repeats,
        "line_servers": list(servers),
    }
    if only in ("postgres", "relay", "drafting", "liff"):
        report[only] = {"postgres": _postgres, "relay": _relay, "drafting": _drafting, "liff": _liff}[only](quick)
        report["wall_seconds"] = round(time.perf_counter() - started)
        return report
    with tempfile.TemporaryDirectory(prefix="shiftcast-bench-") as tmp:
        root = Path(tmp)
        say(f"building {sizes.deliveries} reminders (teachers, confirmed shifts, outbox rows)")
        wl = workload.build(root, sizes.deliveries)
        with EmulatorProcess() as emulator:
            say(f"emulator at {emulator.base_url} (separate process); adding {wl.count} LINE users")
            emulator.add_users(wl.user_ids)
            emulator.lift_rate_limits()
            with StandinProcess() as standin:
                say(f"LINE stand-in at {standin.base_url} (separate process, Starlette on uvicorn)")
                chosen: dict[str, LineServer] = {"emulator": emulator, "standin": standin}
                report["throughput"] = throughput(wl, {name: chosen[name] for name in servers},
                                                  repeats=sizes.repeats, concurrency=concurrency)
            report["throughput"]["notes"] = (
                "per LINE server (emulator: core/emulator; standin: tests/perf/standin_server.py) and "
                "latency; median of the runs (of an even number, the upper one); seconds from the first "
                "claim/dequeue to the last result recorded; cpu_ms_per_delivery is the code under test "
                "(each server has its own process); server_cpu_ms_per_delivery is the server's process")
            if only == "throughput":
                report["wall_seconds"] = round(time.perf_counter() - started)
                return report
            emulator.reset(latency_ms=0)
            latency = _timed("latency at low load", root, lambda db: sender_idle_latency.enqueue_to_accepted(
                db, emulator, samples=sizes.latency_samples, per_second=20.0))
            latency["target_p50_ms"] = TARGET_LATENCY_P50_MS
            latency["target_met"] = latency["p50_ms"] < TARGET_LATENCY_P50_MS
            report["enqueue_to_accepted_latency"] = latency
            report["idle_sender_cpu"] = _timed("idle sender", root, lambda db: sender_idle_latency.idle_cpu(
                db, emulator, seconds=sizes.idle_seconds))
            emulator.reset(latency_ms=0)
            say(f"window open on Deliveries while the sender drains {wl.count}")
            ui_db = workload.fresh_database(wl, "ui-stall")
            try:
                report["ui_while_draining"] = ui_responsiveness.stall_while_draining(ui_db, emulator, count=wl.count)
            finally:
                ui_db.dispose()
        say("window start-up (--smoke), from source and frozen")
        report["startup"] = ui_responsiveness.startup_figures()
        # --- process start-up (tests/perf/startup.py): CLI verbs, the sender's first message, the window ---
        from tests.perf import startup as process_startup

        say("process start-up: --version, --help, teachers --json, the sender's first message, the window")
        report["process_startup"] = process_startup.measure(runs=5 if quick else 9)
        # --- end of process start-up ---
        say("month image render, 60 teachers x 31 days")
        report["render_60x31"] = render_cost.measure()
        rows = 50_000 if quick else teacher_import.FULL_ROWS
        say(f"teachers CSV import, {rows:,} new teachers, as its own process")
        report["teacher_import"] = teacher_import.measure(rows)
        say("e-mail: 1,000 messages through one SMTP connection (local aiosmtpd, STARTTLS)")
        from tests.perf.email_bench import run_email_bench

        report["email_1000_one_connection"] = run_email_bench(n=200 if quick else 1000)
        report["enqueue_rate"] = _timed("enqueue rate", root, lambda db: outbox_costs.enqueue_rate(
            db, single=sizes.enqueue_single, batched=sizes.enqueue_batched, batch=500))
        report["claim_cost"] = _timed("claim cost", root, lambda db: outbox_costs.claim_cost(
            db, history_sizes=sizes.history, due=1000, limit=64, repeats=sizes.claim_repeats))
    report["relay"] = _relay(quick)
    report["postgres"] = _postgres(quick)
    report["drafting"] = _drafting(quick)
    report["liff"] = _liff(quick)
    report["wall_seconds"] = round(time.perf_counter() - started)
    return report


def _relay(quick: bool) -> dict[str, Any]:
    """The relay's figures (tests/perf/relay_bench.py): the Worker under wrangler dev on loopback."""
    from tests.perf import relay_bench

    say("the relay: webhook answer time, due to sent, a sync of 1,000 deliveries")
    with tempfile.TemporaryDirectory(prefix="shiftcast-bench-relay-") as tmp:
        return relay_bench.measure(Path(tmp), relay_bench.QUICK if quick else relay_bench.FULL)


def _postgres(quick: bool) -> dict[str, Any]:
    """The PostgreSQL figures (tests/perf/postgres.py) on a throwaway cluster, against procrastinate."""
    from tests.perf import postgres

    say("PostgreSQL: senders against procrastinate, NOTIFY latency, claim cost")
    return postgres.run(quick=quick, threads=postgres.THREADS)


def _drafting(quick: bool) -> dict[str, Any]:
    """The draft month's solver (tests/perf/drafting_bench.py): HiGHS against CP-SAT on three months."""
    from tests.perf import drafting_bench

    say("draft month: 30 teachers x 31 days x 6 slots, normal, shortage and ten classrooms")
    return drafting_bench.measure(say)


def _liff(quick: bool) -> dict[str, Any]:
    """The teachers' page (tests/perf/liff_bench.py): first paint, API CPU in the Worker, document sizes."""
    from tests.perf import liff_bench

    say("the teachers' page: first paint against http.server, CPU per /liff/ API call, document sizes")
    return liff_bench.measure(quick)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.perf.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller run of about a minute")
    parser.add_argument("--concurrency", type=int, default=16, help="sending threads of every contender")
    parser.add_argument("--deliveries", type=int, help="deliveries per throughput run (default 5000, quick 1000)")
    parser.add_argument("--repeats", type=int, help="runs per throughput figure; the median is reported")
    parser.add_argument("--servers", default=",".join(SERVERS),
                        help=f"LINE servers the throughput runs go to, comma-separated (default {','.join(SERVERS)})")
    parser.add_argument("--only", choices=SECTIONS, default="all",
                        help="throughput: only the deliveries/s figures, none of the others; "
                             "postgres: only the PostgreSQL figures; relay: only the relay's (needs node "
                             "and relay/node_modules); drafting: only the draft month's solver; "
                             "liff: only the teachers' page's (needs node, relay/node_modules and Chromium)")
    args = parser.parse_args(argv)
    servers = tuple(name.strip() for name in args.servers.split(",") if name.strip())
    if not servers or any(name not in SERVERS for name in servers):
        parser.error(f"--servers takes one or more of {', '.join(SERVERS)}")
    sizes = QUICK if args.quick else FULL
    if args.deliveries or args.repeats:
        sizes = Sizes(**{**sizes.__dict__, "deliveries": args.deliveries or sizes.deliveries,
                         "repeats": args.repeats or sizes.repeats})
    report = run(sizes, concurrency=args.concurrency, quick=args.quick, servers=servers, only=args.only)
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
