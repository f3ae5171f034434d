"""The LINE emulator in a child process, driven through its control API.

A child process, not the in-process `LineEmulator`: the emulator would otherwise share the GIL with
the code being measured and every figure would include its CPU time.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import httpx

ROOT = Path(__file__).resolve().parents[2]  # the folder that holds the core package
TOKEN = "bench-channel-token-0123456789abcdef"


class ServerProcess:
    """A LINE server started as `python -m MODULE --port 0 --token T`; the port it picked is read from
    its first line, and it is driven through its control API under `/CONTROL/`."""

    module = ""
    control = ""
    label = ""

    def __init__(self, token: str = TOKEN) -> None:
        self.token = token
        self._child: subprocess.Popen[str] | None = None
        self.base_url = ""
        self._control: httpx.Client | None = None

    def command(self) -> list[str]:
        return [sys.executable, "-m", self.module, "--port", "0", "--token", self.token]

    def start(self) -> Self:
        child = subprocess.Popen(self.command(), cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        first = child.stdout.readline()
        if "http://" not in first:
            child.kill()
            raise RuntimeError(f"the {self.label} did not start: {first!r}")
        self._child = child
        self.base_url = first[first.index("http://"):].strip()
        self._control = httpx.Client(base_url=self.base_url, timeout=60.0)
        return self

    @property
    def pid(self) -> int:
        assert self._child is not None, f"start() the {self.label} first"
        return self._child.pid

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
        assert self._control is not None, f"start() the {self.label} first"
        response = self._control.request(method, f"/{self.control}/{name}", json=payload)
        response.raise_for_status()
        return response.json()


class EmulatorProcess(ServerProcess):
    """`python -m core.emulator`: the project's own LINE emulator."""

    module = "core.emulator"
    control = "_emulator"
    label = "emulator"

    # ----- control API -----

    def add_users(self, user_ids: Iterable[str]) -> None:
        for user_id in user_ids:
            self._call("POST", "users", {"userId": user_id, "displayName": f"講師 {user_id[-5:]}", "friend": True})

    def lift_rate_limits(self) -> None:
        # LINE's 2,000 push/s would otherwise decide the result; the peers do not handle 429 at all.
        self._call("POST", "rate-limit", {"endpoint": "push", "perSecond": None})

    def reset(self, *, latency_ms: float = 0.0) -> None:
        """Forget traffic (users stay, see core/emulator/state.py) and set the injected latency."""
        self._call("POST", "reset")
        self._call("POST", "faults", {"latency_ms": latency_ms})

    def stats(self) -> dict[str, Any]:
        return self._call("GET", "stats")

    def inbox(self) -> list[dict[str, Any]]:
        return self._call("GET", "inbox")

    def cpu_seconds(self) -> float:
        return float(self.stats()["cpuSeconds"])

    def check_exactly_once(self, expected: int) -> dict[str, Any]:
        """The inbox holds `expected` messages, one per recipient; raises otherwise."""
        stats = self.stats()
        recipients = {item["recipient"] for item in self.inbox()}
        if stats["delivered"] != expected or stats["accepted"] != expected or len(recipients) != expected:
            raise AssertionError(f"expected {expected} messages to {expected} recipients, the emulator has "
                                 f"delivered={stats['delivered']} accepted={stats['accepted']} "
                                 f"recipients={len(recipients)} byStatus={stats['byStatus']}")
        return stats

    def accepted_at(self) -> dict[str, dt.datetime]:
        """recipient → when the emulator accepted the (single) message to it, on the host's UTC clock."""
        return {item["recipient"]: dt.datetime.fromisoformat(item["acceptedAt"]) for item in self.inbox()}
