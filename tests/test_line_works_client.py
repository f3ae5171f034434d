"""LINE WORKS' client and driver against the stand-in over real HTTP: the service account's token
(asked once, kept, renewed before it expires and once on a 401), the bot's messages to a member and to a
message room, every answer classified, the rate limit; the credentials kept and checked."""

from __future__ import annotations

import socket
from contextlib import closing
from typing import Any

import pytest

from core.channels import line_works, line_works_credentials
from core.channels.line_works_client import BaseUrls, WorksClient
from core.emulator.line_works import WorksStandIn
from core.errors import ValidationError
from core.outbox.policy import ChannelFailure, Outcome, Transport
from core.store import secrets
from core.store.db import Database
from core.texts import render
from tests.worksfixtures import app, credentials, member, works  # noqa: F401

TEXT = {"type": "text", "text": "明日 10:00–15:00 本校"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def _client(works: WorksStandIn, clock: Clock | None = None, **changes: str) -> WorksClient:
    urls = BaseUrls(works.base_url, works.base_url)
    if clock is None:
        return WorksClient(credentials(**changes), base_urls=urls)
    return WorksClient(credentials(**changes), base_urls=urls, clock=clock)


def test_a_token_is_asked_for_once_and_kept_for_every_message(works: WorksStandIn) -> None:
    works.add_user(member(1))
    works.add_channel("room-1")
    with closing(_client(works)) as client:
        assert client.send_to_user(member(1), TEXT).http_status == 201
        assert client.send_to_channel("room-1", TEXT).http_status == 201
    assert works.tokens_issued == 1
    assert works.to(member(1)) == [TEXT] and works.to("room-1") == [TEXT]
    assert [(a.target, a.to) for a in works.accepted] == [("users", member(1)), ("channels", "room-1")]


def test_the_token_is_renewed_before_it_expires() -> None:
    clock = Clock()
    with WorksStandIn(app(), clock=clock) as works, closing(_client(works, clock)) as client:
        works.add_user(member(1))
        client.send_to_user(member(1), TEXT)
        clock.now += works.token_seconds - 10 * 60
        assert client.send_to_user(member(1), TEXT).http_status == 201
        assert works.tokens_issued == 1  # still valid, and not yet within the renewal margin
        clock.now += 6 * 60  # four minutes left: replaced before LINE WORKS would refuse it
        assert client.send_to_user(member(1), TEXT).http_status == 201
        assert works.tokens_issued == 2 and works.log.count(("POST", "/oauth2/v2.0/token", 200)) == 2


def test_a_401_gets_a_new_token_once_and_the_message_goes(works: WorksStandIn) -> None:
    works.add_user(member(1))
    with closing(_client(works)) as client:
        client.send_to_user(member(1), TEXT)
        works.revoke_tokens()
        result = client.send_to_user(member(1), TEXT)
    assert result.http_status == 201 and works.tokens_issued == 2
    assert len(works.to(member(1))) == 2  # the refused request was not taken, so nothing twice


def test_a_401_after_a_new_token_holds_the_channel(works: WorksStandIn) -> None:
    works.add_user(member(1))
    works.force(401, {"code": "UNAUTHORIZED", "description": "no"}, times=2)
    with closing(_client(works)) as client:
        result = client.send_to_user(member(1), TEXT)
    assert result.http_status == 401 and works.tokens_issued == 2
    verdict = line_works.classify(result)
    assert (verdict.outcome, verdict.code) == (Outcome.HOLD, line_works.AUTH_FAILED)


def test_refused_credentials_hold_the_channel_and_send_nothing(works: WorksStandIn) -> None:
    works.add_user(member(1))
    with closing(_client(works, client_secret="wrong")) as client:
        result = client.send_to_user(member(1), TEXT)
    verdict = line_works.classify(result)
    assert (verdict.outcome, verdict.code, result.http_status) == (Outcome.HOLD, line_works.AUTH_FAILED, 401)
    assert "unknown client or wrong secret" in render(verdict.message or "", "en")
    assert "認証情報" in render(verdict.message or "", "ja")
    assert works.accepted == [] and works.tokens_issued == 0


def test_a_jwt_signed_with_another_key_is_refused(works: WorksStandIn) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    other = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    with closing(_client(works, private_key=other)) as client:
        result = client.send_to_user(member(1), TEXT)
    assert result.http_status == 400 and "assertion" in str(result.message)
    assert line_works.classify(result).outcome is Outcome.HOLD


def _verdict(works: WorksStandIn, send: str, to: str, content: dict[str, Any] = TEXT) -> tuple[Any, ...]:
    with closing(_client(works)) as client:
        result = getattr(client, send)(to, content)
    verdict = line_works.classify(result)
    return result.http_status, verdict.outcome, verdict.code, verdict.at_recipient


def test_each_answer_is_classified_in_the_drivers_terms(works: WorksStandIn) -> None:
    works.add_user(member(1))
    works.add_user(member(2), reachable=False)
    user, room = "send_to_user", "send_to_channel"
    assert _verdict(works, user, member(1)) == (201, Outcome.SENT, None, False)
    assert _verdict(works, user, member(9)) == (404, Outcome.FAILED, line_works.NOT_FOUND, True)
    assert _verdict(works, user, member(2)) == (403, Outcome.FAILED, line_works.FORBIDDEN, True)
    assert _verdict(works, room, "no-such-room") == (404, Outcome.FAILED, line_works.NOT_FOUND, False)
    too_long = {"type": "text", "text": "x" * 2001}
    assert _verdict(works, user, member(1), too_long) == (400, Outcome.FAILED, line_works.BAD_REQUEST, False)
    works.force(503)
    assert _verdict(works, user, member(1)) == (503, Outcome.RETRY, line_works.SERVER_ERROR, False)
    works.force(429, {"code": "TOO_MANY_REQUESTS", "description": "API rate limit exceeded"})
    assert _verdict(works, user, member(1)) == (429, Outcome.THROTTLED, line_works.RATE_LIMITED, False)
    works.force(409)
    assert _verdict(works, user, member(1)) == (409, Outcome.FAILED, line_works.CLIENT_ERROR, False)
    assert len(works.to(member(1))) == 1  # only the first was taken


def test_no_answer_is_retried() -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    client = WorksClient(credentials(), base_urls=BaseUrls(f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port}"))
    with closing(client):
        result = client.send_to_user(member(1), TEXT)
    assert result.transport_error is Transport.CONNECTION
    assert line_works.classify(result).outcome is Outcome.RETRY


def test_over_the_rate_limit_the_message_waits_without_spending_a_retry() -> None:
    with WorksStandIn(app(), rate_per_minute=3) as works, closing(_client(works)) as client:
        works.add_user(member(1))
        results = [client.send_to_user(member(1), TEXT) for _ in range(4)]
    assert [r.http_status for r in results] == [201, 201, 201, 429]
    verdict = line_works.classify(results[-1])
    assert verdict.outcome is Outcome.THROTTLED and "too many requests" in render(verdict.message or "", "en")
    assert "短時間" in render(verdict.message or "", "ja")


def test_the_stand_in_refuses_what_line_works_refuses(works: WorksStandIn) -> None:
    works.add_user(member(1))
    buttons = [{"type": "message", "label": f"b{n}", "postback": "x"} for n in range(11)]
    cases: list[dict[str, Any]] = [
        {"type": "button_template", "contentText": "x", "actions": buttons},  # more than 10 buttons
        {"type": "button_template", "contentText": "x", "actions": [{"type": "message", "label": "x" * 21}]},
        {"type": "button_template", "contentText": "x" * 1001, "actions": buttons[:1]},
        {"type": "button_template", "contentText": "x", "actions": [{"type": "postback", "label": "a", "data": "b"}]},
        {"type": "sticker"},
    ]
    with closing(_client(works)) as client:
        assert [client.send_to_user(member(1), c).http_status for c in cases] == [400] * len(cases)
        wrong_bot = WorksClient(credentials(bot_id="999"), base_urls=client.base_urls)
        with closing(wrong_bot):
            assert wrong_bot.send_to_user(member(1), TEXT).http_status == 404
    assert works.accepted == []


# ----- the credentials -----


def test_credentials_are_kept_in_the_keyring_and_the_settings(db: Database, memory_keyring: Any) -> None:
    assert line_works_credentials.load(db) is None
    saved = line_works_credentials.save(db, credentials(client_id=" " + credentials().client_id + " "))
    assert saved == credentials()
    assert line_works_credentials.load(db) == credentials()
    parts = {name: value for (service, name), value in memory_keyring.store.items()
             if name.startswith(secrets.LINE_WORKS_PRIVATE_KEY + ".")}
    # A Windows credential holds 1,280 characters: the key is kept in parts under that.
    assert len(parts) >= 2 and all(len(p) <= line_works_credentials.KEY_PART for p in parts.values())
    assert "BEGIN PRIVATE KEY" not in repr(saved) and credentials().client_secret not in repr(saved)


def test_a_key_that_is_not_an_rsa_pem_changes_nothing(db: Database) -> None:
    line_works_credentials.save(db, credentials())
    with pytest.raises(ValidationError) as refused:
        line_works_credentials.save(db, credentials(private_key="not a key", client_id="other"))
    assert "PEM" in render(refused.value.text, "en") and "秘密鍵" in render(refused.value.text, "ja")
    with pytest.raises(ValidationError, match="client secret is missing"):
        line_works_credentials.save(db, credentials(client_secret="  "))
    assert line_works_credentials.load(db) == credentials()


def test_check_asks_for_a_token_and_sends_nothing(works: WorksStandIn) -> None:
    urls = BaseUrls(works.base_url, works.base_url)
    line_works_credentials.check(credentials(), base_urls=urls)
    assert works.tokens_issued == 1 and works.accepted == []
    line_works_credentials.check(credentials(), base_urls=urls, test_user_id=member(1))
    assert works.tokens_issued == 2 and works.accepted == []  # a test user ID is checked, never sent to
    with pytest.raises(ValidationError, match="LINE WORKS ID"):
        line_works_credentials.check(credentials(), base_urls=urls, test_user_id="U" + "0" * 32)
    with pytest.raises(ValidationError) as refused:
        line_works_credentials.check(credentials(client_secret="wrong"), base_urls=urls)
    assert "bot scope" in render(refused.value.text, "en") and "認証情報" in render(refused.value.text, "ja")


def test_an_address_off_this_computer_must_be_https() -> None:
    assert WorksClient(credentials()).base_urls == BaseUrls("https://auth.worksmobile.com", "https://www.worksapis.com")
    with pytest.raises(ValidationError, match="HTTPS"):
        line_works_credentials.check(credentials(), base_urls=BaseUrls("http://example.com", "https://example.com"))


# ----- the driver's rules -----


def test_a_line_works_id_is_a_login_id_or_a_user_id() -> None:
    rule = line_works.WorksAddress()
    assert rule.check("  Hanako.Sato@Example.co.jp ") == "hanako.sato@example.co.jp"
    assert rule.check("C72AF563-0F21-4736-11E4-045237113344") == "c72af563-0f21-4736-11e4-045237113344"
    assert rule.check("   ") is None
    for bad in ("hanako", "U" + "0" * 32, "a@b", "c72af563-0f21-4736-11e4"):
        with pytest.raises(ValidationError) as refused:
            rule.check(bad)
        assert "login ID" in render(refused.value.text, "en") and "ログインID" in render(refused.value.text, "ja")


def test_only_a_member_line_works_cannot_reach_falls_back_and_is_remembered() -> None:
    failure = line_works.failure
    assert failure(line_works.NOT_FOUND, at_recipient=True, dead=False) == ChannelFailure(True, True)
    assert failure(line_works.FORBIDDEN, at_recipient=True, dead=False) == ChannelFailure(True, True)
    assert failure(line_works.NOT_FOUND, at_recipient=False, dead=False) == ChannelFailure(False, False)
    assert failure(line_works.BAD_REQUEST, at_recipient=False, dead=False) == ChannelFailure(False, False)
    assert failure(line_works.FORBIDDEN, at_recipient=False, dead=False) == ChannelFailure(True, False)
    assert failure(line_works.SERVER_ERROR, at_recipient=False, dead=True) == ChannelFailure(True, False)
    assert failure(line_works.SERVER_ERROR, at_recipient=False, dead=False) == ChannelFailure(False, False)


def test_a_message_with_actions_becomes_a_button_template() -> None:
    from core.messages.message import Action, ActionKind, Message

    message = Message(kind="shift_reminder", language="ja", heading="明日のシフト", lines=("10:00–15:00",),
                      actions=(Action("了解（長いラベルは二十文字までに切って送る）", "ack:1:abc"),
                               Action("代講を頼む", "cv:1:x"), Action("詳しく", "https://example.com/s", ActionKind.LINK)))
    content = line_works.content_of(message)
    # "Ask for cover" is left out: the bot's callback answers 了解 only, and a button nothing answers strands the teacher.
    assert content == {"type": "button_template", "contentText": "明日のシフト\n10:00–15:00", "actions": [
        {"type": "message", "label": "了解（長いラベルは二十文字までに切って…", "postback": "ack:1:abc"},
        {"type": "uri", "label": "詳しく", "uri": "https://example.com/s"}]}
    assert all(len(a["label"]) <= 20 for a in content["actions"])
    long = Message(kind="k", language="ja", heading="x" * 1500, actions=(Action("了解", "ack:1:abc"),))
    assert line_works.content_of(long) == {"type": "text", "text": "x" * 1500}


def test_threads_that_meet_a_revoked_token_ask_for_one_new_token(works: WorksStandIn) -> None:
    from concurrent.futures import ThreadPoolExecutor

    works.add_user(member(1))
    with closing(_client(works)) as client:
        client.send_to_user(member(1), TEXT)
        works.revoke_tokens()
        works.hold(works.before_taking)
        with ThreadPoolExecutor(4) as pool:
            sent = [pool.submit(client.send_to_user, member(1), TEXT) for _ in range(4)]
            assert works.wait_held(works.before_taking, 4, 60)  # all four carry the revoked token
            works.hold(works.before_token)
            works.release(works.before_taking)
            assert works.wait_answered(401, 4, 60) and works.wait_held(works.before_token, 1, 60)
            works.release(works.before_token)
            assert [future.result().http_status for future in sent] == [201] * 4
    assert works.tokens_issued == 2  # one new token for the four, not one each
