"""The background sender: claim → check → build → send → record, on a plain Python thread.

One loop thread owns the database work; a small pool of threads shares one HTTP client for the
sends (on these 2-core machines a thread pool over one keep-alive client outruns an async client).
Each turn of the loop records every finished send and claims new work in ONE write transaction, so
throughput is not capped by one fsync per message. The retry key of each claimed LINE delivery is
committed in that transaction, before its request leaves.

Every channel shares the loop through its driver (core/channels/base.py, registered in
core/channels/registry.py): a pooled channel (LINE pushes, webhook posts) gets one pool task per
request; a batch channel (e-mail) gets the turn's share as one task over one connection. Each
channel is claimed only while it is connected and not held, so one channel's trouble never stalls
another; nothing here knows which channel is which.
"""

from __future__ import annotations

import datetime as dt
import logging
import queue
import random
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from core import alerts
from core.channels import registry
from core.channels.base import ChannelDriver, Connection
from core.channels.email import SmtpAccess
from core.channels.line import LineAccess
from core.outbox import holds as channel_holds
from core.outbox import policy
from core.outbox import queue as outbox
from core.outbox.policy import ErrorCode, Outcome, SendResult
from core.planning import fallback
from core.sending import builders, reminder_batch
from core.sending.config import IN_FLIGHT_ROUNDS, SenderConfig, SenderEvents, SenderStats
from core.sending.outgoing import CancelDelivery, CannotBuild, Job
from core.store.db import Database
from core.store.models import (
    Channel,
    Delivery,
    DeliveryAttempt,
    DeliveryStatus,
    Shift,
    utcnow,
)

__all__ = ["IN_FLIGHT_ROUNDS", "Sender", "SenderConfig", "SenderEvents", "SenderStats"]

log = logging.getLogger(__name__)


# reminder_batch's lean path reads LINE reminders only: its jobs are LINE's.
LEAN_CHANNEL = Channel.LINE


# Everything a batch of claimed deliveries needs, in one statement built once: each delivery with
# its shift (whose teacher and classroom the mapping joins in) for the builders, and the number of
# its last attempt.
_LAST_ATTEMPT = (select(func.max(DeliveryAttempt.number)).where(DeliveryAttempt.delivery_id == Delivery.id)
                 .correlate(Delivery).scalar_subquery())
_CLAIMED = (select(Delivery, Shift, _LAST_ATTEMPT).outerjoin(Shift, Shift.id == Delivery.shift_id)
            .where(Delivery.id.in_(bindparam("ids", expanding=True))).execution_options(populate_existing=True))


