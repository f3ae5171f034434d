"""Which function checks a delivery at send time and builds its request: the kind's builder for the
delivery's channel if the kind declares one (core/sending/kinds/), else the channel driver's builder
for this kind (`builders` on its ChannelDriver), else the delivery fails with UNSUPPORTED_KIND.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping

from sqlalchemy.orm import Session

from core.channels import registry as channels
from core.channels.base import Outgoing
from core.kinds import registry as kinds
from core.sending import kinds as built_in  # noqa: F401 - registers the built-in kinds
from core.sending.outgoing import CannotBuild
from core.store.models import Delivery
from core.store.paths import DataPaths
from core.texts import t

Builder = Callable[[Session, Delivery, dt.datetime, DataPaths], Outgoing]


def builder_for(kind: str, channel: str) -> Builder | None:
    found = kinds.builder(kind, channel)
    if found is not None:
        return found
    driver = next((d for c, d in channels.DRIVERS.items() if c == channel), None)
    by_kind: Mapping[str, Builder] = getattr(driver, "builders", {}) or {}
    return by_kind.get(str(kind))


def prepare(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    """Check `delivery` as things are now and build its request (raises CancelDelivery or CannotBuild).
    Templates and images are read from the data folder `paths`."""
    builder = builder_for(delivery.kind, delivery.channel)
    if builder is None:
        raise CannotBuild("UNSUPPORTED_KIND", t("send_error.UNSUPPORTED_KIND", channel=str(delivery.channel),
                                                kind=str(delivery.kind)))
    return builder(session, delivery, now, paths)
