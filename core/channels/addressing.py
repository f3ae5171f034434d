"""Where a rendered message goes on a channel, as its driver finds it when the message is sent
(core/messages/message.py `Audience`): a teacher's contact on the channel, the classroom's group on
it, or the manager's address on it in the settings. Read at send time, so a fixed address applies to
a waiting message; a missing one cancels it with the driver's reason, or the audience's.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from core.channels.base import ChannelDriver
from core.channels.build_errors import CancelDelivery, CannotBuild
from core.outbox.policy import CancelReason
from core.roster import contacts
from core.store.models import Classroom, Delivery, Teacher
from core.store.settings import TextSetting
from core.texts import t


def teacher_of(session: Session, delivery: Delivery) -> Teacher | None:
    return session.get(Teacher, delivery.teacher_id) if delivery.teacher_id else None


def teacher_address(session: Session, delivery: Delivery, driver: ChannelDriver) -> tuple[Teacher, str]:
    """The delivery's teacher and their address on the driver's channel; none: canceled with the
    channel's not-agreed reason (the kind's checks found the contact usable, so it went meanwhile)."""
    teacher = teacher_of(session, delivery)
    contact = contacts.on(teacher.contacts, driver.key) if teacher is not None else None
    found = driver.recipient(contact) if contact is not None else None
    if teacher is None or not found:
        reasons = driver.cancel_reasons
        raise CancelDelivery(reasons.not_agreed if reasons is not None else CancelReason.CHANNEL_CHANGED)
    return teacher, found


def classroom_of(session: Session, delivery: Delivery) -> Classroom:
    room = session.get(Classroom, delivery.classroom_id) if delivery.classroom_id else None
    if room is None:
        raise CancelDelivery(CancelReason.CLASSROOM_MISSING)
    return room


def setting_address(session: Session, setting: TextSetting, reason: str) -> str:
    """The manager's address on a channel, as the settings hold it now; unset: canceled with `reason`."""
    found = setting.read(session)
    if not found:
        raise CancelDelivery(reason)
    return found


def unsupported(delivery: Delivery) -> CannotBuild:
    """A message for an audience the channel never reaches (a teacher's on the alert webhook)."""
    return CannotBuild("UNSUPPORTED_KIND", t("send_error.UNSUPPORTED_KIND", channel=str(delivery.channel),
                                             kind=str(delivery.kind)))
