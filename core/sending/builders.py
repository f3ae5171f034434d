"""Every message Shiftcast sends: (kind of delivery, channel) → the function that checks the delivery
at send time and builds its request. The kind's builder for the channel comes first (the table here);
else the channel's driver's builder for the kind (core/channels/base.py `builders`), which is how a
channel registered from outside this package brings its messages; else the delivery fails with
UNSUPPORTED_KIND.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core.channels import registry
from core.channels.base import Builder, Outgoing
from core.sending import alert_builders, email_builders, line_builders
from core.sending.outgoing import CannotBuild
from core.store.models import Channel, Delivery, DeliveryKind
from core.store.paths import DataPaths
from core.texts import t

__all__ = ["BUILDERS", "Builder", "builder_for", "prepare"]

BUILDERS: dict[tuple[DeliveryKind, str], Builder] = {
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
    builder = builder_for(delivery.kind, delivery.channel)
    if builder is None:
        raise CannotBuild("UNSUPPORTED_KIND", t("send_error.UNSUPPORTED_KIND", channel=delivery.channel,
                                                kind=delivery.kind.value))
    return builder(session, delivery, now, paths)


def builder_for(kind: DeliveryKind, channel: str) -> Builder | None:
    """The kind's builder for this channel, else the channel driver's for this kind, else None."""
    builder = BUILDERS.get((kind, channel))
    if builder is None and registry.registered(channel):
        builder = registry.driver(channel).builders.get(kind)
    return builder
