"""PostgreSQL figures of `make bench` (`python -m tests.perf.bench --only postgres` runs them alone).

On a throwaway cluster (tests/pgserver.py), side by side in one run:
1. deliveries/s with 1, 2 and 4 senders at 0 and 20 ms of LINE latency, against procrastinate (a
   PostgreSQL task queue for Python) with as many workers doing the same push: the same LineClient,
   the same message builders, the same threads per sender/worker, the same LINE stand-in in its own
   process, the same database rows; each run ends with an exactly-once check of what the stand-in
   accepted and of the rows marked sent;
2. enqueue → accepted p50/p99 across two processes: this one enqueues, a sender in a child process is
   woken by NOTIFY and pushes to the emulator (its acceptedAt, same host clock);
3. the claim's cost against 10k / 100k / 1M rows of sent history, made with INSERT … SELECT
   generate_series.
All senders of one run share this process (as procrastinate's workers do), so both pay the same GIL.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime as dt
import gc
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import text

from core.channels import registry
from core.channels.line import LineAccess, LineClient
from core.outbox import queue
from core.sending import builders
from core.sending.sender import Sender, SenderConfig, SenderEvents
from core.store import copy_up, identity, migrate
from core.store.db import Database
from core.store.models import Channel, Delivery, DeliveryKind, utcnow
from core.store.paths import DataPaths
from tests.perf import sender_idle_latency, workload
from tests.perf.figures import RunFigures, Stopwatch, percentile
from tests.perf.peers import _Countdown, _push
from tests.perf.shiftcast_run import line_access
from tests.perf.standin_process import StandinProcess
from tests.pgserver import PgServer

SENDERS = (1, 2, 4)
THREADS = 8  # per sender and per procrastinate worker
LATENCIES_MS = (0, 20)
TARGET_VS_PROCRASTINATE = 1.5
TARGET_LATENCY_P50_MS = 20.0
TEMPLATE = "bench_template"
LEASE = dt.timedelta(minutes=5)


def settle() -> None:
    """As bench.settle: earlier runs' dirty pages written back and garbage collected before the clock starts."""
    os.sync()
    gc.collect()
    time.sleep(0.2)


def say(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] postgres: {message}", file=sys.stderr, flush=True)


# ----- the data -----


def _template(server: PgServer, wl: workload.Workload) -> None:
    """The workload's SQLite rows copied into a PostgreSQL template database (core/store/copy_up.py)."""
    url = server.create_database(name=TEMPLATE)
    target, source = Database(url), Database(f"sqlite:///{wl.template.as_posix()}")
    try:
        migrate.upgrade(target)
        copy_up.copy_up(source, target)
    finally:
        target.dispose()
        source.dispose()
    server.admin(f'ALTER DATABASE "{TEMPLATE}" WITH IS_TEMPLATE true')


def _sent(db: Database) -> int:
    with db.read() as session:
        return int(session.execute(text("SELECT count(*) FROM deliveries WHERE status = 'sent'")).scalar_one())


# ----- Shiftcast: N senders on one database -----


def shiftcast_senders(db: Database, paths: DataPaths, base_url: str, token: str, *, count: int, senders: int,
                      threads: int, timeout: float = 300.0) -> RunFigures:
    done = threading.Event()
    watch = Stopwatch()
    started: list[Sender] = []

    def changed(_ids: list[int]) -> None:
        if sum(s.stats.sent for s in started) >= count and not done.is_set():
            watch.stop()
            done.set()

    machine = identity.this_machine()
    if machine is not None:
        # Stamped once before the senders start: their first stamps would otherwise race to insert this
        # machine's row, which only SQLite's write lock serialises (core/store/identity.py's stamp).
        with db.write() as session:
            identity.stamp(session, machine, now=utcnow())
    for _ in range(senders):
        # One connection each, as senders on separate machines have: a sender closes its own when it stops.
        access = line_access(base_url, token)
        sender = Sender(db, connect={"line": _its_own(access)}, paths=paths, config=SenderConfig(concurrency=threads),
                        events=SenderEvents(deliveries_changed=[changed]))
        sender.pause()
        started.append(sender.start())
    for sender in started:
        if not sender.ready.wait(30):
            raise TimeoutError("a sender did not start")
    settle()
    watch.start()
    for sender in started:
        sender.pause(False)
    finished = done.wait(timeout)
    for sender in started:
        sender.stop()
    sent = sum(s.stats.sent for s in started)
    if not finished or sent != count:
        raise AssertionError(f"{senders} senders sent {sent} of {count}")
    return watch.figures(count, turns=sum(s.stats.turns for s in started))


