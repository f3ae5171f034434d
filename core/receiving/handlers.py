"""The handler interface, and the worker that runs handlers on recorded events after commit.

The receiver answers LINE as soon as the events are committed; the handlers run afterwards on the
dispatcher's thread, woken by the store's after-commit hook. Each event is handled in its own write
transaction that also sets its handled_at, so an event is handled once. An event a handler failed on
is rolled back and tried again while the receiver runs, after 1, 2, 4, 8 and 16 minutes (what it
needed, a teacher's row or LINE's answer, may be there by then); when six tries have failed it is
given up and an alert tells the manager (core/alerts.py). Each start of the receiver gives the given-up
events one more try, as a new version may handle what the old one could not.

Every dispatcher of a database wakes on every event recorded in it, so with two receivers running (the
demo's or the app's own beside Connect LINE's) either may handle an event. What shows an event's effect
therefore listens for the database's WebhookEventsHandled, which the handling transaction emits (and
other processes hear through the change counters), never for one dispatcher's count.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from core import alerts
from core.logs import redact
from core.outbox.policy import BackoffPolicy
from core.receiving.events import ReceivedEvent, storable
from core.store import events as store_events
from core.store.db import Database
from core.store.models import WebhookEvent

log = logging.getLogger(__name__)
Clock = Callable[[], dt.datetime]
BATCH = 100
RETRY_BACKOFF = BackoffPolicy(base=dt.timedelta(minutes=1), max_retries=5, jitter=0.0)
# The dispatcher looks for due retries at least this often, and at most this often when a retry is
# overdue (its failure could not be recorded: the database was away), so it never spins.
_LONGEST_WAIT = 60.0
_SHORTEST_WAIT = 1.0


class EventHandler(Protocol):
    """Does something with one kind of event, inside the transaction that marks the event handled."""

    types: frozenset[str]  # the event types it is given ("follow", "unfollow", …)

    def handle(self, session: Session, event: ReceivedEvent, *, now: dt.datetime) -> None: ...


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def next_try(failures: int, now: dt.datetime, backoff: BackoffPolicy = RETRY_BACKOFF) -> dt.datetime | None:
    """When to run an event's handlers again after its `failures`-th failure at `now`; None: give up."""
    if failures > backoff.max_retries:
        return None
    return now + backoff.delay(failures, random.Random(0))  # no jitter: LINE's events come one by one


@dataclass(frozen=True, slots=True)
class Pass:
    """What one run over the due events did."""

    handled: int = 0
    failed: int = 0


def handle_pending(db: Database, handlers: Sequence[EventHandler], *, now: dt.datetime,
                   given_up_too: bool = False) -> Pass:
    """Run the handlers on every unhandled event that is due, oldest first: new ones, failed ones whose
    retry time came, and with `given_up_too` those whose tries ran out. Each is tried once per pass."""
    tried: set[int] = set()
    handled = failed = 0
    while True:
        with db.read() as session:
            query = select(WebhookEvent).where(WebhookEvent.handled_at.is_(None),
                                               or_(WebhookEvent.retry_at.is_(None), WebhookEvent.retry_at <= now))
            if not given_up_too:
                query = query.where(WebhookEvent.given_up_at.is_(None))
            if tried:
                query = query.where(WebhookEvent.id.not_in(tried))
            rows = [(row.id, ReceivedEvent.from_row(row)) for row in
                    session.scalars(query.order_by(WebhookEvent.id).limit(BATCH))]
        if not rows:
            return Pass(handled, failed)
        for row_id, event in rows:
            tried.add(row_id)
            try:
                with db.write() as session:
                    row = session.get(WebhookEvent, row_id)
                    if row is None or row.handled_at is not None:
                        continue  # another dispatcher got there first
                    for handler in handlers:
                        if event.type in handler.types:
                            handler.handle(session, event, now=now)
                    row.handled_at, row.retry_at = now, None
                    # Told through the database, not this dispatcher: another receiver of the same data
                    # (the demo's, the app's own, another process's) may be the one that handles it.
                    store_events.emit(session, store_events.WebhookEventsHandled(1))
                    if row.given_up_at is not None and not alerts.failed_webhook_event_count(session):
                        alerts.clear(session, [alerts.webhook_events_failed(0).key], now=now)
                handled += 1
            except Exception as exc:
                log.exception("handling webhook event %s (%s) failed", event.event_id, event.type)
                failed += 1
                _record_failure(db, row_id, exc, now=now)


