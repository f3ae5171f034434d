"""A turn's finished sends recorded: each result read by its channel's rules, decided by the outcome
policy, and applied to its row under the lease, with the holds, fallbacks and alerts it causes.

All attempts go in one INSERT and all sent rows in one UPDATE; retries, throttles and failures are
one guarded transition each. An attempt counts against the retry budget here, once its outcome is
known (or, after a timeout, it may have reached the channel), never when it is claimed: a sender
killed with the request in flight spends nothing, and the retry reuses the committed key, so LINE
answers 409 if the request had reached it. A row whose lease another sender took over is left to that sender.
Incidents opened here are announced only after the turn's transaction committed. A message
accepted on a channel lifts that channel's hold and clears the incidents its acceptance disproves
(core/alerts.py says which), so they never outlive their cause.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Mapping

from sqlalchemy.orm import Session

from core import alerts
from core.channels.base import ChannelDriver
from core.outbox import holds as channel_holds
from core.outbox import policy
from core.outbox import queue as outbox
from core.outbox.policy import BackoffPolicy, Decision, ErrorCode, Outcome, SendResult
from core.planning import fallback
from core.sending.config import SenderEvents, SenderStats
from core.sending.outgoing import Job
from core.sending.turn import Connections
from core.store import identity
from core.store.models import DeliveryStatus
from core.texts import Text
from core.texts.message import logged

log = logging.getLogger(__name__)

_PROCESSING = [DeliveryStatus.PROCESSING]


class Recorder:
    def __init__(self, drivers: Mapping[str, ChannelDriver], connections: Connections, *, owner: str,
                 stats: SenderStats, events: SenderEvents, rng: random.Random, backoff: BackoffPolicy,
                 machine: identity.Machine | None = None) -> None:
        self._drivers = drivers
        self._connections = connections
        self._owner = owner
        self._stats = stats
        self._events = events
        self._rng = rng
        self._backoff = backoff
        self._opened: list[tuple[str, Text]] = []  # incidents opened this turn, announced once it commits
        self._died = False  # a delivery was dead-lettered in the results being recorded
        self._released = False  # a hold was lifted by a send this turn, announced once it commits
        self._machine = machine  # this computer, stamped into the database as it sends (None: unknown)
        self._stamped_at: dt.datetime | None = None

    def record(self, session: Session, finished: list[tuple[Job, SendResult]], now: dt.datetime) -> None:
        """A turn's finished sends: every attempt in one INSERT, every sent row in one UPDATE."""
        decided = [(job, result, policy.decide(self._drivers[job.channel].classify(result),
                                               attempts_made=job.attempt_count, now=now, rng=self._rng,
                                               backoff=self._backoff)) for job, result in finished]
        outbox.record_attempts(session, [{
            "delivery_id": job.delivery_id, "number": job.attempt_number, "started_at": job.started_at,
            "duration_ms": result.duration_ms, "http_status": result.http_status, "request_id": result.request_id,
            "accepted_request_id": result.accepted_request_id, "retry_key": job.retry_key,
            "outcome": decision.outcome.value, "error_code": str(decision.code) if decision.code else None,
            "error_message": policy.stored_error(decision.message),
        } for job, result, decision in decided])
        ours = outbox.leased_by(session, (job.delivery_id for job, _, _ in decided), owner=self._owner)
        sent: list[outbox.Accepted] = []
        sent_on: set[str] = set()
        for job, result, decision in decided:
            if job.delivery_id not in ours:
                self._lost_lease(job, decision)
            elif decision.outcome is Outcome.SENT:
                # A 409 keeps the id of the earlier request LINE accepted.
                sent.append(outbox.Accepted(job.delivery_id, None if result.http_status == 409 else result.request_id,
                                            result.accepted_request_id, job.attempt_count))
                sent_on.add(job.channel)
            else:
                self._record_unsent(session, job, decision, now)
        if sent:
            applied = outbox.mark_sent(session, sent, owner=self._owner, now=now)
            self._stats.sent += applied
            if applied != len(sent):  # cannot happen while leased_by's lock holds; say so if it ever does
                log.error("%d of %d sent deliveries could not be recorded as sent", len(sent) - applied, len(sent))
            for channel in sorted(sent_on):
                self._accepted_on(session, channel, now)
            if applied:
                self._stamp(session, now)
        if self._died:  # after every result is in, so the incident counts all that died together
            self._died = False
            self.open_incident(session, alerts.dead_letters(alerts.dead_letter_count(session)), now)

    def _record_unsent(self, session: Session, job: Job, decision: Decision, now: dt.datetime) -> None:
        code = str(decision.code) if decision.code else None
        if decision.message is not None:  # English with its code, whatever language the manager reads
            log.info("delivery %s: %s (%s)", job.delivery_id, logged(decision.message), decision.outcome.value)
        if decision.outcome is Outcome.RETRY:
            applied = outbox.transition(session, job.delivery_id, expected=_PROCESSING, owner=self._owner, now=now,
                                        status=DeliveryStatus.QUEUED, next_attempt_at=decision.next_attempt_at,
                                        attempt_count=job.attempt_count, last_error_code=code, last_error_message=policy.stored_error(decision.message),
                                        last_error_at_recipient=decision.at_recipient)
            self._stats.retried += applied
        elif decision.outcome in (Outcome.THROTTLED, Outcome.HOLD):
            # The channel processed nothing: the attempt does not count against the retry budget.
            applied = outbox.transition(session, job.delivery_id, expected=_PROCESSING, owner=self._owner, now=now,
                                        status=DeliveryStatus.QUEUED, next_attempt_at=decision.next_attempt_at or now,
                                        last_error_code=code, last_error_message=policy.stored_error(decision.message),
                                        last_error_at_recipient=decision.at_recipient)
            self._stats.throttled += applied
            if decision.outcome is Outcome.HOLD:
                self._hold(session, job.channel, code or ErrorCode.AUTH_FAILED.value, now)
        else:
            dead = decision.outcome is Outcome.DEAD
            applied = outbox.transition(session, job.delivery_id, expected=_PROCESSING, owner=self._owner, now=now,
                                        status=DeliveryStatus.FAILED, attempt_count=job.attempt_count,
                                        last_error_code=code,
                                        last_error_message=policy.stored_error(decision.message),
                                        last_error_at_recipient=decision.at_recipient,
                                        dead_lettered_at=now if dead else None)
            self._stats.failed += applied
            self._died |= bool(applied and dead)
            if applied and decision.code == ErrorCode.QUOTA_EXHAUSTED:
                self.open_incident(session, alerts.quota_exhausted(), now)
            if applied:
                # In this transaction: a teacher with e-mail fallback is never left with neither.
                fallback.after_failure(session, job.delivery_id, code=code, at_recipient=decision.at_recipient,
                                       dead=dead, now=now)
        if not applied:
            self._lost_lease(job, decision)

    def _lost_lease(self, job: Job, decision: Decision) -> None:
        # Another sender took the row over after our lease expired; it owns the outcome now.
        self._stats.lost_leases += 1
        log.warning("lease on delivery %s was lost before its result (%s) was recorded",
                    job.delivery_id, decision.outcome.value)

    def _hold(self, session: Session, channel: str, code: str, now: dt.datetime) -> None:
        """Hold the channel whose credentials were refused, for exactly those credentials."""
        driver, connection = self._drivers[channel], self._connections.get(channel)
        if driver.hold_key is None or connection is None or connection.fingerprint is None:
            return
        if not channel_holds.hold(session, driver.hold_key, code=code, fingerprint=connection.fingerprint, now=now):
            return
        log.error("%s refused our credentials (%s); sending is held until they change", driver.title, code)
        self._events.emit_hold(code)
        self.open_incident(session, alerts.channel_held(channel, code), now)

    def _accepted_on(self, session: Session, channel: str, now: dt.datetime) -> None:
        """The channel accepted a message with its current credentials: whatever says otherwise is over."""
        key = self._drivers[channel].hold_key
        if key is not None and key.is_set(session):
            key.clear(session)
            self._released = True
        for alert in alerts.clear(session, alerts.disproved_by_send(channel), now=now):
            log.info("alert cleared: %s (%s accepted a message)", logged(alerts.title_of(alert)),
                     self._drivers[channel].title)

    def _stamp(self, session: Session, now: dt.datetime) -> None:
        """Say in the database that this computer sends from it (once a minute at most), and raise
        the alert if another computer did too lately: the data folder exists twice."""
        if self._machine is None or (self._stamped_at is not None and now - self._stamped_at < identity.STAMP_EVERY):
            return
        self._stamped_at = now
        identity.stamp(session, self._machine, now=now)
        others = alerts.other_computers(session, self._machine, now=now)
        if others:
            log.warning("this database was also sent from on %s at %s", others[0][0], others[0][1])
            self.open_incident(session, alerts.other_computer(others), now)

    # ----- incidents -----

    def open_incident(self, session: Session, condition: alerts.Condition, now: dt.datetime) -> None:
        """Once per incident, not per delivery: fifty dead letters of one outage are one alert."""
        if alerts.open_incident(session, condition, now=now) is not None:
            self._opened.append((condition.code, condition.title))

    def announce(self) -> None:
        """After the turn committed: tell the listeners about the incidents it opened."""
        opened, self._opened = self._opened, []
        released, self._released = self._released, False
        if released:
            self._events.emit_hold(None)
        for code, title in opened:
            self._events.emit_alert(code, title)

    def discard(self) -> None:
        """The turn rolled back: the incidents it opened never were."""
        self._opened.clear()
        self._released = False
