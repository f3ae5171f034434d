"""The manager's alert: an incident told to the manager, by the webhook and by e-mail.

Enqueued once when an incident opens (core/alerts.py). Both addresses are read from the settings
when sent, not when the incident opened, so fixing a wrong address makes a waiting notification go
to the right place; a removed setting or a purged incident cancels it. It is a note to the manager
(core/messages/message.py `Audience.MANAGER`): each channel finds the manager's address on it.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core import alerts
from core.kinds.registry import MessageKind, shared_reasons
from core.messages.message import Audience, Message
from core.outbox.policy import CancelReason
from core.sending import send_checks
from core.store.kinds import DeliveryKind
from core.store.models import Delivery
from core.store.paths import DataPaths
from core.texts import render, t

KEY = DeliveryKind.ALERT.value


def compose(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Message:
    """The incident in the manager's language: title, detail, since when; its title the e-mail's subject."""
    alert = send_checks.checked_alert(session, delivery)
    lang = alerts.manager_language(session)
    return Message.of_text(KEY, lang, alerts.message_of(alert, lang, alerts.classroom_zone(session)),
                           audience=Audience.MANAGER, subject=f"[Shiftcast] {render(alerts.title_of(alert), lang)}")


KIND = MessageKind(
    key=KEY,
    label=t("kind.alert"),
    subject="alert",
    why=t("plan.why.alert"),
    compose=compose,
    # Its own; a channel's "no address for the manager" reason comes with the channel's driver.
    cancel_reasons=shared_reasons(CancelReason.ALERT_MISSING),
)
