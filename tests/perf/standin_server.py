"""A LINE stand-in for the benchmark, independent of core/emulator: Starlette under uvicorn.

`python -m tests.perf.standin_server --port 0 --token T` prints `listening on http://127.0.0.1:PORT`
and serves until SIGTERM. It answers what the sender calls (push, multicast) and the
read endpoints a starting engine asks for (bot info, quota, quota consumption, profile), in the
shapes of LINE's OpenAPI (shared reference: messaging-api.yml). It does not share a line of code with
the project's emulator, so a figure measured against both says whether a result is the emulator's.

Kept deliberately plain, as an ordinary web service on a common stack is: no validation beyond what
LINE's answers depend on (auth, retry key, `to`), no users, no quota, no rate limits. An optional
fixed latency is an `asyncio.sleep` before the answer, so slow answers never hold up other requests.

/_standin/… (no auth, loopback only) resets the counters and sets the latency, and reports how many
messages each recipient got, which the benchmark's exactly-once check reads, and when each was
accepted (the host's clock), which the relay's due-to-sent figure reads.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import re
import socket
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

RETRY_KEY_ACCEPTED = "The retry key is already accepted"  # LINE's wording for the 409
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


@dataclass(frozen=True, slots=True)
class _Accepted:
    request_id: str
    sent_messages: list[dict[str, str]] | None  # push only: LINE repeats them in the 409 body


@dataclass
class StandinState:
    """Everything the stand-in remembers. One event loop, so no lock: handlers never await between
    reading and updating it."""

    token: str
    latency_s: float = 0.0
    # Accepted retry keys. LINE keeps them 24 hours; a benchmark run is minutes, so never expired.
    keys: dict[str, _Accepted] = field(default_factory=dict)
    per_recipient: Counter[str] = field(default_factory=Counter)
    # (recipient, host UTC seconds) of every accepted message, for a delay measured against a trigger
    accepted_at: list[tuple[str, float]] = field(default_factory=list)
    by_status: Counter[int] = field(default_factory=Counter)
    requests: int = 0
    _message_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(500_000_000_000_000_000))

    def reset(self, latency_ms: float) -> None:
        self.latency_s = max(latency_ms, 0.0) / 1000
        self.keys.clear()
        self.per_recipient.clear()
        self.accepted_at.clear()
        self.by_status.clear()
        self.requests = 0

    def next_message(self) -> dict[str, str]:
        number = next(self._message_ids)
        # LINE's ids are decimal strings of about 18 digits; the quote token is opaque.
        return {"id": str(number), "quoteToken": f"q{number:x}"}

    def stats(self) -> dict[str, Any]:
        counts = self.per_recipient.values()
        return {
            "accepted": sum(counts),
            "recipients": len(self.per_recipient),
            "maxPerRecipient": max(counts, default=0),
            "requests": self.requests,
            "byStatus": {str(k): v for k, v in sorted(self.by_status.items())},
            "latencyMs": self.latency_s * 1000,
            # This process's CPU so far; two readings around a run give what the server cost during it.
            "cpuSeconds": time.process_time(),
        }


def _answer(state: StandinState, status: int, body: dict[str, Any], request_id: str,
            headers: dict[str, str] | None = None) -> Response:
    state.by_status[status] += 1
    return JSONResponse(body, status_code=status, headers={"X-Line-Request-Id": request_id} | (headers or {}))


def _refusal(state: StandinState, request: Request, request_id: str) -> Response | None:
    """401 for a wrong token and 400 for a malformed retry key, as LINE answers before anything else."""
    state.requests += 1
    if request.headers.get("authorization") != f"Bearer {state.token}":
        return _answer(state, 401, {"message": "Authentication failed due to the following reason: invalid token. "
                                               "Confirm that the access token in the authorization header is valid."},
                       request_id)
    key = request.headers.get("x-line-retry-key")
    if key is not None and not _UUID.fullmatch(key):
        return _answer(state, 400, {"message": "The retry key is not a valid UUID"}, request_id)
    return None


async def _body(request: Request) -> dict[str, Any] | None:
    try:
        value = json.loads(await request.body())
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def make_app(state: StandinState) -> Starlette:
    async def send(request: Request, multicast: bool) -> Response:
        request_id = str(uuid.uuid4())
        refused = _refusal(state, request, request_id)
        if refused is not None:
            return refused
        body = await _body(request)
        to = body.get("to") if body else None
        messages = body.get("messages") if body else None
        recipients = to if multicast and isinstance(to, list) else [to] if isinstance(to, str) else []
        if not recipients or not all(isinstance(r, str) for r in recipients) or not isinstance(messages, list) \
                or not 1 <= len(messages) <= 5:
            return _answer(state, 400, {"message": "The request body has 1 error(s)"}, request_id)
        if state.latency_s:
            await asyncio.sleep(state.latency_s)
        key = request.headers.get("x-line-retry-key")
        # Looked up after the sleep: a retry sent while the first attempt is still in flight must
        # see it accepted, as it would if LINE had accepted it by then.
        prior = state.keys.get(key) if key is not None else None
        if prior is not None:
            extra = {"sentMessages": prior.sent_messages} if prior.sent_messages is not None else {}
            return _answer(state, 409, {"message": RETRY_KEY_ACCEPTED} | extra, request_id,
                           {"X-Line-Accepted-Request-Id": prior.request_id})
        sent = None if multicast else [state.next_message() for _ in messages]
        if key is not None:
            state.keys[key] = _Accepted(request_id, sent)
        accepted = time.time()
        for recipient in recipients:
            state.per_recipient[recipient] += len(messages)
            state.accepted_at.append((recipient, accepted))
        # Push answers with the sent messages; multicast with an empty object (LINE's OpenAPI).
        return _answer(state, 200, {"sentMessages": sent} if sent is not None else {}, request_id)

    async def push(request: Request) -> Response:
        return await send(request, multicast=False)

    async def multicast(request: Request) -> Response:
        return await send(request, multicast=True)

    def read(answer: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            request_id = str(uuid.uuid4())
            refused = _refusal(state, request, request_id)
            if refused is not None:
                return refused
            value = answer(request) if callable(answer) else answer
            return _answer(state, 200, value, request_id)
        return endpoint

    async def control_reset(request: Request) -> Response:
        options = await _body(request) or {}
        state.reset(float(options.get("latency_ms") or 0.0))
        return JSONResponse({"latencyMs": state.latency_s * 1000})

    async def control_stats(_: Request) -> Response:
        return JSONResponse(state.stats())

    async def control_counts(_: Request) -> Response:
        return JSONResponse(dict(state.per_recipient))

    async def control_accepted(_: Request) -> Response:
        return JSONResponse([{"recipient": recipient, "acceptedAt": at} for recipient, at in state.accepted_at])

    bot = {"userId": "U" + "0" * 32, "basicId": "@standin", "displayName": "Shiftcast stand-in",
           "chatMode": "bot", "markAsReadMode": "auto"}
    return Starlette(routes=[
        Route("/v2/bot/message/push", push, methods=["POST"]),
        Route("/v2/bot/message/multicast", multicast, methods=["POST"]),
        Route("/v2/bot/info", read(bot), methods=["GET"]),
        Route("/v2/bot/message/quota", read({"type": "none"}), methods=["GET"]),
        Route("/v2/bot/message/quota/consumption",
              read(lambda _: {"totalUsage": sum(state.per_recipient.values())}), methods=["GET"]),
        Route("/v2/bot/profile/{user_id}", read(lambda req: {
            "userId": req.path_params["user_id"], "displayName": "stand-in user", "language": "ja"}), methods=["GET"]),
        Route("/_standin/reset", control_reset, methods=["POST"]),
        Route("/_standin/stats", control_stats, methods=["GET"]),
        Route("/_standin/counts", control_counts, methods=["GET"]),
        Route("/_standin/accepted", control_accepted, methods=["GET"]),
    ])


def serve(port: int, token: str) -> None:
    import uvicorn

    # Bound here rather than by uvicorn, so port 0 works and the port is known before serving;
    # connections made before uvicorn accepts wait in the backlog. IPPROTO_TCP explicitly, as
    # uvicorn's own host/port path gets it from getaddrinfo: asyncio turns Nagle off only for such a
    # socket, and with Nagle on every answer (headers and body are two writes) waits ~40 ms for an ACK.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(1024)
    print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}", flush=True)
    # Plain asyncio and h11, the pure-Python defaults without optional extras, and no access log:
    # what a small service on this stack costs without tuning.
    config = uvicorn.Config(make_app(StandinState(token)), loop="asyncio", http="h11", lifespan="off",
                            log_level="warning", access_log=False, timeout_keep_alive=60, backlog=1024)
    uvicorn.Server(config).run(sockets=[sock])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.perf.standin_server", description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--token", required=True)
    args = parser.parse_args(argv)
    serve(args.port, args.token)
    return 0


if __name__ == "__main__":
    sys.exit(main())
