"""Measure the emulator's throughput: `python -m core.emulator.loadcheck [--seconds 3] [--threads 8]`.

Valid pushes (each with a fresh retry key) from a pool of threads sharing one keep-alive httpx.Client,
for a few seconds; prints {"requests_per_s": …, …} as one JSON line. Rate limits are lifted for the
run, or LINE's push limit of 2,000 req/s would be the answer.

The emulator runs in a child process so that it has its own interpreter: client and server in one
process share one GIL, and httpx needs several times the CPU per request that the emulator does. The
child's CPU time (read from /_emulator/stats before and after) gives "server_cpu_us_per_request" and
"server_capacity_per_s", what one core of emulator can answer whatever the driver. `--driver raw`
replaces httpx by a minimal keep-alive socket client (one connection per thread) to push the server
itself towards that ceiling; `--in-process` runs the emulator in this process instead.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from core.emulator.server import LineEmulator

TOKEN = "loadcheck-token"
USER = "U" + "0123456789abcdef" * 2
PUSH_BODY = {"to": USER, "messages": [{"type": "text", "text": "loadcheck: 明日 16:00–21:00 本校"}]}
PUSH_PATH = "/v2/bot/message/push"


def _start_child() -> tuple[subprocess.Popen[str], str]:
    root = Path(__file__).resolve().parents[2]  # the folder that holds the core package
    child = subprocess.Popen(
        [sys.executable, "-m", "core.emulator", "--port", "0", "--token", TOKEN],
        cwd=root, stdout=subprocess.PIPE, text=True,
    )
    assert child.stdout is not None
    first = child.stdout.readline()
    if "http://" not in first:
        child.kill()
        raise RuntimeError(f"the emulator did not start: {first!r}")
    return child, first[first.index("http://") :].strip()


def _httpx_worker(base_url: str, threads: int) -> tuple[Callable[[], Callable[[], int]], Callable[[], None]]:
    import httpx  # imported here so the raw driver runs without it

    client = httpx.Client(
        base_url=base_url,
        headers={"Authorization": f"Bearer {TOKEN}"},
        limits=httpx.Limits(max_connections=threads, max_keepalive_connections=threads),
        timeout=10.0,
    )

    def make() -> Callable[[], int]:
        def once() -> int:
            headers = {"X-Line-Retry-Key": str(uuid.uuid4())}
            return client.post(PUSH_PATH, json=PUSH_BODY, headers=headers).status_code

        return once

    return make, client.close


def _raw_worker(base_url: str) -> tuple[Callable[[], Callable[[], int]], Callable[[], None]]:
    parts = urlsplit(base_url)
    address = (parts.hostname or "127.0.0.1", parts.port or 80)
    body = json.dumps(PUSH_BODY, ensure_ascii=False).encode("utf-8")
    head = (
        f"POST {PUSH_PATH} HTTP/1.1\r\nHost: {address[0]}:{address[1]}\r\nAuthorization: Bearer {TOKEN}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nX-Line-Retry-Key: "
    ).encode("latin-1")
    sockets: list[socket.socket] = []

    def make() -> Callable[[], int]:
        sock = socket.create_connection(address)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sockets.append(sock)
        pending = bytearray()

        def once() -> int:
            sock.sendall(head + str(uuid.uuid4()).encode() + b"\r\n\r\n" + body)
            while (end := pending.find(b"\r\n\r\n")) < 0:
                pending.extend(sock.recv(65536))
            lines = bytes(pending[:end]).decode("latin-1").split("\r\n")
            length = next(int(v) for k, _, v in (x.partition(":") for x in lines) if k.lower() == "content-length")
            while len(pending) < end + 4 + length:
                pending.extend(sock.recv(65536))
            del pending[: end + 4 + length]
            return int(lines[0].split(" ")[1])

        return once

    def close() -> None:
        for sock in sockets:
            sock.close()

    return make, close


def _control(base_url: str, method: str, path: str, payload: Any = None) -> Any:
    from urllib.request import Request, urlopen

    data = None if payload is None else json.dumps(payload).encode()
    request = Request(base_url + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def run(seconds: float, threads: int, driver: str, in_process: bool) -> dict[str, Any]:
    child: subprocess.Popen[str] | None = None
    emulator: LineEmulator | None = None
    if in_process:
        emulator = LineEmulator(token=TOKEN).start()
        base_url = emulator.base_url
    else:
        child, base_url = _start_child()
    try:
        _control(base_url, "POST", "/_emulator/users", {"userId": USER, "displayName": "Load", "friend": True})
        _control(base_url, "POST", "/_emulator/rate-limit", {"endpoint": "push", "perSecond": None})
        make, close = _httpx_worker(base_url, threads) if driver == "httpx" else _raw_worker(base_url)
        senders = [make() for _ in range(threads)]
        for send in senders:  # open every connection before the clock starts
            for _ in range(20):
                send()
        counts: Counter[int] = Counter()
        lock = threading.Lock()
        before = _control(base_url, "GET", "/_emulator/stats")["cpuSeconds"]
        deadline = time.perf_counter() + seconds

        def work(send: Callable[[], int]) -> None:
            local: Counter[int] = Counter()
            while time.perf_counter() < deadline:
                local[send()] += 1
            with lock:
                counts.update(local)

        started = time.perf_counter()
        pool = [threading.Thread(target=work, args=(send,), daemon=True) for send in senders]
        for thread in pool:
            thread.start()
        for thread in pool:
            thread.join()
        elapsed = time.perf_counter() - started
        after = _control(base_url, "GET", "/_emulator/stats")["cpuSeconds"]
        close()
    finally:
        if emulator is not None:
            emulator.stop()
        if child is not None:
            child.terminate()
            child.wait(10)
            if child.stdout is not None:
                child.stdout.close()
    total = sum(counts.values())
    result: dict[str, Any] = {
        "requests_per_s": round(total / elapsed),
        "requests": total,
        "seconds": round(elapsed, 2),
        "threads": threads,
        "driver": driver,
        "emulator": "in-process" if in_process else "child process",
        "statuses": {str(k): v for k, v in sorted(counts.items())},
    }
    if not in_process and total:
        cpu_us = (after - before) / total * 1e6
        result["server_cpu_us_per_request"] = round(cpu_us, 1)
        result["server_capacity_per_s"] = round(1e6 / cpu_us) if cpu_us > 0 else None
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.emulator.loadcheck",
                                     description="Measure the LINE emulator's throughput.")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--driver", choices=("httpx", "raw"), default="httpx")
    parser.add_argument("--in-process", action="store_true", help="run the emulator in this process")
    args = parser.parse_args(argv)
    print(json.dumps(run(args.seconds, args.threads, args.driver, args.in_process)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
