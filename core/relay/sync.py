"""One sync with the relay: a heartbeat while the app's sender is awake, the uploads (deliveries due
soon, cancels of those that no longer go), then the outcomes and the webhook events pulled and
acknowledged once they are committed here.

Outcomes become attempts of their deliveries (core/relay/outcomes.py); events go into the app's own
pipeline, the one its receiver uses (core/receiving/events.py stores each once by webhookEventId,
then every handler runs on it), so a teacher's pairing code sent while every PC slept binds them at
the next sync. An ack follows the commit: a sync that dies between the two pulls the same again,
which the outcomes and the events each record once.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from core.receiving import events, handlers, pairing
from core.relay import outcomes, uploads
from core.relay.client import RelayClient
from core.store.db import Database
from core.store.paths import DataPaths

log = logging.getLogger(__name__)
Clock = Callable[[], dt.datetime]
MAX_PAGES = 50  # pages of 100 (outcomes, events) or 40 (uploads) per sync; the next sync takes the rest


@dataclass
class Summary:
    heartbeat: bool = False
    uploaded: int = 0
    canceled: int = 0
    outcomes: int = 0
    sent_by_relay: int = 0
    events: int = 0
    events_new: int = 0
    events_handled: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def push(db: Database, relay: RelayClient, *, now: dt.datetime, paths: DataPaths, summary: Summary) -> None:
    """Hand over what is due within the horizon and cancel what no longer goes, a batch at a time."""
    after: tuple[dt.datetime, int] | None = None
    more_sends = True
    for _ in range(MAX_PAGES):
        with db.write() as session:
            page = uploads.sends(session, now=now, paths=paths, after=after) if more_sends else None
            sends = page.uploads if page is not None else []
            cancels = uploads.cancels(session, limit=uploads.BATCH - len(sends))
        if page is not None:
            after, more_sends = page.last, page.full
        if sends or cancels:
            relay.put_deliveries([u.entry for u in sends + cancels])
            with db.write() as session:
                uploads.remember(session, sends, cancels, now=now)
            summary.uploaded += len(sends)
            summary.canceled += len(cancels)
        if not more_sends and len(cancels) < uploads.BATCH - len(sends):
            return


def pull_outcomes(db: Database, relay: RelayClient, *, now: dt.datetime, summary: Summary) -> None:
    for _ in range(MAX_PAGES):
        page = relay.outcomes()
        found = [o for o in page.get("outcomes", []) if isinstance(o, dict)]
        if not found:
            return
        with db.write() as session:
            done = outcomes.record(session, found, now=now)
        summary.outcomes += done.attempts
        summary.sent_by_relay += done.sent
        relay.ack_outcomes(int(page["next"]))


def pull_events(db: Database, relay: RelayClient, *, now: dt.datetime, summary: Summary) -> None:
    for _ in range(MAX_PAGES):
        page = relay.events()
        found = [e["event"] for e in page.get("events", []) if isinstance(e, dict) and isinstance(e.get("event"), dict)]
        if not found:
            return
        with db.write() as session:
            summary.events_new += events.record(session, found, now=now)
        summary.events += len(found)
        relay.ack_events(int(page["next"]))


def sync(db: Database, relay: RelayClient, *, now: dt.datetime, paths: DataPaths, sender: str | None,
         handle: bool = True) -> Summary:
    """Heartbeat (with `sender`, the app sender's name, while one is awake), push, pull. With `handle`,
    the events' handlers run here too (a process with its own dispatcher leaves them to it)."""
    summary = Summary()
    if sender is not None:
        relay.heartbeat(sender)
        summary.heartbeat = True
    push(db, relay, now=now, paths=paths, summary=summary)
    pull_outcomes(db, relay, now=now, summary=summary)
    pull_events(db, relay, now=now, summary=summary)
    if handle and summary.events_new:
        summary.events_handled = handlers.handle_pending(
            db, pairing.standard_handlers(pairing.line_from_settings(db)), now=now).handled
    log.info("relay sync: %s", summary.as_dict())
    return summary
