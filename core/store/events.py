"""What changed, as typed events: a transaction emits them, listeners hear them once it commits.

Each `Database` owns one `Events` bus (`db.events`), so two databases open in one process never hear
each other. A transaction emits into its session (`events.emit(session, ShiftsChanged(...))`, which
needs only the session: the database's session factories carry its bus); the bus delivers after the commit and
drops them on a rollback, so nobody ever reacts to work that was undone. Several events of one type in
one transaction are merged into one (their ids joined). Each listener's failure is logged and the
others still run. `after_commit(session, action)` runs a plain action after the commit the same way
(a reply to LINE that must not precede a rollback).

Some events matter to other processes too (`topic` set): the transaction that emits one bumps that
topic's counter in the `changes` table as it commits (and signals it with NOTIFY on PostgreSQL), and
core/store/changes.py turns another process's bumps into the same event here, with a coarser payload
(None: "some").
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar

from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session, sessionmaker

log = logging.getLogger(__name__)
_PENDING = "shiftcast.events"  # session.info: the events this transaction emitted, by type
_ACTIONS = "shiftcast.after_commit"  # session.info: actions to run once it commits
_BUMPED = "shiftcast.bumped"  # session.info: (topic, value) of the counters it bumped, until it ends
T = TypeVar("T")
E = TypeVar("E")


def _joined(a: frozenset[T] | None, b: frozenset[T] | None) -> frozenset[T] | None:
    """Two payloads' ids together; None ("some") absorbs any list."""
    return None if a is None or b is None else a | b


class Event(Protocol):
    """What every event is. Made with no arguments, one means "some" (how another process's change is told)."""

    topic: ClassVar[str | None]  # its row in `changes` when other processes should hear it; None: this process only

    def merged(self, other: Self) -> Self: ...


@dataclass(frozen=True, slots=True)
class ShiftsChanged:
    """Shifts were added or changed in a way their messages depend on (a new version)."""

    topic: ClassVar[str | None] = "shifts"
    shift_ids: frozenset[int] | None = None  # None: some, not known which (another process's change)
    teacher_ids: frozenset[int] | None = None
    classroom_ids: frozenset[int] | None = None

    def merged(self, other: ShiftsChanged) -> ShiftsChanged:
        return ShiftsChanged(_joined(self.shift_ids, other.shift_ids), _joined(self.teacher_ids, other.teacher_ids),
                             _joined(self.classroom_ids, other.classroom_ids))


@dataclass(frozen=True, slots=True)
class DeliveriesEnqueued:
    """Deliveries were enqueued or made sendable again (a retry): a sender has work."""

    topic: ClassVar[str | None] = "deliveries"
    channels: frozenset[str] | None = None  # channel keys; None: some

    def merged(self, other: DeliveriesEnqueued) -> DeliveriesEnqueued:
        return DeliveriesEnqueued(_joined(self.channels, other.channels))


@dataclass(frozen=True, slots=True)
class DeliveriesAcknowledged:
    """Teachers tapped 了解 on these deliveries (screens mark them)."""

    topic: ClassVar[str | None] = "acknowledgements"
    delivery_ids: frozenset[int] | None = None  # None: some

    def merged(self, other: DeliveriesAcknowledged) -> DeliveriesAcknowledged:
        return DeliveriesAcknowledged(_joined(self.delivery_ids, other.delivery_ids))


@dataclass(frozen=True, slots=True)
class AvailabilityAnswered:
    """Teachers answered these availability requests (the Shifts grid and the Availability dialog show it)."""

    topic: ClassVar[str | None] = "availability"
    request_ids: frozenset[int] | None = None  # None: some

    def merged(self, other: AvailabilityAnswered) -> AvailabilityAnswered:
        return AvailabilityAnswered(_joined(self.request_ids, other.request_ids))


@dataclass(frozen=True, slots=True)
class WebhookEventsRecorded:
    """LINE webhook events were stored; their handlers run in the process that received them."""

    topic: ClassVar[str | None] = None
    count: int = 0

    def merged(self, other: WebhookEventsRecorded) -> WebhookEventsRecorded:
        return WebhookEventsRecorded(self.count + other.count)


@dataclass(frozen=True, slots=True)
class WebhookEventsHandled:
    """LINE webhook events were handled, by whichever receiver of this database took them: what they
    changed (a group joined, a teacher paired) can be read now (Connect LINE's group and teachers' steps)."""

    topic: ClassVar[str | None] = "webhook_events_handled"
    count: int = 0  # 0: some (another process's)

    def merged(self, other: WebhookEventsHandled) -> WebhookEventsHandled:
        return WebhookEventsHandled(self.count + other.count)


@dataclass(frozen=True, slots=True)
class CoverRequestsChanged:
    """Teachers' requests for cover changed: asked, a volunteer, the manager's answer (core/roster/cover.py)."""

    topic: ClassVar[str | None] = "cover_requests"
    request_ids: frozenset[int] | None = None  # None: some

    def merged(self, other: CoverRequestsChanged) -> CoverRequestsChanged:
        return CoverRequestsChanged(_joined(self.request_ids, other.request_ids))


EVENT_TYPES: tuple[type[Any], ...] = (ShiftsChanged, DeliveriesEnqueued, DeliveriesAcknowledged, AvailabilityAnswered,
                                      WebhookEventsRecorded, WebhookEventsHandled, CoverRequestsChanged)
