"""What keeps slow or idle clients from starving the receiver: a deadline for a request's headers and a
cap on open connections, on uvicorn's h11 protocol (uvicorn has neither of its own).

Slow-header clients ("slowloris") hold a connection each; enough of them used up the process's file
descriptors, after which every accept failed, LINE's posts timed out and each failure logged a traceback.
Here a connection must finish its request's headers within HEADER_TIMEOUT of opening or of its previous
answer, or it is closed. At the cap, a new connection closes the oldest one that is not inside a
request (waiting for headers, or idle between requests), so a real post, which sends its headers at
once, is still taken while the slow ones are let go; a request already being handled is never cut.
The body's own deadline is the application's (core/receiving/server.py answers 408).
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0  # LINE sends its headers at once; a client that needs longer is not LINE
MAX_CONNECTIONS = 256  # LINE posts one batch per request; a few dozen at once is already a lot
# File descriptors the process needs besides the connections: the database and its WAL, the log,
# pipes, the event loop (11 when measured), with room to spare.
RESERVED_FILES = 64
# asyncio accepts up to this many connections per turn of the loop, and keeps accepting for the few
# turns it takes before the cap has closed the connections it let go: the cap keeps half of the files
# left for these.
BACKLOG = 16


def connection_cap(open_file_limit: int | None) -> int:
    """How many connections to keep open at most, under the process's open-file limit (None: no limit)."""
    if open_file_limit is None or open_file_limit <= 0:
        return MAX_CONNECTIONS
    return max(8, min(MAX_CONNECTIONS, (open_file_limit - RESERVED_FILES) // 2))


def open_file_limit() -> int | None:
    """This process's soft limit of open files (None where the OS has none to read)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def guarded_protocol(cap: int, header_timeout: float = HEADER_TIMEOUT) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with the header deadline and the connection cap (for Config(http=…))."""
    order = itertools.count()

    class Guarded(H11Protocol):
        _opened: int
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._opened = next(order)
            if len(self.connections) > cap:
                idle = [c for c in self.connections if isinstance(c, Guarded) and c is not self and not c._busy()
                        and not c.transport.is_closing()]  # one let go already stays listed until the next turn
                if idle:
                    min(idle, key=lambda c: c._opened).transport.close()
                else:  # every other connection is inside a request: this one waits its turn elsewhere
                    transport.close()
                    return
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._busy():
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and not self._busy():  # busy: a pipelined request began
                self._arm()  # the next request's headers get the same deadline

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _busy(self) -> bool:
            """Inside a request: its headers arrived and its answer is not complete yet."""
            return self.cycle is not None and not self.cycle.response_complete

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_timeout, self._headers_too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_too_slow(self) -> None:
            self._header_timer = None
            if not self._busy():
                self.transport.close()

    return Guarded


def server_limits(cap: int) -> dict[str, Any]:
    """uvicorn's own limits to go with the guard (keyword arguments of uvicorn.Config)."""
    return {
        "timeout_keep_alive": 5,  # an idle connection between requests
        # A backstop (503 above it): the guard keeps connections at the cap, and those it let go in this
        # turn of the loop are still counted until the next.
        "limit_concurrency": cap + BACKLOG + 1,
        "backlog": BACKLOG,
        "h11_max_incomplete_event_size": 16 * 1024,  # a request's headers; LINE's are well under 2 KB
    }
