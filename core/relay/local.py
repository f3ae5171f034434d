"""The bundled relay (relay/) run on this computer: `wrangler dev` from relay/node_modules, in local mode,
on loopback, with a local D1 under a folder of ours (its migrations applied first). For `shiftcast relay
local` and the tests: what a deployed relay does, with nothing of Cloudflare's.

Wrangler reads the secrets from a `.dev.vars` beside its wrangler.toml, so the Worker is copied into the
folder (its source, migrations and configuration; node_modules linked) and the secrets written there,
never into relay/. The relay is ready when wrangler prints the address it listens on; nothing waits
for time to pass. Wrangler is kept from the internet: no metrics, no update check, no download of
request.cf values (Miniflare's fallback values serve). Its cron runs only when asked, over HTTP
(`run_cron`), as Cloudflare's trigger would start it.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import httpx

from core.channels.line import DEFAULT_BASE_URL
from core.errors import ValidationError
from core.texts import Text, t

log = logging.getLogger(__name__)
SOURCE = Path(__file__).resolve().parent.parent.parent / "relay"
START_PATIENCE_S = 120.0  # wrangler's first start compiles the Worker: slow on a busy machine
_READY = re.compile(r"Ready on (http://127\.0\.0\.1:\d+)")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_COPIED_FOLDERS = ("src", "migrations", "page")  # page/: the teachers' page, bundled as text
_COPIED_FILES = ("wrangler.toml", "package.json", "tsconfig.json")


@dataclass(frozen=True)
class RelaySecrets:
    channel_secret: str
    access_token: str | None  # None: the relay issues its own stateless tokens from the channel ID and secret
    relay_key: str
    channel_id: str | None = None

    def lines(self) -> str:
        """`.dev.vars`: NAME=value, one a line, each secret that is set."""
        values = {"LINE_CHANNEL_SECRET": self.channel_secret, "LINE_CHANNEL_ACCESS_TOKEN": self.access_token,
                  "LINE_CHANNEL_ID": self.channel_id, "RELAY_KEY": self.relay_key}
        return "".join(f"{name}={value}\n" for name, value in values.items() if value)


def emulator_sdk_url(line_api_base: str) -> str | None:
    """The LIFF SDK stand-in of the LINE emulator at `line_api_base` (it serves /liff/sdk.js beside LINE's
    API), or None when that is LINE itself: the Worker's default, LINE's CDN, is then right."""
    base = line_api_base.rstrip("/")
    return None if base == DEFAULT_BASE_URL else f"{base}/liff/sdk.js"


def wrangler(source: Path = SOURCE) -> Path:
    return source / "node_modules" / ".bin" / ("wrangler.cmd" if os.name == "nt" else "wrangler")


def missing(source: Path = SOURCE) -> Text | None:
    """Why the relay cannot run here (node, or relay/node_modules, absent), or None."""
    if shutil.which("node") is None:
        return t("relay.local.no_node")
    if not wrangler(source).exists():
        return t("relay.local.no_modules", folder=str(source))
    return None


def environment(folder: Path) -> dict[str, str]:
    """Wrangler's environment: the app's own variables left out, nothing fetched from the internet, its
    configuration and logs in `folder`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIFTCAST_")}
    return env | {"WRANGLER_SEND_METRICS": "false", "WRANGLER_HIDE_BANNER": "true",
                  "CLOUDFLARE_CF_FETCH_ENABLED": "false", "CI": "1", "NO_COLOR": "1",
                  "XDG_CONFIG_HOME": str(folder / "wrangler-config"), "WRANGLER_LOG_PATH": str(folder / "wrangler-logs")}


def prepare(folder: Path, secrets: RelaySecrets, source: Path = SOURCE) -> Path:
    """A fresh copy of the Worker in `folder`/worker with these secrets (the D1 beside it is kept)."""
    worker = folder / "worker"
    if worker.exists():
        shutil.rmtree(worker)
    worker.mkdir(parents=True)
    for name in _COPIED_FOLDERS:
        shutil.copytree(source / name, worker / name)
    for name in _COPIED_FILES:
        shutil.copy(source / name, worker / name)
    (worker / "node_modules").symlink_to(source / "node_modules", target_is_directory=True)
    dev_vars = worker / ".dev.vars"
    dev_vars.touch(mode=0o600)
    dev_vars.write_text(secrets.lines(), encoding="utf-8")
    return worker