TOPICS: dict[str, type[Any]] = {kind.topic: kind for kind in EVENT_TYPES if kind.topic is not None}
Bump = Callable[[Session, str], "int | None"]  # bumps a topic's counter in the transaction; the new value


def emit(session: Session, event: Event) -> None:
    """Announce `event` to the listeners of the session's database once this transaction commits."""
    pending: dict[type[Any], Any] = session.info.setdefault(_PENDING, {})
    earlier = pending.get(type(event))
    pending[type(event)] = event if earlier is None else earlier.merged(event)


def emitted(session: Session, kind: type[E]) -> E | None:
    """What this transaction emitted of `kind` so far (merged), if anything."""
    found: E | None = session.info.get(_PENDING, {}).get(kind)
    return found


def pending(session: Session) -> tuple[Any, ...]:
    """Everything this transaction emitted so far, one merged event per kind."""
    return tuple(session.info.get(_PENDING, {}).values())


def after_commit(session: Session, action: Callable[[], None]) -> None:
    """Run `action` once this transaction commits; never if it rolls back."""
    session.info.setdefault(_ACTIONS, []).append(action)


class Events:
    """One database's bus: typed listeners, and the events its sessions emit, delivered after commit."""

    def __init__(self) -> None:
        self._listeners: dict[type[Any], list[Callable[[Any], None]]] = {}
        self._lock = threading.Lock()
        # Counter values this process's own commits reached, per topic, kept only while a watcher
        # looks (it skips them and forgets what it checked): None until one does.
        self._own: dict[str, set[int]] | None = None
        self._bump: Bump | None = None

    def emit(self, session: Session, event: Event) -> None:
        emit(session, event)

    def after_commit(self, session: Session, action: Callable[[], None]) -> None:
        after_commit(session, action)

    def listen(self, kind: type[E], callback: Callable[[E], None]) -> Callable[[], None]:
        """Call `callback(event)` for every `kind` event committed; returns a function that stops it."""
        with self._lock:
            self._listeners.setdefault(kind, []).append(callback)

        def remove() -> None:
            with self._lock:
                callbacks = self._listeners.get(kind, [])
                if callback in callbacks:
                    callbacks.remove(callback)

        return remove

    def deliver(self, events: Iterable[Any]) -> None:
        """Call each event's listeners, each failure logged and kept from the rest."""
        for item in events:
            with self._lock:
                callbacks = list(self._listeners.get(type(item), []))
            for callback in callbacks:
                try:
                    callback(item)
                except Exception:
                    log.exception("a listener for %s failed", type(item).__name__)

    # ----- this process's own counter bumps (core/store/changes.py) -----

    def count_changes(self, bump: Bump) -> None:
        """From now on a commit that emits a cross-process event bumps its topic's counter with `bump`."""
        self._bump = bump

    def watched(self) -> None:
        """A watcher looks from now on: remember this process's own counter values for it."""
        with self._lock:
            if self._own is None:
                self._own = {}

    def own_bump(self, topic: str, value: int) -> None:
        with self._lock:
            if self._own is not None:
                self._own.setdefault(topic, set()).add(value)

    def foreign(self, topic: str, seen: int, current: int) -> bool:
        """Did anyone but this process bump `topic` from `seen` to `current`? Forgets what it checked."""
        with self._lock:
            own = self._own.get(topic, set()) if self._own is not None else set()
            others = any(value not in own for value in range(seen + 1, current + 1))
            if self._own is not None:
                self._own[topic] = {value for value in own if value > current}
        return others

    # ----- wiring into the database's sessions -----

    def attach(self, sessions: sessionmaker[Session]) -> None:
        """Deliver what the sessions `sessions` makes emit."""
        sa_event.listen(sessions, "before_commit", self._before_commit)
        sa_event.listen(sessions, "after_commit", self._after_commit)
        sa_event.listen(sessions, "after_rollback", self._after_rollback)

    def _before_commit(self, session: Session) -> None:
        bump = self._bump
        pending: dict[type[Any], Any] = session.info.get(_PENDING, {})
        if bump is None or not pending:
            return
        # Always in one order, so two transactions bumping the same topics on a server never wait for
        # each other's rows the other way round (a deadlock).
        for topic in sorted(kind.topic for kind in pending if kind.topic is not None):
            value = bump(session, topic)
            if value is not None:
                # Known as ours before the commit ends: the watcher may read the counter the moment
                # it is committed. Nobody else can commit this value while this transaction holds the
                # row, and a rollback takes it back.
                self.own_bump(topic, value)
                session.info.setdefault(_BUMPED, []).append((topic, value))

    def _after_commit(self, session: Session) -> None:
        session.info.pop(_BUMPED, None)
        pending = session.info.pop(_PENDING, {})
        actions = session.info.pop(_ACTIONS, [])
        self.deliver(pending.values())
        for action in actions:
            try:
                action()
            except Exception:
                log.exception("an action after commit failed")

    def _after_rollback(self, session: Session) -> None:
        for topic, value in session.info.pop(_BUMPED, []):
            with self._lock:
                if self._own is not None:
                    self._own.get(topic, set()).discard(value)
        for key in (_PENDING, _ACTIONS):
            session.info.pop(key, None)
