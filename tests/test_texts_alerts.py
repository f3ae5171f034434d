"""An alert's words for the manager: the webhook post and the alert e-mail in the app's language."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from core import alerts
from core.outbox import queue
from core.sending import builders
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Alert, Delivery, DeliveryKind, DeliveryStatus
from tests import factories as f


def _dead_letter_alert(db: Database, now: dt.datetime) -> tuple[Alert, list[Delivery]]:
    with db.write() as s:
        keys.ALERTS_WEBHOOK_URL.write(s, "https://hooks.example.invalid/x")
        keys.ALERTS_EMAIL.write(s, "manager@example.com")
        keys.SMTP_FROM.write(s, "office@example.com")
        delivery_id, _ = queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="k1", due_at=now, now=now)
        queue.transition(s, delivery_id, expected=[DeliveryStatus.QUEUED], now=now, status=DeliveryStatus.FAILED,
                         dead_lettered_at=now)
        [alert], _ = alerts.evaluate(s, now=now, running_since=None)
        notes = list(s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.ALERT)))
        s.expunge_all()
    return alert, notes


def test_the_webhook_and_the_alert_email_follow_the_apps_language(db: Database, now: dt.datetime) -> None:
    _dead_letter_alert(db, now)
    with db.write() as s:
        keys.UI_LANGUAGE.write(s, "ja")
        webhook, mail = sorted(s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.ALERT)),
                               key=lambda d: d.channel != "webhook")
        posted = builders.prepare(s, webhook, now, f.home_paths())
        mailed = builders.prepare(s, mail, now, f.home_paths())
    text = posted.messages[0]["text"]
    assert text.splitlines()[0] == "[Shiftcast] 1件の配信が、すべての再送に失敗しました（配信不能）。"
    assert text.splitlines()[-1] == "発生: 2026年12月1日(火) 00:00（UTC）"
    assert mailed.mail is not None and mailed.mail.subject == "[Shiftcast] 1件の配信が、すべての再送に失敗しました（配信不能）。"
    with db.write() as s:
        keys.UI_LANGUAGE.write(s, "en")
        posted = builders.prepare(s, s.get(Delivery, webhook.id), now, f.home_paths())  # type: ignore[arg-type]
    assert posted.messages[0]["text"].splitlines()[0] == "[Shiftcast] 1 delivery failed after every retry (dead letters)"


def test_the_incident_row_keeps_a_code_and_reads_back_as_english_for_logs(db: Database, now: dt.datetime) -> None:
    alert, _ = _dead_letter_alert(db, now)
    title = alerts.title_of(alert)
    assert not isinstance(title, str) and title.code == "alert.dead_letters"
    assert alerts.message_of(alert).startswith("[Shiftcast] 1 delivery failed after every retry (dead letters)\n")
    with db.write() as s:  # an incident written before messages had codes
        old = s.get(Alert, alert.id)
        assert old is not None
        old.title, old.detail = "LINE's monthly message quota is used up", ""
    with db.read() as s:
        old = s.get(Alert, alert.id)
        assert old is not None and alerts.message_of(old, "ja").startswith("[Shiftcast] LINE's monthly message quota")
