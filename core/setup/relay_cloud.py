"""The Cloudflare calls that deploy and remove the relay, through Cloudflare's own Python SDK, each
answer or failure turned into the manager's words (RelayCloudError).

Only the operations of Cloudflare's API that deploying needs (docs/relay.md, "Setting it up from the
app"): the token check and the accounts, D1 (list, create, query, delete), the Worker (upload, delete,
its workers.dev switch, its cron, its secrets) and the account's workers.dev subdomain. A deploy puts the
secrets in the upload's bindings, so one upload makes one version with all of them; the secrets calls
change the LINE credentials of a relay already deployed (core/setup/relay_credentials.py) without
uploading its code again.

SHIFTCAST_CLOUDFLARE_API_BASE points the client at a stand-in (tests), and SHIFTCAST_WORKERS_DEV_URL
(`{script}` and `{subdomain}` in it) says where a stand-in serves the uploaded Worker.
"""

from __future__ import annotations

import json
import os
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import cloudflare
import httpx

from core.channels.line import tls_context
from core.errors import ShiftcastError
from core.texts import t

API_BASE_ENV = "SHIFTCAST_CLOUDFLARE_API_BASE"
WORKERS_DEV_ENV = "SHIFTCAST_WORKERS_DEV_URL"
WORKERS_DEV = "https://{script}.{subdomain}.workers.dev"
TIMEOUT_S = 60.0

# The token a manager creates on Cloudflare's dashboard, prefilled: the Worker, its D1 database, and
# reading the account (to find it).
TOKEN_PERMISSIONS = (("workers_scripts", "edit"), ("d1", "edit"), ("account_settings", "read"))
TOKEN_NAME = "Shiftcast relay"


def token_link() -> str:
    """Cloudflare's page that creates a user API token with the relay's permissions filled in."""
    groups = [{"key": key, "type": kind} for key, kind in TOKEN_PERMISSIONS]
    encoded = urllib.parse.quote(json.dumps(groups, separators=(",", ":")), safe="")
    return (f"https://dash.cloudflare.com/profile/api-tokens?permissionGroupKeys={encoded}"
            f"&accountId=%2A&zoneId=all&name={urllib.parse.quote(TOKEN_NAME)}")


def workers_dev_url(script: str, subdomain: str) -> str:
    template = os.environ.get(WORKERS_DEV_ENV, "").strip() or WORKERS_DEV
    return template.format(script=script, subdomain=subdomain).rstrip("/")


class RelayCloudError(ShiftcastError):
    """Cloudflare refused or could not be reached; nothing past the failed call was done."""


@dataclass(frozen=True)
class Account:
    id: str
    name: str


def _cloudflare_says(exc: cloudflare.APIStatusError) -> str:
    body = exc.body if isinstance(exc.body, dict) else {}
    errors = body.get("errors") or []
    said = "; ".join(f"{e.get('message')} ({e.get('code')})" for e in errors if isinstance(e, dict))
    return said or f"HTTP {exc.status_code}"


@contextmanager
def _words(doing: str) -> Iterator[None]:
    """Cloudflare's failures as the manager's words; `doing` names the step (a catalog code)."""
    try:
        yield
    except cloudflare.AuthenticationError:
        raise RelayCloudError(t("relay_setup.token_refused")) from None
    except cloudflare.PermissionDeniedError:
        raise RelayCloudError(t("relay_setup.permission_missing", doing=t(doing))) from None
    except cloudflare.RateLimitError:
        raise RelayCloudError(t("relay_setup.rate_limited")) from None
    except cloudflare.APIStatusError as exc:
        raise RelayCloudError(t("relay_setup.cloudflare_said", doing=t(doing), detail=_cloudflare_says(exc))) from None
    except cloudflare.APIConnectionError as exc:
        raise RelayCloudError(t("relay_setup.unreachable", detail=str(exc))) from None


