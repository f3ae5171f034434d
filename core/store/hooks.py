"""After-commit notifications: a transaction marks what it changed; listeners run once it commits.

Used so the sender wakes when something was enqueued, and planning runs after a shift edit, without
core modules calling each other and without ever reacting to work that was rolled back.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from sqlalchemy import event
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)
ENQUEUED = "outbox_enqueued"
SHIFTS_CHANGED = "shifts_changed"
WEBHOOK_EVENTS = "webhook_events"  # LINE webhook events were recorded; their handlers run after commit
ACKNOWLEDGED = "deliveries_acknowledged"  # a teacher's 了解 tap marked a delivery (screens show it)
TOPICS = (ENQUEUED, SHIFTS_CHANGED, WEBHOOK_EVENTS, ACKNOWLEDGED)

_listeners: dict[str, list[Callable[[], None]]] = {}
_lock = threading.Lock()


def mark(session: Session, topic: str) -> None:
    session.info[topic] = True


def listen(topic: str, callback: Callable[[], None]) -> Callable[[], None]:
    """Register `callback`; returns a function that unregisters it."""
    with _lock:
        _listeners.setdefault(topic, []).append(callback)

    def remove() -> None:
        with _lock:
            if callback in _listeners.get(topic, []):
                _listeners[topic].remove(callback)

    return remove


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    fired = [topic for topic in list(session.info) if topic in TOPICS and session.info.pop(topic)]
    for topic in fired:
        with _lock:
            callbacks = list(_listeners.get(topic, []))
        for callback in callbacks:
            try:
                callback()
            except Exception:
                log.exception("after-commit listener for %s failed", topic)


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    for topic in TOPICS:
        session.info.pop(topic, None)
