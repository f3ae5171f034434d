"""The LINE stand-in (tests/perf/standin_server.py) in a child process, driven through /_standin/….

A child process for the same reason as the emulator's (tests/perf/emulator_process.py): in the
benchmark's process it would share the GIL with the code being measured.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from tests.perf.emulator_process import ServerProcess


class StandinProcess(ServerProcess):
    """Same calls as EmulatorProcess where the throughput runs use them: reset, check_exactly_once."""

    name = "standin"
    module = "tests.perf.standin_server"
    control = "_standin"
    label = "LINE stand-in"

    def reset(self, *, latency_ms: float = 0.0) -> None:
        """Forget accepted messages and retry keys, and set the fixed latency of every answer."""
        self._call("POST", "reset", {"latency_ms": latency_ms})

    def stats(self) -> dict[str, Any]:
        return self._call("GET", "stats")

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

    def accepted_at(self) -> dict[str, dt.datetime]:
        """recipient → when the stand-in accepted the (last) message to it, on the host's UTC clock."""
        return {item["recipient"]: dt.datetime.fromtimestamp(item["acceptedAt"], dt.UTC)
                for item in self._call("GET", "accepted")}
