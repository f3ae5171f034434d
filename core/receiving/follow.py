"""follow / unfollow of a teacher's LINE user ID: reachable again, or unreachable.

An unfollow means the teacher blocked the account: LINE would accept pushes to them and deliver
nothing. So the teacher is marked unreachable at once (as a profile 404 does, core/channels/line_reach.py),
their LINE consent is withdrawn (their LINE contact's agreement cleared: blocking says "no more"), and their
queued LINE reminders and corrections are canceled (LINE_UNFOLLOWED), each followed by its copy on
their next channel for a teacher whose rule falls back, as for any unreachable teacher. A follow (added
again, or unblocked) clears the mark, so the teacher is reachable again; consent comes back only by
pairing again or by the manager's explicit tick (core/receiving/pairing.py). What was canceled stays
canceled.

LINE may redeliver an old event after a newer one: an event older than the newest follow/unfollow
already recorded for the same user changes nothing.
"""

from __future__ import annotations

import datetime as dt
import logging

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.channels import registry
from core.kinds import registry as kinds
from core.outbox import queue
from core.outbox.policy import CancelReason
from core.planning import fallback
from core.receiving.events import ReceivedEvent
from core.roster import contacts
from core.store.models import Channel, Delivery, DeliveryStatus, Teacher, WebhookEvent

log = logging.getLogger(__name__)
TYPES = frozenset({"follow", "unfollow"})
QUEUED = (DeliveryStatus.PENDING, DeliveryStatus.QUEUED)


def _superseded(session: Session, event: ReceivedEvent) -> bool:
    if event.occurred_at is None:
        return False
    newer = session.scalar(select(WebhookEvent.id).where(
        WebhookEvent.source_user_id == event.user_id, WebhookEvent.type.in_(TYPES),
        WebhookEvent.event_id != event.event_id, WebhookEvent.occurred_at > event.occurred_at).limit(1))
    return newer is not None


def blocked_reason(channel: str) -> str:
    """The cancel reason the channel's driver gives a delivery to a teacher who blocked its account."""
    reasons = registry.driver(channel).cancel_reasons if registry.registered(channel) else None
    return reasons.blocked if reasons is not None and reasons.blocked is not None else CancelReason.CHANNEL_CHANGED


def cancel_queued_line(session: Session, teacher: Teacher, *, now: dt.datetime) -> list[int]:
    """Cancel the teacher's LINE reminders and corrections not yet claimed; returns their ids. A row
    the sender holds right now is left to the send-time rules, which see the unreachable mark."""
    queued = session.scalars(select(Delivery).where(
        Delivery.teacher_id == teacher.id, Delivery.channel == Channel.LINE,
        Delivery.kind.in_(kinds.teacher_keys()), Delivery.status.in_([s.value for s in QUEUED]))).all()
    canceled = []
    for delivery in queued:
        if queue.transition(session, delivery.id, expected=QUEUED, now=now, status=DeliveryStatus.CANCELED,
                            cancel_reason=blocked_reason(delivery.channel)):
            canceled.append(delivery.id)
            line = session.get(Delivery, delivery.id)
            if line is not None:
                fallback.send_instead(session, line, teacher, now=now)
    return canceled


class FollowHandler:
    types = TYPES

    def handle(self, session: Session, event: ReceivedEvent, *, now: dt.datetime) -> None:
        if event.source_type != "user" or not event.user_id or _superseded(session, event):
            return
        teacher = contacts.owner(session, Channel.LINE, event.user_id)
        if teacher is None:
            return  # someone who is not (yet) a teacher here: pairing knows them once they send their code
        line = contacts.contact(teacher, Channel.LINE)
        if event.type == "follow":
            if line.unreachable_since is not None:
                log.info("teacher %s follows the LINE account again", teacher.id)
            line.unreachable_since = None
            return
        line.unreachable_since = line.unreachable_since or now
        line.agreed_at, line.agreed_by_teacher = None, False
        canceled = cancel_queued_line(session, teacher, now=now)
        log.info("teacher %s blocked the LINE account; queued LINE messages canceled: %d", teacher.id, len(canceled))


HANDLERS = (FollowHandler(),)
