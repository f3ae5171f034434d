"""Signed postback data: what a button of ours carries, so that only a button this database built is
believed when LINE hands its data back.

Data is `<payload>:<MAC>`, the MAC being HMAC-SHA256 over the payload with the database's button key
(core/store/ack_key.py: in the keyring, never in the database), base64url without padding (43
characters). A payload starts with its feature's prefix (`ack:` for 了解, `av:` for availability
answers), so each handler reads only its own and passes over the others' without a word. Pure.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

MAC_LENGTH = 43


def mac(key: str, payload: str) -> str:
    digest = hmac.new(key.encode("utf-8"), payload.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def sign(key: str, payload: str) -> str:
    return f"{payload}:{mac(key, payload)}"


def has_prefix(data: str, prefix: str) -> bool:
    return data.startswith(prefix + ":")


def verify(key: str, data: str, prefix: str) -> str | None:
    """The payload of data signed with `key` whose payload starts with `prefix`, or None (compared in
    constant time)."""
    payload, _, given = data.rpartition(":")
    if not has_prefix(payload + ":", prefix) or not payload or len(given) != MAC_LENGTH:
        return None
    return payload if hmac.compare_digest(mac(key, payload).encode(), given.encode("utf-8", "replace")) else None
