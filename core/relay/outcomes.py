"""The relay's outcomes (one per attempt it made, one per delivery it let expire) kept as attempts of
their deliveries, marked as the relay's (`via`).

An outcome is recorded once: pulled again after a lost ack, it finds its attempt already there. A
"sent" marks the delivery sent, once: a delivery the app sent too (LINE answered the second of them
409) is already sent and stays as it is; one the app is sending at this moment is left to its own
answer, a 409 that marks it sent.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.outbox import policy
from core.outbox import queue as outbox
from core.outbox.policy import Outcome
from core.relay.uploads import delivery_id_of
from core.store.models import Delivery, DeliveryAttempt, DeliveryStatus
from core.texts import t

VIA = "relay"
# An attempt whose run the relay's host stopped before LINE's answer was written down: LINE may have
# taken the message, and the next attempt (with the same retry key) tells.
RUN_STOPPED = "RUN_STOPPED"
# Every state a delivery the relay sent may be in but sent and in flight: the app may have canceled or
# given up on it after it was handed over, and the teacher got it all the same.
SENT_FROM = (DeliveryStatus.PENDING, DeliveryStatus.QUEUED, DeliveryStatus.FAILED, DeliveryStatus.CANCELED)
# The relay's outcome words as the app's; "expired" (never sent, its shift had started) is a failure.
_OUTCOMES = {o.value: o for o in Outcome} | {"expired": Outcome.FAILED}


@dataclass
class Recorded:
    attempts: int = 0
    sent: int = 0


def _moment(text: object) -> dt.datetime | None:
    if not isinstance(text, str):
        return None
    try:
        moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: object, limit: int) -> str | None:
    return value[:limit] if isinstance(value, str) and value else None


def record(session: Session, outcomes: list[dict[str, Any]], *, now: dt.datetime) -> Recorded:
    done = Recorded()
    for outcome in outcomes:
        delivery_id = delivery_id_of(outcome.get("delivery_id"))
        at = _moment(outcome.get("at"))
        kind = _OUTCOMES.get(str(outcome.get("outcome")))
        if delivery_id is None or at is None or kind is None or session.get(Delivery, delivery_id) is None:
            continue  # not one of ours (another app's on a shared relay, or a delivery purged since)
        if session.scalar(select(DeliveryAttempt.id).where(
                DeliveryAttempt.delivery_id == delivery_id, DeliveryAttempt.via == VIA,
                DeliveryAttempt.started_at == at, DeliveryAttempt.outcome == kind.value)) is not None:
            continue
        said = _str(outcome.get("message"), 500)
        error_message = policy.stored_error(t("relay.line_said", message=said)) if said else None
        if outcome.get("error_code") == RUN_STOPPED:
            error_message = policy.stored_error(t("relay.run_stopped"))
        number = (session.scalar(select(func.max(DeliveryAttempt.number))
                                 .where(DeliveryAttempt.delivery_id == delivery_id)) or 0) + 1
        session.add(DeliveryAttempt(
            delivery_id=delivery_id, number=number, started_at=at, duration_ms=_int(outcome.get("duration_ms")),
            http_status=_int(outcome.get("http_status")), request_id=_str(outcome.get("request_id"), 64),
            accepted_request_id=_str(outcome.get("accepted_request_id"), 64),
            retry_key=_str(outcome.get("retry_key"), 36), outcome=kind.value,
            error_code=_str(outcome.get("error_code"), 64), error_message=error_message, via=VIA))
        session.flush()
        done.attempts += 1
        if kind is Outcome.SENT and _mark_sent(session, delivery_id, outcome, at, now=now):
            done.sent += 1
    return done


def _mark_sent(session: Session, delivery_id: int, outcome: dict[str, Any], at: dt.datetime, *,
               now: dt.datetime) -> bool:
    values: dict[str, Any] = {"accepted_request_id": _str(outcome.get("accepted_request_id"), 64)}
    request_id = _str(outcome.get("request_id"), 64)
    if request_id is not None and outcome.get("http_status") != 409:  # a 409 names an earlier request
        values["line_request_id"] = request_id
    return outbox.transition(
        session, delivery_id, expected=SENT_FROM, now=now, status=DeliveryStatus.SENT, sent_at=at,
        attempt_count=Delivery.attempt_count + 1, cancel_reason=None, last_error_code=None,
        last_error_message=None, last_error_at_recipient=False, dead_lettered_at=None, **values)
