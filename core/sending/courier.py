"""LINE requests sent from a child process, so the sender's bookkeeping and the HTTP work use two cores.

CPython runs one thread of Python at a time per process. The sender's loop (claim, check, build,
record) and sixteen threads of httpx in one process share that one core, and each delivery then
costs the two added together. The courier is the same LineClient, the same threads and the same
rate limits in a process of its own: the sender hands it ready requests over a pipe and reads the
results back, and both halves run at once.

Nothing about exactly-once changes. A request reaches the courier only after the transaction that
committed its retry key; if the courier dies, every request it had not answered comes back as a
connection error and is retried with the same key (LINE answers 409 for one it had accepted). If
the sender dies, the courier sees its input close and exits.

The protocol is one line per message, in both directions:
- sender → courier: first a JSON config object {"base_url", "token", "timeout", "threads",
  "push_rate", "multicast_rate"}, then one request per line: id, endpoint and retry key, tab-separated, then a tab
  and the request body as LineClient encodes it. The body is compact JSON, which has no raw tab or
  newline, so the courier passes it on as it is, without decoding it;
- courier → sender: "ready" once the client exists, then one JSON array per result:
  [id, http_status, transport_error, request_id, accepted_request_id, message, details, duration_ms].

Start-up: the headless sender calls `start_early()` before it opens its database, so the child's
imports run on the other core meanwhile; the first `Courier` then adopts that child and only the
handshake is left to wait for. A child nobody adopts is ended after SPARE_TTL_S or at exit.
"""

from __future__ import annotations

import atexit
import json
import logging
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from core.channels.ratelimit import TokenBucket
from core.outbox import policy
from core.outbox.policy import Outcome, SendResult, Transport

# httpx and the client are imported where the child serves: start_early() runs before the sender has
# imported them, and spawning the child should not wait for them.
if TYPE_CHECKING:
    from core.channels.line import LineClient

log = logging.getLogger(__name__)

START_TIMEOUT_S = 20.0
SPARE_TTL_S = 60.0  # a child started early and not adopted by then (no token, say) is ended
WRITE_INTERVAL_S = 0.005
_END = object()


class CourierUnavailable(Exception):
    """The child process could not be started; the sender sends from its own threads instead."""


