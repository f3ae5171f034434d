"""Accepted X-Line-Retry-Key values, remembered for 24 hours of emulator time as LINE does."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

# LINE asks for "a UUID in hexadecimal format", any version, e.g. 123e4567-e89b-12d3-a456-426614174000.
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
WINDOW = dt.timedelta(hours=24)


def is_uuid(value: str) -> bool:
    return _UUID.fullmatch(value) is not None


@dataclass(frozen=True, slots=True)
class Accepted:
    request_id: str
    accepted_at: dt.datetime
    # The push answer's sentMessages, repeated in the 409 body; None for multicast.
    sent_messages: list[dict[str, Any]] | None


class RetryKeyStore:
    """Keys compare as exact strings. Insertion order is acceptance order, so expired keys are
    dropped from the front without scanning everything. Called under the emulator's state lock."""

    def __init__(self, window: dt.timedelta = WINDOW) -> None:
        self.window = window
        self._keys: dict[str, Accepted] = {}

    def find(self, key: str, now: dt.datetime) -> Accepted | None:
        found = self._keys.get(key)
        if found is None or now - found.accepted_at >= self.window:
            return None
        return found

    def remember(self, key: str, accepted: Accepted) -> None:
        self._keys.pop(key, None)  # an expired key accepted again moves to the back
        self._keys[key] = accepted
        self._forget_expired(accepted.accepted_at)

    def live(self, now: dt.datetime) -> dict[str, str]:
        return {k: a.request_id for k, a in self._keys.items() if now - a.accepted_at < self.window}

    def clear(self) -> None:
        self._keys.clear()

    def _forget_expired(self, now: dt.datetime) -> None:
        while self._keys:
            key, oldest = next(iter(self._keys.items()))
            if now - oldest.accepted_at < self.window:
                return
            del self._keys[key]
