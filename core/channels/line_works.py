"""LINE WORKS (the business edition of LINE) as a channel: its driver (core/channels/base.py).

A teacher is a member of the company's LINE WORKS, so there is no pairing: the manager types their
LINE WORKS ID (their login ID, name@domain, or their user ID) and the bot talks to them 1:1. A
classroom's group messages go to its message room (core/channels/line_works_rooms.py). The client is
core/channels/line_works_client.py, the credentials core/channels/line_works_credentials.py.

`render` turns a kind's channel-neutral Message into the bot's content: a button template (the text,
and a button per action: a message action carrying the action's postback data — 了解 comes back to the
receiver's LINE WORKS callback, core/receiving/line_works_callback.py — or a link) when the message has
actions; a picture (the month's wide grid) when it has one and no actions: ONE image message, its file
uploaded to the bot's storage on the send thread just before (`PictureUpload`), its words left out (the
picture shows the classroom, the month and the revision; docs/line_works.md says why); else text.

LINE WORKS has no retry key: a request whose answer was lost may have been taken, and sending it again
may reach the teacher twice. The sender records each attempt before its request leaves and retries a
timeout or a dropped connection as e-mail does (docs/reliability.md says what that leaves).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import Any

import httpx
from sqlalchemy.orm import Session

from core.channels import addressing
from core.channels import line_works_credentials as credentials
from core.channels.base import AddressRule, CancelReasons, Outgoing, R, RefusedBeforeSend
from core.channels.build_errors import CancelDelivery
from core.channels.line_works_client import KEY, TOKEN, USER, UploadError, WorksClient
from core.channels.line_works_ids import check_user_id
from core.channels.line_works_rooms import room_of
from core.channels.ratelimit import TokenBucket
from core.messages import ack
from core.messages.message import ActionKind, Audience, Message, Picture
from core.outbox import policy
from core.outbox.policy import ChannelFailure, Outcome, SendResult, Transport, Verdict
from core.roster.contacts import ContactColumn, ContactView
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Delivery
from core.store.paths import DataPaths
from core.store.settings import HoldSetting
from core.texts import Text, t
from core.texts.catalog import register_catalog
from core.texts.template import Template

log = logging.getLogger(__name__)

# LINE WORKS' published rate limit: 240 requests a minute for each API on the paid plans (60 on the
# free plan, whose 429s slow the sender down and cost no retries). One bucket per endpoint.
RATE_PER_SECOND = 240 / 60
ANSWERED = f"{ack.PREFIX}:"  # the postbacks its callback handles
TEXT_MAX = 2000
CONTENT_TEXT_MAX = 1000
ACTIONS_MAX = 10
LABEL_MAX = 20
POSTBACK_MAX = 300
URI_MAX = 1000

# Its error codes and cancel reasons (plain strings; their words below).
AUTH_FAILED = "LINE_WORKS_AUTH"
BAD_REQUEST = "LINE_WORKS_400"
FORBIDDEN = "LINE_WORKS_403"
NOT_FOUND = "LINE_WORKS_404"
CLIENT_ERROR = "LINE_WORKS_4XX"
SERVER_ERROR = "LINE_WORKS_5XX"
RATE_LIMITED = policy.ErrorCode.RATE_LIMITED.value  # the words every channel shares
NO_ID = "LINE_WORKS_NO_ID"
UNREACHABLE = "LINE_WORKS_UNREACHABLE"
NO_ROOM = "LINE_WORKS_NO_ROOM"

TEXTS: Mapping[str, tuple[Template, Template]] = MappingProxyType({
    f"send_error.{AUTH_FAILED}": ("LINE WORKS refused the app's credentials (HTTP {status}){said}",
                                  "LINE WORKSがアプリの認証情報を受け付けませんでした（HTTP {status}）{said}"),
    f"send_error.{BAD_REQUEST}": ("LINE WORKS refused the message as invalid (HTTP {status}){said}",
                                  "LINE WORKSがメッセージを不正として受け付けませんでした（HTTP {status}）{said}"),
    f"send_error.{FORBIDDEN}": ("LINE WORKS does not let the bot send this (HTTP {status}){said}",
                                "LINE WORKSがBotからの送信を許可していません（HTTP {status}）{said}"),
    f"send_error.{NOT_FOUND}": ("LINE WORKS does not know this member or message room (HTTP {status}){said}",
                                "LINE WORKSにこのメンバーまたはトークルームが見つかりません（HTTP {status}）{said}"),
    f"send_error.{CLIENT_ERROR}": ("LINE WORKS refused the request (HTTP {status}){said}",
                                   "LINE WORKSがリクエストを受け付けませんでした（HTTP {status}）{said}"),
    f"send_error.{SERVER_ERROR}": ("LINE WORKS had a server error (HTTP {status}){said}",
                                   "LINE WORKSでサーバーエラーが発生しました（HTTP {status}）{said}"),
    f"cancel.{NO_ID}": ("the teacher has no LINE WORKS ID", "講師のLINE WORKS IDが登録されていません"),
    f"cancel.{UNREACHABLE}": ("LINE WORKS could not reach the teacher; sent another way instead",
                              "LINE WORKSで講師に届かなかったため、別の方法で送信しました"),
    f"cancel.{NO_ROOM}": ("the classroom has no LINE WORKS message room", "教室にLINE WORKSのトークルームが設定されていません"),
})
register_catalog(TEXTS)  # its words are known wherever the driver is

class WorksAddress:
    """A teacher's LINE WORKS ID (core/channels/line_works_ids.py)."""

    def check(self, text: str | None) -> str | None:
        return check_user_id(text)


