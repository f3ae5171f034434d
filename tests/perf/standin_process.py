"""The LINE stand-in (tests/perf/standin_server.py) in a child process, driven through /_standin/….

A child process for the same reason as the emulator's (tests/perf/emulator_process.py): in the
benchmark's process it would share the GIL with the code being measured.
"""

from __future__ import annotations

import subprocess
import sys
from types import TracebackType
from typing import Any, Self

import httpx

from tests.perf.emulator_process import ROOT, TOKEN


class StandinProcess:
    """Same calls as EmulatorProcess where the throughput runs use them: reset, check_exactly_once."""

    name = "standin"

    def __init__(self, token: str = TOKEN) -> None:
        self.token = token
        self._child: subprocess.Popen[str] | None = None
        self.base_url = ""
        self._control: httpx.Client | None = None

    def start(self) -> Self:
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.perf.standin_server", "--port", "0", "--token", self.token],
            cwd=ROOT, stdout=subprocess.PIPE, text=True,
        )
        assert child.stdout is not None
        first = child.stdout.readline()
        if "http://" not in first:
            child.kill()
            raise RuntimeError(f"the LINE stand-in did not start: {first!r}")
        self._child = child
        self.base_url = first[first.index("http://"):].strip()
        self._control = httpx.Client(base_url=self.base_url, timeout=60.0)
        return self

    def stop(self) -> None:
        if self._control is not None:
            self._control.close()
        if self._child is not None:
            self._child.terminate()
            try:
                self._child.wait(10)
            except subprocess.TimeoutExpired:
                # uvicorn waits for open keep-alive connections; the benchmark has no use for that.
                self._child.kill()
                self._child.wait(10)
            if self._child.stdout is not None:
                self._child.stdout.close()
            self._child = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    def _call(self, method: str, name: str, payload: Any = None) -> Any:
        assert self._control is not None, "start() the stand-in first"
        response = self._control.request(method, f"/_standin/{name}", json=payload)
        response.raise_for_status()
        return response.json()

    def reset(self, *, latency_ms: float = 0.0) -> None:
        """Forget accepted messages and retry keys, and set the fixed latency of every answer."""
        self._call("POST", "reset", {"latency_ms": latency_ms})

    def stats(self) -> dict[str, Any]:
        return self._call("GET", "stats")  # type: ignore[no-any-return]

    def cpu_seconds(self) -> float:
        """The stand-in process's CPU so far (user + system), as EmulatorProcess.cpu_seconds."""
        return float(self.stats()["cpuSeconds"])

    def check_exactly_once(self, expected: int) -> dict[str, Any]:
        """`expected` messages accepted, one to each of `expected` recipients; raises otherwise."""
        stats = self.stats()
        if stats["accepted"] != expected or stats["recipients"] != expected or stats["maxPerRecipient"] != 1:
            raise AssertionError(f"expected {expected} messages to {expected} recipients, the stand-in has "
                                 f"accepted={stats['accepted']} recipients={stats['recipients']} "
                                 f"maxPerRecipient={stats['maxPerRecipient']} byStatus={stats['byStatus']}")
        return stats
