"""The relay's figures (docs/performance.md, "The relay"): the real Worker (relay/) under `wrangler dev
--local` on loopback, as core/relay/local.py runs it, with its own local D1 in the bench's folder.

1. Webhook answer time: signed LINE webhook POSTs, one at a time over one keep-alive connection, from
   the request leaving to its 200, against the relay and two peers in processes of their own
   (tests/perf/webhook_servers.py): LINE's Python SDK in a plain HTTP server, and the app's receiver.
   All three check the signature and store each event once; the rounds alternate between them.
2. Due to sent: deliveries uploaded already due, one cron run fired over HTTP (`/cdn-cgi/handler/
   scheduled`, as Cloudflare's trigger would), and the time from that trigger to the LINE server
   accepting each message (its own clock). Against the project's emulator and the independent
   stand-in (tests/perf/standin_server.py), each with its own relay; the peer is a plain client
   sending the same requests one after another to the same server.
3. Sync of 1,000 deliveries: `main.py relay sync` as a process pushing 1,000 due reminders, and after
   the relay's cron has sent them, pulling their 1,000 outcomes (then the sync after, which cancels
   the 1,000 handed over), with each process's time, CPU and peak memory; the peer is a plain client
   making the same calls with payloads built before its clock starts, recording nothing.

Every figure checks what it measured: the events stored, the messages accepted once each, the
deliveries marked sent. Nothing leaves the machine: LINE is the emulator or the stand-in.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import secrets
import sqlite3
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import httpx

from core.channels import line
from core.receiving import signature
from core.relay import settings as relay_settings
from core.relay.client import RelayClient
from core.relay.local import LocalRelay, RelaySecrets, missing
from core.store.models import utcnow
from tests.linefixtures import user_id
from tests.perf import workload
from tests.perf.emulator_process import ROOT, TOKEN, EmulatorProcess, ServerProcess
from tests.perf.figures import percentile
from tests.perf.standin_process import StandinProcess
from tests.waiting import wait_until

SECRET = "bench-channel-secret-0123456789ab"  # the channel secret that signs the webhooks
# The cron's ceiling per run (docs/relay.md); the deployed default is 10.
SENDS_PER_RUN = 20
RELAY_VARIABLES = {"MAX_SENDS_PER_RUN": str(SENDS_PER_RUN)}
WEBHOOK_WARM_UP = 10  # requests per contender before the clock starts: the Worker's first ones compile
PATIENCE_S = 120.0


@dataclass(frozen=True)
class RelaySizes:
    webhooks: int  # timed requests per contender, over all rounds
    rounds: int
    send_runs: int  # cron runs of SENDS_PER_RUN deliveries per LINE server
    sync_deliveries: int


FULL = RelaySizes(webhooks=300, rounds=3, send_runs=10, sync_deliveries=1000)
QUICK = RelaySizes(webhooks=60, rounds=3, send_runs=3, sync_deliveries=200)


def say(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# ----- processes -----

@dataclass(frozen=True)
class ProcessSample:
    name: str  # the command's name as the kernel keeps it (node, workerd, python3, …)
    cpu_seconds: float  # user and system, all threads
    resident_kb: int
    peak_kb: int


def _sample(pid: str) -> tuple[int, ProcessSample] | None:
    """(process group, what the process used so far), or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    name = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()  # after the name, which may hold spaces
    memory = {k: int(v.split()[0]) for k, _, v in (row.partition(":") for row in status.splitlines())
              if k in ("VmRSS", "VmHWM")}
    return int(fields[2]), ProcessSample(name, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"),
                                         memory.get("VmRSS", 0), memory.get("VmHWM", 0))


def group_samples(group: int) -> list[ProcessSample]:
    """Every live process of process group `group` (a relay's wrangler, its workerd and helpers)."""
    found = (_sample(pid) for pid in filter(str.isdigit, os.listdir("/proc")))
    return [sample for item in found if item is not None and item[0] == group for sample in (item[1],)]


