"""The manager's alert: an incident told to the manager, by the webhook and by e-mail.

Enqueued once when an incident opens (core/alerts.py). Both addresses are read from the settings
when sent, not when the incident opened, so fixing a wrong address makes a waiting notification go
to the right place; a removed setting or a purged incident cancels it.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core import alerts
from core.channels.base import Outgoing
from core.kinds.registry import MessageKind, shared_reasons
from core.outbox.policy import CancelReason
from core.sending import send_checks
from core.sending.email_builders import mail_to_manager
from core.sending.outgoing import CancelDelivery
from core.store import setting_keys as keys
from core.store.kinds import Channel, DeliveryKind
from core.store.models import Delivery
from core.store.paths import DataPaths
from core.texts import render, t


def build_webhook(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    alert = send_checks.checked_alert(session, delivery)
    url = keys.ALERTS_WEBHOOK_URL.read(session)
    if not url:
        raise CancelDelivery(CancelReason.WEBHOOK_NOT_CONFIGURED)
    return Outgoing("webhook", url, ({"text": alerts.message_of(alert, alerts.manager_language(session),
                                                                       alerts.classroom_zone(session))},))


def build_email(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    alert = send_checks.checked_alert(session, delivery)
    to = keys.ALERTS_EMAIL.read(session)
    if not to:
        raise CancelDelivery(CancelReason.MANAGER_EMAIL_NOT_CONFIGURED)
    lang = alerts.manager_language(session)
    text = alerts.message_of(alert, lang, alerts.classroom_zone(session))
    return mail_to_manager(session, delivery, to, f"[Shiftcast] {render(alerts.title_of(alert), lang)}", text)


KIND = MessageKind(
    key=DeliveryKind.ALERT.value,
    label=t("kind.alert"),
    subject="alert",
    why=t("plan.why.alert"),
    builders={Channel.WEBHOOK.value: build_webhook, Channel.EMAIL.value: build_email},
    cancel_reasons=shared_reasons(CancelReason.ALERT_MISSING, CancelReason.WEBHOOK_NOT_CONFIGURED,
                                  CancelReason.MANAGER_EMAIL_NOT_CONFIGURED),
)
