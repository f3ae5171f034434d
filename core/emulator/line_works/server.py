"""WorksStandIn: LINE WORKS' token endpoint, bot message endpoints and content upload on loopback, a
thread per request.

The tests steer it: members and message rooms it knows, a member the bot may not talk to (403), the
rate limit, answers to force on the next requests, tokens to revoke, and gates that hold requests —
before the token endpoint answers, before a message request is looked at, or after a message was taken
with the answer not yet sent — so a test can stop the sender at exactly that moment. Callbacks go out signed with the bot secret, as LINE WORKS signs them.
"""

from __future__ import annotations

import base64
import datetime as dt
import email.parser
import email.policy
import hashlib
import hmac
import json
import re
import secrets
import threading
import time
import urllib.request
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, quote, unquote

from core.emulator.line_works.validation import Invalid, check_attachment, check_message

TOKEN_PATH = "/oauth2/v2.0/token"
GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer"
_MESSAGES = re.compile(r"/v1\.0/bots/([^/]+)/(users|channels)/([^/]+)/messages")
_ATTACHMENTS = re.compile(r"/v1\.0/bots/([^/]+)/attachments")
_UPLOAD = re.compile(r"/storage/upload/([A-Za-z0-9_-]+)/[^/]+")  # the upload URL the attachments request gives
UPLOAD_FIELD = "Filedata"
FILE_SECONDS = 24 * 60 * 60  # an upload URL and its file ID are good for 24 hours
ASSERTION_MAX_SECONDS = 3600
_LEEWAY = 60  # seconds of clock difference a JWT's times may have
_GATE_WAIT = 120.0  # a held request gives up waiting after this (a test that forgot to release)


@dataclass(frozen=True)
class WorksApp:
    """The app, its service account and its bot, as the Developer Console would show them."""

    client_id: str
    client_secret: str
    service_account: str
    public_key: str  # PEM of the service account's key pair
    bot_id: str
    bot_secret: str
    domain_id: int = 40029600


@dataclass(frozen=True)
class Accepted:
    """A message the stand-in took: to a member ("users") or a room ("channels")."""

    target: str
    to: str
    content: dict[str, Any]
    at: float


@dataclass
class Gate:
    """Where a request can be held until a test lets it go on; `waiting` counts those held now."""

    open: threading.Event = field(default_factory=threading.Event)
    waiting: int = 0

    def __post_init__(self) -> None:
        self.open.set()


