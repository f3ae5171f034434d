"""What every network client here shares: how a failure or a duration is written into a `SendResult`
or an error message. Which addresses a client may use in the clear is core/addresses.py."""

from __future__ import annotations

import time
from typing import Any

import httpx


def short(exc: BaseException) -> str:
    """The first line of an exception, at most 300 characters: what a result or a log line keeps."""
    text = str(exc) or exc.__class__.__name__
    return text.splitlines()[0][:300]


def ms_since(started: float) -> int:
    """Milliseconds since `started`, a time.perf_counter() reading."""
    return int((time.perf_counter() - started) * 1000)


def json_object(response: httpx.Response) -> dict[str, Any]:
    """The answer's JSON object, or {} for anything else (no body, not JSON, a list)."""
    try:
        value = response.json()
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