# ----- procrastinate: N workers doing the same push -----


def _its_own(access: LineAccess) -> registry.Source:
    """A source for one sender alone: a lambda written in the loop would hand them all the last access."""
    return lambda: access


def procrastinate_workers(db: Database, paths: DataPaths, dsn: str, base_url: str, token: str, *,
                          ids: tuple[int, ...], workers: int, threads: int) -> RunFigures:
    """procrastinate's own schema in the same database; jobs deferred before the clock starts; each
    job reads its delivery, builds the message, pushes with a retry key and marks the row sent in its
    own transaction, as a task-queue user would write it."""
    import procrastinate

    # Its pool sized like the work (psycopg_pool's default is 4 connections for every worker together):
    # a connection for each job in flight, and one more per worker for its LISTEN.
    pool = workers * (threads + 1)
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=dsn, min_size=pool, max_size=pool))
    keys = uuid.uuid4()
    watch = Stopwatch()
    countdown = _Countdown(len(ids), watch)
    client = LineClient(token, base_url=base_url)

    @app.task(name="send_delivery", retry=2)
    def send_delivery(delivery_id: int) -> None:
        now = utcnow()
        with db.read() as session:
            delivery = session.get(Delivery, delivery_id)
            assert delivery is not None
            outgoing = builders.prepare(session, delivery, now, paths)
        _push(client, outgoing, str(uuid.uuid5(keys, str(delivery_id))))
        workload.mark_sent(db, delivery_id, now)
        countdown.finished_one()

    async def main() -> None:
        # Sync tasks run on the loop's default executor: as many threads as Shiftcast's senders get.
        asyncio.get_running_loop().set_default_executor(
            concurrent.futures.ThreadPoolExecutor(max_workers=workers * threads))
        async with app.open_async():
            await app.schema_manager.apply_schema_async()
            for first in range(0, len(ids), 500):
                batch: list[dict[str, Any]] = [{"delivery_id": i} for i in ids[first:first + 500]]
                await send_delivery.batch_defer_async(*batch)
            settle()
            watch.start()
            # wait=False: a worker returns once it finds the queue empty; the countdown stops the clock.
            await asyncio.gather(*(app.run_worker_async(concurrency=threads, wait=False, name=f"w{n}",
                                                        install_signal_handlers=False)
                                   for n in range(workers)))

    try:
        asyncio.run(main())
    finally:
        client.close()
    if countdown.left:
        raise AssertionError(f"procrastinate left {countdown.left} deliveries")
    return watch.figures(len(ids))


# ----- throughput side by side -----