class WorksStandIn:
    def __init__(self, app: WorksApp, *, rate_per_minute: int = 240, token_seconds: int = 86400,
                 clock: Callable[[], float] = time.time) -> None:
        self.app = app
        self.rate_per_minute = rate_per_minute
        self.token_seconds = token_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._users: set[str] = set()
        self._forbidden: set[str] = set()
        self._channels: set[str] = set()
        self._tokens: dict[str, float] = {}  # token → when it expires
        self._calls: dict[str, deque[float]] = {"users": deque(), "channels": deque()}
        self._forced: deque[tuple[int, dict[str, Any]]] = deque()
        self.accepted: list[Accepted] = []
        self._pending: dict[str, tuple[str, float]] = {}  # an unused upload URL's key → (file ID, lapses at)
        self._lapses: dict[str, float] = {}  # an uploaded file's ID → when it lapses
        self.files: dict[str, bytes] = {}  # an uploaded file's ID → its bytes
        self.attachment_requests = 0
        self._failed_uploads: deque[int] = deque()
        self.tokens_issued = 0
        self.token_requests = 0
        self.log: list[tuple[str, str, int]] = []  # method, path, status
        self.before_taking = Gate()
        self.after_taking = Gate()
        self.before_token = Gate()
        self.callback_url: str | None = None
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="works-standin", daemon=True)

    # ----- running -----

    def start(self) -> WorksStandIn:
        self._thread.start()
        return self

    def stop(self) -> None:
        for gate in (self.before_taking, self.after_taking, self.before_token):
            gate.open.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> WorksStandIn:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    # ----- what a test sets -----

    def add_user(self, user_id: str, *, reachable: bool = True) -> None:
        with self._lock:
            self._users.add(user_id)
            (self._forbidden.discard if reachable else self._forbidden.add)(user_id)

    def add_channel(self, channel_id: str) -> None:
        with self._lock:
            self._channels.add(channel_id)

    def force(self, status: int, body: dict[str, Any] | None = None, *, times: int = 1) -> None:
        """The next `times` message requests are answered with this, taking nothing."""
        with self._lock:
            self._forced.extend([(status, body or {"code": "FORCED", "description": "as the test asked"})] * times)

    def fail_uploads(self, status: int = 500, *, times: int = 1) -> None:
        """The next `times` files sent to an upload URL are answered with this, keeping nothing (the
        upload URL stays usable)."""
        with self._lock:
            self._failed_uploads.extend([status] * times)

    def picture(self, content: dict[str, Any]) -> bytes:
        """The bytes of the file an image message names by its fileId."""
        with self._lock:
            return self.files[content["fileId"]]

    def revoke_tokens(self) -> None:
        with self._lock:
            self._tokens.clear()

    def hold(self, gate: Gate) -> None:
        gate.open.clear()

    def release(self, gate: Gate) -> None:
        gate.open.set()

    def wait_held(self, gate: Gate, count: int, timeout: float) -> bool:
        """Whether `count` requests are waiting at `gate` within `timeout` seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: gate.waiting >= count, timeout)

    def wait_answered(self, status: int, count: int, timeout: float) -> bool:
        """Whether `count` message requests have been answered with `status` within `timeout` seconds."""
        with self._changed:
            return self._changed.wait_for(
                lambda: sum(1 for _, path, said in self.log if said == status and path != TOKEN_PATH) >= count, timeout)

    def wait_accepted(self, count: int, timeout: float) -> list[Accepted]:
        with self._changed:
            self._changed.wait_for(lambda: len(self.accepted) >= count, timeout)
            return list(self.accepted)

    def to(self, recipient: str) -> list[dict[str, Any]]:
        with self._lock:
            return [a.content for a in self.accepted if a.to == recipient]

    # ----- callbacks -----

    def sign(self, body: bytes) -> str:
        digest = hmac.new(self.app.bot_secret.encode("utf-8"), body, hashlib.sha256).digest()
        return base64.b64encode(digest).decode("ascii")

    def post_callback(self, event: dict[str, Any], *, signature: str | None = None) -> int:
        """POST one event to the callback address, signed (or with the signature given); the status."""
        if self.callback_url is None:
            raise RuntimeError("no callback address set")
        body = json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        request = urllib.request.Request(self.callback_url, data=body, method="POST", headers={
            "Content-Type": "application/json; charset=UTF-8", "X-WORKS-BotId": self.app.bot_id,
            "X-WORKS-Signature": signature if signature is not None else self.sign(body)})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return int(answer.status)
        except urllib.error.HTTPError as refused:
            return int(refused.code)

    def _event(self, kind: str, user_id: str, channel_id: str | None, **rest: Any) -> dict[str, Any]:
        source: dict[str, Any] = {"userId": user_id, "domainId": self.app.domain_id}
        if channel_id is not None:
            source["channelId"] = channel_id
        stamp = dt.datetime.fromtimestamp(self._clock(), dt.UTC)
        return {"type": kind, "source": source, "issuedTime": stamp.strftime("%Y-%m-%dT%H:%M:%S.") +
                f"{stamp.microsecond // 1000:03d}Z", **rest}

    def tap(self, user_id: str, label: str, *, channel_id: str | None = None) -> int:
        """The member taps the button `label` of the newest message that has one (to them, or to the
        room): a message action sends a message event carrying the button's postback."""
        where = channel_id or user_id
        with self._lock:
            found = next((a for a in reversed(self.accepted) if a.to == where and a.content.get("type") ==
                          "button_template" and any(b.get("label") == label for b in a.content["actions"])), None)
        if found is None:
            raise LookupError(f"no message to {where} has a button {label!r}")
        action = next(b for b in found.content["actions"] if b.get("label") == label)
        content = {"type": "text", "text": action.get("text") or label}
        if "postback" in action:
            content["postback"] = action["postback"]
        return self.post_callback(self._event("message", user_id, channel_id, content=content))

    def postback(self, user_id: str, data: str, *, channel_id: str | None = None) -> int:
        """A postback event (a carousel's or a menu's postback action)."""
        return self.post_callback(self._event("postback", user_id, channel_id, data=data))

    # ----- the endpoints -----

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                path = self.path.split("?")[0]
                if path == TOKEN_PATH:
                    status, body = standin._token(raw)
                elif (found := _MESSAGES.fullmatch(path)) is not None:
                    status, body = standin._message(self.headers.get("Authorization"), found.groups(), raw)
                elif (found := _ATTACHMENTS.fullmatch(path)) is not None:
                    status, body = standin._attachment(self.headers.get("Authorization"), unquote(found[1]), raw)
                elif (found := _UPLOAD.fullmatch(path)) is not None:
                    status, body = standin._upload(self.headers.get("Authorization"), found[1],
                                                   self.headers.get("Content-Type") or "", raw)
                else:
                    status, body = 404, {"code": "NOT_FOUND", "description": f"no endpoint {path}"}
                with standin._changed:
                    standin.log.append(("POST", path, status))
                    standin._changed.notify_all()
                if status == 201 and body.get("_taken"):
                    standin._wait(standin.after_taking)
                    body = {}
                payload = json.dumps(body).encode() if body else b""
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass  # the client went away while its answer was held

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
                pass

        return Handler

    def _wait(self, gate: Gate) -> None:
        with self._changed:
            gate.waiting += 1
            self._changed.notify_all()
        try:
            gate.open.wait(_GATE_WAIT)
        finally:
            with self._changed:
                gate.waiting -= 1
                self._changed.notify_all()

    def _token(self, raw: bytes) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self.token_requests += 1
        self._wait(self.before_token)
        form = {k: v[0] for k, v in parse_qs(raw.decode("utf-8", "replace")).items()}
        if form.get("grant_type") != GRANT_TYPE:
            return 400, {"error": "unsupported_grant_type", "error_description": "grant_type must be jwt-bearer"}
        if form.get("client_id") != self.app.client_id or not hmac.compare_digest(
                form.get("client_secret", "").encode(), self.app.client_secret.encode()):
            return 401, {"error": "invalid_client", "error_description": "unknown client or wrong secret"}
        if "bot" not in form.get("scope", "").replace(",", " ").split():
            return 400, {"error": "invalid_scope", "error_description": "the scope bot is required"}
        problem = self._assertion_problem(form.get("assertion", ""))
        if problem is not None:
            return 400, {"error": "invalid_grant", "error_description": problem}
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._tokens[token] = self._clock() + self.token_seconds
            self.tokens_issued += 1
        return 200, {"access_token": token, "refresh_token": secrets.token_urlsafe(32), "scope": form["scope"],
                     "token_type": "Bearer", "expires_in": str(self.token_seconds)}

    def _assertion_problem(self, assertion: str) -> str | None:
        import jwt

        try:
            claims = jwt.decode(assertion, self.app.public_key, algorithms=["RS256"],
                                options={"require": ["iss", "sub", "iat", "exp"], "verify_exp": False,
                                         "verify_iat": False})
        except jwt.InvalidTokenError as exc:
            return f"the assertion is not valid: {exc}"
        now = self._clock()
        if claims["iss"] != self.app.client_id:
            return "iss is not the client ID"
        if claims["sub"] != self.app.service_account:
            return "sub is not the service account"
        iat, exp = claims["iat"], claims["exp"]
        if not isinstance(iat, int) or not isinstance(exp, int) or exp <= iat or exp - iat > ASSERTION_MAX_SECONDS:
            return "exp must be after iat, at most an hour later"
        if exp < now - _LEEWAY or iat > now + _LEEWAY:
            return "the assertion has expired or is not valid yet"
        return None

    def _authorized(self, authorization: str | None, now: float) -> bool:
        """Whether the request carries a live access token ("Bearer …"); called holding the lock."""
        token = (authorization or "").removeprefix("Bearer ").strip()
        expires = self._tokens.get(token)
        return expires is not None and expires > now

    def _attachment(self, authorization: str | None, bot: str, raw: bytes) -> tuple[int, dict[str, Any]]:
        """A content upload request: an upload URL and a file ID for the file's name."""
        now = self._clock()
        with self._lock:
            self.attachment_requests += 1
            if not self._authorized(authorization, now):
                return 401, {"code": "UNAUTHORIZED", "description": "the access token is missing, expired or revoked"}
            if bot != self.app.bot_id:
                return 404, {"code": "NOT_FOUND", "description": "no such bot"}
        try:
            name = check_attachment(json.loads(raw or b"null"))
        except (ValueError, Invalid) as exc:
            return 400, {"code": "INVALID_PARAMETER", "description": str(exc)}
        key = secrets.token_urlsafe(16)
        lapses = now + FILE_SECONDS
        file_id = f"jp1.{secrets.randbits(60)}.{int(lapses)}.0.{bot}.0.0.0"  # the shape LINE WORKS' IDs have
        with self._lock:
            self._pending[key] = (file_id, lapses)
        return 200, {"fileId": file_id, "uploadUrl": f"{self.base_url}/storage/upload/{key}/{quote(name, safe='')}"}

    def _upload(self, authorization: str | None, key: str, content_type: str, raw: bytes) -> tuple[int, dict[str, Any]]:
        """A file sent to an upload URL: multipart/form-data, the file in the field "Filedata", with the
        bearer token; an upload URL takes one file."""
        now = self._clock()
        with self._lock:
            if not self._authorized(authorization, now):
                return 401, {"code": "UNAUTHORIZED", "description": "the access token is missing, expired or revoked"}
            pending = self._pending.get(key)
            if pending is None or pending[1] <= now:
                return 404, {"code": "NOT_FOUND", "description": "no such upload URL, or it was used or has lapsed"}
            if self._failed_uploads:
                return self._failed_uploads.popleft(), {"code": "FORCED", "description": "as the test asked"}
        data = _form_file(content_type, raw, UPLOAD_FIELD)
        if data is None:
            return 400, {"code": "INVALID_PARAMETER", "description": f"multipart/form-data with a file in {UPLOAD_FIELD}"}
        with self._changed:
            if self._pending.pop(key, None) is None:
                return 404, {"code": "NOT_FOUND", "description": "the upload URL was used"}
            file_id, lapses = pending
            self.files[file_id] = data
            self._lapses[file_id] = lapses
            self._changed.notify_all()
        return 200, {"fileId": file_id}

    def _message(self, authorization: str | None, ids: tuple[str, ...], raw: bytes) -> tuple[int, dict[str, Any]]:
        self._wait(self.before_taking)
        bot, target, to = (unquote(part) for part in ids)
        now = self._clock()
        with self._lock:
            if not self._authorized(authorization, now):
                return 401, {"code": "UNAUTHORIZED", "description": "the access token is missing, expired or revoked"}
            if self._forced:
                return self._forced.popleft()
            calls = self._calls[target]
            while calls and calls[0] <= now - 60:
                calls.popleft()
            if len(calls) >= self.rate_per_minute:
                return 429, {"code": "TOO_MANY_REQUESTS", "description": "API rate limit exceeded"}
            calls.append(now)
            if bot != self.app.bot_id:
                return 404, {"code": "NOT_FOUND", "description": "no such bot"}
            files = {file_id for file_id, lapses in self._lapses.items() if lapses > now}
        try:
            content = check_message(json.loads(raw or b"null"), files)
        except (ValueError, Invalid) as exc:
            return 400, {"code": "INVALID_PARAMETER", "description": str(exc)}
        with self._changed:
            if target == "users" and to not in self._users:
                return 404, {"code": "NOT_FOUND", "description": "no such user"}
            if target == "users" and to in self._forbidden:
                return 403, {"code": "FORBIDDEN", "description": "the bot may not talk to this user"}
            if target == "channels" and to not in self._channels:
                return 404, {"code": "NOT_FOUND", "description": "no such channel"}
            self.accepted.append(Accepted(target, to, content, now))
            self._changed.notify_all()
        return 201, {"_taken": True}


def _form_file(content_type: str, raw: bytes, name: str) -> bytes | None:
    """The bytes of the file in form field `name` of a multipart/form-data body, or None."""
    if not content_type.lower().startswith("multipart/form-data") or "boundary=" not in content_type:
        return None
    form = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + raw)
    if not form.is_multipart():
        return None
    for part in form.iter_parts():
        if part.get_param("name", header="content-disposition") == name and part.get_filename():
            data = part.get_payload(decode=True)
            return data if isinstance(data, bytes) and data else None
    return None
