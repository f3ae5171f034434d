"""A turn's claim: which channels can send now, how much each may take, and the claim itself.

`Connections` keeps each channel's connection while it can send. `Claimer` decides, per turn,
how many rows each connected channel may take (the pooled ones share the pool's room, a batch
channel takes its batch while none of it is in flight), checks the holds in the turn's own
transaction, claims, and renews the leases of what is still in flight.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from sqlalchemy.orm import Session

from core.channels import registry
from core.channels.base import ChannelDriver, Connection
from core.errors import ShiftcastError
from core.outbox import holds as channel_holds
from core.outbox import not_set_up
from core.outbox import queue as outbox
from core.sending.config import IN_FLIGHT_ROUNDS, SenderConfig
from core.texts import Text, t

log = logging.getLogger(__name__)
MARK_AGAIN_S = 30.0  # how often rows enqueued meanwhile are marked with an unchanged not-set-up reason


@dataclass(frozen=True)
class SetUpNews:
    missing: dict[str, Text]  # channel → why it cannot send
    joined: frozenset[str]  # channels that connected

    def __bool__(self) -> bool:
        return bool(self.missing or self.joined)

    def record(self, session: Session, now: dt.datetime) -> list[int]:
        """Say it on the channels' waiting rows; returns the rows that changed."""
        changed: list[int] = []
        for channel in sorted(self.joined):
            changed += not_set_up.clear(session, channel=channel, now=now)
        for channel, why in sorted(self.missing.items()):
            changed += not_set_up.mark(session, missing=why, now=now, channel=channel)
        return changed


class Connections:
    """Each channel's connection while it can send; the sender's parts share one of these."""

    def __init__(self, drivers: Mapping[str, ChannelDriver], sources: Mapping[str, registry.Source], *,
                 poll_interval: float) -> None:
        self._drivers = drivers
        self._sources = sources
        self._poll_interval = poll_interval
        self._open: dict[str, Connection] = {}
        self._look_again_at: dict[str, float] = {}  # monotonic time before which a channel not set up is not looked up
        self._problems: dict[str, str] = {}  # what keeps each channel from sending, as last logged
        # What the lookups found since the sender last took it: channels not set up (and why), and
        # channels that connected; the sender says so on their waiting rows (core/outbox/not_set_up.py).
        self._missing: dict[str, Text] = {}
        self._joined: set[str] = set()
        self._said: dict[str, tuple[Text, float]] = {}  # channel → the reason last reported, and when

    def connected(self) -> dict[str, Connection]:
        """Every channel that can send now, connected; a channel not set up is looked for again
        every poll interval, not every turn (most classrooms never set up e-mail)."""
        for channel, driver in self._drivers.items():
            if channel in self._open or time.monotonic() < self._look_again_at.get(channel, 0.0):
                continue
            connection: Connection | None = None
            why = t("sending.not_set_up", channel=driver.label)
            try:
                connection = self._sources[channel]()
            except Exception as exc:  # noqa: BLE001 - a missing token, password or keyring must not kill the loop
                self._log_problem(channel, driver.title, str(exc))
                detail = exc.text if isinstance(exc, ShiftcastError) else str(exc)
                why = t("sending.not_usable", channel=driver.label, detail=detail)
            else:
                self._log_problem(channel, driver.title, None, connected=connection is not None)
            if connection is None:
                self._look_again_at[channel] = time.monotonic() + self._poll_interval
                self._report_missing(channel, why)
            else:
                self._open[channel] = connection
                self._joined.add(channel)
                self._missing.pop(channel, None)
                self._said.pop(channel, None)
        return self.current()

    def _log_problem(self, channel: str, title: str, problem: str | None, *, connected: bool = False) -> None:
        """Log what keeps a channel from sending once, then only when it changes or ends: an idle
        sender looks again every poll interval, and the same line every few seconds buries the log."""
        if self._problems.get(channel) == problem:
            return
        if problem is not None:
            self._problems[channel] = problem
            log.warning("%s is not usable: %s", title, problem)
            return
        del self._problems[channel]
        log.info("%s is %s", title, "usable again" if connected else "no longer set up")

    def _report_missing(self, channel: str, why: Text) -> None:
        """A new reason at once; the same one again only now and then, for rows enqueued since: marking
        takes a write transaction, which an idle sender with nothing set up should not take every poll."""
        said = self._said.get(channel)
        if said is None or said[0] != why or time.monotonic() >= said[1] + MARK_AGAIN_S:
            self._missing[channel] = why
            self._said[channel] = (why, time.monotonic())
        self._joined.discard(channel)

    def take_news(self) -> SetUpNews:
        """What the lookups found since the last call (then forgotten until found again)."""
        news = SetUpNews(dict(self._missing), frozenset(self._joined))
        self._missing.clear()
        self._joined.clear()
        return news

    def put_back(self, news: SetUpNews) -> None:
        """A turn that was rolled back did not record `news`: the next one will."""
        for channel, why in news.missing.items():
            self._missing.setdefault(channel, why)
        self._joined |= news.joined - set(self._missing)

    def current(self) -> dict[str, Connection]:
        """The channels connected now, without looking for more."""
        return dict(self._open)

    def get(self, channel: str) -> Connection | None:
        return self._open.get(channel)

    def forget(self, channel: str) -> None:
        """Close it; the next turn reads the credentials again (only while none of its sends is in flight)."""
        if (connection := self._open.pop(channel, None)) is not None:
            connection.close()

    def close_all(self) -> None:
        for channel in list(self._open):
            self.forget(channel)


