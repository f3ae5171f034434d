"""The window while the sender drains: the longest event-loop stall with the Deliveries view open,
and how long the window takes to start (from source, and the frozen build when `make dist` made one).

A 5 ms QTimer ticks on the UI thread; a stall is how much later than scheduled a tick ran. The
sender runs on its own threads as in the app, its events reach the Deliveries view through the
coalescing bridge, and the run ends when the view shows every delivery as sent.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from core.store.db import Database
from core.store.models import DeliveryStatus
from core.store.paths import data_paths
from tests.perf.emulator_process import EmulatorProcess
from tests.perf.shiftcast_run import line_access
from tests.perf.workload import paths_of

TICK_MS = 5
LAST_BIG_GAPS: list[tuple[int, float]] = []  # for investigating a run: (tick number, stall ms)
ROOT = Path(__file__).resolve().parents[2]


def stall_while_draining(db: Database, emulator: EmulatorProcess, *, count: int,
                         timeout: float = 300.0) -> dict[str, Any]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from core.sending.engine import WINDOW_SEND_THREADS
    from core.sending.sender import Sender, SenderConfig
    from ui.services.bridge import CoreBridge
    from ui.services.context import AppContext
    from ui.services.tasks import Tasks
    from ui.shell.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    paths = data_paths(Path(db.url.removeprefix("sqlite:///")).parent)
    ctx = AppContext(paths=paths, db=db, tasks=Tasks(), bridge=CoreBridge(db.events))
    clock = QElapsedTimer()
    clock.start()
    window = MainWindow(ctx)
    window.resize(1280, 800)
    window.show()
    window.tabs.setCurrentWidget(window.deliveries)
    deadline = time.monotonic() + 30
    while ctx.tasks.pending and time.monotonic() < deadline:
        app.processEvents()
    window_ms = clock.elapsed()
    from ui.shell.gc_tuning import tune_for_interactivity

    tune_for_interactivity(app)  # as ui/shell/app.py does once the window is up

    gaps: list[float] = []
    last = [clock.nsecsElapsed()]

    def tick() -> None:
        now = clock.nsecsElapsed()
        gaps.append((now - last[0]) / 1e6 - TICK_MS)
        last[0] = now

    ticker = QTimer()
    ticker.setInterval(TICK_MS)
    ticker.timeout.connect(tick)
    access = line_access(emulator.base_url, emulator.token)
    # The window's own sender settings: fewer sending threads than the headless sender (core/sending/engine.py).
    sender = Sender(db, connect={"line": lambda: access}, paths=paths_of(db), config=SenderConfig(concurrency=WINDOW_SEND_THREADS))
    ctx.bridge.attach(sender.events)
    model = window.deliveries.model

    def all_sent_in_view() -> bool:
        return sender.stats.sent >= count and model.counts[DeliveryStatus.SENT.value] >= count

    # A real event loop, as app.exec() runs it: it waits in the platform's dispatcher (GIL released)
    # and wakes for timers and queued signals, so the figure is what a manager would feel.
    loop = QEventLoop()
    watcher = QTimer()
    watcher.setInterval(50)
    deadline = time.monotonic() + timeout
    watcher.timeout.connect(lambda: loop.quit() if all_sent_in_view() or time.monotonic() > deadline else None)
    started = time.perf_counter()
    last[0] = clock.nsecsElapsed()
    ticker.start()
    watcher.start()
    sender.start()
    loop.exec()
    watcher.stop()
    drained_s = time.perf_counter() - started
    ticker.stop()
    sender.stop()
    ctx.tasks.wait()
    window.hide()
    window.deleteLater()
    app.processEvents()
    global LAST_BIG_GAPS
    LAST_BIG_GAPS = [(i, round(g, 1)) for i, g in enumerate(gaps) if g > 40]
    stalls = sorted(max(g, 0.0) for g in gaps)
    return {
        "deliveries": count,
        "send_threads": WINDOW_SEND_THREADS,
        "sent": sender.stats.sent,
        "drain_seconds": round(drained_s, 2),
        "ticks": len(gaps),
        "longest_stall_ms": round(stalls[-1], 1) if stalls else None,
        "p99_stall_ms": round(stalls[int(len(stalls) * 0.99) - 1], 1) if len(stalls) > 100 else None,
        "target_longest_stall_ms": 50,
        "target_met": bool(stalls) and stalls[-1] < 50,
        "window_ready_ms": window_ms,
        "notes": "stall = how late a 5 ms UI-thread timer fired while the sender drained; window_ready_ms = "
                 "MainWindow built, shown and its first background loads delivered",
    }


def startup(executable: list[str], runs: int = 3) -> dict[str, Any]:
    """`--smoke`: the whole GUI starts, shows the window, prints its start-up time and exits."""
    reported, walls = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="shiftcast-smoke-") as home:
            began = time.perf_counter()
            done = subprocess.run([*executable, "--home", home, "--smoke"], capture_output=True, text=True,
                                  timeout=120, cwd=ROOT, env=os.environ | {"QT_QPA_PLATFORM": "offscreen"})
            walls.append((time.perf_counter() - began) * 1000)
        if done.returncode != 0:
            return {"error": done.stderr.strip().splitlines()[-1:] or ["exit code " + str(done.returncode)]}
        reported.append(json.loads(done.stdout.strip().splitlines()[-1])["startup_ms"])
    return {"startup_ms_median": statistics.median(reported), "process_wall_ms_median": round(statistics.median(walls))}


def startup_figures() -> dict[str, Any]:
    figures = {"source": startup([sys.executable, "main.py"])}
    frozen = ROOT / "dist" / "shiftcast" / "shiftcast"
    figures["frozen"] = startup([str(frozen)]) if frozen.exists() else {"skipped": "no dist/ build (make dist)"}
    return figures
