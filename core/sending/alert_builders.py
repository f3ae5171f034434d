"""The manager's alert notifications at send time: to the webhook, or to the manager's e-mail.

Both are read from the settings when sent, not when the incident opened, so fixing a wrong address
makes a waiting notification go to the right place; a removed setting cancels it.
"""

from __future__ import annotations

import datetime as dt
import html

from sqlalchemy.orm import Session

from core import alerts
from core.channels.base import Outgoing
from core.channels.email_draft import MailDraft, message_id
from core.messages.email_text import Composed
from core.outbox.policy import CancelReason
from core.sending.email_builders import sender_address
from core.sending.outgoing import CancelDelivery
from core.store import setting_keys as keys
from core.store.models import Alert, Delivery
from core.store.paths import DataPaths
from core.texts import render


def _alert(session: Session, delivery: Delivery) -> Alert:
    alert = session.get(Alert, delivery.alert_id) if delivery.alert_id is not None else None
    if alert is None:
        raise CancelDelivery(CancelReason.ALERT_MISSING)
    return alert


def build_webhook(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    alert = _alert(session, delivery)
    url = keys.ALERTS_WEBHOOK_URL.read(session)
    if not url:
        raise CancelDelivery(CancelReason.WEBHOOK_NOT_CONFIGURED)
    return Outgoing("webhook", url, ({"text": alerts.message_of(alert, alerts.manager_language(session))},))


def build_email(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    alert = _alert(session, delivery)
    to = keys.ALERTS_EMAIL.read(session)
    if not to:
        raise CancelDelivery(CancelReason.MANAGER_EMAIL_NOT_CONFIGURED)
    from_address, from_name = sender_address(session)
    lang = alerts.manager_language(session)
    text = alerts.message_of(alert, lang)
    composed = Composed(f"[Shiftcast] {render(alerts.title_of(alert), lang)}", text + "\n",
                        "<!DOCTYPE html><html><body><p>" + "<br>\n".join(html.escape(line) for line in text.splitlines())
                        + "</p></body></html>")
    draft = MailDraft(to=to, from_address=from_address, from_name=from_name, subject=composed.subject,
                      text=composed.text, html=composed.html,
                      message_id=message_id(delivery.id, delivery.dedup_key, from_address))
    return Outgoing("email", to, (), mail=draft)
