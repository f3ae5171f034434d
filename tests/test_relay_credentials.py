"""The LINE credentials of a relay deployed to Cloudflare (core/setup/relay_credentials.py), against the
Cloudflare stand-in (which checks each request against the OpenAPI excerpt and runs the uploaded Worker
in workerd) and the LINE emulator (which checks every token): a relay deployed with only the channel ID
and secret issues its own tokens and sends; new credentials saved in the app reach a relay already
current at once, or at the next start when the Cloudflare token is not saved, and until then readiness
and `relay status` say the relay holds old ones."""

from __future__ import annotations

import datetime as dt
import io
import json
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from core.emulator import LineEmulator
from core.setup import line as line_setup
from core.setup import readiness, relay_state
from core.setup.relay_credentials import CHANNEL_ID, SECRET, TOKEN, Held, Push, changes, fingerprints, held, push
from core.setup.relay_deploy import Update, deploy, update_if_needed
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Delivery, DeliveryAttempt, DeliveryStatus
from tests.cloudflare_standin import CloudflareStandIn
from tests.linefixtures import make_reminders
from tests.test_relay_deploy import CHANNEL_ID as CHANNEL
from tests.test_relay_deploy import CHANNEL_SECRET, LINE_TOKEN, _signed, cloudflare  # noqa: F401
from tests.test_relay_deploy import line as line_with_token  # noqa: F401 - a fixture
from tests.test_relay_deploy import pytestmark as STANDIN

NEW_TOKEN = "reissued-long-lived-token-9876543210"
NEW_SECRET = "fedcba9876543210fedcba9876543210"
TEACHER = "U" + "7" * 32


@pytest.fixture
def line(line_with_token: LineEmulator) -> LineEmulator:
    """LINE with a long-lived token and a channel ID, and a teacher; the app holds the secret and the token."""
    line_with_token.add_user(TEACHER, "佐藤 花子")
    return line_with_token


@pytest.fixture
def only_id_and_secret(db: Database, line: LineEmulator) -> LineEmulator:
    """The app as Connect LINE leaves it: the channel ID and secret, no long-lived token."""
    secrets.set_line_token("")
    with db.write() as s:
        keys.LINE_CHANNEL_ID.write(s, CHANNEL)
    return line


@pytest.fixture
def ready(cloudflare: CloudflareStandIn) -> CloudflareStandIn:
    relay_state.set_cloudflare_token(cloudflare.add_token())
    return cloudflare


def _secret_bindings(standin: CloudflareStandIn, db: Database) -> dict[str, str]:
    found = relay_state.deployment(db)
    assert found is not None
    return {b["name"]: b["text"] for b in standin.scripts[found.name].bindings if b["type"] == "secret_text"}


def _remind(url: str, text: str) -> str:
    """A reminder handed to the relay as the app hands it over: due now, its shift in two hours."""
    key = relay_state.relay_key(create=False)
    assert key
    now = dt.datetime.now(dt.UTC)
    delivery_id = f"reminder-{uuid.uuid4().hex[:8]}-1"
    body = json.dumps({"deliveries": [{
        "id": delivery_id, "subject_version": 1, "path": "/v2/bot/message/push",
        "body": {"to": TEACHER, "messages": [{"type": "text", "text": text}]},
        "retry_key": str(uuid.uuid4()), "due_at": (now - dt.timedelta(minutes=1)).isoformat(),
        "not_after": (now + dt.timedelta(hours=2)).isoformat()}]}).encode()
    answer = httpx.put(url + "/api/deliveries", content=body, timeout=30, headers={
        "authorization": _signed(key, "PUT", "/api/deliveries", body), "content-type": "application/json"})
    assert answer.status_code == 200 and answer.json()["results"][0]["result"] == "stored", answer.text
    return delivery_id


def _cron(standin: CloudflareStandIn, db: Database) -> None:
    found = relay_state.deployment(db)
    assert found is not None
    standin.run_cron(found.name)


