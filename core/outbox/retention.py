"""Old history goes: sent and canceled deliveries (with their attempts) older than N days, and
incidents that cleared before then and that no remaining delivery refers to.

Queued, processing and failed deliveries are never touched: they still need the manager or the sender.
Open incidents are never touched either.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import delete, select, update

from core.store.db import Database
from core.store.models import Alert, Delivery, DeliveryAttempt, DeliveryStatus, RelayUpload, SubjectType

DEFAULT_DAYS = 90
CHUNK = 2000  # short write transactions, so a purge never stalls the sender


def purge(db: Database, *, now: dt.datetime, days: int = DEFAULT_DAYS) -> int:
    cutoff = now - dt.timedelta(days=days)
    removed = 0
    while True:
        with db.write() as session:
            ids = session.scalars(
                select(Delivery.id).where(
                    Delivery.status.in_([DeliveryStatus.SENT, DeliveryStatus.CANCELED]),
                    Delivery.updated_at < cutoff,
                ).limit(CHUNK)
            ).all()
            if not ids:
                session.execute(delete(Alert).where(
                    Alert.cleared_at.is_not(None), Alert.cleared_at < cutoff,
                    ~select(Delivery.id).where(Delivery.about(SubjectType.ALERT, Alert.id)).exists(),
                ))
                return removed
            session.execute(update(Delivery).where(Delivery.linked_delivery_id.in_(ids)).values(linked_delivery_id=None))
            session.execute(delete(DeliveryAttempt).where(DeliveryAttempt.delivery_id.in_(ids)))
            session.execute(delete(RelayUpload).where(RelayUpload.delivery_id.in_(ids)))
            session.execute(delete(Delivery).where(Delivery.id.in_(ids)))
            removed += len(ids)
