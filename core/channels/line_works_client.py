"""LINE WORKS API 2.0 client (httpx): a service account's access token, a bot's messages to a user
or to a message room (channel), and a file uploaded for a bot's image message. Timeouts are always set;
only HTTPS leaves the machine.

The token: a JWT (iss = the client ID, sub = the service account, iat/exp under an hour apart) signed
RS256 with the service account's private key, exchanged at POST {auth}/oauth2/v2.0/token (grant type
jwt-bearer, with the client ID and secret, scope "bot"). It is kept until shortly before it expires and
asked for again then, and once more when LINE WORKS answers a message with 401 (the token was revoked or
expired early): a 401 means the message was not taken, so the one repeat cannot duplicate it.

Sending calls return a `SendResult` and never raise for LINE WORKS' answers or network failures: the
driver classifies them (core/channels/line_works.py). A refused token request comes back as the token
endpoint's status with "token" as the property at fault, so it holds the channel like a refused token.

An upload (`upload`) is LINE WORKS' content upload: POST /v1.0/bots/{botId}/attachments with the file's
name answers an upload URL and a file ID, both good for 24 hours; the file then goes to the upload URL as
multipart/form-data (field "Filedata") with the same bearer token, once (an upload URL takes one file).
The file ID is kept for the same bytes, so a message sent again after a failure does not upload again.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import quote

import httpx

from core.addresses import secure_or_local
from core.channels.line import tls_context
from core.channels.net import json_object as _json
from core.channels.net import ms_since, short
from core.errors import ValidationError
from core.outbox.policy import SendResult, Transport
from core.texts import t

KEY = "line_works"
DEFAULT_AUTH_BASE = "https://auth.worksmobile.com"
DEFAULT_API_BASE = "https://www.worksapis.com"
AUTH_BASE_ENV = "SHIFTCAST_LINE_WORKS_AUTH_BASE"
API_BASE_ENV = "SHIFTCAST_LINE_WORKS_API_BASE"
TOKEN_PATH = "/oauth2/v2.0/token"
GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer"
SCOPE = "bot"
ASSERTION_SECONDS = 30 * 60  # the JWT's life; LINE WORKS takes at most an hour
RENEW_BEFORE = 5 * 60  # seconds before its expiry a token is replaced
# An upload URL and its file ID are good for 24 hours from the attachments request; a kept file ID is
# used for an hour less, so a message never names one about to lapse.
FILE_ID_SECONDS = 23 * 60 * 60
UPLOAD_FIELD = "Filedata"
DEFAULT_TIMEOUT = httpx.Timeout(connect=5.0, read=15.0, write=15.0, pool=30.0)
# The property a failure is about, for the driver's rules: the token request, the user, the message room.
TOKEN, USER, CHANNEL = "token", "userId", "channelId"


class Credentials(Protocol):
    """What signing in needs (core/channels/line_works_credentials.py WorksCredentials)."""

    @property
    def client_id(self) -> str: ...

    @property
    def client_secret(self) -> str: ...

    @property
    def service_account(self) -> str: ...

    @property
    def private_key(self) -> str: ...

    @property
    def bot_id(self) -> str: ...


@dataclass(frozen=True)
class BaseUrls:
    """Where the token is asked for and where the bot's messages go; the stand-in's address in tests."""

    auth: str = DEFAULT_AUTH_BASE
    api: str = DEFAULT_API_BASE


def resolve_base_urls(auth: str | None = None, api: str | None = None) -> BaseUrls:
    """The environment's addresses, else the given ones, else LINE WORKS itself; HTTPS, or plain HTTP to
    this computer only."""
    return checked_base_urls(BaseUrls((os.environ.get(AUTH_BASE_ENV) or auth or DEFAULT_AUTH_BASE).strip().rstrip("/"),
                                      (os.environ.get(API_BASE_ENV) or api or DEFAULT_API_BASE).strip().rstrip("/")))


def checked_base_urls(urls: BaseUrls) -> BaseUrls:
    for address in (urls.auth, urls.api):
        if not secure_or_local(address):
            raise ValidationError(t("line_works.insecure_base", address=address))
    return urls


class TokenError(Exception):
    """The token request failed: LINE WORKS' status and words, or no answer (`transport`)."""

    def __init__(self, result: SendResult) -> None:
        super().__init__(str(result.message))
        self.result = result


class UploadError(Exception):
    """An upload failed. `result`: what the failure means as a message's answer would, when it means the
    same (the token refused, LINE WORKS' rate limit); None: the upload itself failed and can be tried again."""

    def __init__(self, message: str, result: SendResult | None = None) -> None:
        super().__init__(message)
        self.result = result


@dataclass
class _Token:
    value: str
    expires_at: float  # on the client's clock (time.time)


