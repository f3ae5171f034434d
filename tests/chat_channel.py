"""A channel Shiftcast does not ship, written here as a new channel would be: one driver, registered
with one call (core/channels/registry.py `register_channel`), and nothing changed in core.

"Chat" posts any kind's message to a teacher as its text, in JSON (`{"text": …}`), to the
incoming-webhook address on their chat contact, as a chat room's incoming webhook takes them: the
kinds say what they say once (core/messages/message.py), and this driver's `render` is all it adds. `ChatRoom` is such a
room: a small real HTTP server on loopback that keeps every body it accepted, and answers with the
status a test asks for.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import MappingProxyType
from typing import Any

import httpx
from sqlalchemy.orm import Session

from core.addresses import secure_or_local
from core.channels import addressing
from core.channels.base import AddressRule, CancelReasons, Outgoing, R
from core.errors import ValidationError
from core.messages.message import Audience, Message
from core.outbox import policy
from core.outbox.policy import ChannelFailure, ErrorCode, Outcome, SendResult, Transport, Verdict
from core.roster.contacts import ContactColumn, ContactView
from core.store.db import Database
from core.store.models import Delivery
from core.store.paths import DataPaths
from core.store.settings import HoldSetting
from core.texts import Text, t
from core.texts.template import Template

KEY = "chat"
NOT_AGREED = "CHAT_NOT_AGREED"
UNREACHABLE = "CHAT_UNREACHABLE"


# ----- the room -----


class ChatRoom:
    """A chat room's incoming webhook on loopback: every JSON body it accepted, in order."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.answer = 200  # the status it answers with
        self._lock = threading.Lock()
        room = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                if room.answer == 200:
                    with room._lock:
                        room.bodies.append(body)
                self.send_response(room.answer)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hooks/teacher"
        self._thread = threading.Thread(target=self._server.serve_forever, name="chat-room", daemon=True)

    @property
    def texts(self) -> list[str]:
        with self._lock:
            return [str(body.get("text")) for body in self.bodies]

    @contextmanager
    def running(self) -> Iterator[ChatRoom]:
        self._thread.start()
        try:
            yield self
        finally:
            self._server.shutdown()
            self._server.server_close()


# ----- the driver -----


class ChatAddress:
    """A chat room's incoming-webhook address: HTTPS, or plain HTTP to this computer."""

    def check(self, text: str | None) -> str | None:
        value = (text or "").strip()
        if not value:
            return None
        if not secure_or_local(value):
            raise ValidationError(t("text.plain", text=f"not a chat webhook address: {value}"))
        return value


class ChatConnection:
    def __init__(self) -> None:
        self._client = httpx.Client(timeout=10.0)
        self.fingerprint: str | None = None  # no credentials: nothing to hold

    def send(self, requests: Sequence[R], report: Callable[[R, SendResult], None], *, time_budget: float) -> None:
        for request in requests:
            try:
                answer = self._client.post(str(request.outgoing.to), json=request.outgoing.messages[0])
            except httpx.HTTPError as exc:
                report(request, SendResult(channel=KEY, transport_error=Transport.CONNECTION, message=str(exc)))
                continue
            report(request, SendResult(channel=KEY, http_status=answer.status_code, duration_ms=1))

    def close(self) -> None:
        self._client.close()


class ChatDriver:
    key = KEY
    label: Text = t("text.plain", text="Chat")
    title = "Chat"
    address: AddressRule | None = ChatAddress()
    needs_consent = True
    cancel_reasons: CancelReasons | None = CancelReasons(
        not_agreed=NOT_AGREED, unreachable=UNREACHABLE,
        words={NOT_AGREED: t("text.plain", text="the teacher has not agreed to chat messages"),
               UNREACHABLE: t("text.plain", text="the chat room did not take the message; sent another way")})
    batch: int | None = None
    hold_key: HoldSetting | None = None
    hold_title: Text = t("text.plain", text="Chat is held")
    retry_keys = False
    postbacks = False
    contact_columns = (ContactColumn("chat_url", ("Chat URL",)),)  # a teachers file's column for the room's address
    # Its own error codes' words, in the catalog while it is registered.
    texts: Mapping[str, tuple[Template, Template]] = MappingProxyType({
        "send_error.CHAT_GONE": ("no such chat room (HTTP {status}){said}", "チャットルームがありません（HTTP {status}）{said}"),
        "send_error.CHAT_BUSY": ("the chat service is busy (HTTP {status}){said}",
                                 "チャットのサービスが混み合っています（HTTP {status}）{said}"),
        "send_error.CHAT_REFUSED": ("the chat service refused the message (HTTP {status}){said}",
                                    "チャットのサービスがメッセージを受け付けませんでした（HTTP {status}）{said}"),
    })

    def recipient(self, contact: ContactView) -> str | None:
        return contact.address

    def render(self, session: Session, delivery: Delivery, message: Message, paths: DataPaths) -> Outgoing:
        """Any kind's message as its text, to the teacher's room; a chat room is a teacher's alone."""
        if message.audience is not Audience.TEACHER:
            raise addressing.unsupported(delivery)
        return Outgoing("chat", addressing.teacher_address(session, delivery, self)[1], ({"text": message.text},))

    def connect(self, db: Database) -> ChatConnection:
        return ChatConnection()

    def classify(self, result: SendResult) -> Verdict:
        if result.transport_error is not None:
            return Verdict(Outcome.RETRY, ErrorCode.CONNECTION, _said(str(result.message or "no answer")))
        status = result.http_status or 0
        if 200 <= status < 300:
            return Verdict(Outcome.SENT)
        if status == 404:  # the room is gone: the teacher cannot be reached there
            return policy.failed(Outcome.FAILED, "CHAT_GONE", result, at_recipient=True)
        if status >= 500:
            return policy.failed(Outcome.RETRY, "CHAT_BUSY", result)
        return policy.failed(Outcome.FAILED, "CHAT_REFUSED", result)

    def failure(self, code: str | None, *, at_recipient: bool, dead: bool) -> ChannelFailure:
        if code == "CHAT_GONE":  # the room is gone: the next channel, and remember it for the next messages
            return ChannelFailure(True, True)
        return policy.failure(code, dead=dead)


def _said(words: str) -> Text:
    return t("text.plain", text=words)
