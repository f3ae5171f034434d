"""The teachers' page's figures (docs/performance.md, "The teachers' page"): `make bench BENCH_ARGS="--only liff"`.

The page (relay/page/) as the real relay serves it under `wrangler dev --local` on loopback, with the
world of tests/liffscene.py handed over by a relay sync and LINE being the project's emulator (its ID
token check and its LIFF SDK stand-in); the browser is Debian's Chromium, headless, at 390×844
(tests/browserfixtures.py).

1. First paint: Chromium's own `first-contentful-paint` (Performance API, from the navigation's start),
   the median of N loads of `/liff/?view=month` with the browser's cache cleared before each, against
   a peer: the very same files (relay/page/, the SDK placeholder filled in the same way) served by
   Python's http.server from another process on loopback. The loads alternate between the two.
   With them, the bytes of the page as the relay serves it (HTML, script, style) and of the SDK
   stand-in (which only plays LINE's SDK: its size says nothing of the real one's).
2. CPU time of each /liff/ API call inside the Worker: V8's sampling profiler of the Worker's isolate,
   through the inspector wrangler dev opens (`--inspector-port`, the Chrome DevTools Protocol's
   Profiler domain), 100 µs between samples, around N calls of one route one after another; the
   sampled time that is not "(idle)" divided by N. It is the JavaScript and the runtime's own work in
   the isolate (what Workers bill as CPU time), not D1 (a SQLite of its own process in wrangler dev)
   nor the wait for LINE's verify call. Timing inside the Worker with performance.now() would say
   nothing here: on Workers the clock stands still while code runs and moves only on I/O. The
   profiler's own cost is in the figure, so it is an upper bound; wall time per call beside it.
3. Document sizes: a classroom of 30 teachers with a month of 9 shifts a day published, an
   availability request every teacher answered for each day: its classroom document, the largest
   teacher's person document, the manager's, in bytes (UTF-8) against the 50 KB aim.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from core.relay.local import missing
from tests.perf.emulator_process import ROOT

DOCUMENT_AIM_BYTES = 50_000
FULL_LOADS, QUICK_LOADS = 9, 3
FULL_CALLS, QUICK_CALLS = 60, 15
SAMPLING_US = 100
TEACHERS = 30
PER_DAY = 9


def say(message: str) -> None:
    print(f"[bench liff {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def why_not() -> str | None:
    from tests.browserfixtures import browser_missing

    found = missing()
    return str(found) if found is not None else browser_missing()


# ----- 1. first paint -----

@contextmanager
def peer_server(folder: Path, sdk_url: str) -> Iterator[str]:
    """relay/page/ under /liff/ of Python's http.server in a process of its own; its address."""
    site = folder / "site" / "liff"
    shutil.copytree(ROOT / "relay" / "page", site)
    index = site / "index.html"
    index.write_text(index.read_text(encoding="utf-8").replace("{{LIFF_SDK_URL}}", sdk_url), encoding="utf-8")
    child = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                              "--directory", str(folder / "site")], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()  # "Serving HTTP on 127.0.0.1 port N (http://127.0.0.1:N/) ..."
        port = int(line.split(" port ")[1].split()[0])
        yield f"http://127.0.0.1:{port}"
    finally:
        child.terminate()
        child.wait(30)


def first_paint_ms(phone: Any, url: str) -> float:
    """One load with an empty cache: Chromium's first-contentful-paint, in ms from the navigation start."""
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.waiting import PATIENCE_S

    phone.get("about:blank")
    phone.execute_cdp_cmd("Network.clearBrowserCache", {})
    phone.get(url)
    script = "const e = performance.getEntriesByName('first-contentful-paint')[0]; return e ? e.startTime : null;"
    found = WebDriverWait(phone, PATIENCE_S).until(lambda d: d.execute_script(script), f"no first paint of {url}")
    return float(found)


def page_bytes(relay_url: str, sdk_url: str) -> dict[str, int]:
    sizes = {}
    with httpx.Client(timeout=60) as client:
        for name, url in (("html", f"{relay_url}/liff/"), ("script", f"{relay_url}/liff/app.js"),
                          ("style", f"{relay_url}/liff/app.css"), ("sdk_stand_in", sdk_url)):
            answer = client.get(url)
            answer.raise_for_status()
            sizes[name] = len(answer.content)
    sizes["page_total"] = sizes["html"] + sizes["script"] + sizes["style"]
    return sizes


