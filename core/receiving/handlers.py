"""The handler interface, and the worker that runs handlers on recorded events after commit.

The receiver answers LINE as soon as the events are committed; the handlers run afterwards on the
dispatcher's thread, woken by the store's after-commit hook. Each event is handled in its own write
transaction that also sets its handled_at, so an event is handled once, and one a handler failed on
stays unhandled (handled_at NULL) until the next start instead of being retried in a loop.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.receiving.events import ReceivedEvent
from core.store import hooks
from core.store.db import Database
from core.store.models import WebhookEvent

log = logging.getLogger(__name__)
Clock = Callable[[], dt.datetime]
BATCH = 100


class EventHandler(Protocol):
    """Does something with one kind of event, inside the transaction that marks the event handled."""

    types: frozenset[str]  # the event types it is given ("follow", "unfollow", …)

    def handle(self, session: Session, event: ReceivedEvent, *, now: dt.datetime) -> None: ...


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def handle_pending(db: Database, handlers: Sequence[EventHandler], *, now: dt.datetime,
                   skip: set[int] | None = None) -> int:
    """Run the handlers on every unhandled event, oldest first; returns how many were handled.
    `skip` collects the rows a handler failed on, so the caller does not retry them at once."""
    skip = set() if skip is None else skip
    handled = 0
    while True:
        with db.read() as session:
            query = select(WebhookEvent).where(WebhookEvent.handled_at.is_(None))
            if skip:
                query = query.where(WebhookEvent.id.not_in(skip))
            rows = [(row.id, ReceivedEvent.from_row(row)) for row in
                    session.scalars(query.order_by(WebhookEvent.id).limit(BATCH))]
        if not rows:
            return handled
        for row_id, event in rows:
            try:
                with db.write() as session:
                    row = session.get(WebhookEvent, row_id)
                    if row is None or row.handled_at is not None:
                        continue  # another dispatcher got there first
                    for handler in handlers:
                        if event.type in handler.types:
                            handler.handle(session, event, now=now)
                    row.handled_at = now
                handled += 1
            except Exception:
                log.exception("handling webhook event %s (%s) failed", event.event_id, event.type)
                skip.add(row_id)


class Dispatcher:
    """A thread that runs the handlers whenever events were committed (and once at start, to catch up)."""

    def __init__(self, db: Database, handlers: Sequence[EventHandler], *, clock: Clock = _utc_now) -> None:
        self.db = db
        self.handlers = tuple(handlers)
        self.clock = clock
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._failed: set[int] = set()
        self._thread: threading.Thread | None = None
        self._unlisten: Callable[[], None] | None = None
        self._progress = threading.Condition()
        self.handled = 0

    def start(self) -> Dispatcher:
        self._unlisten = hooks.listen(hooks.WEBHOOK_EVENTS, self._wake.set)
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
        while True:
            self._wake.wait()
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                done = handle_pending(self.db, self.handlers, now=self.clock(), skip=self._failed)
            except Exception:  # the database went away for a moment: the next wake tries again
                log.exception("running the webhook handlers failed")
                done = 0
            with self._progress:
                self.handled += done
                self._progress.notify_all()

    def wait_handled(self, count: int, timeout: float) -> bool:
        """Block until at least `count` events were handled since start (for tests and the CLI)."""
        with self._progress:
            return self._progress.wait_for(lambda: self.handled >= count, timeout)
