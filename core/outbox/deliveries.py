"""What the manager can see and do with deliveries: list, filter, count, retry, cancel, requeue."""

from __future__ import annotations

import datetime as dt
import string
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from core.errors import NotFoundError, ValidationError
from core.outbox import policy, queue
from core.outbox.policy import CancelReason
from core.store import events
from core.store.models import Classroom, Delivery, DeliveryAttempt, DeliveryStatus
from core.texts import Text, render, t
from core.texts.catalog import CATALOG


@dataclass(frozen=True)
class DeliveryFilter:
    statuses: tuple[DeliveryStatus, ...] = ()
    kinds: tuple[str, ...] = ()  # message kinds' keys (core/kinds/registry.py)
    classroom_id: int | None = None
    created_from: dt.datetime | None = None
    created_to: dt.datetime | None = None
    text: str = ""
    dead_letters_only: bool = False


def list_deliveries(session: Session, flt: DeliveryFilter = DeliveryFilter(), *, limit: int = 500,
                    offset: int = 0) -> list[Delivery]:
    query = select(Delivery)
    if flt.statuses:
        query = query.where(Delivery.status.in_(flt.statuses))
    if flt.kinds:
        query = query.where(Delivery.kind.in_(flt.kinds))
    if flt.classroom_id is not None:
        query = query.where(Delivery.classroom_id == flt.classroom_id)
    if flt.created_from is not None:
        query = query.where(Delivery.created_at >= flt.created_from)
    if flt.created_to is not None:
        query = query.where(Delivery.created_at < flt.created_to)
    if flt.dead_letters_only:
        query = query.where(Delivery.dead_lettered_at.is_not(None))
    if flt.text.strip():
        like = f"%{flt.text.strip()}%"
        query = query.where(or_(Delivery.dedup_key.like(like), Delivery.recipient.like(like),
                                _error_says(session, flt.text.strip()), Delivery.last_error_code.like(like)))
    return list(session.scalars(query.order_by(Delivery.id.desc()).limit(limit).offset(offset)))


# last_error_message keeps an encoded message (code + parameters, policy.stored_error), so its
# words exist only once rendered. On SQLite the search renders it inside the query, in English and
# Japanese, through a function given to the connection: whatever the manager reads in either language
# (and LINE's own words, a parameter) finds the row, with no second column to keep in step. PostgreSQL
# cannot call back into Python, so there a row is found by its parameters' words (kept as written) or
# by its catalog code when the searched words are in that code's English or Japanese template. Rows
# written before errors had codes are their plain words on both.
_ERROR_WORDS = "shiftcast_error_words"


def error_words(stored: str | None) -> str | None:
    """A stored error as the search reads it: its English and its Japanese, one after the other."""
    if not stored:
        return stored
    shown = policy.shown_error(stored)
    return f"{render(shown, 'en')}\x1f{render(shown, 'ja')}" if isinstance(shown, Text) else shown


def _error_says(session: Session, words: str) -> Any:
    like = f"%{words}%"
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        raw = connection.connection.driver_connection
        assert raw is not None
        raw.create_function(_ERROR_WORDS, 1, error_words, deterministic=True)
        return getattr(func, _ERROR_WORDS)(Delivery.last_error_message).like(like)
    codes = [code for code in CATALOG if code.startswith("send_error.") and _template_says(code, words)]
    return or_(Delivery.last_error_message.like(like),
               *(Delivery.last_error_message.like(f'%"code": "{code}"%') for code in codes))


def _template_says(code: str, words: str) -> bool:
    """Are `words` inside one stretch of the code's English or Japanese (between its parameters)?"""
    wanted = words.casefold()
    for template in CATALOG[code]:
        for form in (template,) if isinstance(template, str) else (template.one, template.other):
            if any(wanted in (literal or "").casefold() for literal, *_ in string.Formatter().parse(form)):
                return True
    return False


def attempts(session: Session, delivery_id: int) -> list[DeliveryAttempt]:
    return list(session.scalars(select(DeliveryAttempt).where(DeliveryAttempt.delivery_id == delivery_id)
                                .order_by(DeliveryAttempt.number)))


def counts(session: Session) -> dict[str, int]:
    rows = session.execute(select(Delivery.status, func.count()).group_by(Delivery.status)).all()
    result = {s.value: 0 for s in DeliveryStatus}
    result.update({status.value: n for status, n in rows})
    result["dead_letters"] = session.scalar(select(func.count()).select_from(Delivery)
                                            .where(Delivery.dead_lettered_at.is_not(None),
                                                   Delivery.status == DeliveryStatus.FAILED)) or 0
    return result