def content_of(message: Message) -> dict[str, Any]:
    """The bot's content for a message: a button template when it has actions, else text."""
    text = message.text
    buttons = [b for b in (_button(a.label, a.data, a.kind) for a in message.actions) if b is not None][:ACTIONS_MAX]
    if buttons and len(text) <= CONTENT_TEXT_MAX:
        return {"type": "button_template", "contentText": text, "actions": buttons}
    if buttons:  # too long for a template's body: the whole text, its links written out, without buttons
        log.warning("a %s message is too long for LINE WORKS buttons; sent as text", message.kind)
        links = [f"{a.label}: {a.data}" for a in message.actions if a.kind is ActionKind.LINK]
        text = "\n".join((text, *links))
    return {"type": "text", "text": text if len(text) <= TEXT_MAX else text[:TEXT_MAX - 1] + "…"}


def _button(label: str, data: str, kind: ActionKind) -> dict[str, Any] | None:
    label = label if len(label) <= LABEL_MAX else label[:LABEL_MAX - 1] + "…"
    if kind is ActionKind.LINK:
        return {"type": "uri", "label": label, "uri": data} if len(data) <= URI_MAX else None
    if len(data) > POSTBACK_MAX:
        log.warning("a button's data is longer than LINE WORKS carries; the button is left out")
        return None
    if not data.startswith(ANSWERED):
        # Its callback answers 了解 only (core/receiving/line_works_callback.py): a button nothing
        # answers ("Ask for cover") would leave the teacher waiting, so it is left out.
        return None
    # A message action: tapping it says the label in the talk and hands `postback` to the bot's callback.
    return {"type": "message", "label": label, "postback": data}


@dataclass
class PictureUpload:
    """A message's picture, uploaded to the bot's storage before its image message leaves: the
    connection that sends the message runs it with its client (`through`) on the send thread, and
    it fills in the message's fileId. The client keeps the file ID for the same bytes, so an attempt
    after a failed one does not upload a picture LINE WORKS already has."""

    path: Path
    file_name: str
    content: dict[str, Any]  # the image message, sent once its fileId is in

    def through(self, client: WorksClient, pace: Callable[[], None]) -> None:
        self.content["fileId"] = client.upload(self.path.read_bytes(), self.file_name, pace=pace)

    def __call__(self) -> None:
        raise RuntimeError("a LINE WORKS picture is uploaded by the connection that sends its message")


def picture_upload(picture: Picture, paths: DataPaths) -> PictureUpload:
    """The picture's image message, its fileId to come from the upload."""
    key = PurePosixPath(picture.key)
    return PictureUpload(paths.images / picture.key, f"{picture.file_name or key.stem}{key.suffix}", {"type": "image"})


