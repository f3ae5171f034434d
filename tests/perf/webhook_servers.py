"""The relay's webhook peers for the benchmark, each in a process of its own, doing what the relay does
with a LINE webhook: check the signature, store each event once by its webhookEventId, answer 200.

`python -m tests.perf.webhook_servers --kind KIND --secret S --folder F` prints `listening on
http://127.0.0.1:PORT/line/webhook` and serves until SIGTERM:

- `sdk`: LINE's own Python SDK (line-bot-sdk v3, `WebhookParser`, which checks the signature and parses
  the events into its models) in the standard library's `ThreadingHTTPServer`, storing each event in a
  SQLite file with WAL and synchronous=FULL, the settings workerd's local D1 uses. It shares no code
  with Shiftcast: a plain bot as the SDK's documentation writes one.
- `receiver`: the app's own receiver (core/receiving/server.py: Starlette on uvicorn, the app's
  database at synchronous=FULL), without event handlers, as it takes a webhook while the app runs.
- `receiver-nodelay`: the same with its listening socket made with IPPROTO_TCP named, so asyncio
  turns Nagle's algorithm off on its connections (it does so only for such sockets; `socket.
  create_server` leaves the protocol 0). An answer whose head and body are two writes otherwise waits
  for the client's delayed ACK, about 40 ms on Linux; this variant shows how much of `receiver` that is.

The SDK peer turns Nagle off itself (`disable_nagle_algorithm`), as a server that writes an answer in
two pieces should.
"""

from __future__ import annotations

import argparse
import signal
import socket
import sqlite3
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PATH = "/line/webhook"
KINDS = ("sdk", "receiver", "receiver-nodelay")


def _sdk_server(secret: str, folder: Path) -> ThreadingHTTPServer:
    from linebot.v3 import WebhookParser
    from linebot.v3.exceptions import InvalidSignatureError

    parser = WebhookParser(secret)
    database = sqlite3.connect(folder / "events.db", check_same_thread=False, isolation_level=None)
    database.execute("PRAGMA journal_mode=WAL")
    database.execute("PRAGMA synchronous=FULL")
    database.execute("CREATE TABLE IF NOT EXISTS events (webhook_event_id TEXT PRIMARY KEY, body TEXT NOT NULL)")
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as LINE's webhook client and the relay's runtime
        disable_nagle_algorithm = True  # the head and the body are two writes

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path != PATH:
                return self._answer(404, b'{"message":"not found"}')
            try:
                events = parser.parse(body.decode("utf-8"), self.headers.get("x-line-signature") or "")
            except InvalidSignatureError:
                return self._answer(401, b'{"message":"invalid signature"}')
            with lock:
                database.execute("BEGIN IMMEDIATE")
                database.executemany(
                    "INSERT INTO events (webhook_event_id, body) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    [(event.webhook_event_id, event.to_json()) for event in events])
                database.execute("COMMIT")
            self._answer(200, b"{}")

        def _answer(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the standard library's name
            pass

    return ThreadingHTTPServer(("127.0.0.1", 0), Handler)


def _serve_sdk(secret: str, folder: Path) -> None:
    server = _sdk_server(secret, folder)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown, daemon=True).start())
    print(f"listening on http://127.0.0.1:{server.server_address[1]}{PATH}", flush=True)
    server.serve_forever()


def _tcp_server(address: tuple[str, int], *, family: socket.AddressFamily = socket.AF_INET,
                **_: object) -> socket.socket:
    """socket.create_server with the protocol named, which asyncio needs to set TCP_NODELAY."""
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen()
    return sock


def _serve_receiver(secret: str, folder: Path, *, nodelay: bool = False) -> None:
    from core.receiving.server import WebhookReceiver

    if nodelay:
        socket.create_server = _tcp_server  # type: ignore[assignment]
    from core.store.bootstrap import open_database
    from tests.perf.workload import use_home

    db = open_database(use_home(folder), keyring=False)
    receiver = WebhookReceiver(db, secret, handlers=[]).start()
    ended = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: ended.set())
    print(f"listening on {receiver.url}", flush=True)
    ended.wait()
    receiver.stop()
    db.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.perf.webhook_servers", description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=KINDS, required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--folder", type=Path, required=True)
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    if args.kind == "sdk":
        _serve_sdk(args.secret, args.folder)
    else:
        _serve_receiver(args.secret, args.folder, nodelay=args.kind == "receiver-nodelay")
    return 0


if __name__ == "__main__":
    sys.exit(main())