# What the manager may do with a delivery, by its status. The Deliveries view enables its actions
# from these, and retry_now and cancel refuse anything else, so the window and `main.py` agree.
#
#   status      Retry  Cancel  why
#   pending     no     yes     never tried and waiting for its time: it goes then anyway
#   queued      yes    yes     waiting between attempts: retry skips the wait with a fresh budget
#   processing  no     no      being sent right now; its result decides
#   sent        no     no      retrying would send it twice, and nothing is left to stop
#   failed      yes    yes     failed or a dead letter: try again, or drop it for good
#   canceled    yes    no      brought back for its due time, checked again when it is sent
RETRYABLE = (DeliveryStatus.QUEUED, DeliveryStatus.FAILED, DeliveryStatus.CANCELED)
CANCELABLE = (DeliveryStatus.PENDING, DeliveryStatus.QUEUED, DeliveryStatus.FAILED)


@dataclass(frozen=True)
class RetryOutcome:
    """What a retry did, for the front ends to phrase."""

    delivery_id: int
    new_retry_key: bool  # True: the old key had expired, so LINE cannot catch a duplicate of an earlier attempt
    send_at: dt.datetime  # when the sender may send it: now, or its due time if that is still to come
    zone: str | None = None  # the IANA zone of its classroom, to say send_at in; None: no classroom
    now: dt.datetime | None = None  # when the retry was made

    @property
    def waits(self) -> bool:
        """True: it goes at its due time, not now."""
        return self.now is not None and self.send_at > self.now


def retry_now(session: Session, delivery_id: int, *, now: dt.datetime) -> RetryOutcome:
    """Send again with a fresh retry budget as soon as it may go: now, but never before its due time
    (nor, if it was never tried, before the time it was planned for, e.g. held out of quiet hours).

    The sender checks it again when it claims it (core/sending/send_rules.py), as every send: a shift
    canceled or a consent withdrawn meanwhile still cancels it then. A key younger than 24 h at the
    time it goes is reused; an older one is replaced, and the caller must tell the manager (a duplicate
    is then possible)."""
    delivery = _get(session, delivery_id)
    if delivery.status == DeliveryStatus.SENT:
        raise ValidationError(t("delivery.already_sent", id=delivery_id))
    if delivery.status == DeliveryStatus.PROCESSING:
        raise ValidationError(t("delivery.sending_now", id=delivery_id))
    if delivery.status == DeliveryStatus.PENDING:
        raise ValidationError(t("delivery.not_tried", id=delivery_id))
    send_at = max(now, delivery.due_at)
    if delivery.first_attempt_at is None:
        send_at = max(send_at, delivery.next_attempt_at)
    new_key = delivery.retry_key is not None and not policy.retry_key_usable(delivery.retry_key_issued_at, send_at)
    values: dict[str, Any] = {}
    if new_key:
        # The next attempt derives the key from the database identity and the next generation, so a
        # copy of this data folder making the same retry presents the same key (core/store/identity.py).
        values = {"retry_key": None, "retry_key_issued_at": None,
                  "retry_key_generation": delivery.retry_key_generation + 1}
    applied = queue.transition(
        session, delivery_id, expected=RETRYABLE, now=now,
        status=DeliveryStatus.PENDING if send_at > now else DeliveryStatus.QUEUED, next_attempt_at=send_at,
        attempt_count=0, dead_lettered_at=None, cancel_reason=None, **values,
    )
    if not applied:
        raise ValidationError(t("delivery.changed", id=delivery_id))
    events.emit(session, events.DeliveriesEnqueued(frozenset({delivery.channel})))  # wake the sender after commit
    room = session.get(Classroom, delivery.classroom_id) if delivery.classroom_id is not None else None
    return RetryOutcome(delivery_id, new_key, send_at, room.timezone if room is not None else None, now)


def cancel(session: Session, delivery_id: int, *, now: dt.datetime, reason: CancelReason = CancelReason.MANAGER) -> None:
    delivery = _get(session, delivery_id)
    if delivery.status in (DeliveryStatus.SENT, DeliveryStatus.CANCELED):
        raise ValidationError(t("delivery.already_done", id=delivery_id, status=t(f"delivery_status.{delivery.status.value}")))
    if delivery.status == DeliveryStatus.PROCESSING:
        raise ValidationError(t("delivery.cannot_stop", id=delivery_id))
    applied = queue.transition(session, delivery_id, expected=CANCELABLE,
                                now=now, status=DeliveryStatus.CANCELED, cancel_reason=CancelReason(reason).value)
    if not applied:
        raise ValidationError(t("delivery.changed", id=delivery_id))


def requeue_dead_letters(session: Session, *, now: dt.datetime) -> list[RetryOutcome]:
    ids = session.scalars(select(Delivery.id).where(Delivery.status == DeliveryStatus.FAILED,
                                                    Delivery.dead_lettered_at.is_not(None))).all()
    return [retry_now(session, i, now=now) for i in ids]


def _get(session: Session, delivery_id: int) -> Delivery:
    delivery = session.get(Delivery, delivery_id)
    if delivery is None:
        raise NotFoundError(t("delivery.not_found", id=delivery_id))
    return delivery
