"""Slack-compatible incoming webhooks: POST {"text": ...} as JSON. Used for the manager's alerts.

Like the LINE client, `post` never raises for the answer or a network failure; it returns a
`SendResult` (channel "webhook") for core/outbox/policy.py to classify.
"""

from __future__ import annotations

import ipaddress
import time
from urllib.parse import urlsplit

import httpx

from core.errors import ValidationError
from core.outbox.policy import SendResult, Transport

TIMEOUT = httpx.Timeout(connect=5.0, read=15.0, write=15.0, pool=30.0)


def check_url(value: str | None) -> str | None:
    """HTTPS, or plain HTTP to this computer only (a local receiver); None when empty."""
    value = (value or "").strip()
    if not value:
        return None
    parts = urlsplit(value)
    if parts.hostname and (parts.scheme == "https" or (parts.scheme == "http" and _is_loopback(parts.hostname))):
        return value
    raise ValidationError("the webhook address must start with https:// (plain http only to this computer)")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class WebhookClient:
    def __init__(self, *, timeout: httpx.Timeout = TIMEOUT) -> None:
        self._http = httpx.Client(timeout=timeout, follow_redirects=False, headers={"User-Agent": "Shiftcast"})

    def post(self, url: str, text: str) -> SendResult:
        started = time.perf_counter()
        try:
            response = self._http.post(check_url(url) or "", json={"text": text})
        except ValidationError as exc:
            return SendResult(channel="webhook", http_status=400, message=str(exc), duration_ms=_ms(started))
        except httpx.TimeoutException as exc:
            return SendResult(channel="webhook", transport_error=Transport.TIMEOUT, message=_short(exc),
                              duration_ms=_ms(started))
        except httpx.HTTPError as exc:
            return SendResult(channel="webhook", transport_error=Transport.CONNECTION, message=_short(exc),
                              duration_ms=_ms(started))
        message = None if response.is_success else (response.text.strip()[:300] or response.reason_phrase)
        return SendResult(channel="webhook", http_status=response.status_code, message=message,
                          duration_ms=_ms(started))

    def close(self) -> None:
        self._http.close()


def _short(exc: BaseException) -> str:
    text = str(exc) or exc.__class__.__name__
    return text.splitlines()[0][:300]


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