def cpu_by_name(samples: list[ProcessSample]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for sample in samples:
        totals[sample.name] = totals.get(sample.name, 0.0) + sample.cpu_seconds
    return totals


def process_cpu(pid: int) -> dict[str, float]:
    """User and system CPU of one process, all its threads, under its name."""
    found = _sample(str(pid))
    return {} if found is None else {found[1].name: found[1].cpu_seconds}


def group_memory_mb(group: int) -> dict[str, Any]:
    """Resident memory of the group now, in all and per process, with each process's peak."""
    samples = group_samples(group)
    return {"resident_mb": round(sum(s.resident_kb for s in samples) / 1024, 1),
            "processes": [{"name": s.name, "resident_mb": round(s.resident_kb / 1024, 1),
                           "peak_mb": round(s.peak_kb / 1024, 1)} for s in samples]}


def relay_group(relay: LocalRelay) -> int:
    """The process group of this relay's wrangler (it started its workerd in the same group)."""
    state = str(relay.folder / "state")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if state.encode() in command and b"dev" in command:
            return os.getpgid(int(pid))
    raise RuntimeError(f"no wrangler process serves {relay.url}")


class PeerServer(ServerProcess):
    """A webhook peer (tests/perf/webhook_servers.py) in its own process; `base_url` is its webhook's address."""

    module = "tests.perf.webhook_servers"

    def __init__(self, kind: str, folder: Path) -> None:
        super().__init__()
        self.kind, self.folder, self.label = kind, folder, f"{kind} webhook peer"

    def command(self) -> list[str]:
        return [sys.executable, "-m", self.module, "--kind", self.kind, "--secret", SECRET, "--folder", str(self.folder)]

    def stored(self) -> int:
        """The events it stored, read from its database file."""
        database, table = ((self.folder / "events.db", "events") if self.kind == "sdk"
                           else (self.folder / "shiftcast.db", "webhook_event"))
        with sqlite3.connect(database) as connection:
            return int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


# ----- 1. webhook answer time -----

def webhook_body(event_id: str, n: int) -> bytes:
    """A webhook as LINE posts it: one text message from a user (not a pairing code, so no reply)."""
    event = {
        "type": "message", "mode": "active", "timestamp": int(time.time() * 1000), "webhookEventId": event_id,
        "deliveryContext": {"isRedelivery": False}, "replyToken": uuid.uuid4().hex,
        "source": {"type": "user", "userId": user_id(n % 1000 + 1)},
        "message": {"id": str(600_000_000_000_000_000 + n), "type": "text", "quoteToken": f"q{n:x}", "text": "了解です"},
    }
    return json.dumps({"destination": "U" + "f" * 32, "events": [event]}, ensure_ascii=False,
                      separators=(",", ":")).encode()


def _post_webhooks(client: httpx.Client, url: str, prefix: str, first: int, count: int) -> list[float]:
    """`count` signed webhooks, one after another; each one's time from send to its 200, in ms."""
    times = []
    for n in range(first, first + count):
        body = webhook_body(f"01{prefix}{n:0>22}"[:26], n)
        headers = {"Content-Type": "application/json", "x-line-signature": signature.sign(SECRET, body)}
        started = time.perf_counter()
        answer = client.post(url, content=body, headers=headers)
        took = time.perf_counter() - started
        if answer.status_code != 200:
            raise AssertionError(f"{url} answered {answer.status_code}: {answer.text[:200]}")
        times.append(took * 1000)
    return times


def _summary(times: list[float], cpu_s: dict[str, float]) -> dict[str, Any]:
    def per_request(seconds: float) -> float:
        return round(seconds / len(times) * 1000, 3)

    return {"requests": len(times), "median_ms": round(statistics.median(times), 2),
            "p95_ms": round(percentile(times, 0.95), 2), "p99_ms": round(percentile(times, 0.99), 2),
            "max_ms": round(max(times), 2), "server_cpu_ms_per_request": per_request(sum(cpu_s.values())),
            "server_cpu_ms_per_request_by_process": {name: per_request(seconds) for name, seconds in cpu_s.items()
                                                     if seconds > 0}}


def relay_events(relay: LocalRelay, *, ack: bool) -> int:
    """How many webhook events the relay holds for the app (acknowledged when `ack`)."""
    total, after = 0, 0
    with RelayClient(relay.url, relay.key) as api:
        while found := api.events(after)["events"]:
            total, after = total + len(found), int(found[-1]["cursor"])
        if ack and after:
            api.ack_events(after)
    return total


def webhook_figures(relay: LocalRelay, root: Path, sizes: RelaySizes) -> dict[str, Any]:
    with PeerServer("sdk", root / "webhook-sdk") as sdk, PeerServer("receiver", root / "webhook-receiver") as app, \
            PeerServer("receiver-nodelay", root / "webhook-receiver-nodelay") as app_nodelay:
        group = relay_group(relay)
        contenders: dict[str, tuple[str, Callable[[], dict[str, float]]]] = {
            "relay": (f"{relay.url}/line/webhook", lambda: cpu_by_name(group_samples(group)))} | {
            name: (peer.base_url, partial(process_cpu, peer.pid))
            for name, peer in (("line_bot_sdk", sdk), ("receiver", app), ("receiver_nodelay", app_nodelay))}
        times: dict[str, list[float]] = {name: [] for name in contenders}
        cpu: dict[str, dict[str, float]] = {name: {} for name in contenders}
        per_round = sizes.webhooks // sizes.rounds
        names = tuple(contenders)
        clients = {name: httpx.Client(timeout=PATIENCE_S) for name in names}
        try:
            for name, (url, _) in contenders.items():
                _post_webhooks(clients[name], url, "W", 0, WEBHOOK_WARM_UP)
            for round_ in range(sizes.rounds):
                for name in names[round_ % len(names):] + names[:round_ % len(names)]:
                    url, server_cpu = contenders[name]
                    before = server_cpu()
                    times[name] += _post_webhooks(clients[name], url, "T", WEBHOOK_WARM_UP + round_ * per_round,
                                                  per_round)
                    for process, seconds in server_cpu().items():
                        cpu[name][process] = cpu[name].get(process, 0.0) + seconds - before.get(process, 0.0)
                    say(f"webhook round {round_ + 1}/{sizes.rounds} {name:<16} median "
                        f"{statistics.median(times[name][-per_round:]):6.2f} ms")
        finally:
            for client in clients.values():
                client.close()
        expected = WEBHOOK_WARM_UP + sizes.rounds * per_round
        stored = {"relay": relay_events(relay, ack=True), "line_bot_sdk": sdk.stored(), "receiver": app.stored(),
                  "receiver_nodelay": app_nodelay.stored()}
    if any(count != expected for count in stored.values()):
        raise AssertionError(f"each should have stored {expected} events once: {stored}")
    out: dict[str, Any] = {name: _summary(times[name], cpu[name]) for name in names}
    for peer in ("line_bot_sdk", "receiver", "receiver_nodelay"):
        out[f"relay_vs_{peer}_median"] = round(out["relay"]["median_ms"] / out[peer]["median_ms"], 2)
        out[f"relay_vs_{peer}_p95"] = round(out["relay"]["p95_ms"] / out[peer]["p95_ms"], 2)
    out["notes"] = ("one signed POST at a time over one keep-alive connection, send to 200 on this process's "
                    "clock; rounds alternate the contenders; server CPU is the relay's wrangler and workerd, or "
                    "the peer's process; each stored every event once (checked)")
    return out


# ----- 2. due to sent -----

class AcceptingServer(Protocol):
    base_url: str

    def reset(self, *, latency_ms: float = 0.0) -> None: ...

    def accepted_at(self) -> dict[str, dt.datetime]: ...


def _push_body(n: int) -> dict[str, Any]:
    return {"to": user_id(n), "messages": [{"type": "text", "text": f"明日 16:00–21:00 本校の勤務です。({n})"}]}


def _delays(server: AcceptingServer, users: list[str], trigger: dt.datetime) -> list[float]:
    if not wait_until(lambda: len(server.accepted_at()) >= len(users), timeout=PATIENCE_S):
        raise AssertionError(f"{len(server.accepted_at())} of {len(users)} messages accepted")
    accepted = server.accepted_at()
    if sorted(accepted) != sorted(users):
        raise AssertionError(f"accepted for {sorted(accepted)}, expected {sorted(users)}")
    return sorted((accepted[u] - trigger).total_seconds() * 1000 for u in users)


def _run_figures(delays: list[list[float]], wall: list[float]) -> dict[str, Any]:
    every = [d for run in delays for d in run]
    per_send = [(run[-1] - run[0]) / (len(run) - 1) for run in delays]
    return {"messages": len(every), "first_ms_median": round(statistics.median(run[0] for run in delays), 2),
            "last_ms_median": round(statistics.median(run[-1] for run in delays), 2),
            "per_send_ms_median": round(statistics.median(per_send), 2),
            "delay_ms_median": round(statistics.median(every), 2), "delay_ms_p95": round(percentile(every, 0.95), 2),
            "run_wall_ms_median": round(statistics.median(wall), 2)}


def due_to_sent(relay: LocalRelay, server: AcceptingServer, runs: int) -> dict[str, Any]:
    relay_delays: list[list[float]] = []
    relay_wall: list[float] = []
    plain_delays: list[list[float]] = []
    plain_wall: list[float] = []
    numbers = list(range(1, SENDS_PER_RUN + 1))
    users = [user_id(n) for n in numbers]
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    with RelayClient(relay.url, relay.key) as api, httpx.Client(base_url=server.base_url, timeout=PATIENCE_S) as plain:
        for run in range(runs):
            server.reset(latency_ms=0)
            now = dt.datetime.now(dt.UTC)
            api.put_deliveries([{
                "id": f"due-{run}-{n}-{uuid.uuid4().hex[:8]}", "subject_version": 1,
                "path": line.SEND_PATHS["push"], "body": _push_body(n), "retry_key": str(uuid.uuid4()),
                "due_at": (now - dt.timedelta(seconds=1)).isoformat(), "not_after": (now + dt.timedelta(hours=2)).isoformat(),
            } for n in numbers])
            trigger, started = dt.datetime.now(dt.UTC), time.perf_counter()
            relay.run_cron(PATIENCE_S)
            relay_wall.append((time.perf_counter() - started) * 1000)
            relay_delays.append(_delays(server, users, trigger))

            # The peer: the same requests, built before its clock starts, one after another.
            server.reset(latency_ms=0)
            bodies = [json.dumps(_push_body(n), ensure_ascii=False, separators=(",", ":")).encode() for n in numbers]
            trigger, started = dt.datetime.now(dt.UTC), time.perf_counter()
            for body in bodies:
                plain.post(line.SEND_PATHS["push"], content=body,
                           headers=headers | {"X-Line-Retry-Key": str(uuid.uuid4())}).raise_for_status()
            plain_wall.append((time.perf_counter() - started) * 1000)
            plain_delays.append(_delays(server, users, trigger))
    drained = drain_outcomes(relay)
    if drained != runs * SENDS_PER_RUN:
        raise AssertionError(f"the relay recorded {drained} outcomes for {runs * SENDS_PER_RUN} sends")
    ours, peer = _run_figures(relay_delays, relay_wall), _run_figures(plain_delays, plain_wall)
    return {"relay_cron": ours, "plain_client": peer,
            "per_send_vs_plain": round(ours["per_send_ms_median"] / peer["per_send_ms_median"], 2),
            "first_vs_plain": round(ours["first_ms_median"] / peer["first_ms_median"], 2)}


def drain_outcomes(relay: LocalRelay) -> int:
    """Pull and acknowledge every outcome the relay holds, so a later sync starts with none."""
    total = 0
    with RelayClient(relay.url, relay.key) as api:
        while found := api.outcomes()["outcomes"]:
            total += len(found)
            api.ack_outcomes(int(found[-1]["cursor"]))
    return total


# ----- 3. sync 1,000 -----

@dataclass(frozen=True)
class Measured:
    summary: dict[str, Any]
    seconds: float
    cpu_seconds: float
    peak_rss_mb: float

    def to_json(self) -> dict[str, Any]:
        return {"seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
                "peak_rss_mb": round(self.peak_rss_mb, 1)}


def relay_sync_process(home: Path, key: str) -> Measured:
    """`main.py relay sync` as the manager runs it; its wall time, and its CPU and peak memory from wait4."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIFTCAST_")} | {
        "SHIFTCAST_HOME": str(home), relay_settings.KEY_ENV: key,
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    with open(home / "sync-stderr.log", "a") as errors:
        started = time.perf_counter()
        child = subprocess.Popen([sys.executable, "main.py", "--lang", "en", "relay", "sync"], cwd=ROOT, env=env,
                                 stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL)
        assert child.stdout is not None
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        child.stdout.close()
    if child.returncode != 0:
        raise AssertionError(f"relay sync exited {child.returncode}: {(home / 'sync-stderr.log').read_text()[-2000:]}")
    return Measured(json.loads(out), seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


@contextmanager
def _attached_home(wl: workload.Workload | None, root: Path, name: str, relay: LocalRelay) -> Iterator[Path]:
    """A data folder (a copy of the workload's database, or an empty one) attached to the relay."""
    if wl is None:
        from core.store.bootstrap import open_database

        db = open_database(workload.use_home(root / "runs" / name), keyring=False)
    else:
        db = workload.fresh_database(wl, name)
    try:
        relay_settings.attach(db, relay.url, relay.key, keep_key=False)
        yield workload.paths_of(db).home
    finally:
        db.dispose()


def _plain_uploads(api: RelayClient, wl: workload.Workload, home: Path) -> float:
    """The peer's push: the same reminders' requests built first, then PUT 40 a call; its seconds.
    Due tomorrow, so the cron leaves them alone."""
    from core.store.bootstrap import open_database

    db = open_database(workload.use_home(home), keyring=False)
    try:
        messages = workload.prepared_messages(db, utcnow())
    finally:
        db.dispose()
    due, not_after = utcnow() + dt.timedelta(days=1), utcnow() + dt.timedelta(days=2)
    entries = [{"id": f"plain{delivery_id}", "subject_version": 1, "path": line.SEND_PATHS[outgoing.endpoint],
                "body": json.loads(line.encode(outgoing)), "retry_key": str(uuid.uuid4()),
                "due_at": due.isoformat(), "not_after": not_after.isoformat()} for delivery_id, outgoing in messages]
    started = time.perf_counter()
    for first in range(0, len(entries), 40):
        api.put_deliveries(entries[first:first + 40])
    return time.perf_counter() - started


def _plain_pull(api: RelayClient) -> tuple[int, float]:
    """The peer's pull: every outcome page, not acknowledged (the app's sync pulls the same after it)."""
    total, after = 0, 0
    started = time.perf_counter()
    while found := api.outcomes(after)["outcomes"]:
        total, after = total + len(found), int(found[-1]["cursor"])
    return total, time.perf_counter() - started


def _against(sync: Measured, idle: Measured, plain_s: float, count: int) -> dict[str, Any]:
    """A sync against the empty one (a process's start and a sync with nothing to do) and the plain client."""
    above = sync.seconds - idle.seconds
    return {"above_empty_sync_seconds": round(above, 3), "above_empty_ms_per_delivery": round(above / count * 1000, 2),
            "plain_client_seconds": round(plain_s, 3), "vs_plain_client": round(sync.seconds / plain_s, 1),
            "above_empty_vs_plain_client": round(above / plain_s, 1)}


def sync_figures(relay: LocalRelay, emulator: EmulatorProcess, root: Path, count: int) -> dict[str, Any]:
    say(f"building {count} reminders for the relay sync")
    wl = workload.build(root / "relay-sync", count)
    emulator.reset(latency_ms=0)
    out: dict[str, Any] = {"deliveries": count}
    with _attached_home(None, root, "relay-sync-empty", relay) as empty:
        idle = relay_sync_process(empty, relay.key)
    out["empty_sync"] = idle.to_json()
    with _attached_home(wl, root, "relay-sync", relay) as home, RelayClient(relay.url, relay.key) as api:
        pushed = relay_sync_process(home, relay.key)
        if pushed.summary["uploaded"] != count:
            raise AssertionError(f"the sync uploaded {pushed.summary['uploaded']} of {count}")
        plain_push = _plain_uploads(api, wl, home)
        say(f"relay sync pushed {count} in {pushed.seconds:.2f} s (plain client {plain_push:.2f} s); the cron sends them")
        started, runs = time.perf_counter(), 0
        while emulator.stats()["accepted"] < count and runs < count // SENDS_PER_RUN + 5:
            relay.run_cron(PATIENCE_S)
            runs += 1
        cron_s = time.perf_counter() - started
        emulator.check_exactly_once(count)
        plain_pulled, plain_pull = _plain_pull(api)
        if plain_pulled != count:
            raise AssertionError(f"the relay holds {plain_pulled} outcomes for {count} sends")
        pulled = relay_sync_process(home, relay.key)
        if pulled.summary["outcomes"] != count or pulled.summary["sent_by_relay"] != count:
            raise AssertionError(f"the sync recorded {pulled.summary}")
        canceled = relay_sync_process(home, relay.key)
        if canceled.summary["canceled"] != count:
            raise AssertionError(f"the sync after canceled {canceled.summary['canceled']} of {count}")
        from core.store.bootstrap import open_database

        db = open_database(workload.use_home(home), keyring=False)
        try:
            if workload.count_sent(db) != count:
                raise AssertionError("the database does not show every delivery sent by the relay")
        finally:
            db.dispose()
    out |= {
        "push": pushed.to_json() | _against(pushed, idle, plain_push, count) | {"calls": -(-count // 40)},
        "cron": {"runs": runs, "seconds": round(cron_s, 3), "sends_per_s": round(count / cron_s, 1)},
        "pull": pulled.to_json() | _against(pulled, idle, plain_pull, count) | {"pages": -(-count // 100)},
        "cancel_after": canceled.to_json() | {"above_empty_sync_seconds": round(canceled.seconds - idle.seconds, 3)},
        "relay_memory": group_memory_mb(relay_group(relay)),
    }
    return out


# ----- the section -----

def _relay(root: Path, name: str, line_api_base: str) -> LocalRelay:
    return LocalRelay(root / name, RelaySecrets(SECRET, TOKEN, secrets.token_hex(32)), line_api_base=line_api_base,
                      variables=RELAY_VARIABLES)


def measure(root: Path, sizes: RelaySizes) -> dict[str, Any]:
    why = missing()
    if why is not None:
        return {"skipped": str(why)}
    report: dict[str, Any] = {"sends_per_cron_run": SENDS_PER_RUN}
    with EmulatorProcess() as emulator:
        emulator.add_users(user_id(n) for n in range(1, max(sizes.sync_deliveries, SENDS_PER_RUN) + 1))
        emulator.lift_rate_limits()
        say("starting the relay (wrangler dev --local) with LINE at the emulator")
        with _relay(root, "relay-emulator", emulator.base_url) as relay:
            report["node"] = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
            say(f"webhook answer time: relay, line-bot-sdk, the app's receiver ({sizes.webhooks} each)")
            report["webhook"] = webhook_figures(relay, root, sizes)
            say(f"due to sent: {sizes.send_runs} cron runs of {SENDS_PER_RUN} against the emulator")
            report["due_to_sent"] = {"emulator": due_to_sent(relay, emulator, sizes.send_runs)}
            report["sync"] = sync_figures(relay, emulator, root, sizes.sync_deliveries)
    with StandinProcess() as standin:
        say("starting a relay with LINE at the stand-in")
        with _relay(root, "relay-standin", standin.base_url) as relay:
            say(f"due to sent: {sizes.send_runs} cron runs of {SENDS_PER_RUN} against the stand-in")
            report["due_to_sent"]["standin"] = due_to_sent(relay, standin, sizes.send_runs)
    return report
