"""Which addresses Shiftcast may use in the clear: HTTPS anywhere, plain HTTP to this computer only.

One rule for every client (LINE, the alert webhook, e-mail without TLS, image hosting), for the
settings that accept an address, and for the demo's inbox. It sits in the foundation because the
store validates addresses too and may not import the channels.
"""

from __future__ import annotations

import ipaddress
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