class Claimer:
    def __init__(self, drivers: Mapping[str, ChannelDriver], connections: Connections, config: SenderConfig,
                 owner: str) -> None:
        self._drivers = drivers
        self._connections = connections
        self._config = config
        self._owner = owner
        self._renew_at: dt.datetime | None = None  # when the leases of what is in flight are next extended
        self.ready: list[str] | None = None  # the channels the last turn could claim (None: any)

    def pooled(self, channel: str) -> bool:
        """Does this channel send one request per pool task (not one batch per turn)?"""
        return self._drivers[channel].batch is None

    def pool_room(self, pool_in_flight: int) -> int:
        # Several rounds of requests in flight let results gather into larger transactions; the
        # leases of those still waiting are renewed, so their depth never outlasts a lease.
        return self._config.concurrency * IN_FLIGHT_ROUNDS - pool_in_flight

    def wanted(self, connected: Mapping[str, Connection], *, room: int,
               busy: Callable[[str], bool]) -> dict[str, int]:
        """How many rows each connected channel may claim this turn (only those that may claim some)."""
        wanted: dict[str, int] = {}
        for channel in connected:
            batch = self._drivers[channel].batch
            count = room if batch is None else (0 if busy(channel) else batch)
            if count > 0:
                wanted[channel] = count
        return wanted

    def leases_to_renew(self, now: dt.datetime, in_flight: Callable[[], list[int]]) -> list[int]:
        """The deliveries in flight, a quarter of a lease after the last renewal (else none)."""
        if self._renew_at is None:
            self._renew_at = now + self._config.lease / 4
        if now < self._renew_at:
            return []
        self._renew_at = now + self._config.lease / 4
        return in_flight()

    def claim(self, session: Session, wanted: Mapping[str, int], now: dt.datetime, *, active: bool,
              busy: Callable[[str], bool]) -> tuple[list[int], bool]:
        """(claimed ids, was a hold lifted): claim for every wanted channel that is not held."""
        claimable: list[str] = []
        lifted_any = False
        for channel in wanted:
            held, lifted = self._held(session, channel)
            lifted_any |= lifted
            if not held:
                claimable.append(channel)
            elif not busy(channel):
                # Read the credentials again on the next turn: a corrected token or password saved
                # in Settings then lifts the hold in the running app, without a restart.
                self._connections.forget(channel)
        if active:
            self.ready = claimable
        lease, owner = self._config.lease, self._owner
        pooled = [channel for channel in claimable if self.pooled(channel)]
        # The pooled channels claim together: one limit, the earliest due first, whatever the channel.
        ids = outbox.claim(session, owner=owner, now=now, lease=lease, limit=max(wanted[c] for c in pooled),
                           channels=pooled) if pooled else []
        for channel in claimable:
            if not self.pooled(channel):
                ids += outbox.claim(session, owner=owner, now=now, lease=lease, limit=wanted[channel],
                                    channels=[channel])
        return ids, lifted_any

    def _held(self, session: Session, channel: str) -> tuple[bool, bool]:
        """(held, lifted): is the channel held for these credentials, and was a hold for older ones lifted now?

        Read inside the turn's own transaction rather than in a read scope of its own, which cost a
        second transaction per turn."""
        key = self._drivers[channel].hold_key
        connection = self._connections.get(channel)
        if key is None or connection is None or connection.fingerprint is None:
            return False, False
        return channel_holds.check(session, key, connection.fingerprint)
