"""Who sends for this data now: the senders running (their heartbeat fresh or stale, never the stopped
ones), as the Deliveries screen names them under its table. In a transaction of its own."""

from __future__ import annotations

import datetime as dt

from core.sending import presence
from core.sending.presence import SenderInfo
from core.store.db import Database


def sending_now(db: Database, *, now: dt.datetime) -> tuple[SenderInfo, ...]:
    """The senders not stopped, the ones sending first, then stale; the latest start first."""
    with db.read() as session:
        return tuple(presence.listing(session, now=now, include_stopped=False))
