"""One sync with the relay: a heartbeat while the app's sender is awake, the uploads (deliveries due
soon, cancels of those that no longer go), then the outcomes and the webhook events pulled and
acknowledged once they are committed here.

Outcomes become attempts of their deliveries (core/relay/outcomes.py); events go into the app's own
pipeline, the one its receiver uses (core/receiving/events.py stores each once by webhookEventId,
then every handler runs on it), so a teacher's pairing code sent while every PC slept binds them at
the next sync. An ack follows the commit: a sync that dies between the two pulls the same again,
which the outcomes and the events each record once.

Then the teachers' page's documents that changed (core/relay/pages.py), once the events' answers are
in them. Last, the pending pairing codes (core/relay/codes.py), when they changed, so the relay answers a code
sent at night at once. The relay spends the reply token of a code's message, so the app stores such
events without it and does not reply a second time.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from core.receiving import events, handlers, pairing
from core.relay import codes, outcomes, pages, uploads
from core.relay.client import RelayClient
from core.store import setting_keys as keys
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
    codes: int | None = None  # the pairing codes uploaded; None when the relay already held them
    outcomes: int = 0
    sent_by_relay: int = 0
    events: int = 0
    events_new: int = 0
    events_handled: int = 0
    pages: int = 0  # the teachers' page documents put on the relay or deleted there

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
            # Recorded before the call: a cancel reaches the relay even when its answer is lost.
            uploads.hand_over(session, sends, now=now)
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


def push_codes(db: Database, relay: RelayClient, *, now: dt.datetime, summary: Summary) -> None:
    """The pending pairing codes, when they differ from those last uploaded (all of them, replacing)."""
    with db.read() as session:
        held = pairing.held_codes(session, now)
        last = keys.RELAY_CODES.read(session)
    fingerprint = codes.fingerprint(relay.url, held)
    if fingerprint == last:
        return
    for body in codes.batches(held):
        relay.put_pairing_codes(body)
    with db.write() as session:
        keys.RELAY_CODES.write(session, fingerprint)
    summary.codes = len(held)


def _answered_by_relay(event: dict[str, Any]) -> dict[str, Any]:
    """The event without its reply token when it is a pairing code: the relay answered a code it held at
    once (LINE takes a reply token once), and answers a wrong one not at all, as the app does not either
    by the time it pulls the event."""
    message = event.get("message")
    text = message.get("text") if isinstance(message, dict) else None
    if isinstance(text, str) and pairing.as_code(text) is not None and "replyToken" in event:
        return {k: v for k, v in event.items() if k != "replyToken"}
    return event


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


def pull_events(db: Database, relay: RelayClient, *, now: dt.datetime, summary: Summary) -> int | None:
    """Pull, record and acknowledge the events; the last cursor acknowledged (None: there were none)."""
    through: int | None = None
    for _ in range(MAX_PAGES):
        page = relay.events()
        found = [_answered_by_relay(e["event"]) for e in page.get("events", [])
                 if isinstance(e, dict) and isinstance(e.get("event"), dict)]
        if not found:
            return through
        with db.write() as session:
            summary.events_new += events.record(session, found, now=now)
        summary.events += len(found)
        through = int(page["next"])
        relay.ack_events(through)
    return through


def sync(db: Database, relay: RelayClient, *, now: dt.datetime, paths: DataPaths, sender: str | None,
         handle: bool = True) -> Summary:
    """Heartbeat (with `sender`, the app sender's name, while one is awake), push, pull, pairing codes. With `handle`,
    the events' handlers run here too (a process with its own dispatcher leaves them to it)."""
    summary = Summary()
    if sender is not None:
        relay.heartbeat(sender)
        summary.heartbeat = True
    push(db, relay, now=now, paths=paths, summary=summary)
    pull_outcomes(db, relay, now=now, summary=summary)
    through = pull_events(db, relay, now=now, summary=summary)
    if handle and summary.events_new:
        summary.events_handled = handlers.handle_pending(
            db, pairing.standard_handlers(pairing.line_from_settings(db)), now=now).handled
    # After the events are handled, so the documents include the answers the relay may then forget (a
    # process that leaves the handling to its own dispatcher lets the relay keep them a sync longer).
    summary.pages = pages.push_pages(db, relay, now=now, events_through=through if handle else None)
    # After the events: a code the relay spent and the app has just bound is not handed over again.
    push_codes(db, relay, now=now, summary=summary)
    log.info("relay sync: %s", summary.as_dict())
    return summary
