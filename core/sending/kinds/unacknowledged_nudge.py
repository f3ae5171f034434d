"""The manager's nudge: a teacher was reminded of a shift starting soon and has not tapped 了解.

Planned by its own `plan` at each planning run, for a classroom that asks for it
(`NUDGE_UNACKNOWLEDGED`) while the 了解 button is on: once per shift and version, to the alerts'
recipients that can carry it — the manager's LINE user ID and the alerts' e-mail address (Settings →
Alerts) — due when core/planning/unacknowledged.py says. The recipients are read when it is sent, as
for alerts, so a fixed address applies to a waiting nudge. At send time it is canceled when the
teacher has tapped 了解 meanwhile, the shift changed, was canceled or started, or the manager turned
the nudge or the button off.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from sqlalchemy.orm import Session

from core import alerts
from core.kinds.registry import MessageKind, shared_reasons
from core.messages.message import Audience, Message
from core.outbox import queue
from core.outbox.policy import CancelReason
from core.planning import unacknowledged
from core.planning.context import PlanningContext
from core.sending.outgoing import CancelDelivery
from core.store import setting_keys as keys
from core.store.kinds import Channel, DeliveryKind, SubjectType
from core.store.models import Delivery
from core.store.paths import DataPaths
from core.texts import render, t

ACKNOWLEDGED = unacknowledged.ACKNOWLEDGED  # the teacher tapped 了解 before the nudge went
NUDGE_OFF = "NUDGE_OFF"  # the classroom no longer asks for it, or the 了解 button is off
KEY = DeliveryKind.UNACKNOWLEDGED_NUDGE.value


def _recipients(session: Session) -> dict[str, str]:
    """The alerts' recipients a nudge can go to: channel → address."""
    found = {}
    if line_user := keys.ALERTS_LINE_USER_ID.read(session):
        found[Channel.LINE.value] = line_user
    if email := keys.ALERTS_EMAIL.read(session):
        found[Channel.EMAIL.value] = email
    return found


def _asked(session: Session, classroom_id: int) -> bool:
    return bool(keys.LINE_ACK_BUTTON.read(session) and keys.NUDGE_UNACKNOWLEDGED.of(classroom_id).read(session))


def plan(context: PlanningContext) -> Sequence[int]:
    """Enqueue a nudge for each shift whose reminder waits for its 了解, once per shift and version;
    withdraw those whose shift changed."""
    session, now = context.session, context.now
    unacknowledged.withdraw_stale(session, now=now)
    if not keys.LINE_ACK_BUTTON.read(session):
        return ()
    targets = _recipients(session)
    if not targets:
        return ()
    made = []
    kind = DeliveryKind.UNACKNOWLEDGED_NUDGE.value
    for r in unacknowledged.not_acknowledged(unacknowledged.read(session, now=now), now=now, button_on=True):
        due = unacknowledged.nudge_at(r)
        if due is None or not keys.NUDGE_UNACKNOWLEDGED.of(r.classroom_id).read(session):
            continue
        for channel, recipient in targets.items():
            delivery_id, created = queue.enqueue(
                session, kind=kind, dedup=queue.dedup_key(kind, f"shift:{r.shift_id}", r.version, channel=channel),
                due_at=max(due, now), now=now, channel=channel, recipient=recipient, classroom_id=r.classroom_id,
                subject_type=SubjectType.SHIFT, subject_id=r.shift_id, subject_version=r.version)
            if created:
                made.append(delivery_id)
    return made


def _checked(session: Session, delivery: Delivery, now: dt.datetime) -> unacknowledged.Reminded:
    """The shift the nudge is about, still as it was and still waiting for its 了解."""
    found = unacknowledged.read(session, now=now, shift_ids=[delivery.subject_id or 0])
    if not found or delivery.subject_type != SubjectType.SHIFT:
        raise CancelDelivery(CancelReason.SHIFT_MISSING)
    [r] = found
    if r.canceled:
        raise CancelDelivery(CancelReason.SHIFT_NOT_CONFIRMED)
    if r.version != delivery.subject_version:
        raise CancelDelivery(CancelReason.SHIFT_CHANGED)
    if r.starts_at <= now:
        raise CancelDelivery(CancelReason.SHIFT_STARTED)
    if not _asked(session, r.classroom_id):
        raise CancelDelivery(NUDGE_OFF)
    if r.acknowledged_at is not None:
        raise CancelDelivery(ACKNOWLEDGED)
    return r


def compose(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Message:
    """One line in the manager's language, under a subject naming the teacher."""
    r = _checked(session, delivery, now)
    lang = alerts.manager_language(session)
    text = render(t("nudge.message", teacher=r.teacher, classroom=r.classroom, day=r.local_start.date(),
                    start=r.local_start.time().replace(tzinfo=None)), lang)
    return Message.of_text(KEY, lang, text, audience=Audience.MANAGER,
                           subject=render(t("nudge.subject", teacher=r.teacher), lang))


KIND = MessageKind(
    key=KEY,
    label=t("kind.unacknowledged_nudge"),
    subject=SubjectType.SHIFT.value,
    why=t("plan.why.unacknowledged_nudge"),
    compose=compose,
    # A channel's "no address for the manager" reason comes with the channel's driver.
    cancel_reasons={**shared_reasons(CancelReason.SHIFT_MISSING, CancelReason.SHIFT_NOT_CONFIRMED,
                                     CancelReason.SHIFT_CHANGED, CancelReason.SHIFT_STARTED),
                    ACKNOWLEDGED: t("cancel.ACKNOWLEDGED"), NUDGE_OFF: t("cancel.NUDGE_OFF")},
    plan=plan,
)