def first_paint(world: Any, folder: Path, loads: int) -> dict[str, Any]:
    from tests import liffscene
    from tests.browserfixtures import sign_in, start_phone

    sdk = liffscene.sdk_url(world.emulator)
    phone = start_phone(folder / "profile")
    try:
        sign_in(phone, world.token(liffscene.HANAKO, expires_in=3600))
        with peer_server(folder / "peer", sdk) as peer:
            relay_page, peer_page = world.page("month"), f"{peer}/liff/?view=month"
            first_paint_ms(phone, relay_page)  # warm-up: the Worker's first request compiles it
            first_paint_ms(phone, peer_page)
            relay_ms, peer_ms = [], []
            for _ in range(loads):
                relay_ms.append(first_paint_ms(phone, relay_page))
                peer_ms.append(first_paint_ms(phone, peer_page))
    finally:
        phone.quit()
    relay_median, peer_median = statistics.median(relay_ms), statistics.median(peer_ms)
    return {"loads": loads, "relay_fcp_ms_median": round(relay_median, 1), "relay_fcp_ms": [round(x, 1) for x in relay_ms],
            "peer_http_server_fcp_ms_median": round(peer_median, 1), "peer_fcp_ms": [round(x, 1) for x in peer_ms],
            "relay_vs_peer": round(relay_median / peer_median, 2),
            "bytes": page_bytes(world.relay.url, sdk)}


# ----- 2. CPU per API call inside the Worker -----

class Inspector:
    """The Chrome DevTools Protocol on the Worker's isolate, through wrangler dev's inspector."""

    def __init__(self, wrangler_pid: int) -> None:
        import websocket  # websocket-client, which Selenium brings

        words = Path(f"/proc/{wrangler_pid}/cmdline").read_bytes().split(b"\0")
        port = int(words[words.index(b"--inspector-port") + 1])
        [target] = httpx.get(f"http://127.0.0.1:{port}/json", timeout=60).json()
        self._socket = websocket.create_connection(target["webSocketDebuggerUrl"], timeout=120, suppress_origin=True)
        self._next = 0

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._next += 1
        self._socket.send(json.dumps({"id": self._next, "method": method, "params": params or {}}))
        while True:
            message = json.loads(self._socket.recv())
            if message.get("id") != self._next:
                continue  # an event, or an answer to an earlier call
            if "error" in message:
                raise RuntimeError(f"{method}: {message['error']}")
            # wrangler's inspector proxy answers some calls with the call itself, no result: they were taken
            return dict(message.get("result") or {})

    def close(self) -> None:
        self._socket.close()


def busy_us(profile: dict[str, Any]) -> dict[str, float]:
    """The sampled time not spent idle, in µs: in JavaScript (the Worker's code, its libraries, the runtime's
    JS), in the garbage collector, and "(program)": native work on the isolate's thread outside JS (parsing
    a request, the runtime's own I/O plumbing)."""
    names = {node["id"]: node["callFrame"]["functionName"] for node in profile["nodes"]}
    found = {"js": 0.0, "gc": 0.0, "program": 0.0}
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        name = names.get(sample)
        if name == "(idle)":
            continue
        found["gc" if name == "(garbage collector)" else "program" if name == "(program)" else "js"] += delta
    return found


def api_cpu(world: Any, calls: int) -> dict[str, Any]:
    from core.roster.availability_text import month_days
    from tests import liffscene

    scene = world.scene
    token = world.token(liffscene.HANAKO, expires_in=3600)
    bearer = {"authorization": f"Bearer {token}"}
    # Ten open days of the request (the relay refuses a closed one), as her document lists them.
    me = httpx.get(f"{world.relay.url}/liff/api/me", headers=bearer, timeout=60).json()
    [asked] = [r for r in me["person"]["availability"] if r["request"] == scene.request]
    year, month = map(int, scene.request_month.split("-"))
    open_days = [d.isoformat() for d in month_days(year, month) if d.isoformat() not in asked["closed_days"]][:10]
    answer = {"action": "availability", "request": scene.request,
              "days": [{"date": day, "answer": ("yes", "no")[n % 2]} for n, day in enumerate(open_days)]}
    routes: dict[str, Callable[[httpx.Client], httpx.Response]] = {
        "GET /liff/config": lambda c: c.get(f"{world.relay.url}/liff/config"),
        "GET /liff/api/me": lambda c: c.get(f"{world.relay.url}/liff/api/me", headers=bearer),
        "GET /liff/api/classroom": lambda c: c.get(f"{world.relay.url}/liff/api/classroom",
                                                   params={"key": scene.room, "month": scene.month}, headers=bearer),
        "POST /liff/api/answers": lambda c: c.post(f"{world.relay.url}/liff/api/answers", json=answer, headers=bearer),
        "GET /liff/ (static)": lambda c: c.get(f"{world.relay.url}/liff/"),
    }
    assert world.relay.pid is not None
    inspector = Inspector(world.relay.pid)
    found: dict[str, Any] = {"calls_per_route": calls, "sampling_us": SAMPLING_US}
    try:
        inspector.call("Profiler.enable")
        inspector.call("Profiler.setSamplingInterval", {"interval": SAMPLING_US})
        with httpx.Client(timeout=60) as client:
            for name, route in routes.items():
                for _ in range(5):  # warm-up, unmeasured
                    route(client).raise_for_status()
                inspector.call("Profiler.start")
                started = time.perf_counter()
                for _ in range(calls):
                    route(client).raise_for_status()
                wall = time.perf_counter() - started
                profile = inspector.call("Profiler.stop")["profile"]
                busy = busy_us(profile)
                found[name] = {"cpu_ms_per_call": round(sum(busy.values()) / calls / 1000, 3),
                               **{f"{part}_ms_per_call": round(us / calls / 1000, 3) for part, us in busy.items()},
                               "wall_ms_per_call": round(wall / calls * 1000, 2)}
                say(f"{name}: {found[name]}")
    finally:
        inspector.close()
    return found


