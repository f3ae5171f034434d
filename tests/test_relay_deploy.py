"""Deploying the relay (core/setup/relay_deploy.py) against the Cloudflare stand-in (tests/cloudflare_standin.py),
which checks every request against Cloudflare's OpenAPI excerpt and runs the uploaded Worker in workerd,
and the LINE emulator, over real HTTP on loopback: deploy from an empty account, deploy again, a
deploy stopped half-way and resumed, an update whose migration changes the schema under a queued
delivery, remove, and tokens that lack a permission or are not accepted."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets as random
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from core.emulator import LineEmulator
from core.resources import resource
from core.setup import relay_state
from core.setup.relay_bundle import load
from core.setup.relay_cloud import API_BASE_ENV, WORKERS_DEV_ENV, RelayCloudError
from core.setup.relay_deploy import DEPLOY_STEPS, REMOVE_STEPS, Progress, Step, Update, deploy, remove, update_if_needed
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from tests.cloudflare_standin import MINIFLARE, CloudflareStandIn
from tests.waiting import wait_until

pytestmark = [
    pytest.mark.slow,  # a Node process with workerd per test
    pytest.mark.skipif(not MINIFLARE.exists(), reason="relay/node_modules is missing: `make relay-test` installs it"),
]

CHANNEL_SECRET = "0123456789abcdef0123456789abcdef"
LINE_TOKEN = "long-lived-channel-token-0123456789"
CHANNEL_ID = "1657000001"
EARLIER = "https://old-bot.example.jp/callback"
NEXT_VERSION = "9.0.0"  # the bundled relay's next version, in the tests of updating
NEXT_MIGRATION = "9999_delivery_notes.sql"


@pytest.fixture
def cloudflare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[CloudflareStandIn]:
    with CloudflareStandIn(tmp_path / "cloudflare") as standin:
        monkeypatch.setenv(API_BASE_ENV, standin.base_url)
        monkeypatch.setenv(WORKERS_DEV_ENV, standin.workers_dev_template)
        yield standin
        assert standin.invalid == []  # every request the deployer made is one the excerpt allows


@pytest.fixture
def line(db: Database) -> Iterator[LineEmulator]:
    with LineEmulator(token=LINE_TOKEN, channel_id=CHANNEL_ID, channel_secret=CHANNEL_SECRET, loopback_webhooks=True) as emu:
        emu.set_webhook_endpoint(EARLIER)
        with db.write() as s:
            keys.LINE_API_BASE.write(s, emu.base_url)
        secrets.set_line_token(LINE_TOKEN)
        secrets.set_line_channel_secret(CHANNEL_SECRET)
        yield emu


@pytest.fixture
def ready(cloudflare: CloudflareStandIn, line: LineEmulator) -> CloudflareStandIn:
    relay_state.set_cloudflare_token(cloudflare.add_token())
    return cloudflare


class Steps:
    def __init__(self) -> None:
        self.seen: list[tuple[Step, Progress]] = []

    def __call__(self, step: Step, progress: Progress) -> None:
        self.seen.append((step, progress))

    def ended(self) -> dict[Step, Progress]:
        return {step: progress for step, progress in self.seen if progress is not Progress.RUNNING}


def _health(url: str) -> dict[str, object]:
    answer = httpx.get(f"{url}/health", timeout=30)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _signed(key_hex: str, method: str, path: str, body: bytes) -> str:
    """The relay's Authorization header, as docs/relay.md writes it."""
    ts, nonce = str(int(time.time())), random.token_urlsafe(18)
    message = "\n".join(["SHIFTCAST-HMAC-SHA256", method, path, ts, nonce, hashlib.sha256(body).hexdigest()])
    sig = hmac.new(bytes.fromhex(key_hex), message.encode(), hashlib.sha256).hexdigest()
    return f"Shiftcast-HMAC ts={ts}, nonce={nonce}, sig={sig}"