def throughput(server: PgServer, wl: workload.Workload, standin: StandinProcess, paths: DataPaths, *,
               threads: int, repeats: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for latency_ms in LATENCIES_MS:
        table: dict[str, Any] = {}
        for senders in SENDERS:
            rates: dict[str, list[RunFigures]] = {"shiftcast": [], "procrastinate": []}
            for repeat in range(repeats):
                order = ("shiftcast", "procrastinate") if repeat % 2 == 0 else ("procrastinate", "shiftcast")
                for name in order:
                    standin.reset(latency_ms=latency_ms)
                    url = server.create_database(template=TEMPLATE)
                    db = Database(url)
                    try:
                        if name == "shiftcast":
                            figures = shiftcast_senders(db, paths, standin.base_url, standin.token, count=wl.count,
                                                        senders=senders, threads=threads)
                        else:
                            dsn = server.dsn(str(db.engine.url.database))
                            figures = procrastinate_workers(db, paths, dsn, standin.base_url, standin.token,
                                                            ids=wl.delivery_ids, workers=senders, threads=threads)
                        standin.check_exactly_once(wl.count)
                        if _sent(db) != wl.count:
                            raise AssertionError(f"{name}: the database does not show all {wl.count} sent")
                    finally:
                        db.dispose()
                        server.drop_database(url)
                    rates[name].append(figures)
                    say(f"{latency_ms:>2} ms, {senders} sender(s) x {threads} threads, {name:<13} "
                        f"{figures.per_second:7.0f}/s")
            row: dict[str, Any] = {}
            for name, runs in rates.items():
                middle = sorted(runs, key=lambda r: r.per_second)[len(runs) // 2]
                row[name] = middle.to_json() | {"all_runs_per_s": [round(r.per_second, 1) for r in runs]}
            ratio = row["shiftcast"]["deliveries_per_s"] / row["procrastinate"]["deliveries_per_s"]
            row["shiftcast_vs_procrastinate"] = round(ratio, 2)
            row["target_met"] = ratio >= TARGET_VS_PROCRASTINATE
            table[f"{senders}_senders"] = row
        out[f"{latency_ms}ms"] = table
    out["target_vs_procrastinate"] = TARGET_VS_PROCRASTINATE
    out["all_targets_met"] = all(row["target_met"] for table in out.values() if isinstance(table, dict)
                                 for row in table.values())
    return out


# ----- enqueue → accepted across two processes -----

CHILD_READY = "sender ready"


def _child_sender(url: str, home: str, base_url: str, token: str) -> None:
    """The child process: one Sender on the database, until its stdin closes."""
    db = Database(url)
    access = line_access(base_url, token)
    sender = Sender(db, connect={"line": lambda: access}, paths=DataPaths(Path(home)), config=SenderConfig()).start()
    if not sender.ready.wait(30):
        raise SystemExit("the sender did not start")
    print(CHILD_READY, flush=True)
    sys.stdin.read()
    sender.stop()
    db.dispose()


def latency_across_processes(server: PgServer, paths: DataPaths, *, samples: int, per_second: float) -> dict[str, Any]:
    from tests.perf.emulator_process import EmulatorProcess

    url = server.create_database(template=PgServer.MIGRATED)
    db = Database(url)
    try:
        now = utcnow()
        targets = sender_idle_latency._shifts_without_reminders(db, samples, now)
        with EmulatorProcess() as emulator:
            emulator.add_users([recipient for *_, recipient in targets])
            emulator.lift_rate_limits()
            emulator.reset(latency_ms=0)
            child = subprocess.Popen(
                [sys.executable, "-m", "tests.perf.postgres", "child", url, str(paths.home), emulator.base_url,
                 emulator.token], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                cwd=Path(__file__).resolve().parents[2], env=dict(os.environ))
            try:
                assert child.stdout is not None and child.stdin is not None
                if child.stdout.readline().strip() != CHILD_READY:
                    raise AssertionError("the sender process did not start")
                time.sleep(0.5)  # past its start-up
                committed: dict[str, float] = {}
                interval = 1.0 / per_second
                next_at = time.perf_counter()
                for teacher_id, shift_id, version, recipient in targets:
                    with db.write() as session:
                        queue.enqueue(session, kind=DeliveryKind.SHIFT_REMINDER,
                                      dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift_id}", version),
                                      due_at=utcnow(), now=utcnow(), recipient=recipient, teacher_id=teacher_id,
                                      subject_type="shift", subject_id=shift_id, subject_version=version)
                    committed[recipient] = time.time()  # the write scope has committed
                    next_at += interval
                    time.sleep(max(0.0, next_at - time.perf_counter()))
                deadline = time.monotonic() + 30
                while emulator.stats()["delivered"] < samples and time.monotonic() < deadline:
                    time.sleep(0.05)
            finally:
                if child.stdin is not None:
                    child.stdin.close()
                child.wait(30)
            emulator.check_exactly_once(samples)
            accepted = emulator.accepted_at()
    finally:
        db.dispose()
        server.drop_database(url)
    latencies = [(accepted[r].timestamp() - committed[r]) * 1000 for r in committed]
    p50 = statistics.median(latencies)
    return {
        "samples": samples,
        "enqueues_per_s": per_second,
        "p50_ms": round(p50, 2),
        "p99_ms": round(percentile(latencies, 0.99), 2),
        "max_ms": round(max(latencies), 2),
        "target_p50_ms": TARGET_LATENCY_P50_MS,
        "target_met": p50 < TARGET_LATENCY_P50_MS,
        "method": "this process commits each enqueue; a sender in a child process, woken by NOTIFY (its poll "
                  "is 2 s), pushes to the emulator; commit time taken after the commit returned, accepted time "
                  "from the emulator's acceptedAt (same host clock)",
    }


# ----- claim cost against history -----

_HISTORY = """
INSERT INTO deliveries (kind, channel, dedup_key, recipient, status, attempt_count, due_at, next_attempt_at,
                        retry_key, retry_key_issued_at, first_attempt_at, line_request_id, created_at, updated_at,
                        sent_at, retry_key_generation)
SELECT 'shift_reminder', 'line', 'history:' || n, 'U' || lpad(to_hex(n % 5000 + 1), 32, '0'), 'sent', 1,
       ts, ts, md5(n::text), ts, ts, md5(n::text), ts, ts, ts, 0
FROM generate_series(CAST(:first AS bigint), CAST(:last AS bigint)) AS n, LATERAL (SELECT now() AT TIME ZONE 'utc' - interval '1 day'
                                                   - (n % 31536000) * interval '1 second' AS ts) AS t
"""

_DUE = """
INSERT INTO deliveries (kind, channel, dedup_key, recipient, status, attempt_count, due_at, next_attempt_at,
                        created_at, updated_at, retry_key_generation)
SELECT 'shift_reminder', 'line', 'due:' || n, 'U' || lpad(to_hex(n), 32, '0'), 'queued', 0, ts, ts, ts, ts, 0
FROM generate_series(1, CAST(:count AS bigint)) AS n, LATERAL (SELECT now() AT TIME ZONE 'utc' - interval '1 minute' AS ts) AS t
"""


class _Rollback(Exception):
    pass


def claim_cost(server: PgServer, *, history_sizes: tuple[int, ...], due: int, limit: int,
               repeats: int) -> dict[str, Any]:
    url = server.create_database(template=PgServer.MIGRATED)
    db = Database(url)
    results: dict[str, Any] = {}
    plan: list[str] = []
    try:
        with db.write() as session:
            session.execute(text(_DUE), {"count": due})
        inserted = 0
        for size in history_sizes:
            started = time.perf_counter()
            with db.write() as session:
                session.execute(text(_HISTORY), {"first": inserted + 1, "last": size})
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.execute(text("VACUUM ANALYZE deliveries"))  # what autovacuum would have done by now
            fill_seconds = time.perf_counter() - started
            inserted = size
            samples: list[float] = []
            now = utcnow()
            for attempt in range(repeats):
                try:
                    with db.write() as session:
                        begun = time.perf_counter()
                        claimed = queue.claim(session, owner="bench:0:claim", now=now, lease=LEASE, limit=limit,
                                              channels=[Channel.LINE])
                        samples.append(time.perf_counter() - begun)
                        if len(claimed) != limit:
                            raise AssertionError(f"claimed {len(claimed)} rows, expected {limit}")
                        raise _Rollback
                except _Rollback:
                    pass
                if attempt == 0:
                    plan = _claim_plan(db, now, limit)
            results[str(size)] = {
                "median_us": round(statistics.median(samples) * 1e6, 1),
                "p90_us": round(sorted(samples)[int(len(samples) * 0.9)] * 1e6, 1),
                "history_insert_s": round(fill_seconds, 1),
            }
            say(f"claim({limit}) with {size:,} rows of history: {results[str(size)]['median_us']} µs")
    finally:
        db.dispose()
        server.drop_database(url)
    smallest, largest = str(history_sizes[0]), str(history_sizes[-1])
    ratio = results[largest]["median_us"] / results[smallest]["median_us"]
    return {
        "limit": limit,
        "due_rows": due,
        "claims_timed_per_size": repeats,
        "by_sent_history_rows": results,
        "ratio_largest_vs_smallest": round(ratio, 2),
        "ratio_between": f"{largest}/{smallest}",
        "flat_target": "ratio below 2",
        "target_met": ratio < 2.0,
        "query_plan": plan,
    }


def _claim_plan(db: Database, now: dt.datetime, limit: int) -> list[str]:
    """EXPLAIN of the claim's own statement, captured as the sender runs it."""
    from sqlalchemy import event

    seen: list[tuple[str, Any]] = []

    def capture(_c: Any, _cur: Any, statement: str, parameters: Any, _ctx: Any, _many: bool) -> None:
        seen.append((statement, parameters))

    try:
        with db.write() as session:
            event.listen(db.engine, "before_cursor_execute", capture)
            try:
                queue.claim(session, owner="bench:0:plan", now=now, lease=LEASE, limit=limit, channels=[Channel.LINE])
            finally:
                event.remove(db.engine, "before_cursor_execute", capture)
            statement, parameters = seen[-1]
            rows = session.connection().exec_driver_sql("EXPLAIN " + statement, parameters).all()
            raise _Rollback(rows)
    except _Rollback as rolled:
        return [str(row[0]) for row in rolled.args[0]]


# ----- the section -----


def run(*, quick: bool, threads: int, deliveries: int | None = None) -> dict[str, Any]:
    from tests import pgserver

    reason = pgserver.available()
    if reason is not None:
        return {"skipped": reason}
    count = deliveries or (1000 if quick else 2000)
    repeats = 1 if quick else 3
    history = (10_000, 100_000) if quick else (10_000, 100_000, 1_000_000)
    started = time.perf_counter()
    server = PgServer().start()
    try:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="shiftcast-bench-pg-") as tmp:
            root = Path(tmp)
            say(f"building {count} reminders and copying them into a template database")
            wl = workload.build(root, count)
            _template(server, wl)
            paths = DataPaths(root / "template").ensure()
            report: dict[str, Any] = {"server": _server_version(server), "deliveries_per_run": count,
                                      "threads_per_sender": threads, "runs_per_figure": repeats}
            with StandinProcess() as standin:
                say(f"LINE stand-in at {standin.base_url}")
                report["throughput"] = throughput(server, wl, standin, paths, threads=threads, repeats=repeats)
            say("enqueue → accepted across two processes")
            report["enqueue_to_accepted_two_processes"] = latency_across_processes(
                server, paths, samples=60 if quick else 200, per_second=20.0)
            say("claim cost against history")
            report["claim_cost"] = claim_cost(server, history_sizes=history, due=1000, limit=64,
                                              repeats=50 if quick else 200)
    finally:
        server.stop()
    report["wall_seconds"] = round(time.perf_counter() - started)
    return report


def _server_version(server: PgServer) -> str:
    import psycopg

    with psycopg.connect(server.dsn()) as connection:
        row = connection.execute("SHOW server_version").fetchone()
        return str(row[0]) if row else "?"


def main(argv: list[str]) -> int:
    if argv and argv[0] == "child":
        _child_sender(*argv[1:5])
        return 0
    print(json.dumps(run(quick="--quick" in argv, threads=THREADS), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

