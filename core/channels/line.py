"""LINE Messaging API client (httpx) and LINE's channel driver. Timeouts are always set; only HTTPS
leaves the machine.

Sending calls return a `SendResult` and never raise for LINE's answers or network failures, because
the sender classifies them (core/outbox/policy.py). Read calls (bot info, profile, quota …) raise
`LineApiError` with LINE's status, message and request id. `LineAccess` is LINE's connection for the
sender (core/channels/base.py): every push or multicast on a pool thread of its own, under LINE's
rate limits, with its retry key.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import ssl
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

import httpx
from sqlalchemy.orm import Session

from core.addresses import secure_or_local
from core.channels import line_render
from core.channels.base import AddressRule, CancelReasons, Outgoing, R, RefusedBeforeSend
from core.channels.net import json_object as _json
from core.channels.net import ms_since, short
from core.channels.ratelimit import TokenBucket
from core.errors import ShiftcastError, ValidationError
from core.messages.message import Message
from core.outbox import policy
from core.outbox.policy import ChannelFailure, ErrorCode, Outcome, SendResult, Transport, Verdict
from core.roster import contacts
from core.roster.contacts import ContactView
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Channel, Delivery
from core.store.paths import DataPaths
from core.store.settings import HoldSetting
from core.texts import Text, t
from core.texts.template import Template

log = logging.getLogger(__name__)

KEY = Channel.LINE.value  # what LINE's deliveries and contacts carry
DEFAULT_BASE_URL = "https://api.line.me"
DATA_BASE_URL = "https://api-data.line.me"  # LINE takes uploads (a rich menu's image) on its data host
BASE_URL_ENV = "SHIFTCAST_LINE_API_BASE"
MULTICAST_LIMIT = 500
# LINE's published limits per endpoint, requests per second; kept under by a client-side bucket each.
RATE_LIMITS = {"push": 2000.0, "multicast": 200.0}
DEFAULT_TIMEOUT = httpx.Timeout(connect=5.0, read=15.0, write=15.0, pool=30.0)


class LineApiError(ShiftcastError):
    def __init__(self, status: int | None, message: Text | str, *, request_id: str | None = None,
                 details: tuple[str, ...] = ()) -> None:
        self.status = status
        self.line_message = str(message)  # LINE's own words (English), or ours for a network failure
        self.request_id = request_id
        self.details = details
        extra = f" ({'; '.join(details)})" if details else ""
        if status is None and isinstance(message, Text) and not details:
            super().__init__(message)  # our own words for a failure on the way to LINE: said once, as they are
        elif status is None:
            super().__init__(t("line.network_error", message=message, extra=extra))
        else:
            super().__init__(t("line.answered", status=status, message=message, extra=extra))


def network_failure(exc: httpx.HTTPError) -> LineApiError:
    """A request that never got LINE's answer, in words that say what to check. The library's own words
    (an exception's name, the OS's English) go to the log only where they would tell the manager nothing."""
    if isinstance(exc, httpx.TimeoutException):
        return LineApiError(None, t("line.timeout"))
    if isinstance(exc, httpx.ConnectError | httpx.ProxyError):  # offline, no DNS, refused, a proxy in the way
        log.warning("could not connect to LINE: %s", short(exc))
        return LineApiError(None, t("line.no_connection"))
    return LineApiError(None, t("line.unreachable", detail=short(exc)))


def resolve_base_url(configured: str | None = None) -> str:
    """SHIFTCAST_LINE_API_BASE, else the configured value, else LINE itself; checked for safety."""
    base = (os.environ.get(BASE_URL_ENV) or configured or DEFAULT_BASE_URL).strip().rstrip("/")
    if secure_or_local(base):  # plain http: the local emulator
        return base
    raise ValidationError(t("line.insecure_base", address=base))


class LineError(StrEnum):
    """LINE's own error codes (deliveries.last_error_code); their words are in `TEXTS`."""

    SERVER_ERROR = "LINE_5XX"
    BAD_REQUEST = "LINE_400"
    FORBIDDEN = "LINE_403"
    NOT_FOUND = "LINE_404"
    CLIENT_ERROR = "LINE_4XX"


