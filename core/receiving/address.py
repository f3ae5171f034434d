"""The receiver's public address: where LINE can reach a receiver that listens on this computer only.

One small interface, `PublicAddress`, and three providers:

- `QuickTunnel`: a Cloudflare quick tunnel (`cloudflared tunnel --url http://127.0.0.1:P`, no account).
  The executable is found on PATH or beside the app; its stderr is read until the
  `https://….trycloudflare.com` line appears. Every wait has a deadline from an injected clock, so
  a cloudflared that prints nothing, exits or hangs ends in an `AddressError`, never a hang. Stopping
  kills the process (its whole process group on POSIX: cloudflared may start helpers).
- `OwnAddress`: an HTTPS address the owner already has (a reverse proxy, Tailscale Funnel …).
- `LoopbackAddress`: the receiver's own http://127.0.0.1 address, for tests and demo mode, where the
  LINE emulator (with loopback webhooks) is the only caller.

`start(local_port)` returns the base address (no path); `endpoint(base)` joins the receiver's path,
so the webhook URL is `https://….trycloudflare.com/line/webhook`. Pure stdlib: no Qt, no HTTP client.
"""

from __future__ import annotations

import enum
import logging
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Protocol
from urllib.parse import urlsplit

from core.child_environment import NETWORK, child_environment
from core.errors import ShiftcastError
from core.receiving.server import PATH
from core.texts import Text, t

log = logging.getLogger(__name__)
ENDPOINT_MAX = 500  # LINE's limit on a webhook URL
DOWNLOAD_PAGE = "https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/downloads/"
# cloudflared prints the address in a box of log lines, then registers its connection to Cloudflare.
_QUICK_URL = re.compile(r"https://[a-z0-9-]+\.trycloudflare\.com\b")
_REGISTERED = "Registered tunnel connection"
URL_TIMEOUT = 45.0  # asking Cloudflare for a quick tunnel takes seconds, on a slow line tens of seconds
REGISTER_TIMEOUT = 20.0
_STOP_TIMEOUT = 5.0
_STEP = 0.1  # how long one wait for a line lasts before the deadline is looked at again
Monotonic = Callable[[], float]


class AddressProblem(enum.Enum):
    """Why there is no public address, for a screen to say it in its own language."""

    NOT_INSTALLED = "not_installed"
    EXITED = "exited"
    TIMEOUT = "timeout"
    NOT_STARTED = "not_started"
    INVALID = "invalid"


class AddressError(ShiftcastError):
    def __init__(self, problem: AddressProblem, message: Text, *, output: str = "") -> None:
        super().__init__(message)
        self.problem = problem
        self.output = output  # the last lines the tool printed, for the log and a "details" box


class PublicAddress(Protocol):
    """A way to make a receiver on 127.0.0.1:`local_port` reachable from LINE."""

    name: str  # a short identifier ("cloudflare", "own", "loopback")
    description: str  # a sentence for screens and logs

    def start(self, local_port: int) -> str:
        """The base address (https://…, no trailing slash) once reachable; AddressError otherwise."""
        ...

    def stop(self) -> None: ...


def endpoint(base: str, path: str = PATH) -> str:
    """The webhook URL: the base address with the receiver's path joined (one slash between)."""
    url = base.rstrip("/") + "/" + path.lstrip("/")
    if len(url) > ENDPOINT_MAX:
        raise AddressError(AddressProblem.INVALID, t("address.too_long", length=len(url), limit=ENDPOINT_MAX))
    return url


# ----- the owner's own address -----


def check_own_address(text: str) -> str:
    """An https address without query or fragment, short enough for LINE with the path joined."""
    value = text.strip()
    try:
        parts = urlsplit(value)
        host = parts.hostname
    except ValueError:
        host = None
        parts = None
    if parts is None or parts.scheme != "https" or not host:
        raise AddressError(AddressProblem.INVALID, t("address.not_https", value=repr(value)))
    if parts.query or parts.fragment or parts.username or parts.password:
        raise AddressError(AddressProblem.INVALID, t("address.extra_parts", value=repr(value)))
    endpoint(value)  # the length with the path joined
    return value.rstrip("/")


class OwnAddress:
    name = "own"

    def __init__(self, url: str) -> None:
        self.url = check_own_address(url)
        self.description = f"your own address {self.url}"

    def start(self, local_port: int) -> str:
        return self.url  # the owner's proxy forwards it to the receiver's port

    def stop(self) -> None:
        pass


# ----- loopback (tests, demo) -----


class LoopbackAddress:
    name = "loopback"
    description = "this computer only (the LINE simulator)"

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host

    def start(self, local_port: int) -> str:
        return f"http://{self.host}:{local_port}"

    def stop(self) -> None:
        pass


# ----- Cloudflare quick tunnel -----


def _executable_names() -> tuple[str, ...]:
    return ("cloudflared.exe",) if sys.platform == "win32" else ("cloudflared",)


def find_cloudflared(search_path: str | None = None, beside: Sequence[Path] | None = None) -> Path | None:
    """cloudflared on PATH (or `search_path`), else bundled beside the app or in its resources."""
    found = shutil.which("cloudflared", path=search_path)
    if found:
        return Path(found)
    if beside is None:
        from core.resources import resources_dir

        beside = [Path(sys.executable).resolve().parent, resources_dir() / "bin"]
    for folder in beside:
        for name in _executable_names():
            candidate = folder / name
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return candidate
    return None


def not_installed_message() -> Text:
    return t("address.not_installed", page=DOWNLOAD_PAGE)


