"""A minimal HTTP/1.1 server protocol on asyncio: keep-alive, pipelining, Content-Length bodies.

Written by hand rather than on http.server because a thread per connection cannot keep up with a
benchmark of the sender, and the emulator must never be the bottleneck. Only what LINE's API uses is
supported: requests with a Content-Length body (or none); a chunked body is answered 411 and the
connection closed, since its end cannot be found without decoding it.

The application answers each request synchronously with an Outcome. Slow answers are expressed as
Later(delay, then) and run as a task, so a hanging request never blocks other connections; responses on
one connection still leave in request order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import formatdate
from typing import Protocol

log = logging.getLogger(__name__)

MAX_HEAD_BYTES = 64 * 1024
MAX_BODY_BYTES = 2 * 1024 * 1024  # LINE's request size limit; larger bodies are never buffered
# While an answer is pending, stop reading once this much is buffered (a client pipelining without end).
_PAUSE_AT = 4 * MAX_BODY_BYTES

REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    411: "Length Required",
    413: "Request Entity Too Large",
    415: "Unsupported Media Type",
    429: "Too Many Requests",
    431: "Request Header Fields Too Large",
    500: "Internal Server Error",
    505: "HTTP Version Not Supported",
}


@dataclass(slots=True)
class Request:
    method: str
    target: str
    path: str
    query: str
    headers: dict[str, str]  # names lower-cased; a repeated header keeps its last value
    body: bytes = b""
    keep_alive: bool = True
    # Declared Content-Length above MAX_BODY_BYTES: the body is skipped, never read into memory.
    too_large: bool = False
    # A framing problem found by the parser: (status, message). The connection closes after the answer.
    error: tuple[int, str] | None = None


@dataclass(slots=True)
class Response:
    status: int
    body: bytes
    headers: list[tuple[str, str]] = field(default_factory=list)
    close: bool = False


@dataclass(slots=True)
class Hangup:
    """End the connection without an answer. reset=True aborts with an RST instead of a FIN."""

    reset: bool = False


@dataclass(slots=True)
class Later:
    delay: float
    then: Callable[[], Outcome]


Outcome = Response | Hangup | Later


class Application(Protocol):
    def handle(self, request: Request) -> Outcome: ...

    def crashed(self) -> Response:
        """The answer when handle() or a Later step raised: a bug must cost one answer, not the server."""
        ...


_date_cache: tuple[int, str] = (0, "")


def _http_date() -> str:
    global _date_cache
    now = int(time.time())
    if _date_cache[0] != now:
        _date_cache = (now, formatdate(now, usegmt=True))
    return _date_cache[1]


def encode(response: Response, keep_alive: bool) -> bytes:
    lines = [
        f"HTTP/1.1 {response.status} {REASONS.get(response.status, 'Unknown')}",
        f"Date: {_http_date()}",
        "Content-Type: application/json",
        f"Content-Length: {len(response.body)}",
    ]
    lines.extend(f"{name}: {value}" for name, value in response.headers)
    if not keep_alive:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + response.body


class HttpConnection(asyncio.Protocol):
    def __init__(self, app: Application, registry: set[HttpConnection]) -> None:
        self._app = app
        self._registry = registry
        self._transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._queue: deque[Request] = deque()
        self._partial: Request | None = None  # headers read, body still arriving
        self._body_left = 0
        self._parsing = True  # False after a framing error: nothing after it can be trusted
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._eof = False
        self._paused = False

    # ----- asyncio callbacks -----

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        # asyncio only disables Nagle when the listening socket says IPPROTO_TCP, which a socket from
        # socket.create_server does not; without it pipelined answers wait ~40 ms for delayed ACKs.
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._registry.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        self._registry.discard(self)
        if self._task is not None:
            # Whatever was waiting (latency, a hang) has no one to answer to any more.
            self._task.cancel()
            self._task = None
        self._queue.clear()

    def data_received(self, data: bytes) -> None:
        if self._closed or not self._parsing:
            return
        self._buffer += data
        self._parse()
        self._pump()
        if self._task is not None and len(self._buffer) > _PAUSE_AT and self._transport and not self._paused:
            self._transport.pause_reading()
            self._paused = True

    def eof_received(self) -> bool:
        self._eof = True
        # Keep the write side open while answers are still owed; _pump closes once they are sent.
        return self._task is not None or bool(self._queue)

    def close(self) -> None:
        if self._transport is not None and not self._closed:
            self._transport.close()

    # ----- parsing -----

    def _parse(self) -> None:
        buf = self._buffer
        while self._parsing:
            if self._partial is not None:
                request = self._partial
                if request.too_large:
                    skipped = min(len(buf), self._body_left)
                    del buf[:skipped]
                    self._body_left -= skipped
                    if self._body_left:
                        return
                    self._partial = None  # already queued when its headers arrived
                    continue
                if len(buf) < self._body_left:
                    return
                request.body = bytes(buf[: self._body_left])
                del buf[: self._body_left]
                self._partial = None
                self._queue.append(request)
                continue
            while buf[:2] == b"\r\n":  # RFC 9112 §2.2: ignore empty lines before a request line
                del buf[:2]
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                if len(buf) > MAX_HEAD_BYTES:
                    self._fail(431, "Request header fields too large")
                return
            if end > MAX_HEAD_BYTES:
                self._fail(431, "Request header fields too large")
                return
            head = bytes(buf[:end]).decode("latin-1")
            del buf[: end + 4]
            self._read_head(head)

    def _read_head(self, head: str) -> None:
        request_line, *header_lines = head.split("\r\n")
        parts = request_line.split(" ")
        if len(parts) != 3 or not parts[0] or not parts[1].startswith("/"):
            self._fail(400, "Malformed request line")
            return
        method, target, version = parts
        if version not in ("HTTP/1.1", "HTTP/1.0"):
            self._fail(505 if version.startswith("HTTP/") else 400, "Only HTTP/1.1 is supported")
            return
        headers: dict[str, str] = {}
        for line in header_lines:
            name, sep, value = line.partition(":")
            if not sep or not name or name[-1] in " \t":
                self._fail(400, "Malformed header line")
                return
            name = name.lower()
            value = value.strip()
            if name == "content-length" and headers.get(name, value) != value:
                self._fail(400, "Conflicting Content-Length headers")
                return
            headers[name] = value
        path, _, query = target.partition("?")
        # HTTP/1.0 clients get one answer per connection: simpler than echoing Connection: keep-alive.
        keep_alive = version == "HTTP/1.1" and "close" not in headers.get("connection", "").lower()
        request = Request(method, target, path, query, headers, keep_alive=keep_alive)
        if "transfer-encoding" in headers:
            self._fail(411, "Chunked request bodies are not supported; send Content-Length", request)
            return
        length_text = headers.get("content-length")
        length = 0
        if length_text is not None:
            if not length_text.isdigit() or len(length_text) > 18:
                self._fail(400, "Invalid Content-Length", request)
                return
            length = int(length_text)
        expects_continue = headers.get("expect", "").lower() == "100-continue"
        if length > MAX_BODY_BYTES:
            # Queued now, so the 413 can leave before the body has even arrived; the body is skipped.
            request.too_large = True
            self._queue.append(request)
            if expects_continue:
                # The client waits for us and will never send the body: answer, then close.
                request.keep_alive = False
                self._parsing = False
                self._buffer.clear()
            else:
                self._partial, self._body_left = request, length
        elif length:
            self._partial, self._body_left = request, length
            if expects_continue and not self._queue and self._task is None and self._transport is not None:
                # curl asks before sending bodies over 1 MB; with answers still owed it simply waits.
                self._transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        else:
            self._queue.append(request)

    def _fail(self, status: int, message: str, request: Request | None = None) -> None:
        if request is None:
            request = Request("", "", "", "", {})
        request.error = (status, message)
        request.keep_alive = False
        self._queue.append(request)
        self._parsing = False
        self._buffer.clear()

    # ----- answering -----

    def _pump(self) -> None:
        while self._queue and self._task is None and not self._closed:
            request = self._queue.popleft()
            try:
                outcome = self._app.handle(request)
            except Exception:
                log.exception("emulator handler failed")
                outcome = self._app.crashed()
            if isinstance(outcome, Later):
                self._task = asyncio.get_running_loop().create_task(self._settle(request, outcome))
                return
            self._finish(request, outcome)
        if self._paused and self._task is None and self._transport is not None and not self._closed:
            self._paused = False
            self._transport.resume_reading()
        if self._eof and self._task is None and not self._queue:
            self.close()

    async def _settle(self, request: Request, outcome: Outcome) -> None:
        try:
            while isinstance(outcome, Later):
                await asyncio.sleep(outcome.delay)
                outcome = outcome.then()
        except asyncio.CancelledError:
            return
        except Exception:
            log.exception("emulator handler failed")
            outcome = self._app.crashed()
        self._task = None
        self._finish(request, outcome)
        self._pump()

    def _finish(self, request: Request, outcome: Response | Hangup) -> None:
        transport = self._transport
        if transport is None or self._closed:
            return
        if isinstance(outcome, Hangup):
            self._closed = True
            if outcome.reset:
                _abort_with_rst(transport)
            else:
                transport.close()
            return
        keep_alive = request.keep_alive and not outcome.close
        transport.write(encode(outcome, keep_alive))
        if not keep_alive:
            self._closed = True
            transport.close()


def _abort_with_rst(transport: asyncio.Transport) -> None:
    # SO_LINGER with a zero timeout makes close() send RST, like a peer or middlebox dropping the flow.
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()
