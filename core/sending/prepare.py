"""A turn's claimed deliveries checked and built at send time, in the claim's own transaction.

Each becomes a `Job`, or is canceled or failed here with its reason. A channel whose driver has
retry keys gets its key on the first attempt; every key of the batch is written in one executemany
before the transaction commits, so no request ever leaves with a key that is not on disk. The
attempt itself counts only when its outcome is recorded (core/sending/record.py): a sender that dies
with the request in flight has not spent the delivery's retry budget. Keys are derived from the
database's identity and what is sent — the delivery's dedup key, the uid of the shift or publication
it is about, its recipient and key generation, never its id (core/store/identity.py) — so a copy of
the data folder sending the same message presents the same key, whichever row it planned it in,
and two copies that each made a new shift under the same id do not. Reminders that pass every
check come from one lean query (core/sending/reminder_batch.py), everything else through the ORM
and core/sending/builders.prepare.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from core.channels.base import ChannelDriver, Outgoing
from core.outbox import policy
from core.outbox import queue as outbox
from core.outbox.policy import ErrorCode
from core.sending import builders, reminder_batch
from core.sending.config import SenderStats
from core.sending.outgoing import CancelDelivery, CannotBuild, Job
from core.store import identity
from core.store.models import Delivery, DeliveryAttempt, DeliveryStatus, Publication, Shift, SubjectType
from core.store.paths import DataPaths
from core.texts import Text, t
from core.texts.message import logged

log = logging.getLogger(__name__)

# reminder_batch's lean path reads LINE reminders only: its jobs are LINE's.
LEAN_CHANNEL = reminder_batch.LEAN

# Everything a batch of claimed deliveries needs, in one statement built once: each delivery with
# its shift (whose teacher and classroom the mapping joins in) for the builders, the uid of the row
# it is about (its shift or its publication) for its retry key, and the number of its last attempt.
_LAST_ATTEMPT = (select(func.max(DeliveryAttempt.number)).where(DeliveryAttempt.delivery_id == Delivery.id)
                 .correlate(Delivery).scalar_subquery())
_CLAIMED = (select(Delivery, Shift, func.coalesce(Shift.uid, Publication.uid), _LAST_ATTEMPT)
            .outerjoin(Shift, Delivery.about(SubjectType.SHIFT, Shift.id))
            .outerjoin(Publication, Delivery.about(SubjectType.PUBLICATION, Publication.id))
            .where(Delivery.id.in_(bindparam("ids", expanding=True))).execution_options(populate_existing=True))


class Preparer:
    def __init__(self, drivers: Mapping[str, ChannelDriver], owner: str, stats: SenderStats,
                 paths: DataPaths) -> None:
        self._drivers = drivers
        self._paths = paths
        self._owner = owner
        self._stats = stats
        self._database: str | None = None  # the database's identity, read once

    def prepare(self, session: Session, ids: list[int], now: dt.datetime) -> list[Job]:
        """Check and build the claimed deliveries with a few queries for the whole batch, not per delivery."""
        if not ids:
            return []
        jobs: list[Job] = []
        starts: list[outbox.AttemptStart] = []
        if self._database is None:
            self._database = identity.database_identity(session)
        ready = reminder_batch.load(session, ids, now, self._paths)
        keyed = self._drivers[LEAN_CHANNEL].retry_keys if ready else False
        for r in ready.values():
            started = self._attempt_start(r.delivery_id, r.dedup_key, r.shift_uid, r.retry_key,
                                          r.retry_key_issued_at, r.first_attempt_at, r.due_at, r.late_seconds,
                                          keyed=keyed, now=now,
                                          generation=r.retry_key_generation, outgoing=r.outgoing)
            jobs.append(Job(r.delivery_id, r.attempt_number, started.retry_key, r.outgoing, now, r.attempt_count + 1,
                            channel=LEAN_CHANNEL))
            starts.append(started)
        rest = [i for i in ids if i not in ready]
        if rest:
            # `rows` also keeps the shifts alive: the identity map holds objects weakly, and the
            # builders must find them there when they call session.get().
            rows = session.execute(_CLAIMED, {"ids": rest}).all()
            for delivery, _, subject, last in rows:
                prepared = self._prepare_one(session, delivery, subject, now, (last or 0) + 1)
                if prepared is not None:
                    jobs.append(prepared[0])
                    starts.append(prepared[1])
            session.flush()  # whatever a builder changed (a publication's hosted image keys)
            # Nothing reads these objects again; dropped now, they leave the (weak) identity map.
            del rows
        # Retry keys of the whole batch in one executemany; they commit with the claim, before any
        # request leaves. The attempts count when their outcomes are recorded (core/sending/record.py).
        outbox.start_attempts(session, starts, owner=self._owner, now=now)
        return jobs

    def _prepare_one(self, session: Session, delivery: Delivery, subject: str | None, now: dt.datetime,
                     number: int) -> tuple[Job, outbox.AttemptStart] | None:
        """The job to send and the columns its delivery row gets, or None if it was finished here."""
        channel = delivery.channel
        keyed = self._drivers[channel].retry_keys
        if keyed and delivery.retry_key is not None and not policy.retry_key_usable(delivery.retry_key_issued_at, now):
            self._finish(session, delivery, now, DeliveryStatus.FAILED, ErrorCode.RETRY_KEY_EXPIRED.value,
                         t("send_error.RETRY_KEY_EXPIRED"), dead=True)
            return None
        try:
            outgoing = builders.prepare(session, delivery, now, self._paths)
        except CancelDelivery as cancel:
            self._finish(session, delivery, now, DeliveryStatus.CANCELED, None, None, reason=cancel.reason)
            return None
        except CannotBuild as problem:
            self._finish(session, delivery, now, DeliveryStatus.FAILED, problem.code, problem.text)
            return None
        started = self._attempt_start(delivery.id, delivery.dedup_key, subject, delivery.retry_key,
                                      delivery.retry_key_issued_at, delivery.first_attempt_at, delivery.due_at,
                                      delivery.late_seconds, keyed=keyed, now=now,
                                      generation=delivery.retry_key_generation, outgoing=outgoing)
        return Job(delivery.id, number, started.retry_key, outgoing, now, delivery.attempt_count + 1,
                   channel=channel), started

    def _attempt_start(self, delivery_id: int, dedup_key: str, subject: str | None, retry_key: str | None,
                       issued_at: dt.datetime | None, first_at: dt.datetime | None, due_at: dt.datetime | None,
                       late_seconds: int | None, *, keyed: bool, now: dt.datetime, generation: int,
                       outgoing: Outgoing) -> outbox.AttemptStart:
        """The row's columns as this attempt leaves: the first attempt on a channel with retry keys
        issues its key; the first attempt of any delivery records how late it went out."""
        if retry_key is None and keyed:
            assert self._database is not None  # read at the start of prepare()
            # Derived, never drawn: every copy of this database sending this message presents this key.
            retry_key = identity.retry_key(self._database, dedup_key, subject, outgoing.to, generation)
            issued_at = now
        if first_at is None:
            first_at = now
            if due_at is not None:
                late_seconds = max(0, int((now - due_at).total_seconds()))
        return outbox.AttemptStart(delivery_id, retry_key, issued_at, first_at, late_seconds)

    def _finish(self, session: Session, delivery: Delivery, now: dt.datetime, status: DeliveryStatus,
                code: str | None, message: Text | str | None, *, reason: str | None = None,
                dead: bool = False) -> None:
        applied = outbox.transition(
            session, delivery.id, expected=[DeliveryStatus.PROCESSING], owner=self._owner, now=now,
            status=status, last_error_code=code, last_error_message=policy.stored_error(message), last_error_at_recipient=False,
            cancel_reason=str(reason) if reason is not None else None,
            dead_lettered_at=now if dead else None,
        )
        if applied:
            if status is DeliveryStatus.CANCELED:
                self._stats.canceled += 1
            else:
                self._stats.failed += 1
                if message is not None:  # English with its code, as the sender logs a failed send
                    log.info("delivery %s: %s (failed)", delivery.id, logged(message))
