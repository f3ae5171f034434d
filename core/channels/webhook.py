"""Slack-compatible incoming webhooks: POST {"text": ...} as JSON. Used for the manager's alerts.

Like the LINE client, `post` never raises for the answer or a network failure; it returns a
`SendResult` (channel WEBHOOK) for core/outbox/policy.py to classify.
"""

from __future__ import annotations

import time

import httpx

from core.channels.net import ms_since, secure_or_local, short
from core.errors import ValidationError
from core.outbox.policy import SendResult, Transport
from core.store.models import Channel

URL_SETTING = "alerts.webhook_url"
TIMEOUT = httpx.Timeout(connect=5.0, read=15.0, write=15.0, pool=30.0)


def check_url(value: str | None) -> str | None:
    """HTTPS, or plain HTTP to this computer only (a local receiver); None when empty."""
    value = (value or "").strip()
    if not value:
        return None
    if secure_or_local(value):
        return value
    raise ValidationError("the webhook address must start with https:// (plain http only to this computer)")


class WebhookClient:
    def __init__(self, *, timeout: httpx.Timeout = TIMEOUT) -> None:
        self._http = httpx.Client(timeout=timeout, follow_redirects=False, headers={"User-Agent": "Shiftcast"})

    def post(self, url: str, text: str) -> SendResult:
        started = time.perf_counter()
        try:
            response = self._http.post(check_url(url) or "", json={"text": text})
        except ValidationError as exc:
            return SendResult(channel=Channel.WEBHOOK, http_status=400, message=str(exc), duration_ms=ms_since(started))
        except httpx.TimeoutException as exc:
            return SendResult(channel=Channel.WEBHOOK, transport_error=Transport.TIMEOUT, message=short(exc),
                              duration_ms=ms_since(started))
        except httpx.HTTPError as exc:
            return SendResult(channel=Channel.WEBHOOK, transport_error=Transport.CONNECTION, message=short(exc),
                              duration_ms=ms_since(started))
        message = None if response.is_success else (response.text.strip()[:300] or response.reason_phrase)
        return SendResult(channel=Channel.WEBHOOK, http_status=response.status_code, message=message,
                          duration_ms=ms_since(started))

    def close(self) -> None:
        self._http.close()
