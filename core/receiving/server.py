"""The webhook receiver: one Starlette route on uvicorn, on loopback unless told otherwise.

POST /line/webhook: the signature is checked on the raw body before anything is parsed (401 and
nothing recorded when it is missing or wrong, or when no LINE channel secret is set: a receiver started
for LINE WORKS alone, whose callback checks its own signature); a body over 1 MB is refused (413) from its
Content-Length, or as soon as a chunked body passes the limit, without reading the rest; a body that
has not arrived within BODY_DEADLINE is refused (408) and its connection closed; the events are
committed once each and the answer is 200 at once. The handlers run afterwards, on the dispatcher's
thread (core/receiving/handlers.py), so LINE never waits for them. Slow headers and too many
connections are the guard's (core/receiving/guard.py).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

from core.errors import ShiftcastError, ValidationError
from core.receiving import bodies, events, line_works_callback, signature
from core.receiving.handlers import Dispatcher, EventHandler
from core.store.db import Database
from core.texts import t

log = logging.getLogger(__name__)
PATH = "/line/webhook"
MAX_BODY_BYTES = 1024 * 1024
BODY_DEADLINE = 10.0  # seconds for the whole body; LINE's are a few kilobytes, sent at once
DEFAULT_HOST = "127.0.0.1"
_START_TIMEOUT = 30.0
Clock = Callable[[], dt.datetime]



def listening_socket(host: str, port: int, family: socket.AddressFamily) -> socket.socket:
    """A listening socket that names TCP. asyncio turns Nagle's algorithm off only on connections whose
    socket says it is TCP; `socket.create_server` leaves the protocol 0, and each answer then waited
    about 40 ms for the client's delayed ACK (docs/performance.md, the relay section)."""
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        if os.name != "nt":  # as create_server does: a restart may bind again at once
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen()
    except BaseException:
        sock.close()
        raise
    return sock

class ReceiverError(ShiftcastError):
    pass


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def build_app(db: Database, secret: str | None, *, clock: Clock = _utc_now, body_deadline: float = BODY_DEADLINE) -> Any:
    """The Starlette application (typed Any: Starlette is imported here, when a receiver is made)."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    def store(raw: list[dict[str, Any]]) -> int:
        with db.write() as session:
            return events.record(session, raw, now=clock())

    async def webhook(request: Request) -> Response:
        raw = await bodies.read_limited(request, max_bytes=MAX_BODY_BYTES, deadline=body_deadline)
        if not isinstance(raw, bytes):
            return raw  # type: ignore[no-any-return]
        if not secret or not signature.verify(secret, raw, request.headers.get("x-line-signature")):
            return JSONResponse({"message": "invalid signature"}, status_code=401)
        try:
            parsed = events.parse_body(raw)
        except ValidationError as exc:
            return JSONResponse({"message": str(exc)}, status_code=400)
        if parsed:
            await run_in_threadpool(store, parsed)
        return JSONResponse({})

    return Starlette(routes=[Route(PATH, webhook, methods=["POST"]),
                             line_works_callback.route(db, clock=clock, max_bytes=MAX_BODY_BYTES, deadline=body_deadline)])


class WebhookReceiver:
    """The receiver and its handlers' dispatcher, on daemon threads; start() returns once it listens."""

    def __init__(self, db: Database, secret: str | None, *, host: str = DEFAULT_HOST, port: int = 0,
                 handlers: Sequence[EventHandler] | None = None, clock: Clock = _utc_now) -> None:
        """`secret`: LINE's channel secret; None: LINE's route refuses every request (LINE WORKS alone)."""
        if handlers is None:
            from core.receiving import pairing

            handlers = pairing.standard_handlers(pairing.line_from_settings(db))
        self.db = db
        self.host = host
        self._requested_port = port
        self._app = build_app(db, secret, clock=clock)
        self.dispatcher = Dispatcher(db, handlers, clock=clock)
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._port: int | None = None

    def start(self) -> WebhookReceiver:
        import uvicorn

        from core.receiving import guard

        if self._thread is not None:
            raise RuntimeError("the receiver is already started")
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        try:
            sock = listening_socket(self.host, self._requested_port, family)
        except OSError as exc:
            raise ReceiverError(t("receiving.cannot_listen", address=f"{self.host}:{self._requested_port}",
                                  detail=str(exc.strerror or exc))) from None
        self._port = sock.getsockname()[1]
        # log_config=None: uvicorn must not replace the app's logging set-up (core/logs.py) with its own.
        cap = guard.connection_cap(guard.open_file_limit())
        config = uvicorn.Config(self._app, log_config=None, log_level="warning", lifespan="off", access_log=False,
                                server_header=False, timeout_graceful_shutdown=5, http=guard.guarded_protocol(cap),
                                **guard.server_limits(cap))
        self._server = server = uvicorn.Server(config)
        self.dispatcher.start()
        self._thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])),
                                        name="webhook-receiver", daemon=True)
        self._thread.start()
        # uvicorn says it listens only through this flag; the socket is bound already, so this is short.
        waited = threading.Event()
        deadline = time.monotonic() + _START_TIMEOUT
        while not (server.started or server.should_exit) and self._thread.is_alive() and time.monotonic() < deadline:
            waited.wait(0.005)
        if not server.started:
            self.stop()
            raise ReceiverError(t("receiving.not_started", address=f"{self.host}:{self._port}"))
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(_START_TIMEOUT)
            self._thread = None
        self._server = None
        self.dispatcher.stop()

    def __enter__(self) -> WebhookReceiver:
        return self if self._thread is not None else self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("start() the receiver first")
        return self._port

    @property
    def url(self) -> str:
        return self.url_of(PATH)

    def url_of(self, path: str) -> str:
        """The local address of one of its routes (LINE's webhook, LINE WORKS' callback)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}{path}"