def test_deploy_from_an_empty_account_runs_the_bundled_worker_and_points_line_at_it(
        db: Database, ready: CloudflareStandIn, line: LineEmulator) -> None:
    steps = Steps()
    deployed = deploy(db, report=steps)

    assert [s for s, p in steps.seen if p is Progress.RUNNING] == list(DEPLOY_STEPS)
    assert steps.ended() == dict.fromkeys(DEPLOY_STEPS, Progress.DONE)  # nothing was "already done"
    found = relay_state.deployment(db)
    assert found is not None and found.database_id in ready.databases
    assert [d["name"] for d in ready.databases.values()] == [found.name]
    script = ready.scripts[found.name]
    assert script.workers_dev and [s["cron"] for s in script.schedules] == ["* * * * *"]
    assert script.compatibility_date == load().compatibility_date
    assert script.modules[script.main_module] == resource("relay", "worker.js").read_bytes()
    names = {b["name"]: b["type"] for b in script.bindings}
    assert names["DB"] == "d1" and names["RELAY_KEY"] == names["LINE_CHANNEL_SECRET"] == "secret_text"
    assert names["LINE_CHANNEL_ACCESS_TOKEN"] == "secret_text" and names["SENDER_QUIET_MINUTES"] == "plain_text"

    # The uploaded Worker's own answer, through its workers.dev address, on the tables the deploy made.
    assert _health(deployed.url) == {"version": load().relay_version, "schema_version": load().schema_version}
    assert [r["name"] for r in ready.query(found.database_id, "SELECT name FROM d1_migrations")] == [
        m.name for m in load().migrations]
    key = relay_state.relay_key(create=False)
    assert key is not None and len(bytes.fromhex(key)) == 32
    with db.read() as s:
        assert keys.RELAY_URL.read(s) == deployed.url

    # LINE now delivers to the relay, which checks the signature with the secret the deploy set.
    assert line.webhook_endpoint == deployed.url + "/line/webhook"
    delivered = line.send_text("U" + "1" * 32, "こんにちは")
    assert delivered.result is not None and delivered.result.status_code == 200
    assert ready.query(found.database_id, "SELECT count(*) AS n FROM events") == [{"n": 1}]
    # And the app's key opens the relay's API.
    path = "/api/events?after=0"
    answer = httpx.get(deployed.url + path, headers={"authorization": _signed(key, "GET", path, b"")}, timeout=30)
    assert answer.status_code == 200 and len(answer.json()["events"]) == 1


def test_deploy_again_changes_nothing_and_a_stopped_deploy_resumes(db: Database, ready: CloudflareStandIn) -> None:
    class Stop(Exception):
        pass

    def stop_at_upload(step: Step, progress: Progress) -> None:
        if step is Step.UPLOAD and progress is Progress.RUNNING:
            raise Stop  # the window closed mid-way

    with pytest.raises(Stop):
        deploy(db, report=stop_at_upload)
    assert len(ready.databases) == 1 and ready.scripts == {}

    first = deploy(db)
    assert Step.DATABASE not in first.changed and Step.MIGRATIONS not in first.changed  # found, not made again
    assert Step.UPLOAD in first.changed and len(ready.databases) == 1
    writes = len(ready.writes())

    steps = Steps()
    again = deploy(db, report=steps)
    assert again.changed == () and again.url == first.url
    assert steps.ended() == {step: Progress.DONE if step in (Step.TOKEN, Step.HEALTH) else Progress.ALREADY
                             for step in DEPLOY_STEPS}  # the checks are made again: not "already done"
    assert len(ready.writes()) == writes  # not one request that changes anything


CREATE_DATABASE, LIST_DATABASES = "cloudflare-d1-create-database", "cloudflare-d1-list-databases"


def test_a_database_whose_answer_was_lost_is_found_again_not_made_twice(db: Database, ready: CloudflareStandIn) -> None:
    ready.lose_answer(CREATE_DATABASE, times=3)  # made at the first call; the SDK's retries hear nothing either
    deployed = deploy(db)
    [made] = ready.databases
    assert Step.DATABASE in deployed.changed and relay_state.deployment(db).database_id == made  # type: ignore[union-attr]
    assert remove(db) is True and ready.databases == {}


def test_a_deploy_stopped_while_making_the_database_resumes_with_it_and_remove_deletes_it(
        db: Database, ready: CloudflareStandIn) -> None:
    def stopped_while_making_it() -> str:
        ready.lose_answer(CREATE_DATABASE, times=3)
        ready.fail_next(LIST_DATABASES, times=3, after=1)  # nor does Cloudflare say what it has, for now
        with pytest.raises(RelayCloudError):
            deploy(db)
        [made] = ready.databases
        found = relay_state.deployment(db)
        assert found is not None and found.database_id is None  # kept: the name, not what Cloudflare answered
        return made

    made = stopped_while_making_it()
    deploy(db)
    assert list(ready.databases) == [made] and relay_state.deployment(db).database_id == made  # type: ignore[union-attr]
    assert remove(db) is True and ready.databases == {}

    stopped_while_making_it()
    assert remove(db) is True and ready.databases == {} and relay_state.deployment(db) is None