def free_port() -> int:
    """A port free on loopback now, for a child that cannot be given port 0."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LocalRelay:
    """One local relay: `start` it (it answers at `url` when that returns), `stop` it (or use `with`)."""

    def __init__(self, folder: Path, secrets: RelaySecrets, *, port: int = 0, line_api_base: str | None = None,
                 liff_sdk_url: str | None = None, variables: Mapping[str, str] | None = None,
                 source: Path = SOURCE) -> None:
        self.folder, self.secrets, self.port, self.source = folder, secrets, port, source
        self.variables = ({"ALLOW_HTTP": "1"} | ({"LINE_API_BASE": line_api_base} if line_api_base else {})
                          | ({"LIFF_SDK_URL": liff_sdk_url} if liff_sdk_url else {}) | dict(variables or {}))
        self.output: list[str] = []
        self.url = ""
        self._child: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None

    @property
    def key(self) -> str:
        return self.secrets.relay_key

    def start(self, patience: float = START_PATIENCE_S) -> str:
        """Apply the migrations to the local D1, start wrangler dev, and return its address once it said it."""
        why = missing(self.source)
        if why is not None:
            raise ValidationError(why)
        worker, state = prepare(self.folder, self.secrets, self.source), self.folder / "state"
        env, command = environment(self.folder), str(wrangler(self.source))
        applied = subprocess.run([command, "d1", "migrations", "apply", "DB", "--local", "--persist-to", str(state)],
                                 cwd=worker, env=env, capture_output=True, text=True, timeout=patience,
                                 stdin=subprocess.DEVNULL)
        if applied.returncode != 0:
            raise ValidationError(t("relay.local.failed", detail=(applied.stdout + applied.stderr)[-2000:]))
        # Every wrangler dev opens its devtools inspector on 9229 unless told otherwise: a second relay on
        # this computer (the demo's beside a test's, two test runs) then stopped with "address in use".
        dev = [command, "dev", "--local", "--ip", "127.0.0.1", "--port", str(self.port),
               "--inspector-port", str(free_port()), "--persist-to", str(state)]
        for name, value in self.variables.items():
            dev += ["--var", f"{name}:{value}"]
        self._child = subprocess.Popen(dev, cwd=worker, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, text=True, start_new_session=True)
        said = threading.Event()
        self._reader = threading.Thread(target=self._read, args=(said,), daemon=True)
        self._reader.start()
        if not said.wait(patience) or not self.url:
            self.stop()
            raise ValidationError(t("relay.local.failed", detail="".join(self.output)[-2000:]))
        log.info("the local relay answers at %s", self.url)
        return self.url

    def _read(self, said: threading.Event) -> None:
        assert self._child is not None and self._child.stdout is not None
        for line in self._child.stdout:
            self.output.append(line)
            found = _READY.search(_ANSI.sub("", line))
            if found and not self.url:
                self.url = found.group(1)
                said.set()
        said.set()  # it ended

    @property
    def pid(self) -> int | None:
        """The wrangler process this relay started (the leader of its process group), while it was started."""
        return self._child.pid if self._child is not None else None

    def run_cron(self, timeout: float = 60.0, *, at: dt.datetime | None = None) -> None:
        """One cron run, as Cloudflare's trigger would start it (wrangler dev runs none by itself). `at`: the
        moment the trigger says it was scheduled for; the Worker takes the later of it and its own clock."""
        query = {"time": str(round(at.timestamp() * 1000))} if at is not None else None
        httpx.get(f"{self.url}/cdn-cgi/handler/scheduled", params=query, timeout=timeout).raise_for_status()

    def wait(self) -> int:
        """Until wrangler ends by itself (its exit code)."""
        assert self._child is not None
        return self._child.wait()

    def stop(self, patience: float = 30.0) -> None:
        """End wrangler and the workerd it started (its whole process group), politely first."""
        child = self._child
        if child is not None and child.poll() is None:
            _signal(child, signal.SIGTERM)
            try:
                child.wait(patience)
            except subprocess.TimeoutExpired:
                _signal(child, signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
                child.wait(patience)
        if self._reader is not None:
            self._reader.join(patience)

    def __enter__(self) -> LocalRelay:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def _signal(child: subprocess.Popen[str], which: signal.Signals) -> None:
    if hasattr(os, "killpg"):
        os.killpg(child.pid, which)
    else:  # Windows: no process groups; wrangler ends its workerd itself
        child.terminate()
