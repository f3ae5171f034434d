"""What waits to be sent soon: the messages that would not go out if the sending process quit now.

The window asks before it quits while any wait (ui/shell/app.py): without a system tray, nothing of
Shiftcast keeps running once it closes, and a reminder due in an hour would silently never go.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from core.store.models import Delivery, DeliveryStatus

# How far ahead a message counts as waiting. A day covers tomorrow morning's reminders, which a
# manager who quits tonight and starts the computer only at the shift would otherwise miss.
SOON = dt.timedelta(hours=24)


@dataclass(frozen=True)
class Waiting:
    due: int  # pending or queued, due by `now + within` (overdue ones included)
    in_flight: int  # being sent right now

    @property
    def total(self) -> int:
        return self.due + self.in_flight


def waiting(session: Session, *, now: dt.datetime, within: dt.timedelta = SOON) -> Waiting:
    """The deliveries that wait to go within `within` of `now`, and those being sent."""
    due_soon = Delivery.status.in_((DeliveryStatus.PENDING, DeliveryStatus.QUEUED)) \
        & (Delivery.next_attempt_at <= now + within)
    in_flight = Delivery.status == DeliveryStatus.PROCESSING
    rows = session.execute(select(Delivery.status, func.count()).where(or_(due_soon, in_flight))
                           .group_by(Delivery.status)).all()
    counted = {status: count for status, count in rows}
    return Waiting(due=counted.get(DeliveryStatus.PENDING, 0) + counted.get(DeliveryStatus.QUEUED, 0),
                   in_flight=counted.get(DeliveryStatus.PROCESSING, 0))