def test_a_migration_whose_answer_was_lost_is_recognised_as_applied(db: Database, ready: CloudflareStandIn) -> None:
    # The query before (which migrations are recorded) and the first migration go well; the second's
    # batch lands and its answer is lost, so the SDK sends it again, and that retry fails on its own work.
    ready.lose_answer("cloudflare-d1-query-database", after=2)
    deployed = deploy(db)
    assert Step.MIGRATIONS in deployed.changed and _health(deployed.url)["schema_version"] == load().schema_version
    found = relay_state.deployment(db)
    assert found is not None and found.database_id
    recorded = ready.query(found.database_id, "SELECT name FROM d1_migrations ORDER BY id")
    assert [r["name"] for r in recorded] == [m.name for m in load().migrations]  # each once


def _newer_bundle(tmp_path: Path) -> Path:
    """The bundled relay as its next version (NEXT_VERSION), with a migration that changes the deliveries table."""
    folder = tmp_path / "relay-next"
    shutil.copytree(resource("relay"), folder)
    worker = folder / "worker.js"
    text = worker.read_text(encoding="utf-8")
    bundled = load()
    assert f'var RELAY_VERSION = "{bundled.relay_version}";' in text
    worker.write_text(text.replace(f'var RELAY_VERSION = "{bundled.relay_version}";', f'var RELAY_VERSION = "{NEXT_VERSION}";'),
                      encoding="utf-8")
    schema = bundled.schema_version + 1
    (folder / "migrations" / NEXT_MIGRATION).write_text(
        "ALTER TABLE deliveries ADD COLUMN note TEXT;\n"
        f"UPDATE meta SET value = '{schema}' WHERE key = 'schema_version';\n", encoding="utf-8")
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    manifest.update(relay_version=NEXT_VERSION, schema_version=schema, migrations=[*manifest["migrations"], NEXT_MIGRATION])
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def test_update_applies_the_new_migration_and_worker_and_keeps_the_queued_delivery(
        db: Database, ready: CloudflareStandIn, tmp_path: Path) -> None:
    deployed = deploy(db)
    assert update_if_needed(db) is Update.CURRENT
    key = relay_state.relay_key(create=False)
    assert key
    delivery = {"id": "reminder-1-1", "subject_version": 1, "path": "/v2/bot/message/push",
                "body": {"to": "U" + "2" * 32, "messages": [{"type": "text", "text": "明日 10:00 から授業です"}]},
                "retry_key": "6f1c2f9e-1d7b-4f51-9a51-4b9a6f6f2a11", "due_at": "2099-01-01T09:00:00+09:00",
                "not_after": "2099-01-01T10:00:00+09:00"}
    body = json.dumps({"deliveries": [delivery]}).encode()
    answer = httpx.put(deployed.url + "/api/deliveries", content=body, timeout=30,
                       headers={"authorization": _signed(key, "PUT", "/api/deliveries", body), "content-type": "application/json"})
    assert answer.status_code == 200 and answer.json()["results"] == [{"id": "reminder-1-1", "result": "stored"}]

    newer = load(_newer_bundle(tmp_path))
    steps = Steps()
    assert update_if_needed(db, bundle=newer, report=steps) is Update.UPDATED
    assert steps.ended() == {Step.MIGRATIONS: Progress.DONE, Step.UPLOAD: Progress.DONE, Step.HEALTH: Progress.DONE}
    assert _health(deployed.url) == {"version": NEXT_VERSION, "schema_version": load().schema_version + 1}
    found = relay_state.deployment(db)
    assert found is not None and found.database_id
    assert ready.query(found.database_id, "SELECT id, state, note FROM deliveries") == [
        {"id": "reminder-1-1", "state": "queued", "note": None}]
    assert [r["name"] for r in ready.query(found.database_id, "SELECT name FROM d1_migrations ORDER BY id")] == [
        *(m.name for m in load().migrations), NEXT_MIGRATION]
    assert update_if_needed(db, bundle=newer) is Update.CURRENT


def test_an_older_relay_without_a_token_is_left_alone(db: Database, ready: CloudflareStandIn, tmp_path: Path) -> None:
    deploy(db)
    relay_state.set_cloudflare_token("")
    writes = len(ready.writes())
    assert update_if_needed(db, bundle=load(_newer_bundle(tmp_path))) is Update.NO_TOKEN
    assert len(ready.writes()) == writes