class WorksClient:
    """One client per set of credentials; safe to share between sender threads."""

    def __init__(self, creds: Credentials, *, base_urls: BaseUrls | None = None,
                 timeout: httpx.Timeout = DEFAULT_TIMEOUT, clock: Callable[[], float] = time.time,
                 max_connections: int = 16) -> None:
        self._creds = creds
        self.base_urls = checked_base_urls(base_urls) if base_urls is not None else resolve_base_urls()
        self._timeout = timeout
        self._clock = clock
        self._max_connections = max_connections
        self._lock = threading.Lock()  # the http client's creation
        self._token_lock = threading.Lock()  # one token request at a time; the others wait for it
        self._token: _Token | None = None
        self._client: httpx.Client | None = None
        self._closed = False
        # One upload at a time: two sends of the same picture wait for the first's file ID, not upload twice.
        self._upload_lock = threading.Lock()
        self._file_ids: dict[str, tuple[str, float]] = {}  # the bytes' SHA-256 → (file ID, used until)
        self.uploads = 0  # files this client uploaded (tests, the log)
        self.tokens_issued = 0  # how many tokens this client asked for (tests, the log)

    @property
    def _http(self) -> httpx.Client:
        with self._lock:
            if self._closed:
                raise RuntimeError("the LINE WORKS client has been closed")
            if self._client is None:
                self._client = httpx.Client(
                    timeout=self._timeout, follow_redirects=False, verify=tls_context(),
                    headers={"User-Agent": "Shiftcast"},
                    limits=httpx.Limits(max_connections=self._max_connections,
                                        max_keepalive_connections=self._max_connections))
            return self._client

    def close(self) -> None:
        with self._lock:
            self._closed = True
            client, self._client = self._client, None
        if client is not None:
            client.close()

    # ----- the token -----

    def assertion(self) -> str:
        """The signed JWT the token request carries."""
        import jwt

        now = int(self._clock())
        claims = {"iss": self._creds.client_id, "sub": self._creds.service_account, "iat": now,
                  "exp": now + ASSERTION_SECONDS}
        return jwt.encode(claims, self._creds.private_key, algorithm="RS256")

    def token(self, *, renew: bool = False, refused: str | None = None) -> str:
        """The access token, asked for when there is none, it is about to expire, or `renew`; raises
        TokenError. `refused`: the token LINE WORKS just refused — replaced unless another thread already did."""
        with self._token_lock:
            held = self._token
            fresh = held is not None and self._clock() < held.expires_at - RENEW_BEFORE
            if held is not None and fresh and not renew and held.value != refused:
                return held.value
            self._token = None
            self._token = self._issue()
            return self._token.value

    def _issue(self) -> _Token:
        started = time.perf_counter()
        try:
            assertion = self.assertion()
        except Exception as exc:  # noqa: BLE001 - a key PyJWT cannot sign with: the credentials are wrong
            raise TokenError(SendResult(channel=KEY, http_status=400, message=f"cannot sign the JWT: {short(exc)}",
                                        properties_at_fault=(TOKEN,))) from None
        form = {"assertion": assertion, "grant_type": GRANT_TYPE, "client_id": self._creds.client_id,
                "client_secret": self._creds.client_secret, "scope": SCOPE}
        try:
            response = self._http.post(self.base_urls.auth + TOKEN_PATH, data=form)
        except httpx.TimeoutException as exc:
            raise TokenError(SendResult(channel=KEY, transport_error=Transport.TIMEOUT, message=short(exc),
                                        duration_ms=ms_since(started))) from None
        except httpx.TransportError as exc:
            raise TokenError(SendResult(channel=KEY, transport_error=Transport.CONNECTION, message=short(exc),
                                        duration_ms=ms_since(started))) from None
        payload = _json(response)
        value = payload.get("access_token")
        if not response.is_success or not isinstance(value, str) or not value:
            words = payload.get("error_description") or payload.get("error") or payload.get("description")
            raise TokenError(SendResult(
                channel=KEY, http_status=response.status_code if not response.is_success else 502,
                message=f"token: {words or response.reason_phrase}", duration_ms=ms_since(started),
                properties_at_fault=(TOKEN,)))
        try:
            lifetime = float(payload.get("expires_in") or 3600)  # LINE WORKS writes it as a string
        except (TypeError, ValueError):
            lifetime = 3600.0
        self.tokens_issued += 1
        return _Token(value, self._clock() + lifetime)

    def check(self) -> None:
        """Get a new token (the Settings screen's test); raises a ValidationError that says why not."""
        try:
            self.token(renew=True)
        except TokenError as failed:
            result = failed.result
            if result.transport_error is Transport.TIMEOUT:
                raise ValidationError(t("line_works.timeout")) from None
            if result.transport_error is not None:
                raise ValidationError(t("line_works.no_connection", detail=str(result.message or ""))) from None
            raise ValidationError(t("line_works.token_refused", status=result.http_status or 0,
                                    said=str(result.message or ""))) from None

    # ----- sending -----

    def send_to_user(self, user_id: str, content: dict[str, Any]) -> SendResult:
        """The bot's message to one member (a 1:1 talk with the bot)."""
        return self._send(f"/v1.0/bots/{quote(self._creds.bot_id, safe='')}/users/{quote(user_id, safe='@.')}/messages",
                          content, USER)

    def send_to_channel(self, channel_id: str, content: dict[str, Any]) -> SendResult:
        """The bot's message to a message room it is in."""
        return self._send(f"/v1.0/bots/{quote(self._creds.bot_id, safe='')}/channels/{quote(channel_id, safe='')}/messages",
                          content, CHANNEL)

    def _send(self, path: str, content: dict[str, Any], target: str) -> SendResult:
        body = json.dumps({"content": content}, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
        started = time.perf_counter()
        try:
            response = self._post(self.base_urls.api + path, content=body,
                                  headers={"Content-Type": "application/json; charset=UTF-8"})
        except TokenError as failed:
            return failed.result
        except httpx.TimeoutException as exc:
            return SendResult(channel=KEY, transport_error=Transport.TIMEOUT, message=short(exc),
                              duration_ms=ms_since(started))
        except httpx.TransportError as exc:
            return SendResult(channel=KEY, transport_error=Transport.CONNECTION, message=short(exc),
                              duration_ms=ms_since(started))
        return SendResult(
            channel=KEY, http_status=response.status_code,
            message=None if response.is_success else _said(response),
            duration_ms=ms_since(started),
            properties_at_fault=() if response.is_success else (target,))

    def _post(self, url: str, **request: Any) -> httpx.Response:
        """POST with the access token; once more with a new token when it is answered 401 (not taken).
        Raises TokenError, or httpx's errors when there is no answer."""
        headers = dict(request.pop("headers", {}))
        refused: str | None = None
        while True:
            token = self.token(refused=refused)
            response = self._http.post(url, headers={**headers, "Authorization": f"Bearer {token}"}, **request)
            if response.status_code == 401 and refused is None:
                refused = token
                continue
            return response

    # ----- uploading -----

    def upload(self, data: bytes, file_name: str, *, pace: Callable[[], None] = lambda: None) -> str:
        """The file ID of `data` for the bot's messages: uploaded under `file_name`, or the ID kept from
        an upload of the same bytes. `pace` is called before each request (the rate limit). Raises UploadError."""
        digest = hashlib.sha256(data).hexdigest()
        with self._upload_lock:
            kept = self._file_ids.get(digest)
            if kept is not None and self._clock() < kept[1]:
                return kept[0]
            asked_at = self._clock()
            file_id = self._upload(data, file_name, pace)
            self._file_ids[digest] = (file_id, asked_at + FILE_ID_SECONDS)
            self.uploads += 1
            return file_id

    def _upload(self, data: bytes, file_name: str, pace: Callable[[], None]) -> str:
        path = f"/v1.0/bots/{quote(self._creds.bot_id, safe='')}/attachments"
        started = time.perf_counter()
        try:
            pace()
            asked = self._post(self.base_urls.api + path, json={"fileName": file_name})
            if not asked.is_success:
                raise _refused("attachments", asked, started)
            payload = _json(asked)
            upload_url, file_id = payload.get("uploadUrl"), payload.get("fileId")
            if not isinstance(upload_url, str) or not isinstance(file_id, str) or not file_id:
                raise UploadError("attachments: the answer has no upload URL or file ID")
            if not secure_or_local(upload_url):
                raise UploadError(f"attachments: the upload URL is not HTTPS: {upload_url[:100]}")
            pace()
            sent = self._post(upload_url, files={UPLOAD_FIELD: (file_name, data, _media_type(file_name))})
            if not sent.is_success:
                raise _refused("upload", sent, started)
            return file_id
        except TokenError as failed:
            raise UploadError(str(failed), failed.result) from None
        except httpx.TransportError as exc:  # a timeout too: nothing shown to anyone, tried again
            raise UploadError(f"upload: {short(exc)}") from None


def _said(response: httpx.Response) -> str:
    payload = _json(response)
    return " ".join(str(payload[k]) for k in ("code", "description") if payload.get(k)) or response.reason_phrase


def _refused(step: str, response: httpx.Response, started: float) -> UploadError:
    """A refused upload request: a 401 after a new token (held), or a 429 (slowed down), means what it
    means for a message; anything else is the upload's failure."""
    words = f"{step}: HTTP {response.status_code} {_said(response)}"
    if response.status_code in (401, 429):
        return UploadError(words, SendResult(channel=KEY, http_status=response.status_code, message=words,
                                             duration_ms=ms_since(started)))
    return UploadError(words)


def _media_type(file_name: str) -> str:
    return {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg"}.get(
        file_name.rpartition(".")[2].lower(), "application/octet-stream")
