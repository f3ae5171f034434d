"""A real S3-compatible server on loopback (moto in server mode) for the image-hosting tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.publication import hosting
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database

ACCESS_KEY = "shiftcast-test"
SECRET_KEY = "shiftcast-test-secret-key-0123456789"
BUCKET = "rosters"


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def hosted(db: Database, s3_endpoint: str) -> str:
    """Image hosting configured in settings and the keyring, with an empty bucket of its own."""
    from minio import Minio

    client = Minio(s3_endpoint.removeprefix("http://"), access_key=ACCESS_KEY, secret_key=SECRET_KEY, secure=False,
                   region="us-east-1")
    if client.bucket_exists(BUCKET):
        for item in client.list_objects(BUCKET, recursive=True):
            client.remove_object(BUCKET, item.object_name)
    else:
        client.make_bucket(BUCKET)
    with db.write() as s:
        keys.HOSTING_ENDPOINT.write(s, s3_endpoint)
        keys.HOSTING_BUCKET.write(s, BUCKET)
        keys.HOSTING_REGION.write(s, "us-east-1")
        keys.HOSTING_ACCESS_KEY_ID.write(s, ACCESS_KEY)
    secrets.set_secret(hosting.SECRET_NAME, SECRET_KEY)
    return s3_endpoint


class RefusingBucket:
    """An S3-compatible address on loopback that answers every request with `status` and S3's error
    document (403 AccessDenied: the credentials are refused; 503: the service is down for now)."""

    def __init__(self, status: int) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.status = status
        self.requests = 0
        bucket = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                bucket.requests += 1
                code = "AccessDenied" if bucket.status == 403 else "ServiceUnavailable"
                body = (f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{code}</Code>'
                        f"<Message>refused</Message></Error>").encode()
                self.send_response(bucket.status)
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", "0" if self.command == "HEAD" else str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            do_GET = do_PUT = do_HEAD = do_POST = _answer

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def configure(self, db: Database) -> None:
        """Hosting set up on this address with a secret in the keyring, as the Settings screen saves it."""
        with db.write() as s:
            keys.HOSTING_ENDPOINT.write(s, self.endpoint)
            keys.HOSTING_BUCKET.write(s, BUCKET)
            keys.HOSTING_REGION.write(s, "us-east-1")
            keys.HOSTING_ACCESS_KEY_ID.write(s, ACCESS_KEY)
        secrets.set_secret(hosting.SECRET_NAME, SECRET_KEY)

    def __enter__(self) -> RefusingBucket:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()
