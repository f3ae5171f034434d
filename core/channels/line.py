"""LINE Messaging API client (httpx). Timeouts are always set; only HTTPS leaves the machine.

Sending calls return a `SendResult` and never raise for LINE's answers or network failures, because
the sender classifies them (core/outbox/policy.py). Read calls (bot info, profile, quota …) raise
`LineApiError` with LINE's status, message and request id.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import os
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from core.errors import ShiftcastError, ValidationError
from core.outbox.policy import SendResult, Transport

DEFAULT_BASE_URL = "https://api.line.me"
BASE_URL_ENV = "SHIFTCAST_LINE_API_BASE"
MULTICAST_LIMIT = 500
DEFAULT_TIMEOUT = httpx.Timeout(connect=5.0, read=15.0, write=15.0, pool=30.0)


class LineApiError(ShiftcastError):
    def __init__(self, status: int | None, message: str, *, request_id: str | None = None,
                 details: tuple[str, ...] = ()) -> None:
        self.status = status
        self.line_message = message
        self.request_id = request_id
        self.details = details
        where = f"HTTP {status}" if status is not None else "network error"
        extra = f" ({'; '.join(details)})" if details else ""
        super().__init__(f"LINE answered {where}: {message}{extra}")


def resolve_base_url(configured: str | None = None) -> str:
    """SHIFTCAST_LINE_API_BASE, else the configured value, else LINE itself; checked for safety."""
    base = (os.environ.get(BASE_URL_ENV) or configured or DEFAULT_BASE_URL).strip().rstrip("/")
    parts = urlsplit(base)
    if parts.scheme == "https" and parts.hostname:
        return base
    if parts.scheme == "http" and parts.hostname and _is_loopback(parts.hostname):
        return base  # the local emulator
    raise ValidationError(f"LINE API address {base!r} must use https (plain http only to this computer)")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Quota:
    limited: bool
    limit: int | None
    used: int

    @property
    def remaining(self) -> int | None:
        return None if self.limit is None else max(self.limit - self.used, 0)


SEND_PATHS = {"push": "/v2/bot/message/push", "multicast": "/v2/bot/message/multicast"}


def _encode(body: dict[str, Any]) -> bytes:
    # As httpx encodes json=: UTF-8, no spaces; a NaN is an error rather than invalid JSON.
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def encode_push(to: str, messages: list[dict[str, Any]], notification_disabled: bool = False) -> bytes:
    body: dict[str, Any] = {"to": to, "messages": messages}
    if notification_disabled:
        body["notificationDisabled"] = True
    return _encode(body)


def encode_multicast(to: list[str], messages: list[dict[str, Any]]) -> bytes:
    if not 1 <= len(to) <= MULTICAST_LIMIT:
        raise ValidationError(f"a multicast goes to 1–{MULTICAST_LIMIT} users, not {len(to)}")
    return _encode({"to": to, "messages": messages})


@functools.cache
def tls_context() -> ssl.SSLContext:
    """The process's one TLS context, shared by every LineClient.

    httpx would build one per client, loading the CA bundle each time (tens of ms on a slow PC, at
    every start); create_ssl_context still honours SSL_CERT_FILE and SSL_CERT_DIR as httpx does."""
    return httpx.create_ssl_context()


def warm_up() -> None:
    """Load now what the first request would (the TLS context, httpx's transport), for a process
    with time to spare before its first send: the courier, started early, waiting for its config."""
    httpx.HTTPTransport(verify=tls_context()).close()


class LineClient:
    """One client per channel token; safe to share between sender threads (httpx.Client is)."""

    def __init__(self, token: str, *, base_url: str | None = None, timeout: httpx.Timeout = DEFAULT_TIMEOUT,
                 max_connections: int = 32) -> None:
        if not token:
            raise ValidationError("the LINE channel access token is empty")
        self.base_url = resolve_base_url(base_url)
        self.token = token  # handed to core/sending/courier.py's child process over a pipe, never logged
        self.timeout = timeout
        self._max_connections = max_connections
        self._lock = threading.Lock()
        self._client: httpx.Client | None = None
        self._closed = False

    @property
    def _http(self) -> httpx.Client:
        # Built on first use: the headless sender's own client often never sends (its courier does),
        # and building one is part of every start-up.
        client = self._client
        if client is None:
            with self._lock:
                if self._closed:
                    raise RuntimeError("the LINE client has been closed")
                if self._client is None:
                    self._client = httpx.Client(
                        base_url=self.base_url,
                        timeout=self.timeout,
                        headers={"Authorization": f"Bearer {self.token}", "User-Agent": "Shiftcast"},
                        limits=httpx.Limits(max_connections=self._max_connections,
                                            max_keepalive_connections=self._max_connections),
                        follow_redirects=False,
                        verify=tls_context(),
                    )
                client = self._client
        return client

    def close(self) -> None:
        with self._lock:
            self._closed = True
            client = self._client
        if client is not None:
            client.close()

    def __enter__(self) -> LineClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ----- sending (retry key on every request) -----

    def push(self, to: str, messages: list[dict[str, Any]], *, retry_key: str,
             notification_disabled: bool = False) -> SendResult:
        return self.send_encoded("push", encode_push(to, messages, notification_disabled), retry_key=retry_key)

    def multicast(self, to: list[str], messages: list[dict[str, Any]], *, retry_key: str) -> SendResult:
        return self.send_encoded("multicast", encode_multicast(to, messages), retry_key=retry_key)

    def send_encoded(self, endpoint: str, body: bytes, *, retry_key: str) -> SendResult:
        """POST a body made by encode_push or encode_multicast (the sender encodes in one process and
        sends from another, core/sending/courier.py)."""
        started = time.perf_counter()
        try:
            response = self._http.post(SEND_PATHS[endpoint], content=body, headers={
                "Content-Type": "application/json", "X-Line-Retry-Key": retry_key})
        except httpx.TimeoutException as exc:
            return SendResult(transport_error=Transport.TIMEOUT, message=_short(exc), duration_ms=_ms(started))
        except httpx.TransportError as exc:
            return SendResult(transport_error=Transport.CONNECTION, message=_short(exc), duration_ms=_ms(started))
        payload = _json(response)
        return SendResult(
            http_status=response.status_code,
            request_id=response.headers.get("x-line-request-id"),
            accepted_request_id=response.headers.get("x-line-accepted-request-id"),
            message=None if response.is_success else str(payload.get("message") or response.reason_phrase),
            details=_details(payload),
            duration_ms=_ms(started),
        )

    # ----- reading (no retry key: LINE rejects it on these endpoints) -----

    def bot_info(self) -> dict[str, Any]:
        return self._get("/v2/bot/info")

    def profile(self, user_id: str) -> dict[str, Any]:
        return self._get(f"/v2/bot/profile/{user_id}")

    def group_summary(self, group_id: str) -> dict[str, Any]:
        return self._get(f"/v2/bot/group/{group_id}/summary")

    def group_member_count(self, group_id: str) -> int:
        return int(self._get(f"/v2/bot/group/{group_id}/members/count")["count"])

    def quota(self) -> Quota:
        quota = self._get("/v2/bot/message/quota")
        used = int(self._get("/v2/bot/message/quota/consumption")["totalUsage"])
        limited = quota.get("type") == "limited"
        return Quota(limited=limited, limit=int(quota["value"]) if limited else None, used=used)

    def follower_ids(self, *, limit: int = 1000) -> list[str]:
        """Every friend's user ID (verified and premium accounts only; others get 403)."""
        ids: list[str] = []
        start: str | None = None
        while True:
            params: dict[str, Any] = {"limit": limit}
            if start:
                params["start"] = start
            page = self._get("/v2/bot/followers/ids", params=params)
            ids.extend(page.get("userIds", []))
            start = page.get("next")
            if not start:
                return ids

    def validate_push(self, messages: list[dict[str, Any]]) -> None:
        self._request("POST", "/v2/bot/message/validate/push", json={"messages": messages})

    def _get(self, path: str, *, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self._request("GET", path, params=params)

    def _request(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.TimeoutException:
            raise LineApiError(None, "LINE did not answer in time") from None
        except httpx.TransportError as exc:
            raise LineApiError(None, f"could not reach LINE ({_short(exc)})") from None
        payload = _json(response)
        if not response.is_success:
            raise LineApiError(
                response.status_code,
                str(payload.get("message") or response.reason_phrase),
                request_id=response.headers.get("x-line-request-id"),
                details=_details(payload),
            )
        return payload


def _json(response: httpx.Response) -> dict[str, Any]:
    try:
        value = response.json()
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _details(payload: dict[str, Any]) -> tuple[str, ...]:
    out = []
    for item in payload.get("details") or []:
        if isinstance(item, dict):
            prop = item.get("property")
            out.append(f"{prop}: {item.get('message')}" if prop else str(item.get("message")))
    return tuple(out)


def _short(exc: Exception) -> str:
    text = str(exc) or exc.__class__.__name__
    return text.splitlines()[0][:300]


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


@dataclass(frozen=True)
class LineAccess:
    """A usable LINE client plus the fingerprint of the token it was built with."""

    client: LineClient
    token_fingerprint: str


def access_from_settings(db: Any, *, timeout: httpx.Timeout = DEFAULT_TIMEOUT) -> LineAccess | None:
    """Build the client from the keyring token and the configured API address; None if no token yet."""
    from core.store import secrets, settings

    token = secrets.line_token()
    if not token:
        return None
    with db.read() as session:
        base = settings.get(session, settings.LINE_API_BASE)
        seconds = settings.get(session, "sender.http_timeout_seconds")
    if seconds:
        timeout = httpx.Timeout(float(seconds))
    return LineAccess(LineClient(token, base_url=base, timeout=timeout), secrets.fingerprint(token))