class Sender:
    def __init__(
        self,
        db: Database,
        line_access: Callable[[], LineAccess | None],
        *,
        config: SenderConfig | None = None,
        clock: Callable[[], dt.datetime] = utcnow,
        rng: random.Random | None = None,
        events: SenderEvents | None = None,
        email_access: Callable[[], SmtpAccess | None] | None = None,
        connect: Mapping[Channel, registry.Source] | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.rng = rng or random.Random()
        self.events = events or SenderEvents()
        if config is None:
            with db.read() as session:
                config = SenderConfig.from_settings(session)
        self.config = config
        self.owner = outbox.new_lease_owner()
        self.stats = SenderStats()
        self._drivers: dict[Channel, ChannelDriver] = dict(registry.DRIVERS)
        # The two access callables are what callers have always passed (no e-mail unless given);
        # every other channel connects as its driver says, unless `connect` says otherwise for it.
        self._sources = registry.sources(db, line=line_access, email=email_access) | dict(connect or {})
        self._connections: dict[Channel, Connection] = {}
        self._look_again_at: dict[Channel, float] = {}  # monotonic time before which a channel not set up is not looked up
        self._results: queue.SimpleQueue[tuple[Job, SendResult]] = queue.SimpleQueue()
        # Per channel, the sends handed to a pool task and not yet answered; a batch's ids share its one future.
        self._inflight: dict[Channel, dict[int, Future[None]]] = {channel: {} for channel in self._drivers}
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.ready = threading.Event()  # the loop runs
        self._paused = False
        self._thread: threading.Thread | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._renew_at: dt.datetime | None = None  # when the leases of what is in flight are next extended
        self._ready: list[Channel] | None = None  # the channels the last turn could claim (None: any)
        self._opened: list[tuple[str, str]] = []  # incidents opened this turn, announced once it commits
        self._died = False  # a delivery was dead-lettered in the results being recorded
        self._remove_listener = outbox.on_enqueued(self.wake)

    # ----- control -----

    def start(self) -> Sender:
        with self.db.write() as session:
            freed = outbox.release_orphans(session, now=self.clock(), is_alive=outbox.pid_alive)
        if freed:
            log.info("freed %d deliveries leased by a sender that is no longer running", freed)
        self._thread = threading.Thread(target=self._loop, name="shiftcast-sender", daemon=True)
        self._thread.start()
        return self

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
        self._remove_listener()

    # ----- the loop -----

    def _loop(self) -> None:
        try:
            self.ready.set()
            while not self._stop.is_set():
                self._wake.clear()
                busy = self.turn()
                if not busy:
                    self._wake.wait(self._idle_wait())
                elif self._queued_for_pool() * 2 >= max(self.config.concurrency, 2) or self._batch_in_flight():
                    # A batch reports one message at a time: gather a few per transaction too.
                    self._stop.wait(self.config.batch_window)
            self._shutdown()
        except Exception:
            log.exception("the sender stopped after an unexpected error")
            raise
        finally:
            if self._pool is not None:
                self._pool.shutdown(wait=True, cancel_futures=True)
            for connection in self._connections.values():
                connection.close()
            self._connections.clear()

    def _pooled(self, channel: Channel) -> bool:
        """Does this channel send one request per pool task (not one batch per turn)?"""
        return self._drivers[channel].batch is None

    def _pool_in_flight(self) -> int:
        """One-request sends handed to a pool task, not yet answered."""
        return sum(len(sends) for channel, sends in self._inflight.items() if self._pooled(channel))

    def _batch_in_flight(self) -> bool:
        return any(sends for channel, sends in self._inflight.items() if not self._pooled(channel))

    def _queued_for_pool(self) -> int:
        """Sends claimed but still waiting for a free pool thread (right after a turn)."""
        return max(self._pool_in_flight() - self.config.concurrency, 0)

    def _in_flight_ids(self) -> list[int]:
        return [delivery_id for sends in self._inflight.values() for delivery_id in sends.copy()]

    def _leases_to_renew(self, now: dt.datetime) -> list[int]:
        """The deliveries in flight, a quarter of a lease after the last renewal (else none)."""
        if self._renew_at is None:
            self._renew_at = now + self.config.lease / 4
        if now < self._renew_at:
            return []
        self._renew_at = now + self.config.lease / 4
        return self._in_flight_ids()

    def _idle_wait(self) -> float:
        if any(self._inflight.values()):
            return 0.05
        with self.db.read() as session:
            # Rows of a channel that cannot send now (no credentials, held) are due but not work:
            # waking for them would spin.
            due = outbox.next_due_at(session, self._ready)
        wait = self.config.poll_interval
        if due is not None:
            wait = min(wait, max((due - self.clock()).total_seconds(), 0.01))
        return wait

    def turn(self) -> bool:
        """Record finished sends and claim new work in one transaction. True if anything happened."""
        finished = self._drain()
        self._forget_done()
        active = not (self._paused or self._stop.is_set())
        if not active:
            self._ready = []  # paused or stopping: nothing is work until woken
        connected = self._connected() if active else {}
        # The one-request channels share the pool. Several rounds of requests in flight let results
        # gather into larger transactions; the leases of those still waiting are renewed below, so
        # their depth never outlasts a lease. A batch channel claims its batch while none is in flight.
        room = self.config.concurrency * IN_FLIGHT_ROUNDS - self._pool_in_flight()
        wanted: dict[Channel, int] = {}
        for channel in connected:
            batch = self._drivers[channel].batch
            wanted[channel] = room if batch is None else (0 if self._inflight[channel] else batch)
        wanted = {channel: n for channel, n in wanted.items() if n > 0}
        now = self.clock()
        renew = self._leases_to_renew(now)
        if not finished and not wanted and not renew:
            return False
        changed: list[int] = []
        jobs: list[Job] = []
        hold_lifted = False
        try:
            with self.db.write() as session:
                if renew:
                    outbox.renew_leases(session, renew, owner=self.owner, now=now, lease=self.config.lease)
                if finished:
                    changed.extend(job.delivery_id for job, _ in finished)
                    self._record(session, finished, now)
                claimable: list[Channel] = []
                for channel in wanted:
                    held, lifted = self._held(session, channel, connected[channel])
                    hold_lifted |= lifted
                    if held:
                        self._forget_when_idle(channel)
                    else:
                        claimable.append(channel)
                if active:
                    self._ready = claimable
                pooled = [channel for channel in claimable if self._pooled(channel)]
                ids = outbox.claim(session, owner=self.owner, now=now, lease=self.config.lease, limit=room,
                                   channels=pooled) if pooled else []
                for channel in claimable:
                    if not self._pooled(channel):
                        ids += outbox.claim(session, owner=self.owner, now=now, lease=self.config.lease,
                                            limit=wanted[channel], channels=[channel])
                changed.extend(ids)
                jobs = self._prepare(session, ids, now)
        except BaseException:
            self._opened.clear()  # rolled back: those incidents were never opened
            raise
        self.stats.turns += 1
        self._announce_incidents()
        if hold_lifted:
            self.events.emit_hold(None)
        self._submit(jobs)
        if changed:
            self.events.emit_changed(changed)
        return bool(finished or jobs or changed)

    def run_until_idle(self, *, max_turns: int = 10_000) -> SenderStats:
        """Synchronous driving for tests and the CLI: loop until nothing is due or in flight."""
        for _ in range(max_turns):
            busy = self.turn()
            if not busy and not any(self._inflight.values()) and self._results.empty():
                break
            if not busy:
                self._wake.wait(0.01)
                self._wake.clear()
        return self.stats

    # ----- steps -----

    def _connected(self) -> dict[Channel, Connection]:
        """Every channel that can send now, connected; a channel not set up is looked for again
        every poll interval, not every turn (most classrooms never set up e-mail)."""
        for channel, driver in self._drivers.items():
            if channel in self._connections or time.monotonic() < self._look_again_at.get(channel, 0.0):
                continue
            connection: Connection | None = None
            try:
                connection = self._sources[channel]()
            except Exception as exc:  # noqa: BLE001 - a missing token, password or keyring must not kill the loop
                log.warning("%s is not usable: %s", driver.title, exc)
            if connection is None:
                self._look_again_at[channel] = time.monotonic() + self.config.poll_interval
            else:
                self._connections[channel] = connection
        return dict(self._connections)

    def _forget_when_idle(self, channel: Channel) -> None:
        """While held, read the credentials again on the next turn: a corrected token or password
        saved in Settings then lifts the hold in the running app, without a restart."""
        if not self._inflight[channel] and (connection := self._connections.pop(channel, None)) is not None:
            connection.close()

    def _held(self, session: Session, channel: Channel, connection: Connection) -> tuple[bool, bool]:
        """(held, lifted): is the channel held for these credentials, and was a hold for older ones lifted now?

        Read inside the turn's own transaction rather than in a read scope of its own, which cost a
        second transaction per turn."""
        key = self._drivers[channel].hold_key
        if key is None or connection.fingerprint is None:
            return False, False
        return channel_holds.check(session, key, connection.fingerprint)

    def _prepare(self, session: Session, ids: list[int], now: dt.datetime) -> list[Job]:
        """Check and build the claimed deliveries with a few queries for the whole batch, not per delivery."""
        if not ids:
            return []
        jobs: list[Job] = []
        starts: list[outbox.AttemptStart] = []
        # Reminders that pass every check come from one lean query; everything else (other kinds,
        # and reminders with a reason not to go as planned) through the ORM and presend's builders.
        ready = reminder_batch.load(session, ids, now)
        keyed = self._drivers[LEAN_CHANNEL].retry_keys if ready else False
        for r in ready.values():
            started = self._attempt_start(r.delivery_id, r.attempt_count, r.retry_key, r.retry_key_issued_at,
                                          r.first_attempt_at, r.due_at, r.late_seconds, keyed=keyed, now=now)
            jobs.append(Job(r.delivery_id, r.attempt_number, started.retry_key, r.outgoing, now, started.attempt_count,
                            channel=LEAN_CHANNEL))
            starts.append(started)
        rest = [i for i in ids if i not in ready]
        if rest:
            # `rows` also keeps the shifts alive: the identity map holds objects weakly, and the
            # builders must find them there when they call session.get().
            rows = session.execute(_CLAIMED, {"ids": rest}).all()
            for delivery, _, last in rows:
                prepared = self._prepare_one(session, delivery, now, (last or 0) + 1)
                if prepared is not None:
                    jobs.append(prepared[0])
                    starts.append(prepared[1])
            session.flush()  # whatever a builder changed (a publication's hosted image keys)
            # Nothing reads these objects again; dropped now, they leave the (weak) identity map.
            del rows
        # Retry keys and attempt counts of the whole batch in one executemany; they commit with the
        # claim, before any request leaves.
        outbox.start_attempts(session, starts, owner=self.owner, now=now)
        return jobs

    def _prepare_one(self, session: Session, delivery: Delivery, now: dt.datetime,
                     number: int) -> tuple[Job, outbox.AttemptStart] | None:
        """The job to send and the columns its delivery row gets, or None if it was finished here."""
        channel = Channel(delivery.channel)
        keyed = self._drivers[channel].retry_keys
        if keyed and delivery.retry_key is not None and not policy.retry_key_usable(delivery.retry_key_issued_at, now):
            self._finish(session, delivery, now, DeliveryStatus.FAILED, ErrorCode.RETRY_KEY_EXPIRED.value,
                         "the retry key is older than 24 hours, so LINE could no longer recognise a duplicate; "
                         "whether the last attempt arrived is unknown", dead=True)
            return None
        try:
            outgoing = builders.prepare(session, delivery, now)
        except CancelDelivery as cancel:
            self._finish(session, delivery, now, DeliveryStatus.CANCELED, None, None, reason=cancel.reason)
            return None
        except CannotBuild as problem:
            self._finish(session, delivery, now, DeliveryStatus.FAILED, problem.code, str(problem))
            return None
        started = self._attempt_start(delivery.id, delivery.attempt_count, delivery.retry_key,
                                      delivery.retry_key_issued_at, delivery.first_attempt_at, delivery.due_at,
                                      delivery.late_seconds, keyed=keyed, now=now)
        return Job(delivery.id, number, started.retry_key, outgoing, now, started.attempt_count,
                   channel=channel), started

    def _attempt_start(self, delivery_id: int, attempt_count: int, retry_key: str | None,
                       issued_at: dt.datetime | None, first_at: dt.datetime | None, due_at: dt.datetime | None,
                       late_seconds: int | None, *, keyed: bool, now: dt.datetime) -> outbox.AttemptStart:
        """The row's columns as this attempt leaves: the first attempt on a channel with retry keys
        issues its key; the first attempt of any delivery records how late it went out."""
        if retry_key is None and keyed:
            retry_key, issued_at = self._new_uuid(), now
        if first_at is None:
            first_at = now
            if due_at is not None:
                late_seconds = max(0, int((now - due_at).total_seconds()))
        return outbox.AttemptStart(delivery_id, attempt_count + 1, retry_key, issued_at, first_at, late_seconds)

    @staticmethod
    def _new_uuid() -> str:
        # Always from the OS's randomness, never a seeded generator: two senders must never collide.
        return str(uuid.uuid4())

    def _finish(self, session: Session, delivery: Delivery, now: dt.datetime, status: DeliveryStatus,
                code: str | None, message: str | None, *, reason: str | None = None, dead: bool = False) -> None:
        applied = outbox.transition(
            session, delivery.id, expected=[DeliveryStatus.PROCESSING], owner=self.owner, now=now,
            status=status, last_error_code=code, last_error_message=message, cancel_reason=reason,
            dead_lettered_at=now if dead else None,
        )
        if applied:
            if status is DeliveryStatus.CANCELED:
                self.stats.canceled += 1
            else:
                self.stats.failed += 1

    def _submit(self, jobs: list[Job]) -> None:
        """Hand a turn's jobs to their channels: a pool task per request, or per batch."""
        by_channel: dict[Channel, list[Job]] = {}
        for job in jobs:
            by_channel.setdefault(job.channel, []).append(job)
        # Half the lease for a batch: what is not sent by then goes back untried, well before the
        # rows could be claimed again (by this sender too) while still waiting in the batch.
        budget = self.config.lease.total_seconds() / 2
        for channel, mine in by_channel.items():
            connection = self._connections[channel]  # claimed only while connected
            tasks = [[job] for job in mine] if self._pooled(channel) else [mine]
            for task in tasks:
                future = self._thread_pool().submit(self._send, channel, connection, task, budget)
                for job in task:
                    self._inflight[channel][job.delivery_id] = future

    def _thread_pool(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.config.concurrency, thread_name_prefix="shiftcast-send")
        return self._pool

    def _report(self, job: Job, result: SendResult) -> None:
        self._results.put((job, result))
        self._wake.set()

    def _send(self, channel: Channel, connection: Connection, jobs: list[Job], budget: float) -> None:
        """On a pool thread: every job gets exactly one result, also when the channel raises."""
        reported: set[int] = set()

        def report(job: Job, result: SendResult) -> None:
            reported.add(job.delivery_id)
            self._report(job, result)

        try:
            connection.send(jobs, report, time_budget=budget)
        except Exception as exc:
            log.exception("%s send of %d deliveries raised", self._drivers[channel].title, len(jobs))
            for job in jobs:
                if job.delivery_id not in reported:
                    self._report(job, SendResult(channel=channel, transport_error=policy.Transport.CONNECTION,
                                                 message=str(exc)[:300]))

    def _drain(self) -> list[tuple[Job, SendResult]]:
        out = []
        while True:
            try:
                out.append(self._results.get_nowait())
            except queue.Empty:
                return out

    def _forget_done(self) -> None:
        for inflight in self._inflight.values():
            for delivery_id in [i for i, f in inflight.items() if f.done()]:
                future = inflight.pop(delivery_id)
                if not future.cancelled() and future.exception() is not None:
                    log.error("send task for delivery %s failed: %s", delivery_id, future.exception())

    def _record(self, session: Session, finished: list[tuple[Job, SendResult]], now: dt.datetime) -> None:
        """A turn's finished sends: every attempt in one INSERT, every sent row in one UPDATE."""
        decided = [(job, result, policy.decide(self._drivers[job.channel].classify(result),
                                               attempts_made=job.attempt_count, now=now, rng=self.rng,
                                               backoff=self.config.backoff)) for job, result in finished]
        outbox.record_attempts(session, [{
            "delivery_id": job.delivery_id, "number": job.attempt_number, "started_at": job.started_at,
            "duration_ms": result.duration_ms, "http_status": result.http_status, "request_id": result.request_id,
            "accepted_request_id": result.accepted_request_id, "retry_key": job.retry_key,
            "outcome": decision.outcome.value, "error_code": decision.code.value if decision.code else None,
            "error_message": decision.message,
        } for job, result, decision in decided])
        ours = outbox.leased_by(session, (job.delivery_id for job, _, _ in decided), owner=self.owner)
        sent: list[outbox.Accepted] = []
        for job, result, decision in decided:
            if job.delivery_id not in ours:
                self._lost_lease(job, decision)
            elif decision.outcome is Outcome.SENT:
                # A 409 keeps the id of the earlier request LINE accepted.
                sent.append(outbox.Accepted(job.delivery_id, None if result.http_status == 409 else result.request_id,
                                            result.accepted_request_id))
            else:
                self._record_unsent(session, job, decision, now)
        if sent:
            applied = outbox.mark_sent(session, sent, owner=self.owner, now=now)
            self.stats.sent += applied
            if applied != len(sent):  # cannot happen while leased_by's lock holds; say so if it ever does
                log.error("%d of %d sent deliveries could not be recorded as sent", len(sent) - applied, len(sent))
        if self._died:  # after every result is in, so the incident counts all that died together
            self._died = False
            self._open_incident(session, alerts.dead_letters(alerts.dead_letter_count(session)), now)

    def _record_unsent(self, session: Session, job: Job, decision: policy.Decision, now: dt.datetime) -> None:
        guard = {"expected": [DeliveryStatus.PROCESSING], "owner": self.owner, "now": now}
        code = decision.code.value if decision.code else None
        if decision.outcome is Outcome.RETRY:
            applied = outbox.transition(session, job.delivery_id, **guard, status=DeliveryStatus.QUEUED,
                                        next_attempt_at=decision.next_attempt_at, last_error_code=code,
                                        last_error_message=decision.message)
            self.stats.retried += applied
        elif decision.outcome in (Outcome.THROTTLED, Outcome.HOLD):
            # The channel processed nothing: the attempt does not count against the retry budget.
            applied = outbox.transition(session, job.delivery_id, **guard, status=DeliveryStatus.QUEUED,
                                        next_attempt_at=decision.next_attempt_at or now,
                                        attempt_count=max(job.attempt_count - 1, 0),
                                        last_error_code=code, last_error_message=decision.message)
            self.stats.throttled += applied
            if decision.outcome is Outcome.HOLD:
                self._hold(session, job.channel, code or "AUTH_FAILED", now)
        else:
            dead = decision.outcome is Outcome.DEAD
            applied = outbox.transition(session, job.delivery_id, **guard, status=DeliveryStatus.FAILED,
                                        last_error_code=code, last_error_message=decision.message,
                                        dead_lettered_at=now if dead else None)
            self.stats.failed += applied
            self._died |= bool(applied and dead)
            if applied and decision.code is ErrorCode.QUOTA_EXHAUSTED:
                self._open_incident(session, alerts.quota_exhausted(), now)
            if applied:
                # In this transaction: a teacher with e-mail fallback is never left with neither.
                fallback.after_failure(session, job.delivery_id, code=code, message=decision.message, dead=dead,
                                       now=now)
        if not applied:
            self._lost_lease(job, decision)

    def _lost_lease(self, job: Job, decision: policy.Decision) -> None:
        # Another sender took the row over after our lease expired; it owns the outcome now.
        self.stats.lost_leases += 1
        log.warning("lease on delivery %s was lost before its result (%s) was recorded",
                    job.delivery_id, decision.outcome.value)

    def _hold(self, session: Session, channel: Channel, code: str, now: dt.datetime) -> None:
        """Hold the channel whose credentials were refused, for exactly those credentials."""
        driver, connection = self._drivers[channel], self._connections.get(channel)
        if driver.hold_key is None or connection is None or connection.fingerprint is None:
            return
        if not channel_holds.hold(session, driver.hold_key, code=code, fingerprint=connection.fingerprint, now=now):
            return
        log.error("%s refused our credentials (%s); sending is held until they change", driver.title, code)
        self.events.emit_hold(code)
        self._open_incident(session, alerts.channel_held(channel.value, code), now)

    def _open_incident(self, session: Session, condition: alerts.Condition, now: dt.datetime) -> None:
        """Once per incident, not per delivery: fifty dead letters of one outage are one alert."""
        if alerts.open_incident(session, condition, now=now) is not None:
            self._opened.append((condition.code, condition.title))

    def _announce_incidents(self) -> None:
        opened, self._opened = self._opened, []
        for code, title in opened:
            self.events.emit_alert(code, title)

    def _shutdown(self) -> None:
        """Graceful stop: cancel sends not yet started (release their leases), record the rest."""
        inflight = {i: f for sends in self._inflight.values() for i, f in sends.items()}
        not_started = [i for i, f in inflight.items() if f.cancel()]
        deadline = self.clock() + dt.timedelta(seconds=60)
        while any(not f.done() for f in inflight.values()) and self.clock() < deadline:
            self._wake.wait(0.05)
            self._wake.clear()
        finished = self._drain()
        now = self.clock()
        with self.db.write() as session:
            if finished:
                self._record(session, finished, now)
            for delivery_id in not_started:
                delivery = session.get(Delivery, delivery_id)
                outbox.transition(session, delivery_id, expected=[DeliveryStatus.PROCESSING], owner=self.owner,
                                  now=now, status=DeliveryStatus.QUEUED, next_attempt_at=now,
                                  attempt_count=max((delivery.attempt_count if delivery else 1) - 1, 0))
        self._announce_incidents()
        for sends in self._inflight.values():
            sends.clear()
