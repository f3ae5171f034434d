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
