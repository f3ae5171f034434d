"""Deploying the relay to the manager's Cloudflare account, keeping it current, and removing it.

`deploy(db)` runs these steps, each of which first looks whether its work is done, so a deploy that
stopped (a closed window, a lost connection) resumes where it was and a second deploy changes nothing:

1. TOKEN: the Cloudflare token (keyring only) is checked, its account found, and the account's
   workers.dev subdomain read. Only reads so far: a token that lacks a permission stops here or at
   the first call that needs it, before anything is made.
2. DATABASE: the D1 database `shiftcast-relay-<short id>`, found by name or created; the name is kept
   before it is created, so one whose answer was lost is found again (and removed) rather than orphaned.
3. MIGRATIONS: the bundled migrations not yet in the database's `d1_migrations` table (the table and
   the bookkeeping wrangler keeps, so `wrangler d1 migrations apply` agrees), each with its record in
   one batch.
4. UPLOAD: the bundled Worker (resources/relay/), with the database, the vars of wrangler.toml and the
   secrets as bindings of one upload. RELAY_KEY is 256 random bits kept in the keyring; the LINE
   credentials are the app's own (core/setup/relay_credentials.py: the channel secret with the long-lived
   token, or with the channel ID). Skipped while /health already reports the bundled version and the
   Worker holds the LINE credentials saved here.
5. WORKERS_DEV, SCHEDULE: the workers.dev address switched on, the cron set.
6. HEALTH: the relay answers /health with the bundled version and schema.
7. LINE: LINE's webhook points at `<relay>/line/webhook`; the address LINE had is kept first.
8. SAVE: the relay's address in the settings, where the relay client finds it.

`update_if_needed(db)`, at each start: the deployed relay older than the bundled one gets the pending
migrations and the new Worker; a current one that holds LINE credentials saved before gets the new ones. `remove(db)`: LINE's earlier webhook address back, the Worker and the
database deleted, the key and the address forgotten. Progress goes to a callback, step by step.
"""

from __future__ import annotations

import enum
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from core.channels.line import resolve_base_url
from core.errors import ShiftcastError
from core.setup import relay_credentials as credentials
from core.setup import relay_state as state
from core.setup.line_connect import client_from_settings
from core.setup.relay_bundle import Bundle, is_older, load
from core.setup.relay_cloud import Cloud, RelayCloudError, health, workers_dev_url
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import t

log = logging.getLogger(__name__)
WEBHOOK_PATH = state.WEBHOOK_PATH
HEALTH_WAIT_S = 120.0  # a new Worker version usually answers within seconds
HEALTH_PAUSE_S = 2.0
# wrangler's own bookkeeping of applied migrations (wrangler d1 migrations apply).
MIGRATIONS_TABLE = ("CREATE TABLE IF NOT EXISTS d1_migrations(id INTEGER PRIMARY KEY AUTOINCREMENT, "
                    "name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)")


class Step(enum.Enum):
    TOKEN = "token"
    DATABASE = "database"
    MIGRATIONS = "migrations"
    UPLOAD = "upload"
    WORKERS_DEV = "workers_dev"
    SCHEDULE = "schedule"
    HEALTH = "health"
    LINE = "line"
    SAVE = "save"
    # Removing
    LINE_BACK = "line_back"
    DELETE_WORKER = "delete_worker"
    DELETE_DATABASE = "delete_database"
    FORGET = "forget"

    @property
    def words(self) -> Any:
        return t(f"relay_setup.step.{self.value}")


DEPLOY_STEPS = (Step.TOKEN, Step.DATABASE, Step.MIGRATIONS, Step.UPLOAD, Step.WORKERS_DEV, Step.SCHEDULE,
                Step.HEALTH, Step.LINE, Step.SAVE)
CHECKS = frozenset({Step.TOKEN, Step.HEALTH})  # the steps that only look: done at every deploy
REMOVE_STEPS = (Step.LINE_BACK, Step.DELETE_WORKER, Step.DELETE_DATABASE, Step.FORGET)


class Progress(enum.Enum):
    RUNNING = "running"
    DONE = "done"  # this run did the step's work
    ALREADY = "already"  # found done: nothing changed


Report = Callable[[Step, Progress], None]


def _quiet(step: Step, progress: Progress) -> None:
    pass


@dataclass(frozen=True)
class Deployed:
    url: str
    version: str
    changed: tuple[Step, ...]  # the steps that changed something (empty: a deploy again changed nothing)


def _token() -> str:
    token = state.cloudflare_token()
    if not token:
        raise RelayCloudError(t("relay_setup.no_token"))
    return token


