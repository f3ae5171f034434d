"""Stateless channel access tokens against the emulator over real HTTP: issued from the channel ID
and secret, reused until a minute before they expire, renewed once after a 401, and used by the
sender's LINE connection when no long-lived token is set."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest

from core.channels.line import LineClient, access_from_settings
from core.channels.line_token import IssuedToken, StatelessTokenSource, usable
from core.emulator import LineEmulator
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from tests.linefixtures import FakeClock, user_id

CHANNEL_ID = "1234567890"
SECRET = "fedcba9876543210fedcba9876543210"
START = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def line(clock: FakeClock) -> Iterator[LineEmulator]:
    # A long-lived token no client here knows: only stateless tokens get through.
    with LineEmulator(token="long-lived-token-nobody-has", clock=clock, channel_id=CHANNEL_ID,
                      channel_secret=SECRET) as emu:
        yield emu


def _client(line: LineEmulator, clock: FakeClock, secret: str = SECRET) -> tuple[LineClient, StatelessTokenSource]:
    source = StatelessTokenSource(CHANNEL_ID, secret, base_url=line.base_url, clock=clock)
    return LineClient("", base_url=line.base_url, auth=source.auth()), source


def test_a_token_is_used_until_one_minute_before_it_expires() -> None:
    token = IssuedToken("t", START + dt.timedelta(seconds=899))
    assert usable(token, START)
    assert usable(token, START + dt.timedelta(seconds=838))
    assert not usable(token, START + dt.timedelta(seconds=839))
    assert not usable(None, START)


def test_a_token_is_issued_once_and_reused(line: LineEmulator, clock: FakeClock) -> None:
    client, source = _client(line, clock)
    with client:
        for _ in range(3):
            assert client.bot_info()["displayName"] == "Shiftcast Emulator"
    assert (source.issued, line.stateless_tokens_issued) == (1, 1)
    assert [(r.path, r.status) for r in line.request_log()][:2] == [("/oauth2/v3/token", 200), ("/v2/bot/info", 200)]


def test_a_new_token_is_issued_a_minute_before_expiry(line: LineEmulator, clock: FakeClock) -> None:
    client, source = _client(line, clock)
    with client:
        client.bot_info()
        clock.advance(seconds=838)
        client.bot_info()
        assert source.issued == 1
        clock.advance(seconds=1)  # 60 s before the 899 s run out
        client.bot_info()
    assert (source.issued, line.stateless_tokens_issued) == (2, 2)
    assert [r.status for r in line.request_log() if r.path == "/v2/bot/info"] == [200, 200, 200]


def test_a_401_renews_the_token_once_and_repeats_the_request(line: LineEmulator, clock: FakeClock) -> None:
    client, source = _client(line, clock)
    line.add_user(user_id(1), "佐藤")
    with client:
        client.bot_info()
        line.revoke_stateless_tokens()  # the cached token is refused though it has not expired
        result = client.push(user_id(1), [{"type": "text", "text": "明日 16:00"}],
                             retry_key="0b8f5a4e-6a3e-4f9a-9d59-2f1c1f0e7a11")
    assert result.http_status == 200
    assert source.issued == 2
    pushes = [r.status for r in line.request_log() if r.path == "/v2/bot/message/push"]
    assert pushes == [401, 200]
    assert len(line.inbox(user_id(1))) == 1


def test_a_refused_secret_ends_as_lines_401_for_the_sender_to_hold(line: LineEmulator, clock: FakeClock) -> None:
    client, source = _client(line, clock, secret="not-the-secret")
    with client:
        result = client.push(user_id(1), [{"type": "text", "text": "x"}],
                             retry_key="0b8f5a4e-6a3e-4f9a-9d59-2f1c1f0e7a12")
    assert result.http_status == 401 and source.issued == 0


def test_the_sender_uses_stateless_tokens_when_only_the_channel_id_and_secret_are_set(
        line: LineEmulator, db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", line.base_url)
    assert access_from_settings(db) is None  # nothing configured yet
    with db.write() as s:
        keys.LINE_CHANNEL_ID.write(s, CHANNEL_ID)
    assert access_from_settings(db) is None  # the secret is still missing
    secrets.set_line_channel_secret(SECRET)
    access = access_from_settings(db)
    assert access is not None
    line.add_user(user_id(1), "佐藤")
    with access.client as client:
        assert client.push(user_id(1), [{"type": "text", "text": "x"}],
                           retry_key="0b8f5a4e-6a3e-4f9a-9d59-2f1c1f0e7a13").http_status == 200
    assert line.stateless_tokens_issued == 1
    # Another secret is other credentials: a hold on the old fingerprint lifts.
    secrets.set_line_channel_secret(SECRET + "0")
    other = access_from_settings(db)
    assert other is not None and other.fingerprint != access.fingerprint
    other.close()


def test_a_long_lived_token_wins_over_the_channel_id_and_secret(line: LineEmulator, db: Database,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", line.base_url)
    with db.write() as s:
        keys.LINE_CHANNEL_ID.write(s, CHANNEL_ID)
    secrets.set_line_channel_secret(SECRET)
    secrets.set_line_token("long-lived-token-nobody-has")
    access = access_from_settings(db)
    assert access is not None and access.fingerprint == secrets.fingerprint("long-lived-token-nobody-has")
    with access.client as client:
        client.bot_info()
    assert line.stateless_tokens_issued == 0


def test_the_emulator_refuses_a_wrong_grant_or_client(line: LineEmulator) -> None:
    import httpx

    url = f"{line.base_url}/oauth2/v3/token"
    form = {"grant_type": "client_credentials", "client_id": CHANNEL_ID, "client_secret": SECRET}
    ok = httpx.post(url, data=form, timeout=30)
    assert ok.status_code == 200 and ok.json()["expires_in"] == 899 and ok.json()["token_type"] == "Bearer"
    assert httpx.post(url, data={**form, "client_secret": "x"}, timeout=30).json()["error"] == "invalid_client"
    assert httpx.post(url, data={**form, "client_id": "1"}, timeout=30).json()["error"] == "invalid_client"
    assert httpx.post(url, data={**form, "grant_type": "password"}, timeout=30).json()["error"] == "unsupported_grant_type"
    assert httpx.post(url, json=form, timeout=30).status_code == 400


def test_a_box_without_a_keyring_sends_with_the_secret_from_its_environment(
        line: LineEmulator, db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring
    from keyring.backends.fail import Keyring as NoKeyring

    monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", line.base_url)
    monkeypatch.delenv(secrets.LINE_TOKEN_ENV, raising=False)
    with db.write() as s:
        keys.LINE_CHANNEL_ID.write(s, CHANNEL_ID)
    previous = keyring.get_keyring()
    keyring.set_keyring(NoKeyring())
    try:
        monkeypatch.delenv(secrets.LINE_CHANNEL_SECRET_ENV, raising=False)
        with pytest.raises(secrets.SecretStoreError):
            access_from_settings(db)  # nothing stands in for the keyring: say so, as before
        monkeypatch.setenv(secrets.LINE_CHANNEL_SECRET_ENV, SECRET)
        access = access_from_settings(db)
        assert access is not None
        line.add_user(user_id(1), "佐藤")
        with access.client as client:
            assert client.push(user_id(1), [{"type": "text", "text": "x"}],
                               retry_key="0b8f5a4e-6a3e-4f9a-9d59-2f1c1f0e7a14").http_status == 200
    finally:
        keyring.set_keyring(previous)
    assert line.stateless_tokens_issued == 1
