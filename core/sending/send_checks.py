"""The send-time checks every channel and kind shares: is what the delivery is about still there and
still so, and can the teacher get it on this channel.

A delivery carries only its kind, channel and subject; at send time the sender reloads its shift,
teacher, publication or alert as they are now. A check that fails raises CancelDelivery with its
reason (a rule marked `then_fallback` first enqueues the copy on the teacher's next channel, if their
contact rule falls back);
otherwise it returns the row the builder goes on with. The rules themselves are written once in
core/sending/send_rules.py; the kinds (core/sending/kinds/) pick which of these checks they run.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.channels import registry
from core.channels.email import NOT_OPTED_IN as EMAIL_NOT_OPTED_IN
from core.outbox.policy import CancelReason
from core.planning import fallback
from core.roster import contacts, rules
from core.sending import send_rules
from core.sending.outgoing import CancelDelivery
from core.store.models import Alert, Channel, Delivery, Publication, Shift, SubjectType, Teacher


def shift_of(session: Session, delivery: Delivery) -> Shift | None:
    return session.get(Shift, delivery.subject_id) if _about(delivery, SubjectType.SHIFT) else None


def _about(delivery: Delivery, subject_type: SubjectType) -> bool:
    return delivery.subject_type == subject_type and delivery.subject_id is not None


def enforce(session: Session, delivery: Delivery, rules_: tuple[send_rules.Rule, ...], shift: Shift | None,
            teacher: Teacher | None, now: dt.datetime) -> None:
    """Raise CancelDelivery with the first rule that does not hold; a rule marked `then_fallback`
    enqueues the copy on the teacher's next channel (in this transaction) first, if their rule falls back."""
    starts_at = rules.shift_instants(shift)[0] if shift is not None else None
    broken = send_rules.first_broken(rules_, send_rules.subject_of(delivery, shift, teacher, starts_at, now))
    if broken is None:
        return
    if broken.then_fallback and teacher is not None:
        fallback.send_instead(session, delivery, teacher, now=now)
    raise CancelDelivery(broken.reason)


def checked_shift(session: Session, delivery: Delivery, now: dt.datetime, *, reminder: bool) -> Shift:
    """The delivery's shift, still what it is about (and for a reminder: confirmed, still this teacher's)."""
    shift = shift_of(session, delivery)
    enforce(session, delivery, send_rules.SHIFT + (send_rules.REMINDER if reminder else ()), shift, None, now)
    assert shift is not None  # SHIFT_MISSING comes first
    return shift


def teacher_of(session: Session, delivery: Delivery) -> Teacher | None:
    return session.get(Teacher, delivery.teacher_id) if delivery.teacher_id else None


def checked_teacher(session: Session, delivery: Delivery, teacher: Teacher | None, now: dt.datetime) -> Teacher:
    """The teacher can and wants to get this on the delivery's channel (its driver's cancel reasons)."""
    enforce(session, delivery, send_rules.for_channel(delivery.channel), None, teacher, now)
    assert teacher is not None  # TEACHER_INACTIVE comes first
    return teacher


def recipient(teacher: Teacher, delivery: Delivery) -> str:
    """Where the delivery goes now: the teacher's contact on its channel, as the channel's driver takes it."""
    found = fallback.recipient(teacher, delivery.channel)
    if found is None:  # checked_teacher found the contact usable
        reasons = registry.driver(delivery.channel).cancel_reasons if registry.registered(delivery.channel) else None
        raise CancelDelivery(reasons.not_agreed if reasons is not None else CancelReason.CHANNEL_CHANGED)
    return found


def checked_email_teacher(teacher: Teacher | None, delivery: Delivery) -> Teacher:
    """The teacher can and wants to get this by e-mail (a fallback copy: whatever they chose)."""
    if teacher is None or not teacher.active or teacher.erased_at is not None:
        raise CancelDelivery(CancelReason.TEACHER_INACTIVE)
    mail = contacts.on(teacher.contacts, Channel.EMAIL)
    if mail is None or not contacts.usable(mail):
        raise CancelDelivery(EMAIL_NOT_OPTED_IN)
    # A fallback copy stands in for a LINE delivery, so the teacher's LINE choice does not cancel it.
    if delivery.linked_delivery_id is None and not contacts.wants(teacher.contacts, Channel.EMAIL):
        raise CancelDelivery(CancelReason.CHANNEL_CHANGED)
    return teacher


def checked_publication(session: Session, delivery: Delivery) -> Publication:
    """The delivery's publication, still the newest revision of its month."""
    publication = session.get(Publication, delivery.subject_id) if _about(delivery, SubjectType.PUBLICATION) else None
    if publication is None:
        raise CancelDelivery(CancelReason.PUBLICATION_MISSING)
    newest = session.scalar(
        select(func.max(Publication.revision)).where(
            Publication.classroom_id == publication.classroom_id,
            Publication.year == publication.year,
            Publication.month == publication.month,
        )
    )
    if newest != publication.revision:
        raise CancelDelivery(CancelReason.SUPERSEDED)
    return publication


def checked_alert(session: Session, delivery: Delivery) -> Alert:
    alert = session.get(Alert, delivery.subject_id) if _about(delivery, SubjectType.ALERT) else None
    if alert is None:
        raise CancelDelivery(CancelReason.ALERT_MISSING)
    return alert
