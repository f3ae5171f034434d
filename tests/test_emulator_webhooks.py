"""The emulator's side of webhooks over HTTP: the endpoint's rules and state, the webhook test's
answers when the bot answers, refuses or is not there, and the control calls other processes (and
the demo) use to make simulated users act, all checked at a real receiver."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import select

from core.emulator import LineEmulator
from core.receiving.server import ReceiverError, WebhookReceiver
from core.store.db import Database
from core.store.models import WebhookEvent
from tests.linefixtures import TOKEN, user_id

SECRET = "c0ffee00c0ffee00c0ffee00c0ffee00"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def receiver(db: Database) -> Iterator[WebhookReceiver]:
    with WebhookReceiver(db, SECRET) as rx:
        yield rx


@pytest.fixture
def line() -> Iterator[LineEmulator]:
    with LineEmulator(token=TOKEN, channel_secret=SECRET, loopback_webhooks=True) as emu:
        yield emu


def _api(line: LineEmulator, method: str, path: str, **kwargs: object) -> httpx.Response:
    return httpx.request(method, f"{line.base_url}{path}", headers=AUTH, timeout=30, **kwargs)  # type: ignore[arg-type]


def test_the_endpoint_is_unset_until_put_and_has_two_methods(line: LineEmulator, receiver: WebhookReceiver) -> None:
    assert _api(line, "GET", "/v2/bot/channel/webhook/endpoint").json() == {"endpoint": "", "active": False}
    test = _api(line, "POST", "/v2/bot/channel/webhook/test")
    assert test.status_code == 400  # nothing to test yet
    assert _api(line, "PUT", "/v2/bot/channel/webhook/endpoint", json={"endpoint": receiver.url}).status_code == 200
    assert _api(line, "GET", "/v2/bot/channel/webhook/endpoint").json() == {"endpoint": receiver.url, "active": True}
    wrong = _api(line, "DELETE", "/v2/bot/channel/webhook/endpoint")
    assert wrong.status_code == 405 and wrong.headers["allow"] == "GET, PUT"
    for bad in ({}, {"endpoint": ""}, {"endpoint": 5}, {"endpoint": "ftp://example.com/x"},
                {"endpoint": "http://192.0.2.1/line/webhook"}):
        assert _api(line, "PUT", "/v2/bot/channel/webhook/endpoint", json=bad).status_code == 400, bad
    assert line.webhook_endpoint == receiver.url


def test_the_webhook_test_reports_what_the_bot_answered(line: LineEmulator, receiver: WebhookReceiver) -> None:
    line.set_webhook_endpoint(receiver.url)
    wrong_path = receiver.url.replace("/line/webhook", "/elsewhere")
    answer = _api(line, "POST", "/v2/bot/channel/webhook/test", json={"endpoint": wrong_path}).json()
    assert (answer["success"], answer["statusCode"]) == (False, 404)
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        nobody = f"http://127.0.0.1:{unused.getsockname()[1]}/line/webhook"
    answer = _api(line, "POST", "/v2/bot/channel/webhook/test", json={"endpoint": nobody}).json()
    assert answer["success"] is False and answer["statusCode"] <= 0 and answer["detail"]
    with LineEmulator(token=TOKEN, channel_secret="not the receiver's", loopback_webhooks=True) as other:
        other.set_webhook_endpoint(receiver.url)
        answer = _api(other, "POST", "/v2/bot/channel/webhook/test").json()
    assert (answer["success"], answer["statusCode"]) == (False, 401)


def test_control_calls_make_users_act_and_events_reach_the_receiver(
        line: LineEmulator, receiver: WebhookReceiver, db: Database) -> None:
    line.set_webhook_endpoint(receiver.url)
    control = f"{line.base_url}/_emulator"
    followed = httpx.post(f"{control}/events/follow", json={"userId": user_id(5), "displayName": "田中"}, timeout=30)
    assert followed.status_code == 200 and followed.json()["statusCode"] == 200
    event_id = followed.json()["webhookEventId"]
    assert len(event_id) == 26
    again = httpx.post(f"{control}/events/redeliver", json={"webhookEventId": event_id}, timeout=30).json()
    assert again["event"]["deliveryContext"] == {"isRedelivery": True} and again["statusCode"] == 200
    assert httpx.post(f"{control}/webhook", json={"active": False}, timeout=30).status_code == 200
    quiet = httpx.post(f"{control}/events/unfollow", json={"userId": user_id(5)}, timeout=30).json()
    assert quiet["delivered"] is False  # "Use webhook" is off: LINE sends nothing
    assert httpx.post(f"{control}/events/join", json={"groupId": "C" + "9" * 32}, timeout=30).status_code == 400
    assert httpx.post(f"{control}/events/follow", json={"userId": "nobody"}, timeout=30).status_code == 400
    state = httpx.get(f"{control}/webhook", timeout=30).json()
    assert (state["endpoint"], state["active"]) == (receiver.url, False)
    assert [s["statusCode"] for s in state["sent"]] == [200, 200]
    assert receiver.dispatcher.wait_handled(1, timeout=30)
    with db.read() as s:
        assert list(s.scalars(select(WebhookEvent.event_id))) == [event_id]
    # The block happened though LINE told the bot nothing: the profile is gone.
    assert _api(line, "GET", f"/v2/bot/profile/{user_id(5)}").status_code == 404
    httpx.post(f"{control}/events/follow", json={"userId": user_id(5)}, timeout=30)
    assert _api(line, "GET", f"/v2/bot/profile/{user_id(5)}").json()["displayName"] == "田中"


def test_a_port_in_use_is_a_clear_error(db: Database, receiver: WebhookReceiver) -> None:
    with pytest.raises(ReceiverError, match="cannot listen"):
        WebhookReceiver(db, SECRET, port=receiver.port).start()