def _line_credentials(db: Database) -> dict[str, str]:
    values = credentials.saved(db)
    if values is None:
        raise RelayCloudError(t("relay_setup.no_line"))
    return values


def _choose_account(cloud: Cloud, found: state.Deployment, wanted: str | None) -> str:
    accounts = cloud.accounts()
    ids = {a.id for a in accounts}
    for choice in (found.account_id, wanted):
        if choice:
            if choice not in ids:
                raise RelayCloudError(t("relay_setup.account_not_seen", account=choice))
            return choice
    if len(accounts) == 1:
        return accounts[0].id
    if not accounts:
        raise RelayCloudError(t("relay_setup.no_account"))
    names = ", ".join(f"{a.name} ({a.id})" for a in accounts)
    raise RelayCloudError(t("relay_setup.several_accounts", accounts=names))


def _vars(db: Database, bundle: Bundle) -> dict[str, str]:
    values = dict(bundle.vars)
    with db.read() as session:
        configured = keys.LINE_API_BASE.read(session)
    base = resolve_base_url(configured)
    values["LINE_API_BASE"] = base  # the emulator in demo and tests, LINE itself otherwise
    return values


def upload_metadata(bundle: Bundle, database_id: str, values: dict[str, str], secret_values: dict[str, str]) -> dict[str, Any]:
    bindings: list[dict[str, str]] = [{"type": "d1", "name": bundle.d1_binding, "database_id": database_id}]
    bindings += [{"type": "plain_text", "name": k, "text": v} for k, v in sorted(values.items())]
    bindings += [{"type": "secret_text", "name": k, "text": v} for k, v in sorted(secret_values.items())]
    return {"main_module": bundle.main_module, "compatibility_date": bundle.compatibility_date, "bindings": bindings}


def pending_migrations(cloud: Cloud, found: state.Deployment, bundle: Bundle) -> list[str]:
    assert found.account_id and found.database_id
    rows = cloud.query(found.account_id, found.database_id, f"{MIGRATIONS_TABLE}; SELECT name FROM d1_migrations")
    applied = {str(row["name"]) for row in rows[-1]}
    return [m.name for m in bundle.migrations if m.name not in applied]


def apply_migrations(cloud: Cloud, found: state.Deployment, bundle: Bundle) -> int:
    """Apply what is pending; each migration and its record go as one batch, so neither lands alone, and
    a migration recorded is never applied again."""
    assert found.account_id and found.database_id
    pending = set(pending_migrations(cloud, found, bundle))
    for migration in bundle.migrations:
        if migration.name in pending:
            # wrangler writes the record into the migration's own batch the same way (names are ours).
            sql = f"{migration.sql.rstrip().rstrip(';')};\nINSERT INTO d1_migrations (name) VALUES ('{migration.name}')"
            try:
                cloud.query(found.account_id, found.database_id, sql)
            except RelayCloudError:
                # A batch whose answer was lost may have landed, and a retry of it then fails on its own
                # work ("table … already exists"): its record says which.
                if migration.name in pending_migrations(cloud, found, bundle):
                    raise
            log.info("relay migration %s applied", migration.name)
    return len(pending)


def _create_database(cloud: Cloud, account: str, name: str) -> str:
    """Create the database, or find the one an earlier try of this call made when its answer was lost
    (Cloudflare then refuses the name as taken, or never answers)."""
    try:
        return cloud.create_database(account, name)
    except RelayCloudError:
        try:
            made = cloud.find_database(account, name)
        except RelayCloudError:
            made = None
        if made is None:
            raise
        return made


def _holds_saved_credentials(db: Database, found: state.Deployment) -> bool:
    return found.line_credentials == credentials.fingerprints(_line_credentials(db))


def _is_current(url: str | None, bundle: Bundle) -> bool:
    said = health(url) if url else None
    return (said is not None and said.get("version") == bundle.relay_version
            and said.get("schema_version") == bundle.schema_version)


def _wait_for_health(url: str, bundle: Bundle, wait_s: float) -> None:
    deadline = time.monotonic() + wait_s
    while not _is_current(url, bundle):
        if time.monotonic() >= deadline:
            said = health(url)
            raise RelayCloudError(t("relay_setup.health_missing", url=url,
                                    version=str(said.get("version")) if said else "-"))
        time.sleep(HEALTH_PAUSE_S)