def render(session: Session, delivery: Delivery, message: Message, paths: DataPaths) -> Outgoing:
    """The request for a delivery: to the teacher's LINE WORKS ID, or to the classroom's message room.
    One request carries one content: a message with a picture and nothing to tap is the picture."""
    upload = picture_upload(message.pictures[0], paths) if message.pictures and not message.actions else None
    content = upload.content if upload is not None else content_of(message)
    if message.audience is Audience.TEACHER:
        _, address = addressing.teacher_address(session, delivery, DRIVER)
        return Outgoing("user", address, (content,), before_send=upload)
    if message.audience is Audience.GROUP:
        room = room_of(session, addressing.classroom_of(session, delivery).id)
        if room is None:
            raise CancelDelivery(NO_ROOM)
        return Outgoing("channel", room, (content,), before_send=upload)
    raise addressing.unsupported(delivery)  # the manager's alerts go by e-mail or the webhook


def classify(result: SendResult) -> Verdict:
    """LINE WORKS' answer → what to do with the delivery."""
    status = result.http_status
    if status is None:
        return policy.transport_verdict(result)
    if 200 <= status < 300:
        return Verdict(Outcome.SENT)
    if TOKEN in result.properties_at_fault and status < 500 and status != 429:
        return _failed(Outcome.HOLD, AUTH_FAILED, result)  # the token request was refused
    if status == 401:
        return _failed(Outcome.HOLD, AUTH_FAILED, result)  # refused twice: a new token did not help
    if status == 429:
        return _failed(Outcome.THROTTLED, RATE_LIMITED, result)  # nothing was taken
    if status >= 500:
        return _failed(Outcome.RETRY, SERVER_ERROR, result)
    at_user = USER in result.properties_at_fault
    if status == 403:
        return _failed(Outcome.FAILED, FORBIDDEN, result, at_recipient=at_user)
    if status == 404:
        return _failed(Outcome.FAILED, NOT_FOUND, result, at_recipient=at_user)
    return _failed(Outcome.FAILED, BAD_REQUEST if status == 400 else CLIENT_ERROR, result)


def _failed(outcome: Outcome, code: str, result: SendResult, *, at_recipient: bool = False) -> Verdict:
    return Verdict(outcome, code, policy.error_text(code, result), at_recipient)


def failure(code: str | None, *, at_recipient: bool, dead: bool) -> ChannelFailure:
    """A member LINE WORKS does not know (404) or the bot may not talk to (403) is unreachable there,
    and the message goes on their next channel; a message refused as malformed does not (the manager
    has to look); retries that ran out, or an account-wide refusal, still owe the teacher the message."""
    if code in (NOT_FOUND, FORBIDDEN) and at_recipient:
        return ChannelFailure(True, True)
    if code in (BAD_REQUEST, NOT_FOUND):
        return ChannelFailure(False, False)
    return ChannelFailure(dead or code == FORBIDDEN, False)


def _buckets() -> dict[str, TokenBucket]:
    return {"user": TokenBucket(RATE_PER_SECOND), "channel": TokenBucket(RATE_PER_SECOND)}


