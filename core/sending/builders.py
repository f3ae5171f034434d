"""A claimed delivery checked at send time and its request built, by the builder the registry names
(core/kinds/registry.py `builder`): the kind's override for the delivery's channel if it has one
(what that channel alone has: LINE's month, its time pickers), else the kind's message
(`compose`, core/sending/kinds/) rendered by the channel's driver (`render`). A kind with neither,
or a channel not registered, fails the delivery with UNSUPPORTED_KIND. Importing this module
registers the built-in kinds, so whatever sends has them.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core.channels.addressing import unsupported
from core.channels.base import Outgoing
from core.kinds import registry as kinds
from core.sending import kinds as built_in  # noqa: F401 - registers the built-in kinds
from core.store.models import Delivery
from core.store.paths import DataPaths


def prepare(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    """Check `delivery` as things are now and build its request (raises CancelDelivery or CannotBuild).
    Templates and images are read from the data folder `paths`."""
    builder = kinds.builder(delivery.kind, delivery.channel)
    if builder is None:
        raise unsupported(delivery)
    return builder(session, delivery, now, paths)
