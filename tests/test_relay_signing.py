"""Shiftcast-HMAC as docs/relay.md defines it (the relay checks the same six lines), and the relay's
ids of the app's deliveries. Pure: the time and the nonce are passed in."""

from __future__ import annotations

import hashlib
import hmac

from core.relay import signing, uploads

KEY = "0f" * 32


def test_the_signature_is_the_hmac_of_the_six_lines_docs_relay_md_names() -> None:
    body = b'{"sender":"s1"}'
    lines = "\n".join(["SHIFTCAST-HMAC-SHA256", "POST", "/api/heartbeat", "1764640800", "n0nce_-abcdefghij",
                       hashlib.sha256(body).hexdigest()])
    expected = hmac.new(bytes.fromhex(KEY), lines.encode(), hashlib.sha256).hexdigest()
    header = signing.authorization(KEY, "post", "/api/heartbeat", body, ts=1764640800, nonce="n0nce_-abcdefghij")
    assert header == f"Shiftcast-HMAC ts=1764640800, nonce=n0nce_-abcdefghij, sig={expected}"
    # A GET signs the hash of nothing, and the query string as sent.
    assert signing.signature(KEY, "GET", "/api/events?after=3", b"", ts=1, nonce="x" * 16) != \
        signing.signature(KEY, "GET", "/api/events?after=4", b"", ts=1, nonce="x" * 16)


def test_a_relay_key_is_64_hex_digits() -> None:
    assert signing.valid_key(KEY) and signing.valid_key(KEY.upper())
    assert not signing.valid_key(KEY[:-1]) and not signing.valid_key("g" * 64)


def test_the_relay_names_a_delivery_by_its_id_and_reads_back_only_its_own() -> None:
    assert uploads.relay_id(812) == "d812" and uploads.delivery_id_of("d812") == 812
    assert uploads.delivery_id_of("reminder-812-3") is None and uploads.delivery_id_of(812) is None