def command() -> list[str]:
    """How to start the courier: this app's executable when packaged, else main.py under this Python."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "courier"]
    return [sys.executable, str(Path(__file__).resolve().parents[2] / "main.py"), "courier"]


Request = tuple[int, str, str, bytes]  # delivery id, endpoint, retry key, encoded body

_spare: subprocess.Popen[bytes] | None = None  # started by start_early(), not yet adopted by a Courier
_spare_lock = threading.Lock()


def _spawn() -> subprocess.Popen[bytes]:
    # No console window for the child of a windowed app on Windows.
    flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)
    return subprocess.Popen(command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            creationflags=flags)


def start_early() -> None:
    """Start the child now; the first Courier adopts it. Failing here only means starting it later."""
    global _spare
    with _spare_lock:
        if _spare is not None:
            return
        try:
            _spare = _spawn()
        except OSError as exc:
            log.warning("could not start the sending process ahead: %s", exc)
            return
    timer = threading.Timer(SPARE_TTL_S, discard_spare)
    timer.daemon = True
    timer.start()


def discard_spare() -> None:
    """End a child started early that no Courier adopted: without its config it exits at once."""
    global _spare
    with _spare_lock:
        child, _spare = _spare, None
    if child is not None:
        _end(child)


atexit.register(discard_spare)


def _adopt_spare() -> subprocess.Popen[bytes] | None:
    global _spare
    with _spare_lock:
        child, _spare = _spare, None
    if child is not None and child.poll() is not None:  # it died meanwhile: start a new one
        _end(child)
        return None
    return child


def _end(child: subprocess.Popen[bytes]) -> None:
    try:
        child.communicate(timeout=5)  # closes its stdin: a child without a config exits (serve returns 2)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()


class Courier:
    """The sender's side: start the child, hand it requests, report each result through `on_result`.

    `send` is called from one thread (the sender's loop); `on_result` is called on the courier's
    reader thread, once for every request, also when the child dies (a connection error)."""

    def __init__(self, client: LineClient, *, threads: int, push_rate: float, multicast_rate: float,
                 on_result: Callable[[int, SendResult], None]) -> None:
        self._on_result = on_result
        self._pending: dict[int, None] = {}  # ids handed over and not yet answered (dicts keep order)
        self._lock = threading.Lock()
        try:
            self._child = _adopt_spare() or _spawn()
        except OSError as exc:
            raise CourierUnavailable(f"could not start the sending process: {exc}") from exc
        assert self._child.stdin is not None and self._child.stdout is not None and self._child.stderr is not None
        self._in: IO[bytes] = self._child.stdin
        self._out: IO[bytes] = self._child.stdout
        config = {"base_url": client.base_url, "token": client.token, "timeout": client.timeout.as_dict(),
                  "threads": threads,
                  "push_rate": push_rate, "multicast_rate": multicast_rate}
        threading.Thread(target=self._relay_log, args=(self._child.stderr,), name="shiftcast-courier-log",
                         daemon=True).start()
        ready = threading.Event()
        first: list[bytes] = []

        def handshake() -> None:
            try:
                self._in.write(json.dumps(config).encode() + b"\n")
                self._in.flush()
                first.append(self._out.readline())
            except OSError:  # the child is gone already: `first` stays empty and the start fails below
                pass
            ready.set()

        threading.Thread(target=handshake, name="shiftcast-courier-start", daemon=True).start()
        if not ready.wait(START_TIMEOUT_S) or not first or first[0].strip() != b'"ready"':
            self._child.kill()
            self._child.wait()
            raise CourierUnavailable("the sending process did not start")
        self._reader = threading.Thread(target=self._read, name="shiftcast-courier-read", daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self._child.pid

    @property
    def in_flight(self) -> int:
        return len(self._pending)

    @property
    def alive(self) -> bool:
        return self._reader.is_alive()

    def send(self, requests: list[Request]) -> None:
        """Hand over a turn's requests in one write. A dead child answers them as connection errors."""
        if not requests:
            return
        with self._lock:
            for request in requests:
                self._pending[request[0]] = None
        data = b"".join(b"%d\t%s\t%s\t%s\n" % (delivery_id, endpoint.encode(), retry_key.encode(), body)
                        for delivery_id, endpoint, retry_key, body in requests)
        try:
            self._in.write(data)
            self._in.flush()
        except (OSError, ValueError):  # the child is gone; the reader reports what it never answered
            log.warning("the sending process is gone; %d requests go back for a retry", len(requests))

    def kill(self) -> None:
        """End a courier that stopped answering; the reader reports what it held as connection errors."""
        try:
            self._child.kill()
        except OSError:  # it has exited meanwhile
            pass

    def close(self, timeout: float = 60.0) -> None:
        """No more requests: the child finishes those it has, reports them and exits."""
        try:
            self._in.close()
        except OSError:  # a dead child's pipe: the reader has reported its requests already
            pass
        self._reader.join(timeout)
        try:
            self._child.wait(5)
        except subprocess.TimeoutExpired:
            self._child.kill()
            self._child.wait()

    def _read(self) -> None:
        try:
            for line in self._out:
                delivery_id, status, transport, request_id, accepted, message, details, ms = json.loads(line)
                with self._lock:
                    self._pending.pop(delivery_id, None)
                self._on_result(delivery_id, SendResult(
                    http_status=status, transport_error=Transport(transport) if transport else None,
                    request_id=request_id, accepted_request_id=accepted, message=message,
                    details=tuple(details), duration_ms=ms))
        except (OSError, ValueError) as exc:
            log.error("reading from the sending process failed: %s", exc)
        finally:
            with self._lock:
                lost, self._pending = list(self._pending), {}
            if lost:
                log.warning("the sending process stopped with %d requests unanswered; they will be retried",
                            len(lost))
            for delivery_id in lost:
                self._on_result(delivery_id, SendResult(transport_error=Transport.CONNECTION,
                                                        message="the sending process stopped before LINE answered"))

    @staticmethod
    def _relay_log(stream: IO[bytes]) -> None:
        for line in stream:
            text = line.decode("utf-8", "replace").rstrip()
            if text:
                log.warning("sending process: %s", text)


# ----- the child -----

def serve(stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """The courier's main: read the config, answer "ready", then send every request line until stdin ends."""
    import httpx

    from core.channels.line import LineClient, warm_up

    # Usually started ahead of need (start_early): what the first request loads is loaded while the
    # sender still starts, not after the handshake.
    warm_up()
    config = json.loads(stdin.readline() or b"{}")
    if not config:
        return 2
    client = LineClient(config["token"], base_url=config["base_url"], timeout=httpx.Timeout(**config["timeout"]),
                        max_connections=max(int(config["threads"]), 1) * 2)
    buckets = {"push": TokenBucket(float(config["push_rate"])),
               "multicast": TokenBucket(float(config["multicast_rate"]))}
    requests: queue.SimpleQueue[Any] = queue.SimpleQueue()
    stdout.write(b'"ready"\n')
    stdout.flush()

    answered: list[bytes] = []  # result lines waiting for the writer
    answered_lock = threading.Lock()
    finished = threading.Event()
    waiting = threading.Event()  # answered has lines: an idle courier sleeps without waking up

    def work() -> None:
        while (request := requests.get()) is not _END:
            line = json.dumps(_send(client, buckets, request), ensure_ascii=False, separators=(",", ":")).encode()
            with answered_lock:  # the writer swaps the list under the same lock: no line can miss it
                answered.append(line + b"\n")
                waiting.set()
        requests.put(_END)  # pass the end on to the next thread

    def write() -> None:
        # Every few milliseconds, whatever has gathered goes out in one write: a write per result
        # would cost each sending thread a system call and another turn at the interpreter lock.
        nonlocal answered
        while True:
            waiting.wait()
            last = finished.wait(WRITE_INTERVAL_S)
            with answered_lock:
                batch, answered = answered, []
                waiting.clear()
            if batch:
                stdout.write(b"".join(batch))
                stdout.flush()
            if last:
                return

    workers = [threading.Thread(target=work, name=f"courier-{n}", daemon=True) for n in range(int(config["threads"]))]
    writer = threading.Thread(target=write, name="courier-write", daemon=True)
    for thread in (*workers, writer):
        thread.start()
    for line in stdin:
        requests.put(line.rstrip(b"\n").split(b"\t", 3))
    requests.put(_END)
    for thread in workers:
        thread.join()
    finished.set()
    waiting.set()
    writer.join()
    client.close()
    return 0


def send_limited(client: LineClient, bucket: TokenBucket, endpoint: str, body: bytes, retry_key: str) -> SendResult:
    """One LINE request under its endpoint's rate limit, from the sender's threads or the courier's."""
    bucket.acquire()
    try:
        result = client.send_encoded(endpoint, body, retry_key=retry_key)
    except Exception as exc:
        log.exception("a LINE request raised")
        result = SendResult(transport_error=Transport.CONNECTION, message=str(exc)[:300])
    if result.http_status == 429 and policy.classify(result).outcome is Outcome.THROTTLED:
        bucket.slow_down()  # LINE's rate limit: slow down for everyone sending on this endpoint
    return result


def _send(client: LineClient, buckets: dict[str, TokenBucket], request: list[bytes]) -> list[Any]:
    delivery_id, endpoint, retry_key = int(request[0]), request[1].decode(), request[2].decode()
    result = send_limited(client, buckets[endpoint], endpoint, request[3], retry_key)
    return [delivery_id, result.http_status, result.transport_error.value if result.transport_error else None,
            result.request_id, result.accepted_request_id, result.message, list(result.details), result.duration_ms]
