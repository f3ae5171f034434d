"""Whole-process start-up, as a classroom manager pays it: each figure is a fresh `main.py` process.

- `--version`, `--help`: the process runs to its end;
- `teachers --json` on a small database already at the current schema: to its end;
- the headless sender's first message: from just before the process is started to the moment the
  LINE emulator (its own process) logged the first push it accepted, both on the host's UTC clock;
  `main.py sender --until-idle` (one drain, then exit) and `main.py sender` (the long-running one);
- the window: `main.py` under QT_QPA_PLATFORM=offscreen until it writes "window shown" to stderr
  (ui/shell/app.py does so only when SHOWN_ENV asks).

The source tree's bytecode is compiled first, as pip and the installer do: without it a machine that sets
PYTHONDONTWRITEBYTECODE would compile every module again in every process, a cost no installed copy pays.

Every figure is the median of `runs` processes, next to the median of a bare `python -c pass` measured
in the same run, so a busy machine shows in both. `python -m tests.perf.startup [--runs N]` runs this
part alone.
"""

from __future__ import annotations

import argparse
import compileall
import datetime as dt
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx

from core.store.bootstrap import open_database
from core.store.db import backup_sqlite
from core.store.models import utcnow
from core.store.paths import DB_URL_ENV, HOME_ENV, data_paths
from tests.linefixtures import make_reminders, user_id
from tests.perf.emulator_process import EmulatorProcess

ROOT = Path(__file__).resolve().parents[2]
SHOWN_ENV = "SHIFTCAST_REPORT_SHOWN"  # read by ui/shell/app.py
SHOWN_LINE = "window shown"
TEACHERS = 20  # "a small database": a classroom's teachers, each with a shift and a reminder
TIMEOUT_S = 60.0

# Targets of the issue "Fast start", in ms of the whole process.
TARGETS_MS = {
    "version": 150.0,
    "help": 150.0,
    "teachers_json": 500.0,
    "sender_until_idle_first_accepted": 700.0,
    "sender_first_accepted": 700.0,
    "window_shown": 1000.0,
}


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in (DB_URL_ENV, SHOWN_ENV)}
    # Never the machine's real keyring: a locked one could prompt or wait.
    return env | {HOME_ENV: str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
                  "QT_QPA_PLATFORM": "offscreen"} | extra


def _run_to_end(argv: list[str], env: dict[str, str]) -> float:
    began = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, timeout=TIMEOUT_S)
    ms = (time.perf_counter() - began) * 1000
    if done.returncode != 0:
        raise AssertionError(f"{argv[1:]} exited with {done.returncode}: {done.stderr.decode()[-500:]}")
    return ms


def _first_accepted_push(base_url: str) -> dt.datetime | None:
    log = httpx.get(f"{base_url}/_emulator/requests", timeout=10.0).json()
    times = [dt.datetime.fromisoformat(r["time"]) for r in log
             if r["path"].endswith("/message/push") and r["status"] == 200]
    return min(times) if times else None


def _sender_run(argv: list[str], env: dict[str, str], emulator: EmulatorProcess, *, until_idle: bool) -> float:
    """ms from just before the process starts to the emulator's first accepted push."""
    emulator.reset()
    started_at = dt.datetime.now(dt.UTC)
    child = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + TIMEOUT_S
    accepted = None
    try:
        while accepted is None and time.monotonic() < deadline:
            if until_idle:
                child.wait(TIMEOUT_S)  # it exits once the outbox is drained
            else:
                time.sleep(0.02)
            accepted = _first_accepted_push(emulator.base_url)
            if accepted is None and child.poll() is not None:
                break
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)  # the sender stops cleanly on SIGTERM
        _, err = child.communicate(timeout=TIMEOUT_S)
    if accepted is None:
        raise AssertionError(f"{argv[1:]}: no push accepted; exit {child.returncode}: {err.decode()[-500:]}")
    return (accepted - started_at).total_seconds() * 1000