class LineCancel(StrEnum):
    """Why a LINE delivery was canceled (deliveries.cancel_reason); their words are in `TEXTS`."""

    NOT_OPTED_IN = "LINE_NOT_OPTED_IN"
    UNREACHABLE = "LINE_UNREACHABLE"  # went on the teacher's next channel instead (core/planning/fallback.py)
    UNFOLLOWED = "LINE_UNFOLLOWED"  # the teacher blocked the LINE account (a webhook unfollow)


RATE_LIMIT_MESSAGE = "The API rate limit has been exceeded. Try again later."
MONTHLY_LIMIT_MESSAGE = "You have reached your monthly limit."
# The request property that holds the recipient's ID, in LINE's push and multicast bodies.
RECIPIENT_PROPERTY = "to"


def classify(result: SendResult) -> Verdict:
    """LINE's answer → what to do with the delivery."""
    common, status = policy.http_common(result), result.http_status or 0
    if common is not None:
        return common
    if status == 409 and result.accepted_request_id:
        # An earlier attempt with this retry key was accepted: the teacher already has it.
        return Verdict(Outcome.SENT)
    if status >= 500:
        return policy.failed(Outcome.RETRY, LineError.SERVER_ERROR, result)
    if status == 429:
        if str(result.message or "").strip() == MONTHLY_LIMIT_MESSAGE:
            return policy.failed(Outcome.FAILED, ErrorCode.QUOTA_EXHAUSTED, result)
        # LINE documents that nothing was processed; any other 429 is treated the same, safely.
        return policy.failed(Outcome.THROTTLED, ErrorCode.RATE_LIMITED, result)
    if status == 401:
        return policy.failed(Outcome.HOLD, ErrorCode.AUTH_FAILED, result)
    code = {400: LineError.BAD_REQUEST, 403: LineError.FORBIDDEN, 404: LineError.NOT_FOUND}.get(
        status, LineError.CLIENT_ERROR)
    at_recipient = status == 404 or (status == 400 and RECIPIENT_PROPERTY in result.properties_at_fault)
    return policy.failed(Outcome.FAILED, code, result, at_recipient)


def failure(code: str | None, *, at_recipient: bool, dead: bool) -> ChannelFailure:
    """Only an error about the recipient marks the teacher unreachable — a 404, or a 400 at the
    recipient (`at_recipient`, as `classify` found it and the delivery row keeps it) — never one
    about the message: one bad template must not cut every teacher off LINE. A message LINE refused
    as malformed is not re-sent another way either; the manager has to look. Retries that ran out, a
    used-up quota or a refused account (403) do not say anything about the teacher, but the message
    still has to reach them, so it goes on their next channel."""
    if code == LineError.NOT_FOUND:
        return ChannelFailure(True, True)
    if code == LineError.BAD_REQUEST:
        return ChannelFailure(at_recipient, at_recipient)
    if code == LineError.FORBIDDEN:
        return ChannelFailure(True, False)
    return policy.failure(code, dead=dead)


# LINE's words: its error codes ("send_error.<code>"; `said` is LINE's own message and details, as
# they came) and its cancel reasons.
TEXTS: Mapping[str, tuple[Template, Template]] = MappingProxyType({
    f"cancel.{line_render.MANAGER_LINE_NOT_CONFIGURED}": ("the manager's LINE user ID is not set",
                                                          "管理者のLINEユーザーIDが設定されていません"),
    "cancel.LINE_NOT_OPTED_IN": ("the teacher does not receive LINE messages", "講師はLINEでの通知を受け取らない設定です"),
    "cancel.LINE_UNREACHABLE": ("LINE could not reach the teacher; sent another way instead",
                                "LINEで講師に届かないため、別の方法で送りました"),
    "cancel.LINE_UNFOLLOWED": ("the teacher blocked the LINE account", "講師がLINE公式アカウントをブロックしています"),
    "send_error.LINE_400": ("LINE refused the request as invalid (HTTP {status}){said}",
                            "リクエストの内容に誤りがあるため、LINEが受け付けませんでした（HTTP {status}）{said}"),
    "send_error.LINE_403": ("LINE does not allow this account to send this (HTTP {status}){said}",
                            "このLINE公式アカウントでは、この送信は許可されていません（HTTP {status}）{said}"),
    "send_error.LINE_404": ("LINE does not know this recipient (HTTP {status}){said}",
                            "LINEにこの宛先が見つかりません（HTTP {status}）{said}"),
    "send_error.LINE_4XX": ("LINE refused the request (HTTP {status}){said}",
                            "LINEがリクエストを受け付けませんでした（HTTP {status}）{said}"),
    "send_error.LINE_5XX": ("LINE had a server error (HTTP {status}){said}",
                            "LINEのサーバーでエラーが発生しました（HTTP {status}）{said}"),
})


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
        raise ValidationError(t("line.multicast_size", limit=MULTICAST_LIMIT, given=len(to)))
    return _encode({"to": to, "messages": messages})