def _upload(cloud: Cloud, db: Database, found: state.Deployment, bundle: Bundle) -> state.Deployment:
    """Upload the bundled Worker with every binding; the deployment as it now stands (saved)."""
    assert found.account_id and found.database_id
    line = _line_credentials(db)
    relay_key = state.relay_key(create=True)
    assert relay_key
    metadata = upload_metadata(bundle, found.database_id, _vars(db, bundle), {**line, "RELAY_KEY": relay_key})
    cloud.upload(found.account_id, found.name, main_module=bundle.main_module, module=bundle.module, metadata=metadata)
    found = found.but(line_credentials=credentials.fingerprints(line))
    state.save(db, found)
    return found


def deploy(db: Database, *, report: Report = _quiet, account_id: str | None = None, bundle: Bundle | None = None,
           wait_s: float = HEALTH_WAIT_S) -> Deployed:
    """Deploy (or resume deploying) the bundled relay. Raises RelayCloudError in the manager's words."""
    bundle = bundle or load()
    token = _token()
    _line_credentials(db)  # before anything is made: the Worker cannot run without them
    found = state.deployment(db) or state.new_deployment()
    changed: list[Step] = []

    def step(which: Step, work: Callable[[], bool]) -> None:
        report(which, Progress.RUNNING)
        did = work()
        if did:
            changed.append(which)
        # A check is done by every run (it changes nothing), so it is never "already done".
        report(which, Progress.DONE if did or which in CHECKS else Progress.ALREADY)

    with Cloud(token) as cloud:
        def check_token() -> bool:
            nonlocal found
            cloud.verify()
            account = _choose_account(cloud, found, account_id)
            subdomain = cloud.subdomain(account)
            found = found.but(account_id=account, subdomain=subdomain, url=workers_dev_url(found.name, subdomain))
            return False
        step(Step.TOKEN, check_token)
        assert found.account_id and found.url
        account, url = found.account_id, found.url
        created_database = False

        def database() -> bool:
            nonlocal found, created_database
            existing = cloud.find_database(account, found.name)
            if existing:
                found = found.but(database_id=existing)
                state.save(db, found)
                return False
            # The name is kept before the database is made: a deploy whose answer was lost (or that
            # stopped here) finds it again by name, and remove deletes it, rather than orphaning it.
            state.save(db, found)
            found = found.but(database_id=_create_database(cloud, account, found.name))
            state.save(db, found)
            created_database = True
            return True
        step(Step.DATABASE, database)
        step(Step.MIGRATIONS, lambda: apply_migrations(cloud, found, bundle) > 0)

        def upload() -> bool:
            nonlocal found
            if _holds_saved_credentials(db, found) and _is_current(url, bundle):
                return False
            try:
                found = _upload(cloud, db, found, bundle)
            except RelayCloudError as exc:
                if created_database and exc.code == "relay_setup.permission_missing":
                    # The token may make databases but not Workers: leave the account as it was.
                    assert found.database_id
                    cloud.delete_database(account, found.database_id)
                    state.save(db, None)
                raise
            return True
        step(Step.UPLOAD, upload)

        def workers_dev() -> bool:
            if cloud.workers_dev_enabled(account, found.name):
                return False
            cloud.enable_workers_dev(account, found.name)
            return True
        step(Step.WORKERS_DEV, workers_dev)

        def schedule() -> bool:
            if sorted(cloud.schedules(account, found.name)) == sorted(bundle.crons):
                return False
            cloud.set_schedules(account, found.name, bundle.crons)
            return True
        step(Step.SCHEDULE, schedule)

        def answers() -> bool:
            _wait_for_health(url, bundle, wait_s)
            return False
        step(Step.HEALTH, answers)

    def point_line() -> bool:
        nonlocal found
        ours = url + WEBHOOK_PATH
        client = client_from_settings(db)
        if client is None:
            raise RelayCloudError(t("relay_setup.no_line"))
        with client:
            current = client.webhook_endpoint()
            if current.endpoint == ours and found.pointed:
                return False
            if not found.pointed:
                # Kept before ours is set, so a crash in between loses nothing.
                found = found.but(saved_endpoint=current.endpoint, pointed=True, our_endpoint=ours)
                state.save(db, found)
            client.set_webhook_endpoint(ours)
        return True
    step(Step.LINE, point_line)

    def save() -> bool:
        state.save(db, found)
        if state.relay_url(db) == url:
            return False
        state.remember_relay(db, url)
        return True
    step(Step.SAVE, save)
    log.info("relay deployed at %s (%s)", url, ", ".join(s.value for s in changed) or "nothing changed")
    return Deployed(url, bundle.relay_version, tuple(changed))