def _outcomes(standin: CloudflareStandIn, db: Database, delivery_id: str) -> list[dict[str, Any]]:
    found = relay_state.deployment(db)
    assert found is not None and found.database_id
    return standin.query(found.database_id, "SELECT outcome, error_code, http_status FROM outcomes WHERE delivery_id = ? "
                         "ORDER BY seq", [delivery_id])


def _texts(line: LineEmulator) -> list[str]:
    return [str(m.message.get("text")) for m in line.inbox(TEACHER)]


def _push_answers(line: LineEmulator) -> list[int | None]:
    return [r.status for r in line.request_log() if r.path == "/v2/bot/message/push"]


# ----- with only the channel ID and secret -----


@pytest.mark.slow
@STANDIN[1]
def test_a_relay_deployed_with_only_the_channel_id_and_secret_sends_the_apps_reminder_with_its_own_token(
        db: Database, ready: CloudflareStandIn, only_id_and_secret: LineEmulator,
        capsys: pytest.CaptureFixture[str]) -> None:
    import main

    line = only_id_and_secret
    deploy(db)
    bound = _secret_bindings(ready, db)
    assert bound[CHANNEL_ID] == CHANNEL and bound[SECRET] == CHANNEL_SECRET and TOKEN not in bound
    assert held(db) is Held.CURRENT
    issued_by_the_app = line.stateless_tokens_issued  # pointing LINE's webhook at the relay took one

    # A reminder the app planned, handed over by `relay sync` while no app sender runs; the relay sends it.
    [reminder] = make_reminders(db, 1, now=dt.datetime.now(dt.UTC), emulator=line)
    with db.read() as s:
        row = s.get(Delivery, reminder)
        assert row is not None and row.recipient
        teacher = row.recipient
    assert main.main(["relay", "sync"]) == 0 and json.loads(capsys.readouterr().out)["uploaded"] == 1
    _cron(ready, db)
    assert len(line.inbox(teacher)) == 1
    assert line.stateless_tokens_issued == issued_by_the_app + 1  # the relay's own, from the ID and secret
    assert main.main(["relay", "sync"]) == 0 and json.loads(capsys.readouterr().out)["sent_by_relay"] == 1
    with db.read() as s:
        row = s.get(Delivery, reminder)
        assert row is not None and row.status is DeliveryStatus.SENT
        assert [(a.via, a.outcome, a.http_status) for a in s.scalars(
            select(DeliveryAttempt).where(DeliveryAttempt.delivery_id == reminder))] == [("relay", "sent", 200)]

    # The next run's send uses the token kept in D1: LINE is not asked for another.
    again = _remind(relay_state.relay_url(db) or "", "明後日 17:00 から授業です")
    _cron(ready, db)
    assert _outcomes(ready, db, again)[0]["outcome"] == "sent"
    assert line.stateless_tokens_issued == issued_by_the_app + 1
    found = relay_state.deployment(db)
    assert found is not None and found.database_id
    assert ready.query(found.database_id, "SELECT count(*) AS n FROM line_token") == [{"n": 1}]


@pytest.mark.slow
@STANDIN[1]
def test_without_the_channel_id_or_secret_deploy_stops_before_making_anything(
        db: Database, cloudflare: CloudflareStandIn, only_id_and_secret: LineEmulator) -> None:
    from core.setup.relay_cloud import RelayCloudError

    relay_state.set_cloudflare_token(cloudflare.add_token())
    with db.write() as s:
        keys.LINE_CHANNEL_ID.clear(s)
    with pytest.raises(RelayCloudError) as raised:
        deploy(db)
    assert raised.value.code == "relay_setup.no_line"
    assert cloudflare.writes() == []


# ----- new credentials saved in the app -----


