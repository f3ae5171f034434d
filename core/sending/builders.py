"""Every message Shiftcast sends, in one table: (kind of delivery, channel) → the function that checks
the delivery at send time and builds its request. A new message kind or channel is one line here plus
its builder; a pair missing from the table fails the delivery with UNSUPPORTED_KIND.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from sqlalchemy.orm import Session

from core.channels.base import Outgoing
from core.sending import alert_builders, email_builders, line_builders
from core.sending.outgoing import CannotBuild
from core.store.models import Channel, Delivery, DeliveryKind
from core.store.paths import DataPaths
from core.texts import t

Builder = Callable[[Session, Delivery, dt.datetime, DataPaths], Outgoing]

BUILDERS: dict[tuple[DeliveryKind, Channel], Builder] = {
    (DeliveryKind.SHIFT_REMINDER, Channel.LINE): line_builders.build_reminder,
    (DeliveryKind.SHIFT_CORRECTION, Channel.LINE): line_builders.build_correction,
    (DeliveryKind.SHIFT_PUBLICATION, Channel.LINE): line_builders.build_publication,
    (DeliveryKind.SHIFT_REMINDER, Channel.EMAIL): email_builders.build_reminder,
    (DeliveryKind.SHIFT_CORRECTION, Channel.EMAIL): email_builders.build_correction,
    (DeliveryKind.SHIFT_PUBLICATION, Channel.EMAIL): email_builders.build_publication,
    (DeliveryKind.ALERT, Channel.WEBHOOK): alert_builders.build_webhook,
    (DeliveryKind.ALERT, Channel.EMAIL): alert_builders.build_email,
}


def prepare(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    """Check `delivery` as things are now and build its request (raises CancelDelivery or CannotBuild).
    Templates and images are read from the data folder `paths`."""
    channel = Channel(delivery.channel)
    builder = BUILDERS.get((delivery.kind, channel))
    if builder is None:
        raise CannotBuild("UNSUPPORTED_KIND", t("send_error.UNSUPPORTED_KIND", channel=channel.value,
                                                kind=delivery.kind.value))
    return builder(session, delivery, now, paths)