# ----- 3. document sizes -----

def document_sizes(root: Path) -> dict[str, Any]:
    """The 30-teacher month's documents, in a data folder of their own."""
    from core.pages import documents
    from core.pages.entry import PageKind
    from core.publication import publish as publication
    from core.publication.image_store import ImageStore
    from core.roster import availability, clock, rules
    from core.roster.availability_text import HOURS, NO, YES, DayAnswer, month_days
    from core.store import setting_keys as keys
    from core.store.bootstrap import open_database
    from core.store.models import ShiftStatus
    from core.store.paths import data_paths

    now = dt.datetime.now(dt.UTC)
    paths = data_paths(root)
    db = open_database(paths)
    try:
        with db.write() as s:
            room = rules.create_classroom(s, name="本町教室")
            today = clock.local_now(now, room.timezone).date()
            teachers = [rules.create_teacher(s, name=f"講師 {n:02d}番", classroom_ids=[room.id],
                                             line_user_id=f"U{n:032x}", line_opt_in=True, now=now) for n in range(1, TEACHERS + 1)]
            days = list(month_days(today.year, today.month))
            for number, day in enumerate(days):
                for slot in range(PER_DAY):
                    teacher = teachers[(number * PER_DAY + slot) % TEACHERS]
                    start = dt.time(14 + slot % 4, 0)
                    rules.add_shift(s, rules.ShiftDraft(classroom_id=room.id, teacher_id=teacher.id, local_date=day,
                                                        start_time=start, end_time=dt.time(start.hour + 4, 30),
                                                        note="", status=ShiftStatus.CONFIRMED), now=now)
            publication.publish(s, room.id, today.year, today.month, now=now, store=ImageStore(paths.images))
            year, month = (today.year + today.month // 12, today.month % 12 + 1)
            request = availability.ask(s, room.id, year, month, today + dt.timedelta(days=10),
                                       [t.id for t in teachers], now=now)
            for n, teacher in enumerate(teachers):
                given = [DayAnswer(d, HOURS, dt.time(16, 0), dt.time(20, 0)) if (d.day + n) % 3 == 0
                         else DayAnswer(d, (YES, NO)[(d.day + n) % 2]) for d in month_days(year, month)]
                availability.record(s, request, teacher.id, given, source=availability.BUTTONS, at=now)
            keys.ALERTS_LINE_USER_ID.write(s, f"U{1:032x}")  # the first teacher is the manager too
        with db.read() as s:
            entries = documents.entries(s, now=now, relay_url="https://relay.example.workers.dev")
    finally:
        db.dispose()
    sizes = {e.key: len(e.body.encode()) for e in entries}
    people = [e for e in entries if e.kind == PageKind.PERSON]
    teachers_only = [e for e in people if json.loads(e.body)["role"] == "teacher"]
    managers = [e for e in people if json.loads(e.body)["role"] == "manager"]
    [classroom] = [e for e in entries if e.kind == PageKind.CLASSROOM]
    largest = max(teachers_only or people, key=lambda e: sizes[e.key])
    found: dict[str, Any] = {"teachers": TEACHERS, "shifts": len(days) * PER_DAY,
             "classroom_month_bytes": sizes[classroom.key],
             "person_bytes_largest_teacher": sizes[largest.key],
             "person_bytes_manager": max((sizes[e.key] for e in managers), default=None),
             "aim_bytes": DOCUMENT_AIM_BYTES}
    measured = [found["classroom_month_bytes"], found["person_bytes_largest_teacher"], found["person_bytes_manager"]]
    found["within_aim"] = all(size <= DOCUMENT_AIM_BYTES for size in measured if size is not None)
    return found


def measure(quick: bool) -> dict[str, Any]:
    why = why_not()
    if why is not None:
        say(f"skipped: {why}")
        return {"skipped": why}
    from tests import liffscene

    with tempfile.TemporaryDirectory(prefix="shiftcast-bench-liff-") as tmp:
        root = Path(tmp)
        with liffscene.standalone(root / "world") as world:
            say(f"relay at {world.relay.url}; first paint")
            report: dict[str, Any] = {"first_paint": first_paint(world, root / "browser",
                                                                 QUICK_LOADS if quick else FULL_LOADS)}
            say("CPU per API call")
            report["api_cpu"] = api_cpu(world, QUICK_CALLS if quick else FULL_CALLS)
            say("document sizes")
            report["documents"] = document_sizes(root / "sizes")
    return report
