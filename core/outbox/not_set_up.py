"""Deliveries waiting because their channel is not set up: said on the rows themselves, at once.

A row that cannot go because LINE is not connected (or the keyring cannot be read) would otherwise
show "Queued" with no error until an alert fires a quarter of an hour later. The mark is the
`NOT_SET_UP` error code with the reason in the manager's words; it spends no attempt and changes no
status, and it is cleared as soon as the channel connects, so a real error later is never hidden
behind it and never overwritten by it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from sqlalchemy import or_, update
from sqlalchemy.orm import Session

from core.outbox.policy import ErrorCode, stored_error
from core.store.models import Delivery, DeliveryStatus
from core.texts import Text, t

CODE = ErrorCode.NOT_SET_UP.value
_WAITING = (DeliveryStatus.PENDING, DeliveryStatus.QUEUED)


def reason(missing: Text | Iterable[Text]) -> Text:
    """The row's last error: what is missing, in the manager's words."""
    return t(f"send_error.{CODE}", missing=missing if isinstance(missing, Text) else tuple(missing))


def mark(session: Session, *, missing: Text | Iterable[Text], now: dt.datetime, channel: str | None = None,
         ids: Iterable[int] | None = None) -> int:
    """Mark the waiting deliveries of `channel` (or these `ids`) with what is missing. A row that
    carries an error of its own (a failed attempt's) keeps it. Returns how many rows changed."""
    stored = stored_error(reason(missing))
    statement = update(Delivery).where(
        Delivery.status.in_(_WAITING),
        or_(Delivery.last_error_code.is_(None), Delivery.last_error_code == CODE),
        or_(Delivery.last_error_message.is_(None), Delivery.last_error_message != stored))
    if channel is not None:
        statement = statement.where(Delivery.channel == channel)
    if ids is not None:
        statement = statement.where(Delivery.id.in_(list(ids)))
    result = session.execute(statement.values(last_error_code=CODE, last_error_message=stored, updated_at=now)
                             .execution_options(synchronize_session=False))
    return int(getattr(result, "rowcount", 0) or 0)


def clear(session: Session, *, channel: str, now: dt.datetime) -> int:
    """The channel connected: its rows no longer wait for set-up. Returns how many rows changed."""
    result = session.execute(update(Delivery).where(
        Delivery.channel == channel, Delivery.last_error_code == CODE,
    ).values(last_error_code=None, last_error_message=None, updated_at=now)
        .execution_options(synchronize_session=False))
    return int(getattr(result, "rowcount", 0) or 0)