class Update(enum.Enum):
    NOT_DEPLOYED = "not_deployed"
    CURRENT = "current"
    UPDATED = "updated"
    CREDENTIALS = "credentials"  # current, but it held LINE credentials saved before: it has the new ones now
    NO_TOKEN = "no_token"  # older, or holding old credentials, but the token is not in the keyring
    UNREACHABLE = "unreachable"  # /health did not answer: left alone, asked again at the next start


def update_if_needed(db: Database, *, report: Report = _quiet, bundle: Bundle | None = None,
                     wait_s: float = HEALTH_WAIT_S) -> Update:
    """At each start: a deployed relay older than the bundled one gets the pending migrations, then the
    new Worker (with the LINE credentials saved here). Pending rows stay: migrations only add to the
    database. A current relay that holds LINE credentials saved before gets the new ones."""
    bundle = bundle or load()
    found = state.deployment(db)
    if found is None or not found.url or not found.account_id or not found.database_id:
        return Update.NOT_DEPLOYED
    url = found.url
    said = health(url)
    if said is None:
        return Update.UNREACHABLE
    schema = said.get("schema_version")
    older_schema = not isinstance(schema, int) or schema < bundle.schema_version
    if not is_older(str(said.get("version")), bundle.relay_version) and not older_schema:
        pushed = credentials.push(db, bundle=bundle)
        if pushed is credentials.Push.PUSHED:
            return Update.CREDENTIALS
        return Update.NO_TOKEN if pushed is credentials.Push.NO_TOKEN else Update.CURRENT
    token = state.cloudflare_token()
    if not token:
        log.warning("the relay is older than the bundled one, but no Cloudflare token is in the keyring")
        return Update.NO_TOKEN
    with Cloud(token) as cloud:
        report(Step.MIGRATIONS, Progress.RUNNING)
        applied = apply_migrations(cloud, found, bundle)
        report(Step.MIGRATIONS, Progress.DONE if applied else Progress.ALREADY)
        report(Step.UPLOAD, Progress.RUNNING)
        found = _upload(cloud, db, found, bundle)
        report(Step.UPLOAD, Progress.DONE)
    report(Step.HEALTH, Progress.RUNNING)
    _wait_for_health(url, bundle, wait_s)
    report(Step.HEALTH, Progress.DONE)
    log.info("relay updated from %s to %s", said.get("version"), bundle.relay_version)
    return Update.UPDATED


def update_at_start(db: Database, *, bundle: Bundle | None = None) -> Update | None:
    """`update_if_needed` for the start of the window: a failure is logged, never raised (None), and the
    update is tried again at the next start."""
    try:
        return update_if_needed(db, bundle=bundle)
    except (ShiftcastError, httpx.HTTPError) as exc:
        log.warning("could not update the relay yet: %s", exc)
        return None


def remove(db: Database, *, report: Report = _quiet) -> bool:
    """Take the relay away: LINE's earlier webhook back, the Worker and the database deleted, the key
    and the address forgotten. False when no deployment was known."""
    known = state.deployment(db)
    if known is None:
        return False
    found: state.Deployment = known
    token = _token()

    def step(which: Step, work: Callable[[], bool]) -> None:
        report(which, Progress.RUNNING)
        report(which, Progress.DONE if work() else Progress.ALREADY)

    def line_back() -> bool:
        nonlocal found
        if not found.pointed:
            return False
        client = client_from_settings(db)
        if client is None:
            raise RelayCloudError(t("relay_setup.no_line"))
        with client:
            current = client.webhook_endpoint()
            # Only while LINE still has ours: someone's later change is theirs to keep. With none saved,
            # ours stays: LINE has no call that removes an address (core/setup/line_connect.py).
            did = current.endpoint == found.our_endpoint and found.saved_endpoint is not None
            if did:
                assert found.saved_endpoint
                client.set_webhook_endpoint(found.saved_endpoint)
        found = found.but(pointed=False)
        state.save(db, found)
        return did
    step(Step.LINE_BACK, line_back)
    with Cloud(token) as cloud:
        account, database_id = found.account_id, found.database_id
        if account is not None and database_id is None:  # a deploy that stopped while making it: by its name
            database_id = cloud.find_database(account, found.name)
        step(Step.DELETE_WORKER, lambda: account is not None and cloud.delete_script(account, found.name))
        step(Step.DELETE_DATABASE,
             lambda: account is not None and database_id is not None and cloud.delete_database(account, database_id))

    def forget() -> bool:
        state.forget_relay_key()
        state.remember_relay(db, None)
        state.save(db, None)
        return True
    step(Step.FORGET, forget)
    log.info("relay %s removed", found.name)
    return True
