"""A Slack-compatible incoming webhook on loopback: a tiny http.server in a thread that keeps every post."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


class WebhookReceiver:
    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []
        self.status = 200
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver._lock:
                    if receiver.status == 200:
                        receiver.posts.append(json.loads(body))
                    status = receiver.status
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"ok" if status == 200 else b"no_service")

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/services/T000/B000/XXXX"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def texts(self) -> list[str]:
        with self._lock:
            return [p["text"] for p in self.posts]

    def __enter__(self) -> WebhookReceiver:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def webhook() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as receiver:
        yield receiver
