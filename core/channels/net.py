"""What every network client here shares: which addresses it may use in the clear, and how a failure
or a duration is written into a `SendResult` or an error message."""

from __future__ import annotations

import ipaddress
import time
from urllib.parse import urlsplit


def is_loopback(host: str) -> bool:
    """This computer: the only place a request may go without TLS (the emulator, a local receiver)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def secure_or_local(url: str) -> bool:
    """HTTPS anywhere, or plain HTTP to this computer only."""
    parts = urlsplit(url)
    if not parts.hostname:
        return False
    return parts.scheme == "https" or (parts.scheme == "http" and is_loopback(parts.hostname))


def short(exc: BaseException) -> str:
    """The first line of an exception, at most 300 characters: what a result or a log line keeps."""
    text = str(exc) or exc.__class__.__name__
    return text.splitlines()[0][:300]


def ms_since(started: float) -> int:
    """Milliseconds since `started`, a time.perf_counter() reading."""
    return int((time.perf_counter() - started) * 1000)