@functools.cache
def tls_context() -> ssl.SSLContext:
    """The process's one TLS context, shared by every LineClient.

    httpx would build one per client, loading the CA bundle each time (tens of ms on a slow PC, at
    every start); create_ssl_context still honours SSL_CERT_FILE and SSL_CERT_DIR as httpx does."""
    return httpx.create_ssl_context()


class LineClient:
    """One client per channel token; safe to share between sender threads (httpx.Client is)."""

    def __init__(self, token: str, *, base_url: str | None = None, timeout: httpx.Timeout = DEFAULT_TIMEOUT,
                 max_connections: int = 32, auth: httpx.Auth | None = None) -> None:
        # auth: the token comes from it per request (a stateless token, core/channels/line_token.py).
        if not token and auth is None:
            raise ValidationError(t("line.token_empty"))
        self._token = token
        self._auth = auth
        self.base_url = resolve_base_url(base_url)
        self.timeout = timeout
        self._max_connections = max_connections
        self._lock = threading.Lock()
        self._client: httpx.Client | None = None
        self._closed = False

    @property
    def _http(self) -> httpx.Client:
        # Built on first use: a client made for a check or a sender that never sends costs nothing,
        # and building one is part of every start-up.
        client = self._client
        if client is None:
            with self._lock:
                if self._closed:
                    raise RuntimeError("the LINE client has been closed")
                if self._client is None:
                    headers = {"User-Agent": "Shiftcast"}
                    if self._auth is None:
                        headers["Authorization"] = f"Bearer {self._token}"
                    self._client = httpx.Client(
                        base_url=self.base_url,
                        timeout=self.timeout,
                        headers=headers,
                        auth=self._auth,
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
        """POST a body made by encode_push or encode_multicast."""
        started = time.perf_counter()
        try:
            response = self._http.post(SEND_PATHS[endpoint], content=body, headers={
                "Content-Type": "application/json", "X-Line-Retry-Key": retry_key})
        except httpx.TimeoutException as exc:
            return SendResult(channel=KEY, transport_error=Transport.TIMEOUT, message=short(exc), duration_ms=ms_since(started))
        except httpx.TransportError as exc:
            return SendResult(channel=KEY, transport_error=Transport.CONNECTION, message=short(exc), duration_ms=ms_since(started))
        payload = _json(response)
        return SendResult(
            channel=KEY,
            http_status=response.status_code,
            request_id=response.headers.get("x-line-request-id"),
            accepted_request_id=response.headers.get("x-line-accepted-request-id"),
            message=None if response.is_success else str(payload.get("message") or response.reason_phrase),
            details=_details(payload),
            duration_ms=ms_since(started),
            properties_at_fault=_properties(payload),
        )

    def reply(self, reply_token: str, messages: list[dict[str, Any]]) -> None:
        """Answer a webhook event with its reply token (free of the monthly quota; one use, within about
        a minute of the event). Raises LineApiError: a reply is not queued or retried."""
        self._request("POST", "/v2/bot/message/reply", content=_encode({"replyToken": reply_token, "messages": messages}),
                      headers={"Content-Type": "application/json"})

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

    # ----- the rich menu (core/setup/rich_menu.py) -----

    def create_rich_menu(self, menu: dict[str, Any]) -> str:
        return str(self._request("POST", "/v2/bot/richmenu", json=menu)["richMenuId"])

    def upload_rich_menu_image(self, rich_menu_id: str, image: bytes, content_type: str = "image/png") -> None:
        # LINE's own API takes the image on its data host; the emulator or a configured address takes it itself.
        host = DATA_BASE_URL if self.base_url == DEFAULT_BASE_URL else self.base_url
        self._request("POST", f"{host}/v2/bot/richmenu/{rich_menu_id}/content", content=image,
                      headers={"Content-Type": content_type})

    def set_default_rich_menu(self, rich_menu_id: str) -> None:
        self._request("POST", f"/v2/bot/user/all/richmenu/{rich_menu_id}", content=b"")

    def default_rich_menu_id(self) -> str | None:
        try:
            return str(self._get("/v2/bot/user/all/richmenu")["richMenuId"])
        except LineApiError as exc:
            if exc.status == 404:  # no default rich menu
                return None
            raise

    def rich_menus(self) -> list[dict[str, Any]]:
        return list(self._get("/v2/bot/richmenu/list").get("richmenus", []))

    def delete_rich_menu(self, rich_menu_id: str) -> None:
        self._request("DELETE", f"/v2/bot/richmenu/{rich_menu_id}")

    def _get(self, path: str, *, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self._request("GET", path, params=params)

    def _request(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.TransportError as exc:
            raise network_failure(exc) from None
        payload = _json(response)
        if not response.is_success:
            raise LineApiError(
                response.status_code,
                str(payload.get("message") or response.reason_phrase),
                request_id=response.headers.get("x-line-request-id"),
                details=_details(payload),
            )
        return payload


def _details(payload: dict[str, Any]) -> tuple[str, ...]:
    out = []
    for item in payload.get("details") or []:
        if isinstance(item, dict):
            prop = item.get("property")
            out.append(f"{prop}: {item.get('message')}" if prop else str(item.get("message")))
    return tuple(out)


def _properties(payload: dict[str, Any]) -> tuple[str, ...]:
    """The request properties LINE's error details name, as LINE wrote them."""
    return tuple(str(item["property"]) for item in payload.get("details") or []
                 if isinstance(item, dict) and item.get("property"))


def encode(outgoing: Outgoing) -> bytes:
    """The body of a LINE push or multicast, as LineClient.send_encoded takes it."""
    messages = list(outgoing.messages)
    if outgoing.endpoint == "multicast":
        return encode_multicast(list(outgoing.to), messages)
    return encode_push(str(outgoing.to), messages)


def send_limited(client: LineClient, bucket: TokenBucket, endpoint: str, body: bytes, retry_key: str) -> SendResult:
    """One LINE request under its endpoint's rate limit. Never raises: a failure is a result to classify."""
    bucket.acquire()
    try:
        result = client.send_encoded(endpoint, body, retry_key=retry_key)
    except Exception as exc:
        log.exception("a LINE request raised")
        result = SendResult(channel=KEY, transport_error=Transport.CONNECTION, message=str(exc)[:300])
    if result.http_status == 429 and classify(result).outcome is Outcome.THROTTLED:
        bucket.slow_down()  # LINE's rate limit: slow down for everyone sending on this endpoint
    return result


def _buckets() -> dict[str, TokenBucket]:
    return {endpoint: TokenBucket(rate) for endpoint, rate in RATE_LIMITS.items()}


@dataclass(frozen=True)
class LineAccess:
    """A usable LINE client plus the fingerprint of the token it was built with: LINE's connection.

    Shared by every pool thread, so one bucket per endpoint keeps all of them under LINE's limits."""

    client: LineClient
    token_fingerprint: str
    buckets: dict[str, TokenBucket] = field(default_factory=_buckets, compare=False, repr=False)

    @property
    def fingerprint(self) -> str:
        return self.token_fingerprint

    def send(self, requests: Sequence[R], report: Callable[[R, SendResult], None], *, time_budget: float) -> None:
        # One request per pool task in practice; each is bounded by the client's timeouts, not the budget.
        for request in requests:
            report(request, self._send_one(request))

    def _send_one(self, request: R) -> SendResult:
        outgoing = request.outgoing
        if outgoing.before_send is not None:
            try:
                outgoing.before_send()
            except RefusedBeforeSend as exc:
                log.warning("preparing delivery %s was refused: %s", request.delivery_id, exc)
                return SendResult(channel=KEY, transport_error=Transport.UPLOAD_REFUSED, message=exc.text)
            except Exception as exc:  # noqa: BLE001 - retried like a network error; LINE was not contacted
                log.warning("preparing delivery %s failed: %s", request.delivery_id, exc)
                return SendResult(channel=KEY, transport_error=Transport.UPLOAD, message=str(exc)[:300])
        assert request.retry_key is not None  # LINE's driver asks for one; the sender issued it
        try:
            body = encode(outgoing)
        except Exception as exc:
            log.exception("encoding delivery %s failed", request.delivery_id)
            return SendResult(channel=KEY, transport_error=Transport.CONNECTION, message=str(exc)[:300])
        return send_limited(self.client, self.buckets[outgoing.endpoint], outgoing.endpoint, body, request.retry_key)

    def close(self) -> None:
        self.client.close()


def access_from_settings(db: Any, *, timeout: httpx.Timeout = DEFAULT_TIMEOUT) -> LineAccess | None:
    """Build the client from the keyring token and the configured API address; None if no token yet.

    Without a long-lived token, a channel ID (setting) and channel secret (keyring) make one that
    issues stateless tokens; its fingerprint is of the ID and secret, so a hold lifts when they change."""
    from core.store import secrets  # the keyring backend loads only when a client is made

    token = secrets.line_token_if_any()
    with db.read() as session:
        channel_id = None if token else keys.LINE_CHANNEL_ID.read(session)
        base = keys.LINE_API_BASE.read(session)
        seconds = keys.SENDER_HTTP_TIMEOUT_SECONDS.read(session)
    if seconds is not None:
        timeout = httpx.Timeout(seconds)
    if token:
        return LineAccess(LineClient(token, base_url=base, timeout=timeout), secrets.fingerprint(token))
    channel_secret = secrets.line_channel_secret() if channel_id else None
    if not channel_id or not channel_secret:
        return None
    from core.channels.line_token import StatelessTokenSource

    source = StatelessTokenSource(channel_id, channel_secret, base_url=resolve_base_url(base), timeout=timeout,
                                  verify=tls_context())
    client = LineClient("", base_url=base, timeout=timeout, auth=source.auth())
    return LineAccess(client, secrets.fingerprint(f"{channel_id}:{channel_secret}"))


class LineDriver:
    """LINE as the sender sees it (core/channels/base.py)."""

    key = KEY
    label = contacts.ADDRESSING[Channel.LINE].label
    title = "LINE"
    address: AddressRule | None = contacts.ADDRESSING[Channel.LINE]  # a user ID: U + 32 hex digits
    needs_consent = True
    # Their words are in TEXTS, in the catalog once the driver is registered.
    cancel_reasons: CancelReasons | None = CancelReasons(
        not_agreed=LineCancel.NOT_OPTED_IN, unreachable=LineCancel.UNREACHABLE, blocked=LineCancel.UNFOLLOWED,
        words={reason: Text(f"cancel.{reason}") for reason in LineCancel})
    batch: int | None = None  # one push or multicast per pool task
    hold_key: HoldSetting | None = keys.LINE_HOLD  # a 401: the token is refused
    hold_title = t("alert.line_held")
    retry_keys = True  # X-Line-Retry-Key: LINE answers 409 for a request it had accepted
    postbacks = True  # postback buttons; a tap comes back as a webhook event (core/receiving)
    texts: Mapping[str, tuple[Template, Template]] = TEXTS
    contact_columns = contacts.COLUMNS[Channel.LINE]  # line_user_id, line_opt_in

    def recipient(self, contact: ContactView) -> str | None:
        return contact.address

    def render(self, session: Session, delivery: Delivery, message: Message, paths: DataPaths) -> Outgoing:
        return line_render.render(session, delivery, message, paths, self)

    def connect(self, db: Database) -> LineAccess | None:
        return access_from_settings(db)

    def classify(self, result: SendResult) -> Verdict:
        return classify(result)

    def failure(self, code: str | None, *, at_recipient: bool, dead: bool) -> ChannelFailure:
        return failure(code, at_recipient=at_recipient, dead=dead)


DRIVER = LineDriver()
