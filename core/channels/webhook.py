"""Slack-compatible incoming webhooks: POST {"text": ...} as JSON. Used for the manager's alerts.

Like the LINE client, `post` never raises for the answer or a network failure; it returns a
`SendResult` (channel WEBHOOK) for core/outbox/policy.py to classify. The client is also the
webhook's connection for the sender (core/channels/base.py): one post per pool task. It needs no
credentials: the address is read when the message is built.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType

import httpx
from sqlalchemy.orm import Session

from core.addresses import secure_or_local
from core.channels import addressing
from core.channels.base import AddressRule, CancelReasons, Outgoing, R
from core.channels.line import tls_context
from core.channels.net import ms_since, short
from core.errors import ValidationError
from core.messages.message import Audience, Message
from core.outbox import policy
from core.outbox.policy import ChannelFailure, ErrorCode, Outcome, SendResult, Transport, Verdict
from core.roster.contacts import ContactColumn, ContactView
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Channel, Delivery
from core.store.paths import DataPaths
from core.store.settings import HoldSetting
from core.texts import t
from core.texts.template import Template

TIMEOUT = httpx.Timeout(connect=5.0, read=15.0, write=15.0, pool=30.0)


def classify(result: SendResult) -> Verdict:
    """An incoming webhook's answer. It has no credentials to hold: a 4xx means the URL is wrong."""
    common, status = policy.http_common(result), result.http_status or 0
    if common is not None:
        return common
    if status == 429:
        return policy.failed(Outcome.THROTTLED, ErrorCode.RATE_LIMITED, result)
    if status >= 500:
        return policy.failed(Outcome.RETRY, WebhookError.SERVER_ERROR, result)
    return policy.failed(Outcome.FAILED, WebhookError.REJECTED, result)


class WebhookError(StrEnum):
    """The webhook's error codes (deliveries.last_error_code); their words are in `TEXTS`."""

    REJECTED = "WEBHOOK_4XX"
    SERVER_ERROR = "WEBHOOK_5XX"


# The webhook's words: its error codes ("send_error.<code>"; `said` is the answer's own words).
# Canceled: the alerts' webhook address is not set up (its words below; the code as stored before).
NOT_SET = "WEBHOOK_NOT_CONFIGURED"
TEXTS: Mapping[str, tuple[Template, Template]] = MappingProxyType({
    f"cancel.{NOT_SET}": ("no webhook is set up for alerts", "アラート用のWebhookが設定されていません"),
    "send_error.WEBHOOK_4XX": ("the webhook address refused the request (HTTP {status}){said}",
                               "Webhookのアドレスがリクエストを受け付けませんでした（HTTP {status}）{said}"),
    "send_error.WEBHOOK_5XX": ("the webhook server had an error (HTTP {status}){said}",
                               "Webhookのサーバーでエラーが発生しました（HTTP {status}）{said}"),
})


def check_url(value: str | None) -> str | None:
    """HTTPS, or plain HTTP to this computer only (a local receiver); None when empty."""
    value = (value or "").strip()
    if not value:
        return None
    if secure_or_local(value):
        return value
    raise ValidationError(t("webhook.insecure"))


class WebhookClient:
    def __init__(self, *, timeout: httpx.Timeout = TIMEOUT) -> None:
        self._timeout = timeout
        self._client: httpx.Client | None = None
        self._lock = threading.Lock()

    @property
    def _http(self) -> httpx.Client:
        # Made at the first alert, not when the sender connects its channels: most classrooms never set
        # a webhook, and a client with its own TLS context costs every sender start ~100 ms on a slow PC.
        with self._lock:
            if self._client is None:
                self._client = httpx.Client(timeout=self._timeout, follow_redirects=False, verify=tls_context(),
                                            headers={"User-Agent": "Shiftcast"})
            return self._client

    def post(self, url: str, text: str) -> SendResult:
        started = time.perf_counter()
        try:
            response = self._http.post(check_url(url) or "", json={"text": text})
        except ValidationError as exc:
            return SendResult(channel=Channel.WEBHOOK, http_status=400, message=exc.text, duration_ms=ms_since(started))
        except httpx.TimeoutException as exc:
            return SendResult(channel=Channel.WEBHOOK, transport_error=Transport.TIMEOUT, message=short(exc),
                              duration_ms=ms_since(started))
        except httpx.HTTPError as exc:
            return SendResult(channel=Channel.WEBHOOK, transport_error=Transport.CONNECTION, message=short(exc),
                              duration_ms=ms_since(started))
        message = None if response.is_success else (response.text.strip()[:300] or response.reason_phrase)
        return SendResult(channel=Channel.WEBHOOK, http_status=response.status_code, message=message,
                          duration_ms=ms_since(started))

    fingerprint: str | None = None  # no credentials, nothing to hold

    def send(self, requests: Sequence[R], report: Callable[[R, SendResult], None], *, time_budget: float) -> None:
        for request in requests:
            messages = request.outgoing.messages
            text = str(messages[0].get("text", "")) if messages else ""
            report(request, self.post(str(request.outgoing.to), text))

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None


class WebhookDriver:
    """The alert webhook as the sender sees it (core/channels/base.py)."""

    key = Channel.WEBHOOK.value
    label = t("text.plain", text="Webhook")  # the same word in Japanese (resources/i18n/glossary.md)
    title = "Webhook"
    address: AddressRule | None = None  # its one address is a setting (alerts.webhook_url), not a teacher's
    needs_consent = False
    cancel_reasons: CancelReasons | None = None  # it reaches no teacher
    batch: int | None = None  # one post per pool task
    hold_key: HoldSetting | None = None  # no credentials: a refusal means a wrong address, and fails the delivery
    hold_title = t("alert.webhook_held")
    retry_keys = False
    postbacks = False
    texts: Mapping[str, tuple[Template, Template]] = TEXTS
    contact_columns: tuple[ContactColumn, ...] = ()  # no teacher has an address on it

    def recipient(self, contact: ContactView) -> str | None:
        return None

    def render(self, session: Session, delivery: Delivery, message: Message, paths: DataPaths) -> Outgoing:
        """A note to the manager as {"text": ...}, to the address in the settings now; it reaches nobody else."""
        if message.audience is not Audience.MANAGER:
            raise addressing.unsupported(delivery)
        url = addressing.setting_address(session, keys.ALERTS_WEBHOOK_URL, NOT_SET)
        return Outgoing("webhook", url, ({"text": message.text},))

    def connect(self, db: Database) -> WebhookClient:
        return WebhookClient()

    def classify(self, result: SendResult) -> Verdict:
        return classify(result)

    def failure(self, code: str | None, *, at_recipient: bool, dead: bool) -> ChannelFailure:
        return policy.failure(code, dead=dead)  # it reaches the manager: there is no next channel anyway


DRIVER = WebhookDriver()
