"""The local LINE emulator, over real HTTP: LINE's rules, retry keys, quota, rate limits, faults."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from core.emulator import FaultPlan, InboxMessage, LineEmulator
from core.emulator import webhooks as emulator_webhooks
from core.emulator.validation import compact_json_size
from tests.waiting import PATIENCE_S, wait_until

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "test-token"
ALICE = "U" + "a" * 32
BOB = "U" + "b" * 32
CAROL = "U" + "c" * 32
STRANGER = "U" + "d" * 32  # known to LINE but not a friend of the bot
GROUP = "C" + "1" * 32
UNKNOWN_GROUP = "C" + "2" * 32
TEXT = {"type": "text", "text": "明日 16:00–21:00 本校"}
START = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)

PUSH = "/v2/bot/message/push"
MULTICAST = "/v2/bot/message/multicast"
VALIDATE = "/v2/bot/message/validate/push"


class FakeClock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def emu(clock: FakeClock) -> Iterator[LineEmulator]:
    with LineEmulator(token=TOKEN, clock=clock) as emulator:
        emulator.add_user(ALICE, "佐藤 花子")
        emulator.add_user(BOB, "鈴木 一郎")
        emulator.add_user(CAROL, "高橋 三郎")
        emulator.add_user(STRANGER, "Stranger", friend=False)
        emulator.add_group(GROUP, "講師グループ", [ALICE, BOB, CAROL])
        yield emulator


@pytest.fixture
def client(emu: LineEmulator) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=emu.base_url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30) as c:
        yield c


def key() -> str:
    return str(uuid.uuid4())


def push(client: httpx.Client, to: str, *messages: dict[str, Any], retry_key: str | None = None,
         **extra: Any) -> httpx.Response:
    headers = {"X-Line-Retry-Key": retry_key} if retry_key else {}
    return client.post(PUSH, json={"to": to, "messages": list(messages or [TEXT]), **extra}, headers=headers)


def bubble(text_length: int = 10, action: dict[str, Any] | None = None) -> dict[str, Any]:
    text: dict[str, Any] = {"type": "text", "text": "x" * text_length}
    contents: list[dict[str, Any]] = [text]
    if action is not None:
        contents.append({"type": "button", "action": action})
    return {"type": "bubble", "body": {"type": "box", "layout": "vertical", "contents": contents}}


def flex(contents: dict[str, Any], alt: str = "シフトのお知らせ") -> dict[str, Any]:
    return {"type": "flex", "altText": alt, "contents": contents}


def image(original: str = "https://localhost/a.png", preview: str = "https://localhost/a_s.png") -> dict[str, Any]:
    return {"type": "image", "originalContentUrl": original, "previewImageUrl": preview}


def error_pairs(response: httpx.Response) -> list[tuple[str, str]]:
    return [(d["property"], d["message"]) for d in response.json()["details"]]


# ----- life cycle, headers, routing, auth -----


def test_start_stop_and_base_url() -> None:
    emulator = LineEmulator(token="t").start()
    try:
        assert emulator.base_url == f"http://127.0.0.1:{emulator.port}"
        assert httpx.get(emulator.base_url + "/v2/bot/info", headers={"Authorization": "Bearer t"}).status_code == 200
    finally:
        emulator.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.get(emulator.base_url + "/v2/bot/info")
    emulator.stop()  # a second stop is harmless


def test_listens_on_loopback_only() -> None:
    with pytest.raises(ValueError, match="loopback"):
        LineEmulator(host="0.0.0.0")


def test_every_response_has_request_id_and_json(client: httpx.Client) -> None:
    answers = [
        client.get("/v2/bot/info"),
        client.get("/v2/bot/nowhere"),
        client.get(PUSH),
        client.post(PUSH, content=b"{", headers={"Content-Type": "application/json"}),
        client.get("/v2/bot/info", headers={"Authorization": "Bearer wrong"}),
        client.get("/_emulator/stats"),
    ]
    ids = [a.headers["X-Line-Request-Id"] for a in answers]
    assert len(set(ids)) == len(ids) and all(len(i) == 36 for i in ids)
    assert all(a.headers["Content-Type"] == "application/json" for a in answers)
    assert [a.status_code for a in answers] == [200, 404, 405, 400, 401, 200]
    assert answers[1].json() == {"message": "Not found"}
    assert answers[2].headers["Allow"] == "POST"


def test_auth(client: httpx.Client, emu: LineEmulator) -> None:
    missing = httpx.get(emu.base_url + "/v2/bot/info")
    assert missing.status_code == 401
    assert missing.json() == {
        "message": "Authorization header required. Must follow the scheme, 'Authorization: Bearer <ACCESS TOKEN>'"
    }
    wrong_scheme = client.get("/v2/bot/info", headers={"Authorization": f"Basic {TOKEN}"})
    assert wrong_scheme.status_code == 401 and wrong_scheme.json() == missing.json()
    assert push(client, ALICE).status_code == 200  # the fixture's token works
    bad = client.post(PUSH, json={"to": ALICE, "messages": [TEXT]}, headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401
    assert bad.json() == {
        "message": "Authentication failed due to the following reason: invalid token. "
        "Confirm that the access token in the authorization header is valid."
    }
    assert len(emu.inbox(ALICE)) == 1


def test_token_none_accepts_any_non_empty_bearer() -> None:
    with LineEmulator(token=None) as emulator:
        ok = httpx.get(emulator.base_url + "/v2/bot/info", headers={"Authorization": "Bearer anything"})
        empty = httpx.get(emulator.base_url + "/v2/bot/info", headers={"Authorization": "Bearer"})
    assert ok.status_code == 200 and empty.status_code == 401


def test_read_endpoints(client: httpx.Client) -> None:
    info = client.get("/v2/bot/info").json()
    assert info["displayName"] == "Shiftcast Emulator" and info["chatMode"] == "chat"
    assert info["markAsReadMode"] == "auto" and info["basicId"].startswith("@")
    assert info["userId"].startswith("U") and len(info["userId"]) == 33
    profile = client.get(f"/v2/bot/profile/{ALICE}").json()
    assert profile == {"displayName": "佐藤 花子", "userId": ALICE, "language": "ja"}
    for absent in (STRANGER, "U" + "e" * 32):
        answer = client.get(f"/v2/bot/profile/{absent}")
        assert answer.status_code == 404 and answer.json() == {"message": "Not found"}
    assert client.get("/v2/bot/profile/someone").status_code == 400
    assert client.get(f"/v2/bot/group/{GROUP}/summary").json() == {"groupId": GROUP, "groupName": "講師グループ"}
    assert client.get(f"/v2/bot/group/{GROUP}/members/count").json() == {"count": 3}
    assert client.get(f"/v2/bot/group/{UNKNOWN_GROUP}/summary").status_code == 404
    assert client.get(f"/v2/bot/group/{UNKNOWN_GROUP}/members/count").status_code == 404
    assert client.get("/v2/bot/message/quota").json() == {"type": "none"}
    assert client.get("/v2/bot/message/quota/consumption").json() == {"totalUsage": 0}


# ----- framing: size, content type, chunked, keep-alive -----


def test_body_over_2mb_is_413_and_2mb_is_accepted(client: httpx.Client, emu: LineEmulator) -> None:
    limit = 2 * 1024 * 1024
    body = json.dumps({"to": ALICE, "messages": [TEXT]}).encode()
    exactly = body + b" " * (limit - len(body))
    headers = {"Content-Type": "application/json"}
    assert client.post(PUSH, content=exactly, headers=headers).status_code == 200
    too_big = client.post(PUSH, content=exactly + b" ", headers=headers)
    assert too_big.status_code == 413 and too_big.json() == {"message": "Request Entity Too Large"}
    assert client.get("/v2/bot/info").status_code == 200  # the same connection goes on
    assert len(emu.inbox(ALICE)) == 1


def test_413_is_decided_from_content_length_before_the_body(emu: LineEmulator) -> None:
    with socket.create_connection(("127.0.0.1", emu.port), timeout=30) as sock:
        sock.sendall(
            f"POST {PUSH} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n"
            "Content-Type: application/json\r\nContent-Length: 3000000\r\n\r\n".encode()
        )
        first = _read_response(sock)
        assert first[0] == 413  # answered while the body has not been sent at all
        sock.sendall(b" " * 3_000_000)  # skipped, then the connection is usable again
        sock.sendall(f"GET /v2/bot/info HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n\r\n".encode())
        assert _read_response(sock)[0] == 200


def test_content_type_must_be_json(client: httpx.Client) -> None:
    body = json.dumps({"to": ALICE, "messages": [TEXT]}).encode()
    for headers in ({"Content-Type": "text/plain"}, {}):
        answer = client.post(PUSH, content=body, headers=headers)
        assert answer.status_code == 415
    ok = client.post(PUSH, content=body, headers={"Content-Type": "application/json; charset=UTF-8"})
    assert ok.status_code == 200


def test_chunked_body_is_refused(client: httpx.Client, emu: LineEmulator) -> None:
    chunks = iter([b'{"to":"', ALICE.encode(), b'","messages":[{"type":"text","text":"x"}]}'])
    answer = client.post(PUSH, content=chunks, headers={"Content-Type": "application/json"})
    assert answer.status_code == 411 and answer.headers["Connection"] == "close"
    assert emu.inbox(ALICE) == []


def test_keep_alive_pipelining_and_connection_close(emu: LineEmulator) -> None:
    get = f"GET /v2/bot/info HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", emu.port), timeout=30) as sock:
        sock.sendall(get + get + get.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
        statuses = [_read_response(sock)[0] for _ in range(3)]
        assert statuses == [200, 200, 200]
        assert sock.recv(1) == b""  # closed after the third, as asked


def test_expect_100_continue_and_http_10(emu: LineEmulator) -> None:
    body = json.dumps({"to": ALICE, "messages": [TEXT]}).encode()
    head = (f"POST {PUSH} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nExpect: 100-continue\r\n"
            "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n")
    with socket.create_connection(("127.0.0.1", emu.port), timeout=30) as sock:
        sock.sendall(head.format(len(body)).encode())
        assert sock.recv(25) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(body)
        assert _read_response(sock)[0] == 200
        sock.sendall(head.format(3_000_000).encode())  # too large: refused before it is sent, then closed
        assert _read_response(sock)[0] == 413
        assert sock.recv(1) == b""
    with socket.create_connection(("127.0.0.1", emu.port), timeout=30) as sock:
        sock.sendall(f"GET /v2/bot/info HTTP/1.0\r\nAuthorization: Bearer {TOKEN}\r\n\r\n".encode())
        assert _read_response(sock)[0] == 200
        assert sock.recv(1) == b""  # HTTP/1.0: one answer per connection
    assert len(emu.inbox(ALICE)) == 1


def _read_response(sock: socket.socket) -> tuple[int, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(1)
    head = data.decode("latin-1")
    length = int(next(v for k, _, v in (h.partition(":") for h in head.split("\r\n")) if k.lower() == "content-length"))
    body = b""
    while len(body) < length:
        body += sock.recv(length - len(body))
    return int(head.split(" ")[1]), body


# ----- validation -----

_LONG_URI = "https://localhost/" + "p" * 990


def _url_of_length(length: int) -> str:
    prefix = "https://localhost/"
    return prefix + "a" * (length - len(prefix))

VALIDATION_CASES: list[tuple[str, dict[str, Any], list[tuple[str, str]]]] = [
    ("to missing", {"messages": [TEXT]}, [("to", "must be specified")]),
    ("to malformed", {"to": "U123", "messages": [TEXT]},
     [("to", "must be a user ID (U…), group ID (C…) or room ID (R…)")]),
    ("to upper-case hex", {"to": "U" + "A" * 32, "messages": [TEXT]},
     [("to", "must be a user ID (U…), group ID (C…) or room ID (R…)")]),
    ("no messages", {"to": ALICE, "messages": []}, [("messages", "Size must be between 1 and 5")]),
    ("six messages", {"to": ALICE, "messages": [TEXT] * 6}, [("messages", "Size must be between 1 and 5")]),
    ("messages missing", {"to": ALICE}, [("messages", "must be specified")]),
    ("empty text", {"to": ALICE, "messages": [{"type": "text", "text": ""}]},
     [("messages[0].text", "may not be empty")]),
    ("text 5001", {"to": ALICE, "messages": [{"type": "text", "text": "あ" * 5001}]},
     [("messages[0].text", "Length must be between 1 and 5000")]),
    ("unknown type", {"to": ALICE, "messages": [TEXT, {"type": "hologram"}]},
     [("messages[1].type", "Must be one of the following values: [text, image, flex, textV2, sticker, video, "
       "audio, location, imagemap, template, coupon]")]),
    ("type missing", {"to": ALICE, "messages": [{"text": "x"}]}, [("messages[0].type", "must be specified")]),
    ("image over http", {"to": ALICE, "messages": [image(original="http://localhost/a.png")]},
     [("messages[0].originalContentUrl", "must be a valid HTTPS URL")]),
    ("image url 2001", {"to": ALICE, "messages": [image(preview=_url_of_length(2001))]},
     [("messages[0].previewImageUrl", "Length must be between 1 and 2000")]),
    ("image url missing", {"to": ALICE, "messages": [{"type": "image", "originalContentUrl": "https://localhost/a"}]},
     [("messages[0].previewImageUrl", "must be specified")]),
    ("altText empty", {"to": ALICE, "messages": [TEXT, flex(bubble(), alt="")]},
     [("messages[1].altText", "may not be empty")]),
    ("altText 1501", {"to": ALICE, "messages": [flex(bubble(), alt="a" * 1501)]},
     [("messages[0].altText", "Length must be between 1 and 1500")]),
    ("flex not a container", {"to": ALICE, "messages": [flex({"type": "box"})]},
     [("messages[0].contents", "must be a flex container of type bubble or carousel")]),
    ("bubble over 30 KB", {"to": ALICE, "messages": [flex(bubble(31_000))]},
     [("messages[0].contents",
       f"Size of the JSON must be at most 30720 bytes (is {compact_json_size(bubble(31_000))})")]),
    ("flex text missing", {"to": ALICE, "messages": [flex({"type": "bubble", "body": {
        "type": "box", "layout": "vertical", "contents": [{"type": "text", "wrap": True}]}})]},
     [("messages[0].contents.body.contents[0].text", "must be specified")]),
    ("flex span without text", {"to": ALICE, "messages": [flex({"type": "bubble", "body": {
        "type": "box", "layout": "vertical", "contents": [{"type": "text", "contents": [
            {"type": "span", "text": "佐藤 16:00-21:00\n"}, {"type": "span", "color": "#C05621"}]}]}})]},
     [("messages[0].contents.body.contents[0].contents[1].text", "must be specified")]),
    ("flex spans empty", {"to": ALICE, "messages": [flex({"type": "bubble", "body": {
        "type": "box", "layout": "vertical", "contents": [{"type": "text", "contents": []}]}})]},
     [("messages[0].contents.body.contents[0].contents", "must be a non-empty array of spans")]),
    ("carousel of 13", {"to": ALICE, "messages": [flex({"type": "carousel", "contents": [bubble()] * 13})]},
     [("messages[0].contents.contents", "Size must be between 1 and 12")]),
    ("carousel over 50 KB", {"to": ALICE, "messages": [flex({"type": "carousel", "contents": [bubble(20_000)] * 3})]},
     [("messages[0].contents",
       "Size of the JSON must be at most 51200 bytes "
       f"(is {compact_json_size({'type': 'carousel', 'contents': [bubble(20_000)] * 3})})")]),
    ("uri scheme", {"to": ALICE, "messages": [flex(bubble(action={"type": "uri", "label": "x", "uri": "ftp://a/b"}))]},
     [("messages[0].contents.body.contents[1].action.uri", "must be a URI with scheme http, https, line or tel")]),
    ("uri 1001", {"to": ALICE, "messages": [flex({"type": "carousel", "contents": [
        bubble(), bubble(action={"type": "uri", "label": "x", "uri": _LONG_URI + "/" + "q" * 10})]})]},
     [("messages[0].contents.contents[1].body.contents[1].action.uri", "Length must be between 1 and 1000")]),
    ("notificationDisabled not bool", {"to": ALICE, "messages": [TEXT], "notificationDisabled": "yes"},
     [("notificationDisabled", "must be a boolean")]),
    ("two errors", {"to": ALICE, "messages": [{"type": "text", "text": ""}, {"type": "flex", "contents": bubble()}]},
     [("messages[0].text", "may not be empty"), ("messages[1].altText", "must be specified")]),
]


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in VALIDATION_CASES], ids=[c[0] for c in VALIDATION_CASES])
def test_push_validation(client: httpx.Client, emu: LineEmulator, body: dict[str, Any],
                         expected: list[tuple[str, str]]) -> None:
    answer = client.post(PUSH, json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["message"] == f"The request body has {len(expected)} error(s)"
    assert error_pairs(answer) == expected
    assert emu.all_inbox() == [] and emu.consumption == 0


def test_limits_are_inclusive(client: httpx.Client, emu: LineEmulator) -> None:
    uri_1000 = _LONG_URI[:1000]
    assert len(uri_1000) == 1000
    biggest_bubble = bubble(30 * 1024 - compact_json_size(bubble(0)))
    assert compact_json_size(biggest_bubble) == 30 * 1024
    messages = [
        {"type": "text", "text": "あ" * 5000},
        image(original=_url_of_length(2000)),
        flex(biggest_bubble, alt="a" * 1500),
        flex({"type": "carousel", "contents": [
            bubble(action={"type": "uri", "label": "a", "uri": uri_1000}),
            bubble(action={"type": "uri", "label": "b", "uri": "line://nv/chat"}),
            bubble(action={"type": "uri", "label": "c", "uri": "tel:0312345678"}),
            *[bubble()] * 9,
        ]}),
        {"type": "sticker", "packageId": "446", "stickerId": "1988"},
    ]
    answer = push(client, ALICE, *messages, notificationDisabled=True)
    assert answer.status_code == 200, answer.text
    sent = answer.json()["sentMessages"]
    assert len(sent) == 5 and all(s["id"].isdigit() for s in sent)
    # Only quotable messages (text, image, sticker …) carry a quote token; flex does not.
    assert ["quoteToken" in s for s in sent] == [True, True, False, False, True]
    inbox = emu.inbox(ALICE)
    assert [m.message for m in inbox] == messages
    assert [m.message_id for m in inbox] == [s["id"] for s in sent]
    assert all(m.notification_disabled for m in inbox)


def test_malformed_json_and_non_object(client: httpx.Client) -> None:
    headers = {"Content-Type": "application/json"}
    broken = client.post(PUSH, content=b'{"to": ', headers=headers)
    assert broken.status_code == 400
    assert broken.json()["message"] == "The request body has 1 error(s)"
    [detail] = broken.json()["details"]
    assert detail["property"] == "" and detail["message"].startswith("Malformed JSON")
    listed = client.post(PUSH, content=b"[]", headers=headers)
    assert error_pairs(listed) == [("", "The request body must be a JSON object")]
    assert client.post(PUSH, content=b"\xff\xfe{", headers=headers).status_code == 400


def test_multicast_validation(client: httpx.Client, emu: LineEmulator) -> None:
    group_in_to = client.post(MULTICAST, json={"to": [ALICE, GROUP], "messages": [TEXT]})
    assert group_in_to.status_code == 400
    assert error_pairs(group_in_to) == [("to[1]", "must be a user ID (U…); groups and rooms cannot be multicast to")]
    for to in ([], [ALICE] * 501):
        answer = client.post(MULTICAST, json={"to": to, "messages": [TEXT]})
        assert error_pairs(answer) == [("to", "Size must be between 1 and 500")]
    assert error_pairs(client.post(MULTICAST, json={"to": ALICE, "messages": [TEXT]})) == [("to", "must be an array")]
    assert client.post(MULTICAST, json={"to": [ALICE] * 500, "messages": [TEXT]}).status_code == 200
    assert len(emu.inbox(ALICE)) == 1  # one recipient, however often listed


def test_validate_push(client: httpx.Client, emu: LineEmulator) -> None:
    ok = client.post(VALIDATE, json={"messages": [TEXT, flex(bubble())]})
    assert ok.status_code == 200 and ok.json() == {}
    bad = client.post(VALIDATE, json={"messages": [{"type": "text", "text": ""}]})
    assert bad.status_code == 400 and error_pairs(bad) == [("messages[0].text", "may not be empty")]
    assert emu.all_inbox() == [] and emu.consumption == 0


# ----- delivery and quota -----


def test_push_delivers_to_friends_only(client: httpx.Client, emu: LineEmulator, clock: FakeClock) -> None:
    retry_key = key()
    answer = push(client, ALICE, TEXT, image(), retry_key=retry_key)
    assert answer.status_code == 200
    [first, second] = emu.inbox(ALICE)
    assert first == InboxMessage(
        recipient=ALICE, message=TEXT, request_id=answer.headers["X-Line-Request-Id"], retry_key=retry_key,
        accepted_at=START, via="push", message_id=answer.json()["sentMessages"][0]["id"],
    )
    assert second.message == image()
    stranger = push(client, STRANGER)
    assert stranger.status_code == 200 and len(stranger.json()["sentMessages"]) == 1
    assert emu.inbox(STRANGER) == []
    assert emu.consumption == 2  # one per push request, whatever the number of messages


def test_push_to_unknown_group_fails(client: httpx.Client, emu: LineEmulator) -> None:
    for target in (UNKNOWN_GROUP, "R" + "3" * 32):
        answer = push(client, target)
        assert answer.status_code == 400 and answer.json() == {"message": "Failed to send messages"}
    assert emu.all_inbox() == [] and emu.consumption == 0


def test_group_push_counts_members_and_quota_runs_out(client: httpx.Client, emu: LineEmulator,
                                                      clock: FakeClock) -> None:
    assert push(client, GROUP, TEXT, TEXT).status_code == 200
    assert [m.recipient for m in emu.inbox(GROUP)] == [GROUP, GROUP]
    assert emu.inbox(ALICE) == []  # a group message lands in the group, not in private chats
    assert client.get("/v2/bot/message/quota/consumption").json() == {"totalUsage": 3}
    emu.set_quota(5)
    assert client.get("/v2/bot/message/quota").json() == {"type": "limited", "value": 5}
    refused = push(client, GROUP)  # 3 more would make 6 > 5
    assert refused.status_code == 429 and refused.json() == {"message": "You have reached your monthly limit."}
    assert len(emu.inbox(GROUP)) == 2 and emu.consumption == 3
    assert push(client, ALICE).status_code == 200 and emu.consumption == 4
    multicast = client.post(MULTICAST, json={"to": [ALICE, BOB], "messages": [TEXT]})
    assert multicast.status_code == 429 and emu.consumption == 4
    clock.now = dt.datetime(2027, 1, 1, 0, 0, tzinfo=dt.UTC)  # a new month starts from zero
    assert client.get("/v2/bot/message/quota/consumption").json() == {"totalUsage": 0}
    assert push(client, GROUP).status_code == 200 and emu.consumption == 3


def test_multicast_one_entry_per_message_per_recipient(client: httpx.Client, emu: LineEmulator) -> None:
    answer = client.post(MULTICAST, json={"to": [ALICE, BOB, CAROL], "messages": [TEXT, image()]},
                         headers={"X-Line-Retry-Key": key()})
    assert answer.status_code == 200 and answer.json() == {}
    entries = emu.all_inbox()
    assert len(entries) == 6 and {m.via for m in entries} == {"multicast"}
    assert [m.message for m in emu.inbox(BOB)] == [TEXT, image()]
    assert emu.consumption == 3
    assert client.post(MULTICAST, json={"to": [STRANGER], "messages": [TEXT]}).status_code == 200
    assert emu.inbox(STRANGER) == []


# ----- retry keys -----


def test_retry_key_409_repeats_the_answer(client: httpx.Client, emu: LineEmulator) -> None:
    retry_key = key()
    first = push(client, ALICE, TEXT, TEXT, retry_key=retry_key)
    assert first.status_code == 200
    again = push(client, ALICE, TEXT, TEXT, retry_key=retry_key)
    assert again.status_code == 409
    assert again.headers["X-Line-Accepted-Request-Id"] == first.headers["X-Line-Request-Id"]
    assert again.headers["X-Line-Request-Id"] != first.headers["X-Line-Request-Id"]
    assert again.json() == {
        "message": "The retry key is already accepted", "sentMessages": first.json()["sentMessages"]
    }
    assert len(emu.inbox(ALICE)) == 2 and emu.consumption == 1
    assert emu.accepted_retry_keys() == {retry_key: first.headers["X-Line-Request-Id"]}


def test_retry_key_409_on_multicast_has_no_sent_messages(client: httpx.Client, emu: LineEmulator) -> None:
    retry_key = key()
    body = {"to": [ALICE, BOB], "messages": [TEXT]}
    first = client.post(MULTICAST, json=body, headers={"X-Line-Retry-Key": retry_key})
    again = client.post(MULTICAST, json=body, headers={"X-Line-Retry-Key": retry_key})
    assert (first.status_code, again.status_code) == (200, 409)
    assert again.json() == {"message": "The retry key is already accepted"}
    assert again.headers["X-Line-Accepted-Request-Id"] == first.headers["X-Line-Request-Id"]
    assert len(emu.all_inbox()) == 2


def test_retry_key_expires_after_24_hours(client: httpx.Client, emu: LineEmulator, clock: FakeClock) -> None:
    retry_key = key()
    assert push(client, ALICE, retry_key=retry_key).status_code == 200
    clock.advance(hours=23, minutes=59, seconds=59)
    assert push(client, ALICE, retry_key=retry_key).status_code == 409
    clock.advance(seconds=1)
    later = push(client, ALICE, retry_key=retry_key)
    assert later.status_code == 200  # LINE forgot the key: a duplicate reaches the user
    assert len(emu.inbox(ALICE)) == 2
    assert emu.accepted_retry_keys() == {retry_key: later.headers["X-Line-Request-Id"]}


def test_retry_key_format_and_where_it_is_allowed(client: httpx.Client, emu: LineEmulator) -> None:
    for bad in ("not-a-uuid", "123e4567e89b12d3a456426614174000", "", "123e4567-e89b-12d3-a456-42661417400g"):
        answer = client.post(PUSH, json={"to": ALICE, "messages": [TEXT]}, headers={"X-Line-Retry-Key": bad})
        assert answer.status_code == 400 and answer.json() == {"message": "The retry key is not a valid UUID"}
    assert push(client, ALICE, retry_key=key().upper()).status_code == 200  # any hex case, any version
    for method, path, body in (("GET", "/v2/bot/info", None), ("POST", VALIDATE, {"messages": [TEXT]}),
                               ("GET", f"/v2/bot/profile/{ALICE}", None)):
        answer = client.request(method, path, json=body, headers={"X-Line-Retry-Key": key()})
        assert answer.status_code == 400
        assert answer.json() == {"message": "X-Line-Retry-Key header is not supported"}
    assert len(emu.inbox(ALICE)) == 1  # only the upper-case key got through


# ----- rate limits -----


def test_rate_limit(client: httpx.Client, emu: LineEmulator) -> None:
    emu.set_rate_limit("push", 0.001)  # a bucket of one request that refills in 1,000 s
    assert push(client, ALICE).status_code == 200
    limited = push(client, ALICE, retry_key=key())
    assert limited.status_code == 429
    assert limited.json() == {"message": "The API rate limit has been exceeded. Try again later."}
    assert len(emu.inbox(ALICE)) == 1 and emu.consumption == 1 and emu.accepted_retry_keys() == {}
    emu.set_rate_limit("other", 0.001)
    assert [client.get("/v2/bot/info").status_code for _ in range(2)] == [200, 429]
    emu.set_rate_limit("push", None)
    assert push(client, ALICE).status_code == 200
    with pytest.raises(ValueError):
        emu.set_rate_limit("broadcast", 1)


# ----- faults -----


def test_fail_next_then_success_with_the_same_key(client: httpx.Client, emu: LineEmulator) -> None:
    emu.set_faults(FaultPlan(fail_next=2))
    retry_key = key()
    statuses = [push(client, ALICE, retry_key=retry_key) for _ in range(3)]
    assert [s.status_code for s in statuses] == [500, 500, 200]
    assert statuses[0].json() == {"message": "Internal server error"}
    assert len(emu.inbox(ALICE)) == 1
    assert [r.fault for r in emu.request_log()] == ["error", "error", None]


def test_faults_only_hit_sends(client: httpx.Client, emu: LineEmulator) -> None:
    emu.set_faults(FaultPlan(error_rate=1.0))
    assert client.get("/v2/bot/info").status_code == 200
    assert client.post(VALIDATE, json={"messages": [TEXT]}).status_code == 200
    assert push(client, ALICE).status_code == 500
    # A request refused before faults are drawn (validation) spends no fail_next either.
    emu.set_faults(FaultPlan(fail_next=1))
    assert client.post(PUSH, json={"to": ALICE, "messages": []}).status_code == 400
    assert push(client, ALICE).status_code == 500
    assert push(client, ALICE).status_code == 200


def test_accept_then_error_delivers_once(client: httpx.Client, emu: LineEmulator) -> None:
    emu.set_faults(FaultPlan(accept_then_error_rate=1.0))
    retry_key = key()
    first = push(client, ALICE, retry_key=retry_key)
    assert first.status_code == 500
    assert len(emu.inbox(ALICE)) == 1  # the 5xx was delivered all the same
    retry = push(client, ALICE, retry_key=retry_key)  # still under the same plan: 409 comes first
    assert retry.status_code == 409
    assert retry.headers["X-Line-Accepted-Request-Id"] == first.headers["X-Line-Request-Id"]
    assert len(emu.inbox(ALICE)) == 1 and emu.consumption == 1


def test_timeout_after_accept(client: httpx.Client, emu: LineEmulator) -> None:
    emu.set_faults(FaultPlan(timeout_after_accept_rate=1.0, hang_seconds=30))
    retry_key = key()
    with pytest.raises(httpx.ReadTimeout):
        client.post(PUSH, json={"to": ALICE, "messages": [TEXT]}, headers={"X-Line-Retry-Key": retry_key},
                    timeout=0.3)
    # A busy machine can let the client give up before the emulator got to accepting the push.
    assert wait_until(lambda: len(emu.inbox(ALICE)) == 1)
    [delivered] = emu.inbox(ALICE)
    assert delivered.retry_key == retry_key
    retry = push(client, ALICE, retry_key=retry_key)
    assert retry.status_code == 409
    assert retry.headers["X-Line-Accepted-Request-Id"] == delivered.request_id
    assert len(emu.inbox(ALICE)) == 1
    # The emulator still stops promptly with an answer hanging (the fixture stops it after this test).


def test_timeout_before_accept_closes_without_delivery(client: httpx.Client, emu: LineEmulator) -> None:
    emu.set_faults(FaultPlan(timeout_before_accept_rate=1.0, hang_seconds=0.2))
    retry_key = key()
    with pytest.raises(httpx.RemoteProtocolError):
        push(client, ALICE, retry_key=retry_key)
    assert emu.inbox(ALICE) == [] and emu.accepted_retry_keys() == {}
    emu.set_faults(FaultPlan())
    assert push(client, ALICE, retry_key=retry_key).status_code == 200
    assert len(emu.inbox(ALICE)) == 1


def test_reset_gives_a_connection_error(client: httpx.Client, emu: LineEmulator) -> None:
    emu.set_faults(FaultPlan(reset_rate=1.0))
    with pytest.raises(httpx.TransportError):
        push(client, ALICE, retry_key=key())
    assert emu.inbox(ALICE) == [] and emu.consumption == 0
    [record] = emu.request_log()
    assert record.status is None and record.fault == "reset"
    emu.set_faults(FaultPlan())
    assert push(client, ALICE).status_code == 200


def test_seeded_faults_repeat(client: httpx.Client, emu: LineEmulator) -> None:
    plan = FaultPlan(error_rate=0.3, accept_then_error_rate=0.2, seed=42)

    def run() -> list[int]:
        emu.reset()
        emu.set_faults(plan)
        return [push(client, ALICE, retry_key=key()).status_code for _ in range(30)]

    first = run()
    assert first == run()
    assert set(first) == {200, 500}
    accepted = sum(1 for r in emu.request_log() if r.fault in (None, "accept_then_error"))
    assert len(emu.inbox(ALICE)) == accepted


def test_latency_does_not_block_other_connections(emu: LineEmulator) -> None:
    emu.set_faults(FaultPlan(latency_ms=200))
    statuses: list[int] = []

    def call() -> None:
        with httpx.Client(base_url=emu.base_url, headers={"Authorization": f"Bearer {TOKEN}"}) as own:
            statuses.append(own.get("/v2/bot/info").status_code)

    started = time.perf_counter()
    workers = [threading.Thread(target=call) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - started
    assert statuses == [200] * 4
    assert 0.2 <= elapsed < 0.7  # four 200 ms answers side by side, not one after another


def test_stop_is_prompt_while_an_accepted_answer_hangs(clock: FakeClock) -> None:
    emulator = LineEmulator(token=TOKEN, clock=clock).start()
    emulator.add_user(ALICE, "佐藤 花子")
    emulator.set_faults(FaultPlan(timeout_after_accept_rate=1.0, hang_seconds=600))
    outcome: list[BaseException] = []

    def call() -> None:
        with httpx.Client(base_url=emulator.base_url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30) as own:
            try:
                push(own, ALICE, retry_key=key())
            except httpx.HTTPError as exc:
                outcome.append(exc)

    worker = threading.Thread(target=call)
    worker.start()
    assert wait_until(lambda: len(emulator.inbox(ALICE)) == 1)  # accepted: now it hangs
    started = time.monotonic()
    emulator.stop()
    worker.join(PATIENCE_S)
    assert time.monotonic() - started < PATIENCE_S  # not the 600 s the answer would have waited
    assert not worker.is_alive() and len(outcome) == 1  # the client saw the connection end, not a 200


def test_a_slow_webhook_endpoint_does_not_hold_other_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    # LINE's 2 s for the bot's answer would end the hold on its own when this machine is busy.
    monkeypatch.setattr(emulator_webhooks, "TIMEOUT", PATIENCE_S)
    # A bot endpoint that takes the webhook test's POST and answers only when told to.
    accepted, release = threading.Event(), threading.Event()
    endpoint = socket.create_server(("127.0.0.1", 0))

    def bot() -> None:
        conn, _ = endpoint.accept()
        with conn:
            accepted.set()
            conn.recv(65536)
            release.wait(PATIENCE_S)  # the test releases it once the other answers came
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")

    serving = threading.Thread(target=bot, daemon=True)
    serving.start()
    answers: list[httpx.Response] = []
    with endpoint, LineEmulator(token=TOKEN, loopback_webhooks=True) as emulator:
        emulator.set_webhook_endpoint(f"http://127.0.0.1:{endpoint.getsockname()[1]}/line/webhook")
        line = {"Authorization": f"Bearer {TOKEN}"}

        def webhook_test() -> None:
            answers.append(httpx.post(emulator.base_url + "/v2/bot/channel/webhook/test", headers=line,
                                      timeout=PATIENCE_S + 30))

        tester = threading.Thread(target=webhook_test)
        tester.start()
        assert accepted.wait(PATIENCE_S)
        try:
            # While the emulator waits for the bot, LINE's other endpoints and the control API answer:
            # the bot answers only after these, so an emulator they waited behind would time them out.
            assert httpx.get(emulator.base_url + "/v2/bot/info", headers=line, timeout=30).status_code == 200
            assert httpx.get(emulator.base_url + "/_emulator/stats", timeout=30).status_code == 200
            assert tester.is_alive()
        finally:
            release.set()
            tester.join(PATIENCE_S)
    [answer] = answers
    assert answer.status_code == 200 and answer.json()["statusCode"] == 200


def test_a_handler_bug_costs_one_answer(client: httpx.Client, emu: LineEmulator,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: Any) -> Any:
        raise RuntimeError("a bug in a handler")

    routes = emu._app.line._exact
    monkeypatch.setitem(routes, "/v2/bot/info", dataclasses.replace(routes["/v2/bot/info"], handler=broken))
    failed = client.get("/v2/bot/info")
    assert failed.status_code == 500 and failed.json() == {"message": "Internal server error"}
    assert failed.headers["Connection"] == "close"
    assert push(client, ALICE).status_code == 200  # the server goes on, on a new connection


def test_fault_plan_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        FaultPlan(error_rate=1.5)
    with pytest.raises(ValueError):
        FaultPlan(error_rate=0.6, reset_rate=0.6)
    with pytest.raises(ValueError):
        FaultPlan(latency_ms=-1)
    with pytest.raises(ValueError):
        FaultPlan.from_json({"error_rate": 0.1, "typo_rate": 1})


# ----- followers -----


def test_followers_pagination(client: httpx.Client, emu: LineEmulator) -> None:
    dave, erin = "U" + "1" * 32, "U" + "2" * 32
    emu.add_user(dave, "Dave")
    emu.add_user(erin, "Erin")
    friends = [ALICE, BOB, CAROL, dave, erin]  # STRANGER is not a friend
    pages: list[list[str]] = []
    params: dict[str, Any] = {"limit": 2}
    while True:
        page = client.get("/v2/bot/followers/ids", params=params).json()
        pages.append(page["userIds"])
        if "next" not in page:
            break
        params = {"limit": 2, "start": page["next"]}
    assert pages == [friends[:2], friends[2:4], friends[4:]]
    assert client.get("/v2/bot/followers/ids").json() == {"userIds": friends}
    for bad in ({"limit": 0}, {"limit": 1001}, {"limit": "x"}, {"start": "garbage!"}):
        assert client.get("/v2/bot/followers/ids", params=bad).status_code == 400
    assert client.get("/v2/bot/followers/ids", params={"limit": 1000}).status_code == 200


# ----- inspection, reset, control API, CLI -----


def test_request_log_and_reset(client: httpx.Client, emu: LineEmulator, clock: FakeClock) -> None:
    retry_key = key()
    answer = push(client, ALICE, retry_key=retry_key)
    client.get("/v2/bot/nowhere")
    records = emu.request_log()
    assert [(r.method, r.path, r.status) for r in records] == [("POST", PUSH, 200), ("GET", "/v2/bot/nowhere", 404)]
    assert records[0].request_id == answer.headers["X-Line-Request-Id"]
    assert records[0].retry_key == retry_key and records[0].time == START
    emu.set_faults(FaultPlan(fail_next=5))
    emu.reset()
    assert emu.all_inbox() == [] and emu.request_log() == [] and emu.accepted_retry_keys() == {}
    assert emu.consumption == 0
    assert push(client, ALICE, retry_key=retry_key).status_code == 200  # keys and faults are gone
    assert client.get(f"/v2/bot/profile/{ALICE}").status_code == 200  # users stay


def test_control_api(emu: LineEmulator) -> None:
    dave, group = "U" + "5" * 32, "C" + "6" * 32
    with httpx.Client(base_url=emu.base_url, timeout=30) as control:  # no Authorization needed here
        user = {"userId": dave, "displayName": "Dave", "friend": True}
        assert control.post("/_emulator/users", json=user).json() == {}
        members = {"groupId": group, "groupName": "G", "members": [dave, ALICE]}
        assert control.post("/_emulator/groups", json=members).status_code == 200
        assert control.post("/_emulator/quota", json={"limit": 10}).status_code == 200
        assert control.post("/_emulator/faults", json={"fail_next": 1}).json()["fail_next"] == 1
        assert control.post("/_emulator/users", json={"userId": "nope", "displayName": "x"}).status_code == 400
        assert control.post("/_emulator/faults", json={"fail_nxt": 1}).status_code == 400
        assert control.get("/_emulator/nothing").status_code == 404
        assert control.get("/_emulator/reset").status_code == 405

        line = {"Authorization": f"Bearer {TOKEN}"}
        assert control.post(PUSH, json={"to": group, "messages": [TEXT]}, headers=line).status_code == 500
        assert control.post(PUSH, json={"to": group, "messages": [TEXT]}, headers=line).status_code == 200
        assert control.post(PUSH, json={"to": dave, "messages": [TEXT]}, headers=line).status_code == 200
        assert control.get("/v2/bot/message/quota", headers=line).json() == {"type": "limited", "value": 10}

        [for_group] = control.get("/_emulator/inbox", params={"recipient": group}).json()
        assert for_group["recipient"] == group and for_group["message"] == TEXT and for_group["via"] == "push"
        assert len(control.get("/_emulator/inbox").json()) == 2
        stats = control.get("/_emulator/stats").json()
        assert stats["requests"] == 4 and stats["byStatus"] == {"200": 3, "500": 1}
        assert stats["accepted"] == 2 and stats["consumption"] == 3 and stats["delivered"] == 2

        assert control.post("/_emulator/quota", json={"limit": None}).status_code == 200
        assert control.post("/_emulator/rate-limit", json={"endpoint": "push", "perSecond": None}).status_code == 200
        assert control.post("/_emulator/reset").status_code == 200
        assert control.get("/_emulator/inbox").json() == []
        assert control.get("/_emulator/stats").json()["requests"] == 0
        assert control.get("/v2/bot/message/quota", headers=line).json() == {"type": "none"}


def test_cli_serves_until_terminated() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "core.emulator", "--port", str(port), "--token", "cli-token"]
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True) as child:
        try:
            assert child.stdout is not None
            assert f"http://127.0.0.1:{port}" in child.stdout.readline()
            assert "cli-token" in child.stdout.readline()
            base = f"http://127.0.0.1:{port}"
            assert httpx.get(base + "/v2/bot/info", headers={"Authorization": "Bearer cli-token"}).status_code == 200
            assert httpx.get(base + "/v2/bot/info", headers={"Authorization": "Bearer other"}).status_code == 401
        finally:
            child.terminate()
            assert child.wait(60) == 0  # SIGTERM is a normal stop