def test_remove_deletes_everything_and_points_line_back(db: Database, ready: CloudflareStandIn, line: LineEmulator) -> None:
    deployed = deploy(db)
    steps = Steps()
    assert remove(db, report=steps) is True
    assert steps.ended() == dict.fromkeys(REMOVE_STEPS, Progress.DONE)
    assert line.webhook_endpoint == EARLIER
    assert ready.scripts == {} and ready.databases == {}
    assert httpx.get(f"{deployed.url}/health", timeout=30).status_code == 404
    assert relay_state.deployment(db) is None and relay_state.relay_key(create=False) is None
    with db.read() as s:
        assert keys.RELAY_URL.read(s) is None
    assert remove(db) is False  # nothing left to remove


def test_remove_leaves_a_webhook_someone_changed_since(db: Database, ready: CloudflareStandIn, line: LineEmulator) -> None:
    deploy(db)
    line.set_webhook_endpoint("https://another.example.jp/hook")
    steps = Steps()
    remove(db, report=steps)
    assert steps.ended()[Step.LINE_BACK] is Progress.ALREADY
    assert line.webhook_endpoint == "https://another.example.jp/hook"
    assert ready.scripts == {} and ready.databases == {}


@pytest.mark.parametrize("permissions", [
    frozenset({"d1:edit", "account_settings:read"}),  # no Workers permission at all
    frozenset({"workers_scripts:edit", "account_settings:read"}),  # no D1
    frozenset({"workers_scripts:read", "d1:edit", "account_settings:read"}),  # Workers read, not edit
])
def test_a_token_without_a_permission_gets_words_and_changes_nothing(
        db: Database, cloudflare: CloudflareStandIn, line: LineEmulator, permissions: frozenset[str]) -> None:
    relay_state.set_cloudflare_token(cloudflare.add_token(permissions))
    with pytest.raises(RelayCloudError) as raised:
        deploy(db)
    assert raised.value.code == "relay_setup.permission_missing"
    assert "Workers Scripts: Edit, D1: Edit" in str(raised.value)
    assert cloudflare.databases == {} and cloudflare.scripts == {}
    assert line.webhook_endpoint == EARLIER
    assert relay_state.relay_url(db) is None


def test_a_token_cloudflare_does_not_know_is_refused_in_words(db: Database, cloudflare: CloudflareStandIn,
                                                                line: LineEmulator) -> None:
    relay_state.set_cloudflare_token("a-token-nobody-made")
    with pytest.raises(RelayCloudError) as raised:
        deploy(db)
    assert raised.value.code == "relay_setup.token_refused"
    assert cloudflare.writes() == []


def test_without_a_token_nothing_runs(db: Database, cloudflare: CloudflareStandIn, line: LineEmulator) -> None:
    with pytest.raises(RelayCloudError) as raised:
        deploy(db)
    assert raised.value.code == "relay_setup.no_token"
    assert cloudflare.seen == []


def test_the_workers_dev_address_waits_for_the_switch(db: Database, ready: CloudflareStandIn) -> None:
    deployed = deploy(db)
    found = relay_state.deployment(db)
    assert found is not None
    ready.scripts[found.name].workers_dev = False
    assert httpx.get(f"{deployed.url}/health", timeout=30).status_code == 404
    again = deploy(db)
    assert Step.WORKERS_DEV in again.changed and Step.DATABASE not in again.changed
    assert wait_until(lambda: httpx.get(f"{deployed.url}/health", timeout=30).status_code == 200)