@pytest.mark.slow
@STANDIN[1]
def test_a_reissued_token_saved_in_the_app_reaches_the_relay_at_once(
        db: Database, ready: CloudflareStandIn, line: LineEmulator) -> None:
    deployed = deploy(db)
    line.reissue_token(NEW_TOKEN)  # the manager reissued the token in LINE's console: the old one is refused

    refused = _remind(deployed.url, "refused")
    _cron(ready, db)
    assert _outcomes(ready, db, refused) == [{"outcome": "hold", "error_code": "AUTH_FAILED", "http_status": 401}]

    uploads = sum(1 for s in ready.seen if s.op_id == "worker-script-upload-worker-module")
    assert line_setup.save_token(db, NEW_TOKEN) is True
    assert _secret_bindings(ready, db)[TOKEN] == NEW_TOKEN
    assert [s.op_id for s in ready.seen[-1:]] == ["worker-script-put-secret"]
    assert sum(1 for s in ready.seen if s.op_id == "worker-script-upload-worker-module") == uploads  # the code untouched
    assert held(db) is Held.CURRENT

    sent = _remind(deployed.url, "明日 17:00 から授業です")
    _cron(ready, db)
    assert _outcomes(ready, db, sent) == [{"outcome": "sent", "error_code": None, "http_status": 200}]
    assert _texts(line) == ["明日 17:00 から授業です"]
    assert _push_answers(line) == [401, 200]  # the old token refused, the new one taken
    assert push(db) is Push.CURRENT  # nothing more to give


