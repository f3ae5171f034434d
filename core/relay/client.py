"""The relay's HTTP API (docs/relay.md), each /api/ call signed with Shiftcast-HMAC.

A refused or failed call raises `RelayError` with the relay's stable error code (or None for a call
that never got an answer), in the manager's words; answers are plain JSON values. Only HTTPS leaves
this computer (core/addresses.py): plain http is for a relay on loopback (`wrangler dev`).
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import httpx

from core.addresses import secure_or_local
from core.errors import ShiftcastError, ValidationError
from core.relay import signing
from core.texts import Text, t

TIMEOUT = httpx.Timeout(connect=5.0, read=20.0, write=20.0, pool=10.0)
Clock = Callable[[], dt.datetime]
LAST_CURSOR = 10**15 - 1  # the largest cursor the relay reads


class RelayError(ShiftcastError):
    def __init__(self, *, status: int | None, code: str | None, message: str | Text) -> None:
        self.status, self.error = status, code  # the relay's stable error code (None: no answer)
        if isinstance(message, Text):
            super().__init__(message)
        elif status is None:
            super().__init__(t("relay.unreachable", detail=message))
        else:
            super().__init__(t("relay.answered", status=status, code=code or "?", message=message))


def no_answer(url: str, exc: httpx.HTTPError) -> RelayError:
    """A call that got no answer, in the manager's words: no time-out or connection class names."""
    if isinstance(exc, httpx.TimeoutException):
        text = t("relay.timed_out", url=url)
    elif isinstance(exc, httpx.ConnectError):
        text = t("relay.cannot_connect", url=url)
    else:
        text = t("relay.unreachable", detail=f"{type(exc).__name__}: {exc}")
    return RelayError(status=None, code=None, message=text)


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def checked_url(url: str) -> str:
    """The relay's address without a trailing slash, HTTPS (or http to this computer), else a ValidationError."""
    base = url.strip().rstrip("/")
    if not secure_or_local(base):
        raise ValidationError(t("relay.insecure_address", address=base))
    return base


class RelayClient:
    def __init__(self, url: str, key_hex: str, *, clock: Clock = _utc_now, timeout: httpx.Timeout | None = None) -> None:
        if not signing.valid_key(key_hex):
            raise ValidationError(t("relay.bad_key"))
        self.url = checked_url(url)
        self._key = key_hex
        self._clock = clock
        self._http = httpx.Client(base_url=self.url, timeout=timeout or TIMEOUT, follow_redirects=False,
                                  headers={"User-Agent": "Shiftcast"})

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> RelayClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def health(self) -> dict[str, Any]:
        return self._call("GET", "/health", signed=False)

    def check_key(self) -> None:
        """One signed call that changes nothing (events past any cursor): does the relay take our key?"""
        self._call("GET", "/api/events?" + urlencode({"after": LAST_CURSOR}))

    def heartbeat(self, sender: str) -> dict[str, Any]:
        return self._call("POST", "/api/heartbeat", {"sender": sender})

    def put_deliveries(self, deliveries: list[dict[str, Any]]) -> dict[str, Any]:
        return self._call("PUT", "/api/deliveries", {"deliveries": deliveries})

    def outcomes(self, after: int = 0) -> dict[str, Any]:
        return self._call("GET", "/api/outcomes?" + urlencode({"after": after}))

    def ack_outcomes(self, through: int) -> dict[str, Any]:
        return self._call("POST", "/api/outcomes/ack", {"through": through})

    def put_pairing_codes(self, body: dict[str, Any]) -> dict[str, Any]:
        return self._call("PUT", "/api/pairing-codes", body)

    def events(self, after: int = 0) -> dict[str, Any]:
        return self._call("GET", "/api/events?" + urlencode({"after": after}))

    def ack_events(self, through: int) -> dict[str, Any]:
        return self._call("POST", "/api/events/ack", {"through": through})

    def put_pages(self, body: dict[str, Any]) -> dict[str, Any]:
        """Put and delete the teachers' page documents (at most 40 together), its settings when given, and
        let the relay forget the page's answers whose events the app has taken in (`events_through`)."""
        return self._call("PUT", "/api/pages", body)

    def delete_pages(self) -> dict[str, Any]:
        """The manager turned the page off: the relay removes every document, answer and page setting."""
        return self._call("DELETE", "/api/pages")

    def put_image(self, name: str, data: bytes, content_type: str) -> dict[str, Any]:
        """Keep a PNG or JPEG under `name`: the answer's `path` (/i/…) is where anyone may fetch it, the
        same path again for the same bytes under the same name."""
        return self._call("PUT", f"/api/images/{name}", raw=(data, content_type))

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None, *, signed: bool = True,
              raw: tuple[bytes, str] | None = None) -> dict[str, Any]:
        if raw is not None:
            content, headers = raw[0], {"Content-Type": raw[1]}
        else:
            content = b"" if body is None else json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
            headers = {"Content-Type": "application/json"} if body is not None else {}
        if signed:
            headers["Authorization"] = signing.authorization(self._key, method, path, content,
                                                             ts=int(self._clock().timestamp()),
                                                             nonce=secrets.token_urlsafe(18))
        try:
            response = self._http.request(method, path, content=content, headers=headers)
        except httpx.HTTPError as exc:
            raise no_answer(self.url, exc) from None
        try:
            answer = response.json()
        except ValueError:
            answer = None
        if response.status_code >= 400:
            problem = answer if isinstance(answer, dict) else {}
            raise RelayError(status=response.status_code, code=str(problem.get("error") or "") or None,
                             message=str(problem.get("message") or response.reason_phrase))
        if not isinstance(answer, dict):
            raise RelayError(status=response.status_code, code="not_json", message=response.text[:200])
        return answer
