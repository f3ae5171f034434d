"""Shiftcast-HMAC, the relay's request signature (docs/relay.md): pure, with the clock and the nonce passed in."""

from __future__ import annotations

import hashlib
import hmac

SCHEME = "Shiftcast-HMAC"
ALGORITHM = "SHIFTCAST-HMAC-SHA256"
KEY_HEX_LENGTH = 64  # 256 bits


def valid_key(key_hex: str) -> bool:
    """Is this a relay key: 64 hex digits?"""
    return len(key_hex) == KEY_HEX_LENGTH and all(c in "0123456789abcdefABCDEF" for c in key_hex)


def signature(key_hex: str, method: str, path_and_query: str, body: bytes, *, ts: int, nonce: str) -> str:
    """The hex HMAC-SHA256 of the six lines the relay checks, keyed with the key's 32 bytes."""
    message = "\n".join([ALGORITHM, method.upper(), path_and_query, str(ts), nonce, hashlib.sha256(body).hexdigest()])
    return hmac.new(bytes.fromhex(key_hex), message.encode(), hashlib.sha256).hexdigest()


def authorization(key_hex: str, method: str, path_and_query: str, body: bytes, *, ts: int, nonce: str) -> str:
    """The Authorization header's value for one call."""
    sig = signature(key_hex, method, path_and_query, body, ts=ts, nonce=nonce)
    return f"{SCHEME} ts={ts}, nonce={nonce}, sig={sig}"