@pytest.mark.slow
@STANDIN[1]
def test_a_token_saved_while_cloudflare_fails_says_the_relay_did_not_get_it_and_exits_non_zero(
        db: Database, ready: CloudflareStandIn, line: LineEmulator, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import main

    deploy(db)
    ready.fail_next("worker-script-put-secret", times=3)  # the call and the SDK's two retries
    monkeypatch.setattr("sys.stdin", io.StringIO(NEW_TOKEN + "\n"))
    assert main.main(["line-token", "--lang", "en"]) == 1
    said = capsys.readouterr()
    assert "saved in the keyring" in said.out
    assert "saved on this computer, but not given to the relay on Cloudflare" in said.err
    assert "shiftcast relay deploy" in said.err and "Traceback" not in said.err
    assert secrets.line_token() == NEW_TOKEN and held(db) is Held.OLD

    monkeypatch.setattr("sys.stdin", io.StringIO(NEW_TOKEN + "\n"))  # the same token again: given to the relay now
    assert main.main(["line-token", "--lang", "en"]) == 0
    assert capsys.readouterr().err == ""
    assert _secret_bindings(ready, db)[TOKEN] == NEW_TOKEN and held(db) is Held.CURRENT

    relay_state.set_cloudflare_token("")  # a new secret without the Cloudflare token: said, in Japanese too
    monkeypatch.setattr("sys.stdin", io.StringIO(NEW_SECRET + "\n"))
    assert main.main(["line-channel", "--id", CHANNEL, "--lang", "ja"]) == 1
    said = capsys.readouterr()
    assert "保存しました" in said.out
    assert "Cloudflare の中継サーバーにはまだ渡せていません（Cloudflare のAPIトークンがこのコンピューターに保存されていません）" in said.err
    assert held(db) is Held.OLD


@pytest.mark.slow
@STANDIN[1]
def test_without_the_cloudflare_token_the_relay_is_told_old_and_gets_the_new_token_at_the_next_start(
        db: Database, ready: CloudflareStandIn, line: LineEmulator, capsys: pytest.CaptureFixture[str]) -> None:
    import main

    deploy(db)
    cloudflare_token = relay_state.cloudflare_token()
    assert cloudflare_token
    relay_state.set_cloudflare_token("")
    line.reissue_token(NEW_TOKEN)
    writes = len(ready.writes())
    line_setup.save_token(db, NEW_TOKEN)
    assert len(ready.writes()) == writes and _secret_bindings(ready, db)[TOKEN] == LINE_TOKEN
    assert held(db) is Held.OLD

    found = [r for r in readiness.check(db, now=dt.datetime.now(dt.UTC), autostart=True) if r.key == "relay"]
    assert [(r.state, r.says.code, r.fix) for r in found] == [
        (readiness.State.WARNING, "readiness.relay.old", readiness.Fix.RELAY)]
    assert main.main(["relay", "status", "--lang", "ja"]) == 0
    said = capsys.readouterr()
    assert json.loads(said.out)["line_credentials"] == "old"
    assert "以前に保存したLINEの認証情報をまだ使っています" in said.err

    assert update_if_needed(db) is Update.NO_TOKEN  # the next start without the token: still old
    relay_state.set_cloudflare_token(cloudflare_token)
    assert update_if_needed(db) is Update.CREDENTIALS  # the next start with it
    assert _secret_bindings(ready, db)[TOKEN] == NEW_TOKEN and held(db) is Held.CURRENT
    assert main.main(["relay", "status", "--lang", "en"]) == 0
    said = capsys.readouterr()
    assert json.loads(said.out)["line_credentials"] == "current" and said.err == ""
    assert [r.state for r in readiness.check(db, now=dt.datetime.now(dt.UTC), autostart=True)
            if r.key == "relay"] == [readiness.State.OK]
    assert update_if_needed(db) is Update.CURRENT


@pytest.mark.slow
@STANDIN[1]
def test_a_new_channel_secret_and_the_switch_to_the_channel_id_reach_the_relay(
        db: Database, ready: CloudflareStandIn, line: LineEmulator, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The manager issues a new channel secret and connects with the channel ID instead of the token:
    the relay gets the ID and the new secret, loses the token, and sends with tokens it issues itself."""
    import main

    deployed = deploy(db)
    line.reissue_channel_secret(NEW_SECRET)
    line.reissue_token(NEW_TOKEN)  # and the old token is gone too: only the ID and secret work now
    secrets.set_line_token("")
    monkeypatch.setattr("sys.stdin", io.StringIO(NEW_SECRET + "\n"))
    assert main.main(["line-channel", "--id", CHANNEL, "--lang", "en"]) == 0
    capsys.readouterr()

    bound = _secret_bindings(ready, db)
    assert bound[SECRET] == NEW_SECRET and bound[CHANNEL_ID] == CHANNEL and TOKEN not in bound
    assert held(db) is Held.CURRENT

    sent = _remind(deployed.url, "明日 17:00 から授業です")
    _cron(ready, db)
    assert _outcomes(ready, db, sent)[0]["outcome"] == "sent"
    assert _texts(line) == ["明日 17:00 から授業です"]
    # LINE's webhook, signed with the new secret, is taken by the relay.
    delivered = line.send_text(TEACHER, "了解です")
    assert delivered.result is not None and delivered.result.status_code == 200


# ----- the rule (pure) -----


def test_changes_sets_the_new_way_first_and_deletes_the_old_way_last() -> None:
    token_way = {SECRET: "s1", TOKEN: "t1"}
    id_way = {SECRET: "s2", CHANNEL_ID: "1657000001"}
    assert changes(fingerprints(token_way), token_way) == ((), ())
    assert changes(fingerprints(token_way), {SECRET: "s1", TOKEN: "t2"}) == ((TOKEN,), ())
    assert changes(fingerprints(token_way), id_way) == ((SECRET, CHANNEL_ID), (TOKEN,))
    assert changes(fingerprints(id_way), token_way) == ((SECRET, TOKEN), (CHANNEL_ID,))
    # A relay deployed before the app kept fingerprints: everything is set, and the other way deleted.
    assert changes(None, id_way) == ((SECRET, CHANNEL_ID), (TOKEN,))
    assert "t1" not in json.dumps(fingerprints(token_way)) and "s1" not in json.dumps(fingerprints(token_way))


def test_the_local_relay_gets_the_channel_id_instead_of_a_token(tmp_path: Path) -> None:
    from core.relay.local import RelaySecrets, prepare

    worker = prepare(tmp_path, RelaySecrets("the-secret", None, "ab" * 32, channel_id=CHANNEL))
    assert (worker / ".dev.vars").read_text(encoding="utf-8") == (
        f"LINE_CHANNEL_SECRET=the-secret\nLINE_CHANNEL_ID={CHANNEL}\nRELAY_KEY={'ab' * 32}\n")
    worker = prepare(tmp_path, RelaySecrets("the-secret", "a-token", "ab" * 32))
    assert (worker / ".dev.vars").read_text(encoding="utf-8") == (
        f"LINE_CHANNEL_SECRET=the-secret\nLINE_CHANNEL_ACCESS_TOKEN=a-token\nRELAY_KEY={'ab' * 32}\n")
