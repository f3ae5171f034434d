"""POST /line-works/callback: the LINE WORKS bot's callbacks, for its 了解 buttons.

As LINE's webhook is checked (core/receiving/server.py), the body is read whole under the same size
limit and deadline, and its X-WORKS-Signature — Base64(HMAC-SHA256(key = the bot secret, the raw body)),
LINE's own scheme — is compared in constant time before anything is parsed: unsigned or forged bodies
get 401 and change nothing, a body over 1 MB 413.

A tap on a reminder's 了解 arrives as a message event whose content carries the button's postback (a
button template's message action), or as a postback event (a carousel's or menu's postback action):
either way its data is the signed ack the LINE path checks, and core/receiving/acknowledge.py marks the
delivery acknowledged once. LINE WORKS does not send a callback again, and sends no event id, so the tap
is handled at once, in its own transaction; a second tap changes nothing.

LINE WORKS names the member who tapped by their user ID. A teacher whose LINE WORKS ID on file is their
user ID must be the one who tapped; one on file by login ID (name@domain) cannot be compared, and then
the signed data — shown only in that teacher's 1:1 talk with the bot — is what counts.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Callable
from typing import Any

from core.channels import line_works_credentials as credentials
from core.messages import ack
from core.receiving import acknowledge, bodies, signature
from core.store.db import Database
from core.store.secrets import SecretStoreError
from core.texts.message import logged

log = logging.getLogger(__name__)
PATH = "/line-works/callback"
CHANNEL = "line_works"
Clock = Callable[[], dt.datetime]


def route(db: Database, *, clock: Clock, max_bytes: int, deadline: float) -> Any:
    """The Starlette route (typed Any: Starlette is imported when a receiver is made)."""
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    async def callback(request: Request) -> Response:
        raw = await bodies.read_limited(request, max_bytes=max_bytes, deadline=deadline)
        if not isinstance(raw, bytes):
            return raw  # type: ignore[no-any-return]
        secret = await run_in_threadpool(_bot_secret)
        if secret is None or not signature.verify(secret, raw, request.headers.get("x-works-signature")):
            return JSONResponse({"message": "invalid signature"}, status_code=401)
        try:
            event = json.loads(raw)
        except (ValueError, RecursionError):
            return JSONResponse({"message": "not JSON"}, status_code=400)
        if isinstance(event, dict):
            await run_in_threadpool(handle, db, event, clock())
        return Response(status_code=200)

    return Route(PATH, callback, methods=["POST"])


def _bot_secret() -> str | None:
    try:
        return credentials.bot_secret()
    except SecretStoreError as exc:
        log.warning("a LINE WORKS callback was refused: %s", logged(exc.text))
        return None


def tapped_data(event: dict[str, Any]) -> str | None:
    """The button data a signed event carries, if it is a tap: a postback event's `data`, or a
    message event's `content.postback`."""
    if event.get("type") == "postback":
        data = event.get("data")
    elif event.get("type") == "message" and isinstance(event.get("content"), dict):
        data = event["content"].get("postback")
    else:
        return None
    return data if isinstance(data, str) else None


def handle(db: Database, event: dict[str, Any], now: dt.datetime) -> bool:
    """Acknowledge the delivery a 了解 tap names (True the first time); anything else changes nothing."""
    data = tapped_data(event)
    source = event.get("source")
    user_id = source.get("userId") if isinstance(source, dict) else None
    if data is None or not data.startswith(ack.PREFIX + ":") or not isinstance(user_id, str) or not user_id:
        return False

    def tapped_by(address: str | None) -> bool:
        if address is None:
            return False
        return "@" in address or address == user_id.lower()  # a login ID cannot be compared (above)

    with db.write() as session:
        return acknowledge.acknowledge(session, data, channel=CHANNEL, tapped_by=tapped_by,
                                       tapped_at=_issued(event.get("issuedTime")), now=now)


def _issued(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        stamp = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return stamp if stamp.tzinfo is not None else None
