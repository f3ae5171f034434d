"""The pending pairing codes as the relay holds them (PUT /api/pairing-codes): each code's salted hash and
the reply the app's own receiver would give it, so a teacher who sends their code while every PC sleeps
hears back at once. The relay never sees a code itself.

The whole set is uploaded again, replacing what the relay holds, whenever it differs from the set last
uploaded (its fingerprint is kept in the settings): so a code issued since is added and a spent or
expired one removed, and an unchanged set costs no call.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from core.receiving.pairing import HeldCode

BATCH = 40  # the relay takes at most 40 codes a call


def new_salt() -> str:
    return secrets.token_hex(16)


def entry(held: HeldCode, salt: str) -> dict[str, Any]:
    """One code as the relay takes it: hash = hex SHA-256(salt + the code as stored)."""
    return {"salt": salt, "hash": hashlib.sha256((salt + held.code).encode()).hexdigest(),
            "reply_text": held.reply_text, "expires_at": held.expires_at.astimezone(dt.UTC).isoformat()}


def batches(held: Sequence[HeldCode], salt: Callable[[], str] = new_salt) -> list[dict[str, Any]]:
    """The calls' bodies: the first replaces everything the relay holds (so none, for no codes), the
    others add to it."""
    entries = [entry(h, salt()) for h in held]
    chunks = [entries[i:i + BATCH] for i in range(0, len(entries), BATCH)] or [[]]
    return [{"codes": chunk, "replace_all": i == 0} for i, chunk in enumerate(chunks)]


def fingerprint(relay_url: str, held: Sequence[HeldCode]) -> str:
    """What the relay holds, in short: another relay or any change to a code, its reply or its expiry
    makes another fingerprint. The database keeps the codes themselves anyway."""
    text = json.dumps([relay_url, [[h.code, h.reply_text, h.expires_at.timestamp()] for h in held]],
                      ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()
