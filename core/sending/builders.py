"""A claimed delivery checked at send time and its request built, by the builder the registry names
(core/kinds/registry.py `builder`): the kind's for the delivery's channel if the kind declares one
(core/sending/kinds/), else the channel driver's for this kind (`builders` on its ChannelDriver).
Without either the delivery fails with UNSUPPORTED_KIND. Importing this module registers the
built-in kinds, so whatever sends has them.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core.channels.base import Outgoing
from core.kinds import registry as kinds
from core.sending import kinds as built_in  # noqa: F401 - registers the built-in kinds
from core.sending.outgoing import CannotBuild
from core.store.models import Delivery
from core.store.paths import DataPaths
from core.texts import t


def prepare(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    """Check `delivery` as things are now and build its request (raises CancelDelivery or CannotBuild).
    Templates and images are read from the data folder `paths`."""
    builder = kinds.builder(delivery.kind, delivery.channel)
    if builder is None:
        raise CannotBuild("UNSUPPORTED_KIND", t("send_error.UNSUPPORTED_KIND", channel=str(delivery.channel),
                                                kind=str(delivery.kind)))
    return builder(session, delivery, now, paths)