class QuickTunnel:
    name = "cloudflare"
    description = "a Cloudflare quick tunnel (no account needed)"

    def __init__(self, executable: Path | None = None, *, url_timeout: float = URL_TIMEOUT,
                 register_timeout: float = REGISTER_TIMEOUT, clock: Monotonic = time.monotonic,
                 search_path: str | None = None, beside: Sequence[Path] | None = None,
                 stop_timeout: float = _STOP_TIMEOUT) -> None:
        self._executable = executable
        self.stop_timeout = stop_timeout  # how long a polite SIGTERM gets before SIGKILL
        self._search_path = search_path
        self._beside = beside
        self.url_timeout = url_timeout
        self.register_timeout = register_timeout
        self._clock = clock
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader: threading.Thread | None = None
        self._seen: list[str] = []
        self.url: str | None = None
        # stop() may come from another thread while start() waits (the wizard closed): a stopped
        # tunnel stays stopped, so a start() that had not launched cloudflared yet does not launch it.
        self._guard = threading.Lock()
        self._stopped = False

    def start(self, local_port: int) -> str:
        if self._process is not None:
            raise RuntimeError("the tunnel is already started")  # one start per QuickTunnel
        executable = self._executable or find_cloudflared(self._search_path, self._beside)
        if executable is None:
            raise AddressError(AddressProblem.NOT_INSTALLED, not_installed_message())
        command = [str(executable), "tunnel", "--no-autoupdate", "--url", f"http://127.0.0.1:{local_port}"]
        options: dict[str, object] = {}
        if os.name == "posix":
            options["start_new_session"] = True  # its own process group, so stop() ends its helpers too
        else:
            options["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0) | getattr(
                subprocess, "CREATE_NO_WINDOW", 0)
        with self._guard:
            if self._stopped:
                raise AddressError(AddressProblem.NOT_STARTED, t("address.stopped_before_start"))
            try:
                process = subprocess.Popen(
                    command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                    text=True, encoding="utf-8", errors="replace", env=child_environment(passes=NETWORK),
                    **options)  # type: ignore[call-overload]
            except OSError as exc:
                raise AddressError(AddressProblem.NOT_STARTED,
                                   t("address.cannot_start", detail=str(exc.strerror or exc))) from None
            self._process = process
            assert process.stderr is not None
            self._reader = threading.Thread(target=self._read, args=(process.stderr,), name="cloudflared-output",
                                            daemon=True)
            self._reader.start()
        try:
            url = self._wait_for(_QUICK_URL, self.url_timeout)
            self._raise_if_stopped()
            if url is None:
                raise self._failure(process, "address.exited_without_address", self.url_timeout)
            self.url = url
            # The address exists before its connection is up; LINE's test would fail until then.
            if self._wait_for(re.compile(re.escape(_REGISTERED)), self.register_timeout) is None:
                self._raise_if_stopped()
                if process.poll() is not None:
                    raise self._failure(process, "address.exited_after_address", self.register_timeout)
                log.warning("cloudflared gave %s but did not say it connected within %g s", url, self.register_timeout)
        except BaseException:
            self.stop()
            raise
        log.info("Cloudflare quick tunnel up at %s", url)
        return url

    def _read(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):  # the pipe closed under us at stop()
            pass
        finally:
            self._lines.put(None)

    def _wait_for(self, pattern: re.Pattern[str], timeout: float) -> str | None:
        """The first match in the output within `timeout` (by the injected clock); None: none came."""
        deadline = self._clock() + timeout
        while (left := deadline - self._clock()) > 0:
            try:
                line = self._lines.get(timeout=min(_STEP, left))
            except queue.Empty:
                continue
            if line is None:  # the process closed its output: it ended
                self._lines.put(None)  # later waits see the end too
                return None
            self._seen = [*self._seen[-19:], line]
            found = pattern.search(line)
            if found:
                return found.group(0)
        return None

    def _output_ended(self) -> bool:
        """True once the reader has seen the end of cloudflared's output (it leaves None queued)."""
        try:
            last = self._lines.get_nowait()
        except queue.Empty:
            return False
        self._lines.put(last)
        return last is None

    def _raise_if_stopped(self) -> None:
        if self._stopped:
            raise AddressError(AddressProblem.NOT_STARTED, t("address.stopped_before_up"))

    def _failure(self, process: subprocess.Popen[str], exited: str, waited: float) -> AddressError:
        """`exited`: the message code for cloudflared having ended; still running, it took too long."""
        code = process.poll()
        if code is None and self._output_ended():
            # It closed its output as it ended; its exit status can come a moment after the EOF.
            try:
                code = process.wait(self.stop_timeout)
            except subprocess.TimeoutExpired:
                code = None
        output = "\n".join(self._seen)
        if code is not None:
            return AddressError(AddressProblem.EXITED, t(exited, code=code), output=output)
        return AddressError(AddressProblem.TIMEOUT, t("address.timeout", seconds=f"{waited:g}"), output=output)

    def stop(self) -> None:
        with self._guard:
            self._stopped = True
            process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            try:
                if os.name == "posix":
                    os.killpg(process.pid, signal.SIGTERM)
                else:
                    process.terminate()
                process.wait(self.stop_timeout)
            except ProcessLookupError:
                pass
            except subprocess.TimeoutExpired:
                pass
            if process.poll() is None:
                try:
                    if os.name == "posix":
                        os.killpg(process.pid, signal.SIGKILL)
                    else:
                        process.kill()
                except ProcessLookupError:
                    pass
                process.wait(_STOP_TIMEOUT)
        elif os.name == "posix":
            try:  # helpers it left behind in its group
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.join(_STOP_TIMEOUT)  # the group is gone, so its end of the pipe is closed: EOF soon
        # Closed only once nobody reads it: closing a pipe another thread is blocked on would block too.
        if process.stderr is not None and (reader is None or not reader.is_alive()):
            process.stderr.close()
        self.url = None