def _window_run(argv: list[str], env: dict[str, str]) -> float:
    """ms from just before the process starts to its "window shown" line on stderr."""
    began = time.perf_counter()
    child = subprocess.Popen(argv, cwd=ROOT, env=env | {SHOWN_ENV: "1"}, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    assert child.stderr is not None
    shown_ms = None
    lines = []
    try:
        for line in child.stderr:  # ends when the process closes stderr (exits)
            lines.append(line)
            if SHOWN_LINE in line:
                shown_ms = (time.perf_counter() - began) * 1000
                break
    finally:
        child.kill()  # past the window there is nothing to measure (a first-run dialog would wait)
        child.communicate(timeout=TIMEOUT_S)
    if shown_ms is None:
        raise AssertionError(f"the window never reported shown: {''.join(lines)[-500:]}")
    return shown_ms


def _median(label: str, runs: int, one: Callable[[int], float]) -> dict[str, Any]:
    samples = [one(i) for i in range(runs)]
    print(f"[startup] {label}: {' '.join(f'{s:.0f}' for s in samples)} ms", file=sys.stderr, flush=True)
    return {"median_ms": round(statistics.median(samples)), "all_ms": [round(s) for s in samples]}


def _compile_source() -> None:
    for package in ("core", "cli", "ui"):
        compileall.compile_dir(ROOT / package, quiet=2)
    compileall.compile_file(ROOT / "main.py", quiet=2)


def measure(runs: int = 7) -> dict[str, Any]:
    """Every start-up figure, the median of `runs` processes each, with its ratio to bare python."""
    py, main = sys.executable, "main.py"
    _compile_source()
    out: dict[str, Any] = {"runs_per_figure": runs}
    with tempfile.TemporaryDirectory(prefix="shiftcast-startup-") as tmp:
        root = Path(tmp)
        small = data_paths(root / "small")
        db = open_database(small)
        try:
            make_reminders(db, TEACHERS, now=utcnow())
        finally:
            db.dispose()

        def fresh_home(name: str, i: int) -> Path:
            home = data_paths(root / f"{name}-{i}").home
            backup_sqlite(str(small.database), str(home / "shiftcast.db"))
            return home

        figures: dict[str, dict[str, Any]] = {}
        bare_env = _env(root / "bare")
        figures["bare_python"] = _median("python -c pass", runs, lambda i: _run_to_end([py, "-c", "pass"], bare_env))
        figures["version"] = _median("--version", runs, lambda i: _run_to_end([py, main, "--version"], bare_env))
        figures["help"] = _median("--help", runs, lambda i: _run_to_end([py, main, "--help"], bare_env))
        small_env = _env(small.home)
        figures["teachers_json"] = _median("teachers --json", runs, lambda i: _run_to_end(
            [py, main, "teachers", "--json"], small_env))
        with EmulatorProcess() as emulator:
            emulator.add_users(user_id(n) for n in range(1, TEACHERS + 1))
            line_env = {"SHIFTCAST_LINE_TOKEN": emulator.token, "SHIFTCAST_LINE_API_BASE": emulator.base_url}
            figures["sender_until_idle_first_accepted"] = _median("sender --until-idle", runs, lambda i: _sender_run(
                [py, main, "sender", "--until-idle"], _env(fresh_home("until-idle", i), **line_env), emulator,
                until_idle=True))
            figures["sender_first_accepted"] = _median("sender", runs, lambda i: _sender_run(
                [py, main, "sender"], _env(fresh_home("sender", i), **line_env), emulator, until_idle=False))
        figures["window_shown"] = _median("window shown", runs, lambda i: _window_run(
            [py, main], _env(fresh_home("window", i))))

    bare = figures["bare_python"]["median_ms"]
    for name, figure in figures.items():
        figure["vs_bare_python"] = round(figure["median_ms"] / bare, 1) if bare else None
        if name in TARGETS_MS:
            figure["target_ms"] = TARGETS_MS[name]
            figure["target_met"] = figure["median_ms"] <= TARGETS_MS[name]
    out |= figures
    out["notes"] = ("whole processes from this source tree, its bytecode compiled first; sender figures end at "
                    "the emulator's first accepted push (its request log), the window at its 'window shown' line "
                    "on stderr")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.perf.startup", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="processes per figure; the median is reported")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.runs), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
