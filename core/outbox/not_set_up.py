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

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from core.outbox.policy import ErrorCode, stored_error
from core.store.models import Delivery, DeliveryStatus
from core.texts import Text, t

CODE = ErrorCode.NOT_SET_UP.value
_WAITING = (DeliveryStatus.PENDING, DeliveryStatus.QUEUED)
_CHUNK = 500  # ids per UPDATE: under every database's limit on bound parameters


def reason(missing: Text | Iterable[Text]) -> Text:
    """The row's last error: what is missing, in the manager's words."""
    return t(f"send_error.{CODE}", missing=missing if isinstance(missing, Text) else tuple(missing))


def mark(session: Session, *, missing: Text | Iterable[Text], now: dt.datetime, channel: str | None = None,
         ids: Iterable[int] | None = None) -> list[int]:
    """Mark the waiting deliveries of `channel` (or these `ids`) with what is missing. A row that
    carries an error of its own (a failed attempt's) keeps it. Returns the rows it changed."""
    stored = stored_error(reason(missing))
    query = select(Delivery.id).where(
        Delivery.status.in_(_WAITING),
        or_(Delivery.last_error_code.is_(None), Delivery.last_error_code == CODE),
        or_(Delivery.last_error_message.is_(None), Delivery.last_error_message != stored))
    if channel is not None:
        query = query.where(Delivery.channel == channel)
    if ids is not None:
        query = query.where(Delivery.id.in_(list(ids)))
    return _set(session, list(session.scalars(query)), now, code=CODE, message=stored)


def clear(session: Session, *, channel: str, now: dt.datetime) -> list[int]:
    """The channel connected: its rows no longer wait for set-up. Returns the rows it changed."""
    marked = list(session.scalars(select(Delivery.id).where(Delivery.channel == channel,
                                                            Delivery.last_error_code == CODE)))
    return _set(session, marked, now, code=None, message=None)


def _set(session: Session, ids: list[int], now: dt.datetime, *, code: str | None, message: str | None) -> list[int]:
    for chunk in range(0, len(ids), _CHUNK):
        session.execute(update(Delivery).where(Delivery.id.in_(ids[chunk:chunk + _CHUNK]))
                        .values(last_error_code=code, last_error_message=message, updated_at=now)
                        .execution_options(synchronize_session=False))
    return ids


def waiting(session: Session) -> dict[str, int]:
    """How many rows wait for their channel's set-up, by channel (the window's status line)."""
    rows = session.execute(select(Delivery.channel, func.count()).where(
        Delivery.status.in_(_WAITING), Delivery.last_error_code == CODE).group_by(Delivery.channel))
    return {channel: count for channel, count in rows}