def _record_failure(db: Database, row_id: int, exc: Exception, *, now: dt.datetime) -> None:
    """Count the failure and set the next try; when the tries ran out, give up and alert the manager."""
    try:
        with db.write() as session:
            row = session.get(WebhookEvent, row_id)
            if row is None or row.handled_at is not None:
                return
            row.handle_failures += 1
            row.handle_error = storable(redact(f"{type(exc).__name__}: {exc}"))[:200]
            retry = None if row.given_up_at is not None else next_try(row.handle_failures, now)
            row.retry_at = retry
            if retry is not None:
                log.warning("webhook event %s (%s) failed (attempts so far: %d); next try at %s", row.event_id, row.type,
                            row.handle_failures, retry.isoformat())
                return
            if row.given_up_at is None:
                row.given_up_at = now
                log.error("webhook event %s (%s) failed %d times; given up (alert WEBHOOK_EVENT_FAILED)",
                          row.event_id, row.type, row.handle_failures)
            session.flush()
            alerts.open_incident(session, alerts.webhook_events_failed(alerts.failed_webhook_event_count(session)),
                                 now=now)
    except Exception:  # the database is away: the event stays due and the next pass tries it again
        log.exception("recording the failure of webhook event row %s failed", row_id)


def next_retry_at(db: Database) -> dt.datetime | None:
    """The earliest retry time of a failed event that is not given up."""
    with db.read() as session:
        return session.scalar(select(func.min(WebhookEvent.retry_at)).where(
            WebhookEvent.handled_at.is_(None), WebhookEvent.given_up_at.is_(None)))


class Dispatcher:
    """A thread that runs the handlers whenever events were committed (and once at start, to catch up)."""

    def __init__(self, db: Database, handlers: Sequence[EventHandler], *, clock: Clock = _utc_now) -> None:
        self.db = db
        self.handlers = tuple(handlers)
        self.clock = clock
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._unlisten: Callable[[], None] | None = None
        self._progress = threading.Condition()
        self.handled = 0
        self.failed = 0

    def start(self) -> Dispatcher:
        self._unlisten = self.db.events.listen(store_events.WebhookEventsRecorded, lambda _event: self._wake.set())
        self._wake.set()
        self._thread = threading.Thread(target=self._run, name="webhook-handlers", daemon=True)
        self._thread.start()
        return self

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        first = True
        wait: float | None = None
        while True:
            self._wake.wait(wait)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                done = handle_pending(self.db, self.handlers, now=self.clock(), given_up_too=first)
                first = False
                wait = self._until_next_retry()
            except Exception:  # the database went away for a moment: try again a little later
                log.exception("running the webhook handlers failed")
                done, wait = Pass(), _LONGEST_WAIT
            with self._progress:
                self.handled += done.handled
                self.failed += done.failed
                self._progress.notify_all()

    def _until_next_retry(self) -> float | None:
        retry = next_retry_at(self.db)
        if retry is None:
            return None
        return min(max((retry - self.clock()).total_seconds(), _SHORTEST_WAIT), _LONGEST_WAIT)

    def wait_handled(self, count: int, timeout: float) -> bool:
        """Block until at least `count` events were handled since start (for tests and the CLI)."""
        with self._progress:
            return self._progress.wait_for(lambda: self.handled >= count, timeout)

    def wait_failed(self, count: int, timeout: float) -> bool:
        """Block until handlers failed at least `count` times since start (for tests)."""
        with self._progress:
            return self._progress.wait_for(lambda: self.failed >= count, timeout)