def test_the_command_line_deploys_with_a_token_from_stdin_and_removes(
        db: Database, cloudflare: CloudflareStandIn, line: LineEmulator, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    import main

    monkeypatch.setattr("sys.stdin", io.StringIO(cloudflare.add_token() + "\n"))
    assert main.main(["relay", "deploy", "--token-stdin", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "✓ データベースを作成" in out and "✓ LINEのWebhookを中継サーバーに設定" in out
    assert "完了済み" not in out  # a first deploy did every step now
    url = relay_state.relay_url(db)
    assert url and f"中継サーバー {load().relay_version} が {url} で動いています。" in out
    assert _health(url)["version"] == load().relay_version

    assert main.main(["relay", "deploy", "--lang", "en"]) == 0  # the token is in the keyring now
    out = capsys.readouterr().out
    assert "Create the database (already done)" in out
    assert "✓ Check the Cloudflare token and account\n" in out and "✓ Wait for the relay to answer\n" in out

    assert main.main(["relay", "remove", "--lang", "en"]) == 0
    assert "the relay is removed from Cloudflare" in capsys.readouterr().out
    assert cloudflare.scripts == {} and cloudflare.databases == {} and line.webhook_endpoint == EARLIER


def test_the_command_line_says_a_missing_permission_in_one_line(
        db: Database, cloudflare: CloudflareStandIn, line: LineEmulator, capsys: pytest.CaptureFixture[str]) -> None:
    import main

    relay_state.set_cloudflare_token(cloudflare.add_token(frozenset({"d1:edit", "account_settings:read"})))
    assert main.main(["relay", "deploy", "--lang", "ja"]) == 1
    err = capsys.readouterr().err
    assert "Cloudflare のAPIトークンに" in err and "Traceback" not in err
    assert cloudflare.databases == {}


def test_at_start_an_update_cloudflare_refuses_is_logged_not_raised(
        db: Database, ready: CloudflareStandIn, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from core.setup.relay_deploy import update_at_start

    deploy(db)
    relay_state.set_cloudflare_token(ready.add_token(frozenset({"workers_scripts:read", "d1:read"})))
    with caplog.at_level("WARNING"):
        assert update_at_start(db, bundle=load(_newer_bundle(tmp_path))) is None
    assert "could not update the relay yet" in caplog.text
    assert _health(str(relay_state.relay_url(db)))["version"] == load().relay_version  # the running relay is untouched
    assert update_at_start(db) is Update.CURRENT


def test_the_stand_in_refuses_what_the_excerpt_does_not_allow(tmp_path: Path) -> None:
    with CloudflareStandIn(tmp_path / "cloudflare") as standin:
        auth = {"authorization": f"Bearer {standin.add_token()}"}
        account = f"{standin.base_url}/accounts/{standin.account_id}"
        refused = [
            httpx.post(f"{account}/d1/database", json={"primary_location_hint": "apac"}, headers=auth),  # no name
            httpx.post(f"{account}/d1/database", json={"name": "Not A Valid Name!"}, headers=auth),  # pattern
            httpx.get(f"{account}/d1/database?per_page=3", headers=auth),  # below the minimum
            httpx.get(f"{account}/d1/database?colour=red", headers=auth),  # no such parameter
            httpx.put(f"{account}/workers/scripts/relay", files={"worker.js": ("worker.js", b"", "text/javascript")},
                      headers=auth),  # no metadata part
            httpx.put(f"{account}/workers/scripts/Bad_Name!", json={}, headers=auth),  # script name pattern
            httpx.put(f"{account}/workers/scripts/relay/schedules", json={"cron": "* * * * *"}, headers=auth),  # not an array
            httpx.post(f"{standin.base_url}/accounts/{standin.account_id}/workers/scripts", json={}, headers=auth),  # no such operation
            httpx.get(f"{standin.base_url}/user/tokens/verify"),  # no token
        ]
        assert [r.status_code for r in refused] == [400, 400, 400, 400, 400, 400, 400, 404, 400]
        assert all(r.json()["success"] is False and r.json()["result"] is None for r in refused)
        assert len(standin.invalid) == len(refused)
        assert standin.databases == {} and standin.scripts == {}
        standin.invalid.clear()


def test_an_account_without_a_workers_dev_subdomain_is_told_what_to_do(
        db: Database, line: LineEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with CloudflareStandIn(tmp_path / "cloudflare", subdomain=None) as standin:
        monkeypatch.setenv(API_BASE_ENV, standin.base_url)
        relay_state.set_cloudflare_token(standin.add_token())
        with pytest.raises(RelayCloudError) as raised:
            deploy(db)
        assert raised.value.code == "relay_setup.no_subdomain"
        assert standin.writes() == [] and standin.invalid == []


def test_a_deploy_and_a_remove_use_only_the_cloudflare_areas_the_bundle_keeps(
        db: Database, ready: CloudflareStandIn) -> None:
    """The release bundle leaves out the SDK's other API areas (packaging/bundle_rules.py); one used
    but left out would fail only in the installed app."""
    import importlib
    import sys

    import tests.test_packaging  # noqa: F401 - puts packaging/ on the path

    bundle_rules = importlib.import_module("bundle_rules")

    deploy(db)
    assert remove(db) is True
    areas = {area for name in list(sys.modules) if (area := bundle_rules.cloudflare_area(name)) is not None}
    assert areas and {"d1", "workers", "user"} <= areas
    assert all(bundle_rules.cloudflare_kept(area) for area in areas), sorted(areas)
