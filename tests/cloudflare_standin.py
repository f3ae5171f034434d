"""A stand-in for Cloudflare's API on loopback, for the tests of deploying the relay.

It serves exactly the operations of the OpenAPI excerpt the deployer was written against
(tests/data/cloudflare-api-subset.json) and checks every request against it before anything else: the
operation (path and method), the bearer token, each path and query parameter against its schema, the
required ones present and no others, and the JSON body (or the upload's `metadata` part) against its
schema with openapi-schema-validator (the OpenAPI 3.0 flavour of jsonschema). A request that breaks the
excerpt is answered 400 and recorded in `invalid`, which every test asserts empty. Answers come in
Cloudflare's envelope (`success`, `errors`, `messages`, `result`).

It keeps the state an account has (tokens with their permissions, D1 databases, Worker scripts with
their bindings, the workers.dev switch, cron schedules, KV) and runs what it is sent for real: every
uploaded script runs, byte for byte, in workerd through Miniflare from relay/node_modules
(tests/cloudflare_runtime.mjs), with its D1 binding on the same D1 database that the stand-in's query
endpoint runs SQL on. So the migrations a deploy sends are the tables the uploaded Worker reads, and
`GET <workers.dev URL>/health` is the Worker's own answer. The workers.dev address of a script is
`workers_dev_template` with `{script}` and `{subdomain}`, served on loopback by the stand-in itself.

Permissions follow the "Accepted Permissions" of Cloudflare's API pages (the digest beside the
excerpt); `edit` includes `read`. Listing accounts is not documented for tokens at all; the stand-in
asks for Account Settings: Read, which the deployer's token link grants.
"""

from __future__ import annotations

import datetime as dt
import email.parser
import email.policy
import json
import re
import secrets
import sqlite3
import subprocess
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
from openapi_schema_validator import OAS30Validator

from tests.waiting import PATIENCE_S

ROOT = Path(__file__).resolve().parent.parent
SUBSET = Path(__file__).resolve().parent / "data" / "cloudflare-api-subset.json"
RUNTIME = Path(__file__).resolve().parent / "cloudflare_runtime.mjs"
MINIFLARE = ROOT / "relay" / "node_modules" / "miniflare" / "dist" / "src" / "index.js"
STARTUP_S = 120.0  # Node and workerd starting on a slow, busy 2-core machine

ALL_PERMISSIONS = frozenset({"workers_scripts:edit", "d1:edit", "account_settings:read"})
# operationId → the permission it needs ("key:read" is met by key:read or key:edit); None: any valid token.
NEEDS: dict[str, str | None] = {
    "user-api-tokens-verify-token": None,
    "account-api-tokens-verify-token": None,
    "accounts-list-accounts": "account_settings:read",
    "cloudflare-d1-create-database": "d1:edit",
    "cloudflare-d1-list-databases": "d1:read",
    "cloudflare-d1-get-database": "d1:read",
    "cloudflare-d1-delete-database": "d1:edit",
    "cloudflare-d1-query-database": "d1:read",
    "cloudflare-d1-raw-database-query": "d1:read",
    "worker-script-upload-worker-module": "workers_scripts:edit",
    "worker-script-delete-worker": "workers_scripts:edit",
    "worker-script-settings-get-settings": "workers_scripts:read",
    "worker-script-get-settings": "workers_scripts:read",
    "worker-cron-trigger-update-cron-triggers": "workers_scripts:edit",
    "worker-cron-trigger-get-cron-triggers": "workers_scripts:read",
    "worker-subdomain-get-subdomain": "workers_scripts:read",
    "worker-script-post-subdomain": "workers_scripts:edit",
    "worker-script-get-subdomain": "workers_scripts:read",
    "worker-script-put-secret": "workers_scripts:edit",
    "worker-script-list-secrets": "workers_scripts:read",
    "worker-script-delete-secret": "workers_scripts:edit",
    "workers-kv-namespace-create-a-namespace": "workers_kv_storage:edit",
    "workers-kv-namespace-write-key-value-pair-with-metadata": "workers_kv_storage:edit",
}
WRITES = {op for op, need in NEEDS.items() if need and need.endswith(":edit")} - {"cloudflare-d1-query-database"}


