"""LINE's official Python SDK as an independent client of the emulator: it sets, reads and tests the
webhook endpoint through linebot.v3.messaging, and its WebhookParser checks the signature of, and
parses, every event the emulator posts (so the emulator's events are LINE's shapes, not ours)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from linebot.v3 import WebhookParser
from linebot.v3.exceptions import InvalidSignatureError
from linebot.v3.messaging import ApiClient, ApiException, Configuration, MessagingApi, SetWebhookEndpointRequest
from linebot.v3.webhooks import (
    FollowEvent,
    JoinEvent,
    LeaveEvent,
    MemberJoinedEvent,
    MemberLeftEvent,
    MessageEvent,
    PostbackEvent,
    TextMessageContent,
    UnfollowEvent,
)

from core.emulator import LineEmulator
from tests.linefixtures import TOKEN, user_id

SECRET = "5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e"
GROUP = "C" + "2" * 32


class RawReceiver:
    """Keeps each POST's raw body and signature, byte for byte, for the SDK to check."""

    def __init__(self) -> None:
        self.posts: list[tuple[bytes, str]] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with outer._lock:
                    outer.posts.append((body, self.headers.get("x-line-signature", "")))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/line/webhook"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> RawReceiver:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def raw() -> Iterator[RawReceiver]:
    with RawReceiver() as receiver:
        yield receiver


@pytest.fixture
def line() -> Iterator[LineEmulator]:
    with LineEmulator(token=TOKEN, channel_secret=SECRET, loopback_webhooks=True) as emu:
        yield emu


def _api(line: LineEmulator) -> Iterator[MessagingApi]:
    with ApiClient(Configuration(host=line.base_url, access_token=TOKEN)) as client:
        yield MessagingApi(client)


def test_the_sdk_sets_reads_and_tests_the_webhook_endpoint(line: LineEmulator, raw: RawReceiver) -> None:
    for api in _api(line):
        api.set_webhook_endpoint(SetWebhookEndpointRequest(endpoint=raw.url))
        info = api.get_webhook_endpoint()
        assert (info.endpoint, info.active) == (raw.url, True)
        tested = api.test_webhook_endpoint()
        assert (tested.success, tested.status_code, tested.reason) == (True, 200, "OK")
        with pytest.raises(ApiException) as refused:  # LINE: https only (plain http to loopback in tests)
            api.set_webhook_endpoint(SetWebhookEndpointRequest(endpoint="http://example.com/line/webhook"))
        assert refused.value.status == 400
        assert api.get_webhook_endpoint().endpoint == raw.url
    [(body, sig)] = raw.posts
    assert WebhookParser(SECRET).parse(body.decode(), sig) == []


def test_an_endpoint_over_500_characters_is_refused(line: LineEmulator) -> None:
    # The SDK refuses it before sending; a client without that check gets LINE's 400.
    url = f"{line.base_url}/v2/bot/channel/webhook/endpoint"
    auth = {"Authorization": f"Bearer {TOKEN}"}
    long = "https://example.com/" + "a" * 481
    assert len(long) == 501
    answer = httpx.put(url, json={"endpoint": long}, headers=auth, timeout=30)
    assert answer.status_code == 400 and answer.json()["details"][0]["property"] == "endpoint"
    assert httpx.put(url, json={"endpoint": long[:-1]}, headers=auth, timeout=30).status_code == 200
    assert httpx.get(url, timeout=30).status_code == 401


def test_plain_http_endpoints_are_refused_unless_the_emulator_allows_loopback(raw: RawReceiver) -> None:
    with LineEmulator(token=TOKEN, channel_secret=SECRET) as strict:
        for api in _api(strict):
            with pytest.raises(ApiException) as refused:
                api.set_webhook_endpoint(SetWebhookEndpointRequest(endpoint=raw.url))
            assert refused.value.status == 400 and "https" in str(refused.value.body)
            api.set_webhook_endpoint(SetWebhookEndpointRequest(endpoint="https://example.com/line/webhook"))
            assert api.get_webhook_endpoint().endpoint == "https://example.com/line/webhook"


def test_the_sdk_parses_and_verifies_every_event_the_emulator_posts(line: LineEmulator, raw: RawReceiver) -> None:
    line.set_webhook_endpoint(raw.url)
    alice, bob = user_id(1), user_id(2)
    line.add_group(GROUP, "講師", [alice])
    line.follow(alice, "佐藤")
    line.send_text(alice, "ABC123")
    line.postback(alice, "ack=42&sig=x")
    line.join(GROUP)
    line.member_joined(GROUP, [bob])
    line.send_text(bob, "よろしく", group_id=GROUP)
    line.member_left(GROUP, [bob])
    line.leave(GROUP)
    first = line.unfollow(alice)
    line.redeliver(first.event["webhookEventId"])

    parser = WebhookParser(SECRET)
    parsed = [event for body, sig in raw.posts for event in parser.parse(body.decode(), sig)]
    assert [type(e) for e in parsed] == [FollowEvent, MessageEvent, PostbackEvent, JoinEvent, MemberJoinedEvent,
                                         MessageEvent, MemberLeftEvent, LeaveEvent, UnfollowEvent, UnfollowEvent]
    follow, text, postback, join, joined, group_text, left, leave, unfollow, again = parsed
    assert follow.source.user_id == alice and follow.reply_token and follow.follow.is_unblocked is False
    assert isinstance(text.message, TextMessageContent) and text.message.text == "ABC123"
    assert postback.postback.data == "ack=42&sig=x" and postback.reply_token
    assert join.source.group_id == GROUP and join.reply_token
    assert [m.user_id for m in joined.joined.members] == [bob]
    assert (group_text.source.group_id, group_text.source.user_id) == (GROUP, bob)
    assert [m.user_id for m in left.left.members] == [bob]
    assert leave.source.group_id == GROUP
    assert unfollow.webhook_event_id == again.webhook_event_id
    assert (unfollow.delivery_context.is_redelivery, again.delivery_context.is_redelivery) == (False, True)
    assert len({e.webhook_event_id for e in parsed}) == 9
    assert all(body.startswith(b'{"destination":"' + line.bot_user_id.encode()) for body, _ in raw.posts)
    with pytest.raises(InvalidSignatureError):
        WebhookParser("another secret").parse(raw.posts[0][0].decode(), raw.posts[0][1])
