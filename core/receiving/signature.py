"""LINE's webhook signature: Base64(HMAC-SHA256(key = channel secret, message = the raw body))."""

from __future__ import annotations

import base64
import hashlib
import hmac


def sign(secret: str, body: bytes) -> str:
    return base64.b64encode(hmac.new(secret.encode("utf-8"), body, hashlib.sha256).digest()).decode("ascii")


def verify(secret: str, body: bytes, header: str | None) -> bool:
    """Whether `header` is the body's signature, compared in constant time (no early exit to time)."""
    if not header or not secret:
        return False
    try:
        given = header.strip().encode("ascii")
    except UnicodeEncodeError:
        return False
    return hmac.compare_digest(sign(secret, body).encode("ascii"), given)
