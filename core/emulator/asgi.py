"""The emulator as a bare ASGI application: an HTTP request in, the handlers' Outcome out.

Bare rather than on Starlette: the emulator routes by itself, because LINE's 404/405 answers, the
order of its checks and a request-log entry for every request are part of what it emulates; a
framework's router in front would be a second route table that decides nothing. (It would cost
little: docs/performance.md, "Emulator on uvicorn".)

Handlers are synchronous and take the state lock only briefly, so they run on the event loop, except
those that may wait on the bot's webhook endpoint (Application.blocks), which run on a worker thread.
A Later waits with an asyncio sleep, never holding up other requests, and gives up when the client
goes away meanwhile. A Hangup needs the connection itself, which ASGI does not expose: the server
(core/emulator/server.py) keeps each one's transport by client address in a Connections map.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from core.emulator.exchange import MAX_BODY_BYTES, Application, Hangup, Later, Outcome, Request, Response

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
# (client host, client port) → the connection's transport, as uvicorn names the client in the scope.
Connections = dict[tuple[str, int], asyncio.Transport]

_JSON = (b"content-type", b"application/json")
_CLOSE = (b"connection", b"close")
_CHUNKED = "Chunked request bodies are not supported; send Content-Length"
# After a hang-up, how long to wait for the server to see the connection gone before moving on.
_GONE_WAIT = 5.0


class AsgiEmulator:
    def __init__(self, app: Application, connections: Connections) -> None:
        self._app = app
        self._connections = connections

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        request = _request(scope)
        if request.error is None and not request.too_large and request.headers.get("content-length", "0") != "0":
            body = await _read_body(receive)
            if body is None:
                return  # the client left before its body arrived
            request.body = body
        if self._app.blocks(request):
            outcome = await asyncio.get_running_loop().run_in_executor(None, self._step, lambda: self._app.handle(request))
        else:
            outcome = self._step(lambda: self._app.handle(request))
        while isinstance(outcome, Later):
            if not await _wait_unless_gone(outcome.delay, receive):
                return  # nobody is waiting for the answer any more, so nothing after the delay happens
            outcome = self._step(outcome.then)
        if isinstance(outcome, Hangup):
            await self._hang_up(scope, outcome.reset, receive)
            return
        await _send(send, outcome, keep_alive=request.keep_alive)

    def _step(self, step: Callable[[], Outcome]) -> Outcome:
        try:
            return step()
        except Exception:
            log.exception("emulator handler failed")
            return self._app.crashed()

    async def _hang_up(self, scope: Scope, reset: bool, receive: Receive) -> None:
        client = scope.get("client")
        transport = self._connections.get((client[0], client[1])) if client else None
        if transport is None:
            return
        if reset:
            # SO_LINGER with a zero timeout makes close() send RST, like a peer or middlebox dropping the flow.
            sock = transport.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            transport.abort()
        else:
            transport.close()
        # Returning before the server has seen the connection lost would make it answer 500 instead.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_until_gone(receive), _GONE_WAIT)


def _request(scope: Scope) -> Request:
    # uvicorn has lower-cased the names; a repeated header keeps its last value, as LINE's checks expect.
    headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}
    # The raw path: IDs in it are checked as sent, not after percent-decoding.
    path = scope["raw_path"].decode("latin-1") if scope.get("raw_path") else scope["path"]
    query = scope["query_string"].decode("latin-1")
    request = Request(scope["method"], f"{path}?{query}" if query else path, path, query, headers)
    if "transfer-encoding" in headers:
        # Kept from before the server decoded chunked bodies: LINE's clients always send Content-Length.
        request.error = (411, _CHUNKED)
        request.keep_alive = False
        return request
    length = headers.get("content-length")
    if length is not None and int(length) > MAX_BODY_BYTES:  # the server has checked it is a number
        request.too_large = True
        if headers.get("expect", "").lower() == "100-continue":
            # The client waits for a 100 that never comes and will not send the body: answer, then close.
            request.keep_alive = False
    return request


async def _read_body(receive: Receive) -> bytes | None:
    message = await receive()
    if message["type"] == "http.disconnect":
        return None
    first: bytes = message.get("body", b"")
    if not message.get("more_body"):
        return first  # the usual case: the whole body in one message
    chunks = [first]
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


async def _until_gone(receive: Receive) -> None:
    # Body chunks of a request that was not read (413) are skipped on the way.
    while (await receive())["type"] != "http.disconnect":
        pass


async def _wait_unless_gone(delay: float, receive: Receive) -> bool:
    """Sleep `delay` seconds; False as soon as the client disconnects meanwhile."""
    gone = asyncio.ensure_future(_until_gone(receive))
    try:
        done, _ = await asyncio.wait((gone,), timeout=delay)
    finally:
        gone.cancel()
    return not done


async def _send(send: Send, response: Response, *, keep_alive: bool) -> None:
    # JSON unless the handler says otherwise (the LIFF SDK stand-in is JavaScript).
    typed = any(name.lower() == "content-type" for name, _ in response.headers)
    headers = [] if typed else [_JSON]
    headers.append((b"content-length", str(len(response.body)).encode("latin-1")))
    headers.extend((name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in response.headers)
    if response.close or not keep_alive:
        headers.append(_CLOSE)
    await send({"type": "http.response.start", "status": response.status, "headers": headers})
    await send({"type": "http.response.body", "body": response.body})