class Cloud:
    """One token's view of Cloudflare."""

    def __init__(self, token: str, *, base_url: str | None = None) -> None:
        base = base_url or os.environ.get(API_BASE_ENV, "").strip() or None
        self._client = cloudflare.Cloudflare(api_token=token, base_url=base, timeout=TIMEOUT_S, max_retries=2)

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Cloud:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- the token and its account -----

    def verify(self) -> None:
        with _words("relay_setup.doing.token"):
            answer = self._client.user.tokens.verify()
        if answer is None or answer.status != "active":
            raise RelayCloudError(t("relay_setup.token_inactive", status=getattr(answer, "status", "?")))

    def accounts(self) -> list[Account]:
        with _words("relay_setup.doing.account"):
            return [Account(a.id, a.name) for a in self._client.accounts.list(per_page=50)]

    def subdomain(self, account_id: str) -> str:
        with _words("relay_setup.doing.subdomain"):
            try:
                answer = self._client.workers.subdomains.get(account_id=account_id)
            except cloudflare.NotFoundError:
                answer = None
        name = getattr(answer, "subdomain", None) if answer is not None else None
        if not name:
            raise RelayCloudError(t("relay_setup.no_subdomain"))
        return str(name)

    # ----- D1 -----

    def find_database(self, account_id: str, name: str) -> str | None:
        with _words("relay_setup.doing.database"):
            for found in self._client.d1.database.list(account_id=account_id, name=name):
                if found.name == name and found.uuid:
                    return str(found.uuid)
        return None

    def create_database(self, account_id: str, name: str) -> str:
        with _words("relay_setup.doing.database"):
            made = self._client.d1.database.create(account_id=account_id, name=name)
        return str(made.uuid)

    def query(self, account_id: str, database_id: str, sql: str, params: list[str] | None = None) -> list[list[dict[str, Any]]]:
        """Each statement's rows (D1 runs several statements, joined by semicolons, as one batch)."""
        with _words("relay_setup.doing.migrations"):
            page = self._client.d1.database.query(database_id, account_id=account_id, sql=sql,
                                                  params=params if params is not None else cloudflare.omit)
            return [[dict(row) for row in (result.results or []) if isinstance(row, dict)] for result in page]

    def delete_database(self, account_id: str, database_id: str) -> bool:
        """False when it was gone already."""
        with _words("relay_setup.doing.remove"):
            try:
                self._client.d1.database.delete(database_id, account_id=account_id)
            except cloudflare.NotFoundError:
                return False
        return True

    # ----- the Worker -----

    def upload(self, account_id: str, script: str, *, main_module: str, module: bytes, metadata: dict[str, Any]) -> None:
        with _words("relay_setup.doing.upload"):
            self._client.workers.scripts.update(
                script, account_id=account_id, metadata=metadata,  # type: ignore[arg-type]
                files=[(main_module, module, "application/javascript+module")])

    def script_exists(self, account_id: str, script: str) -> bool:
        with _words("relay_setup.doing.upload"):
            try:
                self._client.workers.scripts.script_and_version_settings.get(script, account_id=account_id)
            except cloudflare.NotFoundError:
                return False
        return True

    def workers_dev_enabled(self, account_id: str, script: str) -> bool:
        with _words("relay_setup.doing.subdomain"):
            return bool(self._client.workers.scripts.subdomain.get(script, account_id=account_id).enabled)

    def enable_workers_dev(self, account_id: str, script: str) -> None:
        with _words("relay_setup.doing.subdomain"):
            self._client.workers.scripts.subdomain.create(script, account_id=account_id, enabled=True)

    def schedules(self, account_id: str, script: str) -> list[str]:
        with _words("relay_setup.doing.schedule"):
            answer = self._client.workers.scripts.schedules.get(script, account_id=account_id)
        return [s.cron for s in (answer.schedules or []) if s.cron]

    def set_schedules(self, account_id: str, script: str, crons: tuple[str, ...]) -> None:
        with _words("relay_setup.doing.schedule"):
            self._client.workers.scripts.schedules.update(script, account_id=account_id,
                                                          body=[{"cron": c} for c in crons])

    def put_secret(self, account_id: str, script: str, name: str, value: str) -> None:
        """Set one secret of the Worker (Cloudflare makes a new version with it)."""
        with _words("relay_setup.doing.secrets"):
            self._client.workers.scripts.secrets.update(script, account_id=account_id, name=name, text=value,
                                                        type="secret_text")

    def delete_secret(self, account_id: str, script: str, name: str) -> bool:
        """False when the Worker had no such secret."""
        with _words("relay_setup.doing.secrets"):
            try:
                self._client.workers.scripts.secrets.delete(name, account_id=account_id, script_name=script)
            except cloudflare.NotFoundError:
                return False
        return True

    def delete_script(self, account_id: str, script: str) -> bool:
        """False when it was gone already."""
        with _words("relay_setup.doing.remove"):
            try:
                self._client.workers.scripts.delete(script, account_id=account_id, force=True)
            except cloudflare.NotFoundError:
                return False
        return True


def health(url: str, *, timeout: float = 10.0) -> dict[str, Any] | None:
    """The relay's GET /health, or None while nothing (or not the relay) answers there."""
    try:
        answer = httpx.get(f"{url}/health", timeout=timeout, verify=tls_context())
        if answer.status_code != 200:
            return None
        body = answer.json()
    except (httpx.HTTPError, ValueError):
        return None
    return body if isinstance(body, dict) else None