@dataclass(frozen=True)
class WorksAccess:
    """A usable client plus the fingerprint of the credentials it was made with: LINE WORKS' connection,
    shared by the pool's threads (one bucket per endpoint keeps all of them under the rate limit)."""

    client: WorksClient
    fingerprint: str
    buckets: dict[str, TokenBucket] = field(default_factory=_buckets, compare=False, repr=False)
    uploads: TokenBucket = field(default_factory=lambda: TokenBucket(RATE_PER_SECOND), compare=False, repr=False)

    def send(self, requests: Sequence[R], report: Callable[[R, SendResult], None], *, time_budget: float) -> None:
        for request in requests:
            report(request, self._send_one(request.outgoing))

    def _send_one(self, outgoing: Outgoing) -> SendResult:
        bucket = self.buckets.get(outgoing.endpoint)
        if bucket is None or not outgoing.messages:
            return SendResult(channel=KEY, http_status=400, message=f"not a LINE WORKS request: {outgoing.endpoint}")
        unprepared = self._prepare(outgoing)
        if unprepared is not None:
            return unprepared
        bucket.acquire()
        send = self.client.send_to_user if outgoing.endpoint == "user" else self.client.send_to_channel
        try:
            result = send(str(outgoing.to), outgoing.messages[0])
        except Exception as exc:
            log.exception("a LINE WORKS request raised")
            result = SendResult(channel=KEY, transport_error=Transport.CONNECTION, message=str(exc)[:300])
        if result.http_status == 429:
            bucket.slow_down()
        return result

    def _prepare(self, outgoing: Outgoing) -> SendResult | None:
        """Run the request's work before it leaves (the picture's upload); None when it may leave. A
        failed upload is tried again with backoff, LINE WORKS' message endpoint not contacted; refused
        credentials or the rate limit mean what they mean for a message."""
        work = outgoing.before_send
        if work is None:
            return None
        try:
            if isinstance(work, PictureUpload):
                work.through(self.client, self.uploads.acquire)
            else:
                work()
        except UploadError as failed:
            log.warning("a LINE WORKS upload failed: %s", failed)
            if failed.result is not None and failed.result.http_status == 429:
                self.uploads.slow_down()
            return failed.result or SendResult(channel=KEY, transport_error=Transport.UPLOAD, message=str(failed)[:300])
        except RefusedBeforeSend as refused:
            return SendResult(channel=KEY, transport_error=Transport.UPLOAD_REFUSED, message=refused.text)
        except Exception as exc:  # noqa: BLE001 - the picture unreadable: retried like a failed upload
            log.warning("preparing a LINE WORKS message failed: %s", exc)
            return SendResult(channel=KEY, transport_error=Transport.UPLOAD, message=str(exc)[:300])
        return None

    def close(self) -> None:
        self.client.close()


def access_from_settings(db: Database) -> WorksAccess | None:
    """The client for the saved credentials; None while LINE WORKS is not set up."""
    creds = credentials.load(db)
    if creds is None:
        return None
    with db.read() as session:
        seconds = keys.SENDER_HTTP_TIMEOUT_SECONDS.read(session)
    timeout = httpx.Timeout(seconds) if seconds is not None else None
    client = (WorksClient(creds, base_urls=credentials.base_urls(db), timeout=timeout) if timeout is not None
              else WorksClient(creds, base_urls=credentials.base_urls(db)))
    return WorksAccess(client, creds.fingerprint)


class WorksDriver:
    """LINE WORKS as the sender sees it (core/channels/base.py)."""

    key = KEY
    label: Text = t("text.plain", text="LINE WORKS")  # a brand's name, the same in every language
    title = "LINE WORKS"
    address: AddressRule | None = WorksAddress()
    needs_consent = False  # a member of the company's directory; nothing to pair
    cancel_reasons: CancelReasons | None = CancelReasons(
        not_agreed=NO_ID, unreachable=UNREACHABLE,
        words={NO_ID: t(f"cancel.{NO_ID}"), UNREACHABLE: t(f"cancel.{UNREACHABLE}"), NO_ROOM: t(f"cancel.{NO_ROOM}")})
    texts: Mapping[str, tuple[Template, Template]] = TEXTS
    contact_columns: tuple[ContactColumn, ...] = (ContactColumn("line_works_id", ("LINE WORKS ID",)),)
    batch: int | None = None  # one request per pool task
    hold_key: HoldSetting | None = keys.LINE_WORKS_HOLD  # the credentials are refused
    hold_title = t("alert.line_works_held")
    retry_keys = False  # LINE WORKS has none (docs/reliability.md)
    postbacks = True  # button actions; a tap comes back to the callback (core/receiving/line_works_callback.py)

    def recipient(self, contact: ContactView) -> str | None:
        return contact.address

    def connect(self, db: Database) -> WorksAccess | None:
        return access_from_settings(db)

    def classify(self, result: SendResult) -> Verdict:
        return classify(result)

    def failure(self, code: str | None, *, at_recipient: bool, dead: bool) -> ChannelFailure:
        return failure(code, at_recipient=at_recipient, dead=dead)

    def render(self, session: Session, delivery: Delivery, message: Message, paths: DataPaths) -> Outgoing:
        return render(session, delivery, message, paths)


DRIVER = WorksDriver()