class Refused(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat().replace("+00:00", "Z")


def split_statements(sql: str) -> list[str]:
    """SQL joined by semicolons as SQLite reads it (a semicolon inside a string or comment splits nothing)."""
    out, buf = [], ""
    for char in sql:
        buf += char
        if char == ";" and sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip() and sqlite3.complete_statement(buf + ";"):
        tail = buf.strip()
        if not all(line.strip().startswith("--") or not line.strip() for line in tail.splitlines()):
            out.append(tail)
    return [s.rstrip(";").strip() for s in out if s.rstrip(";").strip()]


@dataclass
class Operation:
    op_id: str
    method: str
    template: str
    pattern: re.Pattern[str]
    spec: dict[str, Any]
    parameters: list[dict[str, Any]]


@dataclass
class Script:
    modules: dict[str, bytes]
    main_module: str
    compatibility_date: str
    bindings: list[dict[str, Any]]
    created_on: str
    modified_on: str
    etag: str
    workers_dev: bool = False
    schedules: list[dict[str, str]] = field(default_factory=list)


@dataclass
class Seen:
    method: str
    path: str
    op_id: str | None
    status: int


class CloudflareStandIn:
    def __init__(self, workdir: Path, *, subdomain: str | None = "shiftcast-test") -> None:
        self.workdir = workdir
        self.doc = json.loads(SUBSET.read_text(encoding="utf-8"))
        self.operations = self._operations()
        self.account_id = uuid.uuid4().hex
        self.account_name = "さくら教室"
        self.subdomain = subdomain
        self.tokens: dict[str, frozenset[str]] = {}
        self.databases: dict[str, dict[str, Any]] = {}
        self.scripts: dict[str, Script] = {}
        self.kv: dict[str, dict[str, Any]] = {}
        self.seen: list[Seen] = []
        self.invalid: list[str] = []
        # operationId → what goes wrong at its next calls, in turn: "lose" (done, the answer never sent:
        # the connection closes) or "fail" (a 500 from Cloudflare, nothing done)
        self.faults: dict[str, list[str]] = {}
        self._lock = threading.RLock()
        self._runtime: subprocess.Popen[str] | None = None
        self._runtime_url = ""
        self._http = httpx.Client(timeout=PATIENCE_S)
        self._server: ThreadingHTTPServer | None = None

    # ----- the test's side -----

    def add_token(self, permissions: frozenset[str] = ALL_PERMISSIONS) -> str:
        token = secrets.token_urlsafe(30)
        self.tokens[token] = frozenset(permissions)
        return token

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/client/v4"

    @property
    def workers_dev_template(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/workers.dev/{{subdomain}}/{{script}}"

    def lose_answer(self, op_id: str, times: int = 1, *, after: int = 0) -> None:
        """The next calls of this operation (past `after` that go well) are done, and their answers lost
        on the way back."""
        self.faults.setdefault(op_id, []).extend(["pass"] * after + ["lose"] * times)

    def fail_next(self, op_id: str, times: int = 1, *, after: int = 0) -> None:
        """The next calls of this operation (past `after` that go well) are answered 500 (an internal error
        at Cloudflare), nothing done. Cloudflare's SDK tries a call 3 times in all (max_retries=2)."""
        self.faults.setdefault(op_id, []).extend(["pass"] * after + ["fail"] * times)

    def writes(self) -> list[Seen]:
        """The requests that would have changed something at Cloudflare (D1 queries that wrote included)."""
        return [s for s in self.seen if s.op_id in WRITES or s.op_id == "d1-write"]

    def query(self, database_id: str, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
        """SQL on a database as the Worker sees it (the test's own look, not through the API)."""
        answer = self._runtime_call("/d1/query", {"database_id": database_id, "statements": [{"sql": sql, "params": params or []}]})
        return list(answer[0]["results"])

    def run_cron(self, script: str) -> dict[str, Any]:
        return dict(self._runtime_call(f"/scheduled/{script}", {}))

    # ----- starting and stopping -----

    def start(self) -> CloudflareStandIn:
        persist = self.workdir / "runtime"
        persist.mkdir(parents=True, exist_ok=True)
        with open(self.workdir / "runtime.log", "w") as log:  # the child keeps its own copy of the handle
            self._runtime = subprocess.Popen(["node", str(RUNTIME), str(MINIFLARE), str(persist)], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=log, text=True)
        ready: list[str] = []
        reader = threading.Thread(target=lambda: ready.append(self._runtime.stdout.readline()), daemon=True)  # type: ignore[union-attr]
        reader.start()
        reader.join(STARTUP_S)
        if not ready or not ready[0].startswith("listening "):
            self.stop()
            raise RuntimeError(f"the Workers runtime did not start: {(self.workdir / 'runtime.log').read_text()}")
        self._runtime_url = f"http://127.0.0.1:{int(ready[0].split()[1])}"
        handler = type("Handler", (_Handler,), {"standin": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._runtime is not None:
            assert self._runtime.stdin is not None
            self._runtime.stdin.close()  # the runtime stops when its stdin ends
            try:
                self._runtime.wait(PATIENCE_S)
            except subprocess.TimeoutExpired:
                self._runtime.kill()
                self._runtime.wait()
        self._http.close()

    def __enter__(self) -> CloudflareStandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----- the runtime -----

    def _runtime_call(self, path: str, body: dict[str, Any]) -> Any:
        answer = self._http.post(self._runtime_url + path, json=body)
        if answer.status_code != 200:
            raise Refused(400, 7500, str(answer.json().get("error")))
        return answer.json()

    def _sync_runtime(self) -> None:
        scripts = []
        for name, script in self.scripts.items():
            text = {b["name"]: b["text"] for b in script.bindings if b["type"] in ("plain_text", "secret_text")}
            d1 = {b["name"]: b.get("database_id") or b.get("id") for b in script.bindings if b["type"] == "d1"}
            scripts.append({"name": name, "main_module": script.main_module, "compatibility_date": script.compatibility_date,
                            "text": text, "d1": d1,
                            "modules": [{"name": n, "base64": _b64(data)} for n, data in script.modules.items()]})
        self._runtime_call("/state", {"databases": sorted(self.databases), "scripts": scripts})

    # ----- the excerpt -----

    def _operations(self) -> list[Operation]:
        found = []
        for template, item in self.doc["paths"].items():
            shared = item.get("parameters", [])
            regex = "^/client/v4" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$"
            for method, spec in item.items():
                if method in ("get", "put", "post", "delete", "patch"):
                    params = [self._resolve(p) for p in shared + spec.get("parameters", [])]
                    found.append(Operation(spec["operationId"], method.upper(), template, re.compile(regex), spec, params))
        return found

    def _resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            target: Any = self.doc
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    def _check(self, schema: dict[str, Any], value: Any, where: str) -> None:
        # The schema inside a copy of the document's root, so its "#/components/…" references resolve.
        root = {**schema, "components": self.doc["components"]}
        problems = sorted(OAS30Validator(root).iter_errors(value), key=lambda e: list(e.path))
        if problems:
            raise Refused(400, 10021, f"{where}: {problems[0].message}")

    def _match(self, method: str, path: str) -> tuple[Operation, dict[str, str]]:
        path_matched = False
        for op in self.operations:
            found = op.pattern.match(path)
            if found:
                path_matched = True
                if op.method == method:
                    return op, found.groupdict()
        raise Refused(405 if path_matched else 404, 7000 if not path_matched else 10405,
                      f"{method} {path} is not an operation of the excerpt")

    def validate(self, method: str, path: str, query: dict[str, str], headers: Any, body: bytes) -> tuple[Operation, dict[str, str], Any]:
        op, path_params = self._match(method, path)
        auth = headers.get("authorization", "")
        if not auth.startswith("Bearer "):
            raise Refused(400, 10000, "the request carries no API token (Authorization: Bearer)")
        for param in op.parameters:
            name, place = param["name"], param["in"]
            if place == "path":
                self._check(self._resolve(param["schema"]), path_params[name], f"path parameter {name}")
            elif place == "query":
                if name in query:
                    self._check(self._resolve(param["schema"]), _typed(query[name], self._resolve(param["schema"])),
                                f"query parameter {name}")
                elif param.get("required"):
                    raise Refused(400, 10021, f"query parameter {name} is required")
        known = {p["name"] for p in op.parameters if p["in"] == "query"}
        extra = set(query) - known
        if extra:
            raise Refused(400, 10021, f"unknown query parameters {sorted(extra)}")
        declared = op.spec.get("requestBody")
        kind = headers.get("content-type", "").split(";")[0].strip()
        if declared is None:
            if body:
                raise Refused(400, 10021, "this operation takes no body")
            return op, path_params, None
        declared = self._resolve(declared)
        if not body:
            if declared.get("required"):
                raise Refused(400, 10021, "the body is required")
            return op, path_params, None
        content = declared["content"]
        if kind == "application/json" and kind in content:
            try:
                parsed = json.loads(body)
            except ValueError:
                raise Refused(400, 10021, "the body is not JSON") from None
            self._check(content[kind]["schema"], parsed, "body")
            return op, path_params, parsed
        if kind == "multipart/form-data" and kind in content:
            parts = _multipart(headers.get("content-type", ""), body)
            schema = content[kind]["schema"]
            alternative = next(s for s in schema.get("oneOf", [schema]) if "metadata" in s.get("properties", {}))
            meta = [data for name, _, _, data in parts if name == "metadata"]
            if len(meta) != 1:
                raise Refused(400, 10021, "the upload needs one metadata part")
            try:
                metadata = json.loads(meta[0])
            except ValueError:
                raise Refused(400, 10021, "the metadata part is not JSON") from None
            self._check(alternative["properties"]["metadata"], metadata, "metadata")
            allowed = {t.strip() for t in content[kind]["encoding"]["<any part name>"]["contentType"].split(",")}
            for name, part_type, _, _ in parts:
                if name != "metadata" and part_type not in allowed:
                    raise Refused(400, 10021, f"part {name} has content type {part_type}")
            return op, path_params, {"metadata": metadata, "parts": parts}
        raise Refused(415, 10021, f"content type {kind or 'none'} is not one the operation takes")

    def permitted(self, token: str, op: Operation) -> None:
        if token not in self.tokens:
            raise Refused(401, 1000, "Invalid API Token")
        need = NEEDS[op.op_id]
        if need is None:
            return
        key, level = need.split(":")
        have = self.tokens[token]
        if f"{key}:edit" in have or (level == "read" and f"{key}:read" in have):
            return
        raise Refused(403, 10000, "Authentication error")

    # ----- the operations -----

    def handle(self, op: Operation, params: dict[str, str], query: dict[str, str], body: Any, token: str) -> tuple[Any, dict[str, Any] | None]:
        if "account_id" in params and params["account_id"] != self.account_id:
            raise Refused(403, 10000, "Authentication error")
        handler: Callable[..., Any] = getattr(self, "op_" + op.op_id.replace("-", "_"))
        return handler(params=params, query=query, body=body, token=token)

    def op_user_api_tokens_verify_token(self, token: str, **_: Any) -> Any:
        return {"id": token[:32], "status": "active"}, None

    op_account_api_tokens_verify_token = op_user_api_tokens_verify_token

    def op_accounts_list_accounts(self, query: dict[str, str], **_: Any) -> Any:
        return _page([{"id": self.account_id, "name": self.account_name, "type": "standard"}], query, 20)

    def _database(self, params: dict[str, str]) -> dict[str, Any]:
        found = self.databases.get(params["database_id"])
        if found is None:
            raise Refused(404, 7404, "The database could not be found")
        return found

    def op_cloudflare_d1_create_database(self, body: dict[str, Any], **_: Any) -> Any:
        if any(d["name"] == body["name"] for d in self.databases.values()):
            raise Refused(400, 7502, "A database with that name already exists")
        made = {"uuid": str(uuid.uuid4()), "name": body["name"], "created_at": _now(), "version": "production"}
        self.databases[made["uuid"]] = made
        self._sync_runtime()
        return made, None

    def op_cloudflare_d1_list_databases(self, query: dict[str, str], **_: Any) -> Any:
        found = [d for d in self.databases.values() if "name" not in query or query["name"] in d["name"]]
        return _page(found, query, 1000)

    def op_cloudflare_d1_get_database(self, params: dict[str, str], **_: Any) -> Any:
        return self._database(params), None

    def op_cloudflare_d1_delete_database(self, params: dict[str, str], **_: Any) -> Any:
        self._database(params)
        del self.databases[params["database_id"]]
        self._sync_runtime()
        return None, None

    def _run_sql(self, params: dict[str, str], body: dict[str, Any]) -> list[dict[str, Any]]:
        self._database(params)
        statements = []
        for item in body.get("batch") or [body]:
            split = split_statements(item["sql"])
            if item.get("params") and len(split) != 1:
                raise Refused(400, 7500, "params go with a single statement")
            statements += [{"sql": s, "params": item.get("params") or []} for s in split]
        results = self._runtime_call("/d1/query", {"database_id": params["database_id"], "statements": statements})
        if any(r["meta"].get("changed_db") for r in results):
            self.seen.append(Seen("POST", "(D1 write)", "d1-write", 200))
        return list(results)

    def op_cloudflare_d1_query_database(self, params: dict[str, str], body: dict[str, Any], **_: Any) -> Any:
        return self._run_sql(params, body), None

    def op_cloudflare_d1_raw_database_query(self, params: dict[str, str], body: dict[str, Any], **_: Any) -> Any:
        out = []
        for r in self._run_sql(params, body):
            columns = list(r["results"][0]) if r["results"] else []
            out.append({**r, "results": {"columns": columns, "rows": [list(row.values()) for row in r["results"]]}})
        return out, None

    def _script(self, params: dict[str, str]) -> Script:
        found = self.scripts.get(params["script_name"])
        if found is None:
            raise Refused(404, 10007, "This Worker does not exist on your account.")
        return found

    def op_worker_script_upload_worker_module(self, params: dict[str, str], body: dict[str, Any], **_: Any) -> Any:
        metadata, parts = body["metadata"], body["parts"]
        main = metadata.get("main_module")
        if not main:
            raise Refused(400, 10021, "metadata.main_module is required (a module Worker)")
        # A module is named by its part name (OA) or, as the SDK sends each as a part called "files", its filename.
        modules = {(filename or name): data for name, _, filename, data in parts if name != "metadata"}
        if main not in modules:
            raise Refused(400, 10021, f"no part is named {main}")
        for binding in metadata.get("bindings", []):
            if binding.get("type") == "d1" and (binding.get("database_id") or binding.get("id")) not in self.databases:
                raise Refused(400, 10021, f"binding {binding.get('name')}: no such D1 database")
        name = params["script_name"]
        before = self.scripts.get(name)
        now = _now()
        self.scripts[name] = Script(modules, main, metadata.get("compatibility_date", "2021-11-02"), metadata.get("bindings", []),
                                    before.created_on if before else now, now, secrets.token_hex(16),
                                    before.workers_dev if before else False, before.schedules if before else [])
        self._sync_runtime()
        return {"id": name, "etag": self.scripts[name].etag, "handlers": ["fetch", "scheduled"], "created_on": self.scripts[name].created_on,
                "modified_on": now, "usage_model": "standard", "startup_time_ms": 1}, None

    def op_worker_script_delete_worker(self, params: dict[str, str], **_: Any) -> Any:
        self._script(params)
        del self.scripts[params["script_name"]]
        self._sync_runtime()
        return None, None

    def op_worker_script_settings_get_settings(self, params: dict[str, str], **_: Any) -> Any:
        self._script(params)
        return {"logpush": False, "tail_consumers": []}, None

    def op_worker_script_get_settings(self, params: dict[str, str], **_: Any) -> Any:
        script = self._script(params)
        bindings = [{k: v for k, v in b.items() if k != "text" or b["type"] == "plain_text"} for b in script.bindings]
        return {"bindings": bindings, "compatibility_date": script.compatibility_date, "compatibility_flags": [],
                "usage_model": "standard", "logpush": False, "tail_consumers": []}, None

    def op_worker_cron_trigger_update_cron_triggers(self, params: dict[str, str], body: list[dict[str, Any]], **_: Any) -> Any:
        script = self._script(params)
        now = _now()
        script.schedules = [{"cron": item["cron"], "created_on": now, "modified_on": now} for item in body]
        return {"schedules": script.schedules}, None

    def op_worker_cron_trigger_get_cron_triggers(self, params: dict[str, str], **_: Any) -> Any:
        return {"schedules": self._script(params).schedules}, None

    def op_worker_subdomain_get_subdomain(self, **_: Any) -> Any:
        if self.subdomain is None:
            raise Refused(404, 10007, "This account does not have a workers.dev subdomain")
        return {"subdomain": self.subdomain}, None

    def op_worker_script_post_subdomain(self, params: dict[str, str], body: dict[str, Any], **_: Any) -> Any:
        script = self._script(params)
        script.workers_dev = bool(body["enabled"])
        return {"enabled": script.workers_dev, "previews_enabled": False}, None

    def op_worker_script_get_subdomain(self, params: dict[str, str], **_: Any) -> Any:
        return {"enabled": self._script(params).workers_dev, "previews_enabled": False}, None

    def op_worker_script_put_secret(self, params: dict[str, str], body: dict[str, Any], **_: Any) -> Any:
        script = self._script(params)
        script.bindings = [b for b in script.bindings if b.get("name") != body["name"]] + [
            {"type": "secret_text", "name": body["name"], "text": body.get("text", "")}]
        self._sync_runtime()
        return {"name": body["name"], "type": "secret_text"}, None

    def op_worker_script_list_secrets(self, params: dict[str, str], **_: Any) -> Any:
        return [{"name": b["name"], "type": "secret_text"} for b in self._script(params).bindings if b["type"] == "secret_text"], None

    def op_worker_script_delete_secret(self, params: dict[str, str], **_: Any) -> Any:
        script = self._script(params)
        script.bindings = [b for b in script.bindings if not (b["type"] == "secret_text" and b["name"] == params["secret_name"])]
        self._sync_runtime()
        return {}, None

    def op_workers_kv_namespace_create_a_namespace(self, body: dict[str, Any], **_: Any) -> Any:
        if any(ns["title"] == body["title"] for ns in self.kv.values()):
            raise Refused(400, 10014, "a namespace with this account ID and title already exists")
        made = {"id": uuid.uuid4().hex, "title": body["title"], "supports_url_encoding": True, "values": {}}
        self.kv[made["id"]] = made
        return {k: v for k, v in made.items() if k != "values"}, None

    def op_workers_kv_namespace_write_key_value_pair_with_metadata(self, params: dict[str, str], body: Any, **_: Any) -> Any:
        namespace = self.kv.get(params["namespace_id"])
        if namespace is None:
            raise Refused(404, 10013, "namespace not found")
        namespace["values"][params["key_name"]] = body
        return {}, None

    # ----- workers.dev -----

    def forward(self, method: str, path: str, headers: Any, body: bytes) -> tuple[int, dict[str, str], bytes]:
        found = re.match(r"^/workers\.dev/([^/]+)/([^/]+)(/.*)?$", path)
        script = self.scripts.get(found.group(2)) if found else None
        if found is None or script is None or not script.workers_dev or found.group(1) != self.subdomain:
            return 404, {"content-type": "text/plain"}, b"There is nothing here yet"
        rest = (found.group(3) or "/").lstrip("/")
        kept = {k: v for k, v in headers.items() if k.lower() not in ("host", "content-length", "connection")}
        answer = self._http.request(method, f"{self._runtime_url}/w/{found.group(2)}/{rest}", headers=kept, content=body)
        out = {k: v for k, v in answer.headers.items() if k.lower() not in ("content-length", "transfer-encoding", "connection",
                                                                              "content-encoding")}
        return answer.status_code, out, answer.content


def _page(items: list[Any], query: dict[str, str], default: int) -> tuple[list[Any], dict[str, int]]:
    """One page of a list, as Cloudflare's V4 pagination gives it (an empty page ends the SDK's iteration)."""
    page, per_page = int(float(query.get("page", 1))), int(float(query.get("per_page", default)))
    chosen = items[(page - 1) * per_page:page * per_page]
    return chosen, {"page": page, "per_page": per_page, "count": len(chosen), "total_count": len(items)}


def _b64(data: bytes) -> str:
    import base64
    return base64.b64encode(data).decode()


def _typed(value: str, schema: dict[str, Any]) -> Any:
    kind = schema.get("type")
    try:
        if kind == "number":
            return float(value)
        if kind == "integer":
            return int(value)
    except ValueError:
        return value
    if kind == "boolean":
        return {"true": True, "false": False}.get(value, value)
    return value


def _multipart(content_type: str, body: bytes) -> list[tuple[str, str, str | None, bytes]]:
    """Each part: (name, content type, filename, bytes), in order."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body)
    if not message.is_multipart():
        raise Refused(400, 10021, "the multipart body could not be read")
    parts = []
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            raise Refused(400, 10021, "a part has no name")
        payload = part.get_payload(decode=True)
        parts.append((name, part.get_content_type(), part.get_filename(), payload if isinstance(payload, bytes) else b""))
    return parts


class _Handler(BaseHTTPRequestHandler):
    standin: CloudflareStandIn
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002  (the base class names it so)
        pass

    def _reply(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _handle(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        url = urlsplit(self.path)
        standin = self.standin
        if url.path.startswith("/workers.dev/"):
            status, headers, payload = standin.forward(self.command, url.path + (f"?{url.query}" if url.query else ""),
                                                       self.headers, body)
            self._reply(status, headers, payload)
            return
        query = dict(parse_qsl(url.query, keep_blank_values=True))
        op_id = None
        fault = None
        with standin._lock:
            try:
                op, params, parsed = standin.validate(self.command, url.path, query, self.headers, body)
                op_id = op.op_id
            except Refused as refused:
                standin.invalid.append(f"{self.command} {url.path}: {refused.message}")
                status, envelope = refused.status, _failure(refused)
            else:
                waiting = standin.faults.get(op_id)
                fault = waiting.pop(0) if waiting else None
                try:
                    if fault == "fail":
                        raise Refused(500, 10000, "Internal server error")
                    standin.permitted(self.headers["authorization"].removeprefix("Bearer "), op)
                    result, info = standin.handle(op, params, query, parsed, self.headers["authorization"][7:])
                    status, envelope = 200, {"success": True, "errors": [], "messages": [], "result": result}
                    if info is not None:
                        envelope["result_info"] = info
                except Refused as refused:
                    status, envelope = refused.status, _failure(refused)
            standin.seen.append(Seen(self.command, url.path, op_id, status))
        if fault == "lose":
            self.close_connection = True  # done at Cloudflare; the caller hears nothing back
            return
        self._reply(status, {"content-type": "application/json"}, json.dumps(envelope).encode())

    do_GET = do_PUT = do_POST = do_DELETE = do_PATCH = do_HEAD = _handle


def _failure(refused: Refused) -> dict[str, Any]:
    return {"success": False, "errors": [{"code": refused.code, "message": refused.message}], "messages": [], "result": None}
