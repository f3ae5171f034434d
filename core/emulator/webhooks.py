"""The other direction: LINE calling the bot. The webhook endpoint settings, the webhook test, and
signed event POSTs to the endpoint set, as LINE's platform makes them.

Events are POSTed with httpx, synchronously on the caller's thread: from a test's thread for the
Python methods, and on the emulator's loop for /_emulator/events/… and the webhook test (which then
waits at most TIMEOUT, as LINE waits about 2 s for a bot's answer).

LINE only calls https endpoints; `loopback_webhooks` lets tests and the demo set http://127.0.0.1
(or localhost, [::1]) instead, never any other plain-http address.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import json
import os
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

ENDPOINT_MAX = 500
TIMEOUT = 2.0
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def endpoint_problem(value: Any, *, loopback: bool) -> str | None:
    """Why `value` cannot be a webhook URL (LINE: https, at most 500 characters), or None."""
    if not isinstance(value, str) or not value:
        return "must be specified"
    if len(value) > ENDPOINT_MAX:
        return f"Length must be between 0 and {ENDPOINT_MAX}"
    try:
        parts = urlsplit(value)
        host = parts.hostname
    except ValueError:
        return "must be a valid URL"
    if not host:
        return "must be a valid URL"
    if parts.scheme == "https":
        return None
    if parts.scheme == "http" and loopback and host in _LOOPBACK_HOSTS:
        return None
    return "must be an https URL"


def sign(secret: str, body: bytes) -> str:
    return base64.b64encode(hmac.new(secret.encode("utf-8"), body, hashlib.sha256).digest()).decode("ascii")


def new_event_id(now: dt.datetime) -> str:
    """A ULID, as LINE's webhookEventId is: 48 bits of milliseconds, 80 random bits, Crockford base32."""
    value = (int(now.timestamp() * 1000) << 80) | int.from_bytes(os.urandom(10), "big")
    return "".join(_CROCKFORD[(value >> shift) & 31] for shift in range(125, -1, -5))


@dataclass(frozen=True, slots=True)
class WebhookResult:
    """What happened to one POST: LINE's test-endpoint terms (statusCode 0: nothing answered)."""

    status_code: int
    reason: str
    detail: str
    timestamp: dt.datetime

    @property
    def success(self) -> bool:
        return 200 <= self.status_code < 300

    def to_json(self) -> dict[str, Any]:
        return {"success": self.success, "timestamp": self.timestamp.isoformat().replace("+00:00", "Z"),
                "statusCode": self.status_code, "reason": self.reason, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class SentWebhook:
    url: str
    body: dict[str, Any]
    result: WebhookResult


@dataclass
class WebhookSettings:
    """The channel's webhook: its URL, the console's "Use webhook" switch, and the channel secret."""

    channel_secret: str = field(default_factory=lambda: secrets.token_hex(16))
    endpoint: str | None = None
    active: bool = True
    loopback: bool = False
    sent: list[SentWebhook] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def post(self, url: str, destination: str, events: list[dict[str, Any]], now: dt.datetime) -> WebhookResult:
        payload = {"destination": destination, "events": events}
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        headers = {"Content-Type": "application/json; charset=utf-8", "User-Agent": "LineBotWebhook/2.0",
                   "x-line-signature": sign(self.channel_secret, body)}
        try:
            with httpx.Client(timeout=TIMEOUT, follow_redirects=False, trust_env=False) as client:
                response = client.post(url, content=body, headers=headers)
            result = WebhookResult(response.status_code, response.reason_phrase or "", str(response.status_code), now)
        except httpx.TimeoutException:
            result = WebhookResult(0, "Timeout", f"no answer within {TIMEOUT:g} s", now)
        except httpx.HTTPError as exc:
            result = WebhookResult(-1, "Connection failed", str(exc)[:200] or type(exc).__name__, now)
        with self.lock:
            self.sent.append(SentWebhook(url, payload, result))
        return result

    def history(self) -> list[SentWebhook]:
        with self.lock:
            return list(self.sent)


def base_event(kind: str, source: dict[str, Any], now: dt.datetime, *, reply: bool) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": kind,
        "mode": "active",
        "timestamp": int(now.timestamp() * 1000),
        "source": source,
        "webhookEventId": new_event_id(now),
        "deliveryContext": {"isRedelivery": False},
    }
    if reply:  # LINE gives a reply token only where a reply is possible
        event["replyToken"] = secrets.token_hex(16)
    return event


def user_source(user_id: str) -> dict[str, Any]:
    return {"type": "user", "userId": user_id}


def group_source(group_id: str, user_id: str | None = None) -> dict[str, Any]:
    source: dict[str, Any] = {"type": "group", "groupId": group_id}
    if user_id is not None:
        source["userId"] = user_id
    return source


def redelivered(event: dict[str, Any]) -> dict[str, Any]:
    """The same event again, as LINE's redelivery sends it: same webhookEventId and timestamp."""
    again: dict[str, Any] = json.loads(json.dumps(event))
    again["deliveryContext"] = {"isRedelivery": True}  # its reply token, if any, can no longer be used
    return again
