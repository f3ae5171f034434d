"""了解 taps: a postback from a reminder's or correction's button marks that delivery acknowledged.

The buttons are off by default (LINE_ACK_BUTTON; core/messages/ack.py builds them and signs their
data). A postback counts when its data carries a delivery id with a valid MAC of this database's key
(kept in the keyring, core/store/ack_key.py), the delivery is a LINE reminder or correction, and the
user who tapped is the teacher it went to; the first tap sets `acknowledged_at` (to when it was tapped) and later ones change nothing. Anything
else, forged data included, is ignored without a reply. Taps are seen only while the receiver runs;
LINE's "Webhook redelivery" brings the ones made meanwhile, as far as LINE keeps them.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.kinds import registry as kinds
from core.messages import ack
from core.planning import unacknowledged
from core.receiving.events import ReceivedEvent
from core.roster import contacts
from core.store import ack_key
from core.store import events as store_events
from core.store import setting_keys as keys
from core.store.models import Channel, Delivery, SubjectType, Teacher
from core.store.secrets import SecretStoreError
from core.texts.message import logged

log = logging.getLogger(__name__)
TYPES = frozenset({"postback"})
_CHUNK = 900  # SQLite's bound parameters per statement, with room to spare


def enable(session: Session, on: bool) -> None:
    """Switch the buttons on or off (the key is made when they are first switched on)."""
    keys.LINE_ACK_BUTTON.write(session, on)
    if on:
        ack_key.signing_key(session)  # no keyring: SecretStoreError, and the transaction keeps the buttons off


class AckHandler:
    types = TYPES

    def handle(self, session: Session, event: ReceivedEvent, *, now: dt.datetime) -> None:
        postback = event.body.get("postback")
        data = postback.get("data") if isinstance(postback, dict) else None
        if event.source_type != "user" or not event.user_id or not isinstance(data, str):
            return
        if not data.startswith(ack.PREFIX + ":"):
            return  # another button's postback (a cover request's `cv:` …): its own handler's, not ours
        acknowledge(session, data, channel=Channel.LINE, tapped_by=lambda address: address == event.user_id,
                    tapped_at=event.occurred_at, now=now)


def acknowledge(session: Session, data: str, *, channel: str, tapped_by: Callable[[str | None], bool],
                tapped_at: dt.datetime | None, now: dt.datetime) -> bool:
    """A 了解 tap on `channel` with the button's `data`: the delivery it names is marked acknowledged the
    first time (True), if the data is this database's, the delivery is one on `channel` of a kind that
    asks for it, and `tapped_by` says the teacher's address on the channel is who tapped."""
    try:
        key = ack_key.held_key(session)
    except SecretStoreError as exc:
        log.warning("a 了解 postback was ignored: %s", logged(exc.text))
        return False
    delivery_id = ack.read_postback(key, data) if key else None
    if delivery_id is None:
        log.warning("a 了解 postback with data this database did not sign was ignored")
        return False
    delivery = session.get(Delivery, delivery_id)
    teacher = session.get(Teacher, delivery.teacher_id) if delivery and delivery.teacher_id else None
    if (delivery is None or delivery.channel != channel or delivery.kind not in kinds.acknowledged_keys()
            or teacher is None or not tapped_by(contacts.address_on(teacher, channel))):
        log.warning("a 了解 postback for delivery %s from someone it was not sent to was ignored", delivery_id)
        return False
    if delivery.acknowledged_at is not None:
        return False
    delivery.acknowledged_at = min(tapped_at or now, now)
    store_events.emit(session, store_events.DeliveriesAcknowledged(frozenset({delivery.id})))
    if delivery.subject_type == SubjectType.SHIFT and delivery.subject_id is not None:
        unacknowledged.withdraw_nudges(session, delivery.subject_id, delivery.subject_version or 0, now=now)
    log.info("delivery %s acknowledged by its teacher", delivery_id)
    return True


def acknowledged_ids(session: Session) -> set[int]:
    """Every acknowledged delivery: what a screen compares with what it shows when told of a tap (a
    redelivered tap may be older than the newest one seen, so a time mark would miss it). Taps are
    rare, so a scan per tap needs no index."""
    return set(session.scalars(select(Delivery.id).where(Delivery.acknowledged_at.is_not(None))))


def acknowledged(session: Session, delivery_ids: Iterable[int]) -> dict[int, dt.datetime]:
    """When each of these deliveries was acknowledged, for those that were (the Deliveries view, the roster grid)."""
    wanted = sorted(set(delivery_ids))
    found: dict[int, dt.datetime] = {}
    for start in range(0, len(wanted), _CHUNK):
        rows = session.execute(select(Delivery.id, Delivery.acknowledged_at).where(
            Delivery.id.in_(wanted[start:start + _CHUNK]), Delivery.acknowledged_at.is_not(None)))
        found.update((row.id, row.acknowledged_at) for row in rows)
    return found
