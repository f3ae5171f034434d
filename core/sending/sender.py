"""The background sender: claim → check → build → send → record, on a plain Python thread.

One loop thread owns the database work; a small pool of threads shares each channel's client for
the sends (on these 2-core machines a thread pool over one keep-alive client outruns an async
client). Each turn of the loop records every finished send and claims new work in ONE write
transaction, so throughput is not capped by one fsync per message. The retry key of each claimed
delivery that needs one is committed in that transaction, before its request leaves.

Every channel shares the loop through its driver (core/channels/base.py, registered in
core/channels/registry.py): a pooled channel (LINE pushes, webhook posts) gets one pool task per
request; a batch channel (e-mail) gets the turn's share as one task over one connection. Each
channel is claimed only while it is connected and not held, so one channel's trouble never stalls
another; nothing here knows which channel is which.

A turn's parts, each in its own module: claim (turn.py: connections, holds, how much each channel
may take, lease renewal), check and build (prepare.py), hand over (submit.py), record (record.py).
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import threading
from collections.abc import Callable, Mapping

from core.channels import registry
from core.outbox import queue as outbox
from core.sending import presence
from core.sending.config import IN_FLIGHT_ROUNDS, SenderConfig, SenderEvents, SenderStats
from core.sending.listener import OutboxListener
from core.sending.outgoing import Job
from core.sending.prepare import Preparer
from core.sending.presence import Presence
from core.sending.record import Recorder
from core.sending.submit import Submitter
from core.sending.turn import Claimer, Connections
from core.store import identity
from core.store.db import Database, is_postgresql, retryable
from core.store.models import DeliveryStatus, utcnow
from core.store.paths import DataPaths

__all__ = ["IN_FLIGHT_ROUNDS", "Sender", "SenderConfig", "SenderEvents", "SenderStats"]

log = logging.getLogger(__name__)
TURN_ATTEMPTS = 3  # a turn the database rolled back for a deadlock or serialization failure runs again


class Sender:
    def __init__(
        self,
        db: Database,
        *,
        paths: DataPaths,
        config: SenderConfig | None = None,
        clock: Callable[[], dt.datetime] = utcnow,
        rng: random.Random | None = None,
        events: SenderEvents | None = None,
        connect: Mapping[str, registry.Source | None] | None = None,
        machine: identity.Machine | None = None,
        app: str = "sender",
    ) -> None:
        self.db = db
        self.paths = paths  # the data folder: message templates and images are read from it
        self.clock = clock
        self.rng = rng or random.Random()
        self.events = events or SenderEvents()
        if config is None:
            with db.read() as session:
                config = SenderConfig.from_settings(session)
        self.config = config
        self.owner = outbox.new_lease_owner()
        self.stats = SenderStats()
        # What the turn in progress counted: added to `stats` once it commits, dropped if the
        # database rolled it back, so a turn run again for a deadlock is not counted twice.
        self._turn_stats = SenderStats()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.ready = threading.Event()  # the loop runs
        self._paused = False
        self._thread: threading.Thread | None = None
        drivers = dict(registry.DRIVERS)
        # Every registered channel connects as its driver says, unless `connect` says otherwise for
        # it (a test's own client; None: that channel does not send here).
        sources = registry.sources(db, connect)
        self._connections = Connections(drivers, sources, poll_interval=config.poll_interval)
        self._claimer = Claimer(drivers, self._connections, config, self.owner)
        self._preparer = Preparer(drivers, self.owner, self._turn_stats, paths)
        self._submitter = Submitter(drivers, concurrency=config.concurrency,
                                    time_budget=config.lease.total_seconds() / 2, wake=self._wake)
        # The computer it stamps into the database as it sends (core/store/identity.py): this one,
        # unless a test plays another.
        self._recorder = Recorder(drivers, self._connections, owner=self.owner, stats=self._turn_stats,
                                  events=self.events, rng=self.rng, backoff=config.backoff,
                                  machine=machine or identity.this_machine())
        self._remove_listener = outbox.on_enqueued(db, self.wake)
        # Who sends from where, for every sender sharing the database to see (core/sending/presence.py).
        self.presence = Presence(db, self.owner, home=str(paths.home), app=app)
        self.listener: OutboxListener | None = None  # other processes' enqueues, on PostgreSQL

    # ----- control -----

    def start(self) -> Sender:
        self._free_orphans()
        self.presence.start(self.clock(), is_alive=outbox.pid_alive)
        if is_postgresql(self.db.url):
            self.listener = OutboxListener(self.db.connect_url, self.wake).start()
        self._thread = threading.Thread(target=self._loop, name="shiftcast-sender", daemon=True)
        self._thread.start()
        return self

    def _free_orphans(self) -> None:
        """Give back at once what senders on this host that died still hold, rather than one lease later."""
        with self.db.write() as session:
            freed = outbox.release_orphans(session, now=self.clock(), is_alive=outbox.pid_alive)
        if freed:
            log.info("freed %d deliveries leased by a sender that is no longer running", freed)

    def wake(self) -> None:
        self._wake.set()

    def pause(self, paused: bool = True) -> None:
        self._paused = paused
        self.wake()

    @property
    def paused(self) -> bool:
        return self._paused

    def stop(self, timeout: float = 30.0) -> None:
        """Stop claiming, let in-flight sends finish and record them, release what never started."""
        self._stop.set()
        self.wake()
        if self._thread is not None:
            self._thread.join(timeout)
        if self.listener is not None:
            self.listener.stop()
        self._remove_listener()

    # ----- the loop -----

    def _loop(self) -> None:
        try:
            self.ready.set()
            while not self._stop.is_set():
                self._wake.clear()
                self._heartbeat()
                busy = self.turn()
                if not busy:
                    self._wake.wait(self._idle_wait())
                elif (self._submitter.queued_for_pool() * 2 >= max(self.config.concurrency, 2)
                      or self._submitter.batch_in_flight()):
                    # A batch reports one message at a time: gather a few per transaction too.
                    self._stop.wait(self.config.batch_window)
            self._shutdown()
        except Exception:
            log.exception("the sender stopped after an unexpected error")
            raise
        finally:
            self._submitter.shutdown()
            self._connections.close_all()

    def _heartbeat(self) -> None:
        now = self.clock()
        if not self.presence.due(now):
            return
        try:
            self.presence.beat(now)
        except Exception as exc:  # noqa: BLE001 - a missed heartbeat must not stop the sending; the next turn tries again
            log.warning("could not record this sender's heartbeat: %s", exc)

    def _idle_wait(self) -> float:
        if self._submitter.any_in_flight():
            return 0.05
        with self.db.read() as session:
            # Rows of a channel that cannot send now (no credentials, held) are due but not work:
            # waking for them would spin.
            due = outbox.next_due_at(session, self._claimer.ready)
        wait = self.config.poll_interval
        if due is not None:
            wait = min(wait, max((due - self.clock()).total_seconds(), 0.01))
        return wait

    def turn(self) -> bool:
        """Record finished sends and claim new work in one transaction. True if anything happened."""
        submitter, claimer = self._submitter, self._claimer
        finished = submitter.drain()
        submitter.forget_done()
        active = not (self._paused or self._stop.is_set())
        if not active:
            claimer.ready = []  # paused or stopping: nothing is work until woken
        connected = self._connections.connected() if active else {}
        news = self._connections.take_news()
        wanted = claimer.wanted(connected, room=claimer.pool_room(submitter.pool_in_flight()), busy=submitter.busy)
        now = self.clock()
        renew = claimer.leases_to_renew(now, submitter.in_flight_ids)
        if not finished and not wanted and not renew and not news:
            return False
        for attempt in range(1, TURN_ATTEMPTS + 1):
            changed: list[int] = []
            jobs: list[Job] = []
            hold_lifted = False
            try:
                with self.db.write() as session:
                    if news:
                        changed.extend(news.record(session, now))
                    if renew:
                        outbox.renew_leases(session, renew, owner=self.owner, now=now, lease=self.config.lease)
                    if finished:
                        changed.extend(job.delivery_id for job, _ in finished)
                        self._recorder.record(session, finished, now)
                    ids, hold_lifted = claimer.claim(session, wanted, now, active=active, busy=submitter.busy)
                    changed.extend(ids)
                    jobs = self._preparer.prepare(session, ids, now)
                break
            except BaseException as exc:
                self._recorder.discard()
                self._turn_stats.clear()
                # On a shared server another transaction (a manager's retry, another sender's
                # renewal) can still meet this one in a deadlock; the server rolled this one back
                # whole, so the same turn simply runs again with the same results.
                if attempt < TURN_ATTEMPTS and isinstance(exc, Exception) and retryable(exc):
                    log.info("the turn met a concurrent transaction (%s); running it again", exc.__class__.__name__)
                    continue
                self._connections.put_back(news)
                raise
        self._turn_stats.turns += 1
        self.stats.absorb(self._turn_stats)
        self._recorder.announce()
        if hold_lifted:
            self.events.emit_hold(None)
        submitter.submit(jobs, self._connections.current())
        if changed:
            self.events.emit_changed(changed)
        return bool(finished or jobs or changed)

    def run_until_idle(self, *, max_turns: int = 10_000) -> SenderStats:
        """Synchronous driving for tests and the CLI: loop until nothing is due or in flight.

        A dead sender's rows are freed first, as start() does: otherwise they are neither due nor
        in flight here, and a run after a crash would end without sending them."""
        self._free_orphans()
        for _ in range(max_turns):
            busy = self.turn()
            if not busy and self._submitter.idle():
                break
            if not busy:
                self._wake.wait(0.01)
                self._wake.clear()
        return self.stats

    def _shutdown(self) -> None:
        """Graceful stop: cancel sends not yet started (release their leases), record the rest."""
        not_started, running = self._submitter.cancel_unstarted()
        deadline = self.clock() + dt.timedelta(seconds=60)
        while any(not f.done() for f in running) and self.clock() < deadline:
            self._wake.wait(0.05)
            self._wake.clear()
        finished = self._submitter.drain()
        now = self.clock()
        self._turn_stats.clear()
        with self.db.write() as session:
            if finished:
                self._recorder.record(session, finished, now)
            for delivery_id in not_started:  # never sent, never counted (attempts count when recorded)
                outbox.transition(session, delivery_id, expected=[DeliveryStatus.PROCESSING], owner=self.owner,
                                  now=now, status=DeliveryStatus.QUEUED, next_attempt_at=now)
            # Whatever is still leased to it (a send that outlived the wait above) goes back now rather
            # than one lease later: another sender may take it at once, and its committed retry key
            # makes a resend of a request that did reach LINE come back as 409, not a second message.
            left = outbox.release_owned(session, owner=self.owner, now=now)
            if left:
                log.info("released %d deliveries still leased to this sender as it stopped", left)
            presence.stopped(session, self.owner, now=now)
        self.stats.absorb(self._turn_stats)  # counted as a turn's are: once the recording committed
        self._recorder.announce()
        self._submitter.clear()
