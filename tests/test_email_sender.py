"""E-mail end to end: planner → outbox → sender → a real SMTP server on loopback (STARTTLS and implicit
TLS, AUTH), every SMTP outcome rule, and one connection for a batch."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from core import alerts
from core.channels import email as email_channel
from core.channels.email_draft import message_id
from core.messages import email_text
from core.outbox import deliveries
from core.outbox.policy import BackoffPolicy, shown_error
from core.planning import mailed_publication
from core.planning.planner import plan
from core.publication import publish as publication
from core.publication.image_store import ImageStore
from core.roster import channel_choice
from core.sending.sender import Sender, SenderConfig, SenderEvents
from core.store import setting_keys as keys
from core.store import settings
from core.store.db import Database
from core.store.models import (
    Channel,
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    Publication,
    ShiftStatus,
)
from core.store.paths import DataPaths
from core.texts import Text
from tests import factories as f
from tests.linefixtures import FakeClock
from tests.smtpfixtures import (  # noqa: F401
    FROM,
    SMTP_PASSWORD,
    SmtpServer,
    body,
    smtp_ca,
    smtp_server,
    starttls_server,
)

FAST = SenderConfig(concurrency=4, lease=dt.timedelta(seconds=30),
                    backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0))
DAY = dt.date(2026, 12, 3)


@pytest.fixture(autouse=True)
def _no_password_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(email_channel.PASSWORD_ENV, raising=False)


@pytest.fixture
def clock(now: dt.datetime) -> FakeClock:
    return FakeClock(now)


def _sender(db: Database, clock: FakeClock, events: SenderEvents | None = None, *,
            config: SenderConfig = FAST) -> Sender:
    return Sender(db, paths=f.home_paths(),
                  config=config, clock=clock, events=events)


def _email_teachers(db: Database, now: dt.datetime, count: int, *, language: str = "ja") -> list[int]:
    """`count` e-mail teachers, each with a confirmed shift; planned, so each has an e-mail reminder due."""
    with db.write() as s:
        room = f.classroom(s, "本校" if language == "ja" else "Main", language=language)
        for n in range(1, count + 1):
            teacher = f.teacher(s, f"講師{n:03d}", n, email=f"t{n}@example.com", email_opt_in=True,
                                channel=channel_choice.EMAIL)
            f.shift(s, room, teacher, DAY + dt.timedelta(days=n // 50), "16:00", "21:00", now=now,
                    status=ShiftStatus.CONFIRMED, note="鍵当番" if n == 1 else "")
        plan(s, now=now)
        ids = list(s.scalars(select(Delivery.id).where(Delivery.channel == Channel.EMAIL).order_by(Delivery.id)))
        for delivery_id in ids:
            delivery = s.get(Delivery, delivery_id)
            assert delivery is not None
            delivery.next_attempt_at = now  # due now rather than two hours before the shift
    return ids


def _delivery(db: Database, delivery_id: int) -> Delivery:
    with db.read() as s:
        d = s.get(Delivery, delivery_id)
        assert d is not None
        return d


def test_reminder_arrives_with_text_html_and_a_stable_message_id(db: Database, smtp_server: SmtpServer,
                                                                 clock: FakeClock) -> None:
    smtp_server.configure(db)
    [delivery_id] = _email_teachers(db, clock.now, 1)
    stats = _sender(db, clock).run_until_idle()  # no LINE token at all: e-mail goes on its own
    assert stats.sent == 1
    d = _delivery(db, delivery_id)
    assert (d.status, d.recipient, d.retry_key) == (DeliveryStatus.SENT, "t1@example.com", None)
    [received] = smtp_server.recorder.to("t1@example.com")
    msg = received.message
    assert received.mail_from == FROM
    assert msg["Subject"] == "【シフトのお知らせ】12月3日(木) 16:00〜21:00（本校）"
    assert msg["Message-ID"] == message_id(d.id, d.dedup_key, FROM)
    text = body(msg, "plain")
    assert "講師001 先生" in text and "12月3日(木) 16:00〜21:00" in text and "鍵当番" in text
    html = body(msg, "html")
    assert "<p>講師001 先生</p>" in html and "16:00〜21:00" in html
    with db.read() as s:
        [attempt] = deliveries.attempts(s, delivery_id)
    assert attempt.outcome == "sent" and attempt.error_code is None


def test_english_classroom_gets_english_mail(db: Database, starttls_server: SmtpServer, clock: FakeClock) -> None:
    starttls_server.configure(db)
    _email_teachers(db, clock.now, 1, language="en")
    _sender(db, clock).run_until_idle()
    [received] = starttls_server.recorder.received
    assert received.message["Subject"] == "Shift reminder: Thu 3 Dec, 16:00–21:00 (Main)"
    assert body(received.message, "plain").startswith("Dear 講師001,")


def test_4xx_then_success_is_retried_with_backoff(db: Database, starttls_server: SmtpServer, clock: FakeClock) -> None:
    starttls_server.configure(db)
    starttls_server.recorder.data_codes.extend(["421 4.3.0 try again later", "450 4.2.0 mailbox busy"])
    [delivery_id] = _email_teachers(db, clock.now, 1)
    sender = _sender(db, clock)
    sender.run_until_idle()
    d = _delivery(db, delivery_id)
    assert (d.status, d.attempt_count, d.last_error_code) == (DeliveryStatus.QUEUED, 1, "SMTP_4XX")
    assert d.next_attempt_at == clock.now + dt.timedelta(minutes=2) and "SMTP 421" in str(shown_error(d.last_error_message))
    clock.advance(minutes=2)
    sender.run_until_idle()
    assert _delivery(db, delivery_id).next_attempt_at == clock.now + dt.timedelta(minutes=4)
    clock.advance(minutes=4)
    sender.run_until_idle()
    d = _delivery(db, delivery_id)
    assert d.status == DeliveryStatus.SENT and len(starttls_server.recorder.received) == 1
    with db.read() as s:
        codes = [a.error_code for a in deliveries.attempts(s, delivery_id)]
    assert codes == ["SMTP_4XX", "SMTP_4XX", None]


def test_550_fails_that_delivery_only(db: Database, starttls_server: SmtpServer, clock: FakeClock) -> None:
    starttls_server.configure(db)
    starttls_server.recorder.rcpt_codes["t2@example.com"] = "550 5.1.1 no such user"
    ids = _email_teachers(db, clock.now, 3)
    alerts_seen: list[str] = []
    _sender(db, clock, SenderEvents(alert=[lambda code, _t: alerts_seen.append(code)])).run_until_idle()
    rows = [_delivery(db, i) for i in ids]
    assert [r.status for r in rows] == [DeliveryStatus.SENT, DeliveryStatus.FAILED, DeliveryStatus.SENT]
    assert (rows[1].last_error_code, rows[1].dead_lettered_at) == ("SMTP_5XX", None)
    assert "SMTP 550" in str(shown_error(rows[1].last_error_message)) and alerts_seen == []
    assert starttls_server.recorder.connections == 1


def test_535_holds_email_keeps_rows_queued_and_raises_one_alert(db: Database, starttls_server: SmtpServer,
                                                                clock: FakeClock) -> None:
    starttls_server.configure(db)
    email_channel.set_smtp_password("not the password")
    ids = _email_teachers(db, clock.now, 3)
    seen: list[tuple[str, Text | str]] = []
    holds: list[str | None] = []
    sender = _sender(db, clock, SenderEvents(alert=[lambda c, t: seen.append((c, t))], hold_changed=[holds.append]))
    sender.run_until_idle()
    rows = [_delivery(db, i) for i in ids]
    assert all(r.status == DeliveryStatus.QUEUED and r.attempt_count == 0 for r in rows)
    assert {r.last_error_code for r in rows} == {"SMTP_AUTH_FAILED"} and holds == ["SMTP_AUTH_FAILED"]
    assert [c for c, _ in seen] == ["CHANNEL_HELD"] and starttls_server.recorder.logins == 1
    clock.advance(minutes=10)
    sender.run_until_idle()  # held: nothing is tried, no second alert
    assert starttls_server.recorder.logins == 1 and len(seen) == 1
    with db.write() as s:
        assert (settings.get(s, keys.SMTP_HOLD.name) or "").startswith("SMTP_AUTH_FAILED|")
        assert [a.scope for a in alerts.open_alerts(s)] == ["email"]
    email_channel.set_smtp_password(SMTP_PASSWORD)  # the manager fixes it; the same sender notices
    sender.run_until_idle()
    assert all(_delivery(db, i).status == DeliveryStatus.SENT for i in ids) and holds[-1] is None
    assert len(starttls_server.recorder.received) == 3
    with db.read() as s:
        assert alerts.open_alerts(s) == []  # the mail server took a message: the hold's incident is over


@pytest.mark.slow  # draws the month and its PDF, then mails 200 teachers: about 20 s alone
def test_publication_to_200_teachers_is_one_connection_with_image_and_pdf(
        db: Database, paths: DataPaths, starttls_server: SmtpServer, clock: FakeClock) -> None:
    starttls_server.configure(db)
    with db.write() as s:
        room = f.classroom(s, line_group_id="C" + "1" * 32)
        for n in range(1, 201):
            teacher = f.teacher(s, f"講師{n:03d}", n, email=f"t{n}@example.com", email_opt_in=True,
                                channel=channel_choice.BOTH if n % 2 else channel_choice.EMAIL)
            f.shift(s, room, teacher, dt.date(2026, 12, 1 + n % 28), "16:00", "21:00", now=clock.now)
        done = publication.publish(s, room.id, 2026, 12, now=clock.now, store=ImageStore(paths.images))
        pub = s.get(Publication, done.publication_id)
        assert pub is not None
        # publish() queued the copies in its own transaction; planning again adds none.
        assert mailed_publication.fan_out(s, pub, now=clock.now) == []
    created = done.email_deliveries
    assert len(created) == 200
    # 200 mails of ~3 MB each (the roster inline and as PDF): a long lease, so the batch's time budget
    # (half the lease) never defers any of them on a busy test machine.
    long_lease = SenderConfig(concurrency=4, lease=dt.timedelta(minutes=10))
    _sender(db, clock, config=long_lease).run_until_idle()  # no LINE token: the group message waits, e-mail goes
    recorder = starttls_server.recorder
    assert (len(recorder.received), recorder.connections, recorder.logins) == (200, 1, 1)
    assert sorted(r.rcpt_to[0] for r in recorder.received) == sorted(f"t{n}@example.com" for n in range(1, 201))
    msg = recorder.to("t7@example.com")[0].message
    assert msg["Subject"] == "【シフト表】本校 2026年12月"
    html = body(msg, "html")
    assert "<p>講師007 先生</p>" in html and 'src="cid:roster@shiftcast"' in html
    image = next(p for p in msg.walk() if p.get_content_type() == "image/png")
    png = ImageStore(paths.images).get(pub.image_sha256, ".png")
    assert image["Content-ID"] == "<roster@shiftcast>" and image.get_content() == png
    [pdf] = [p for p in msg.iter_attachments() if p.get_content_type() == "application/pdf"]
    assert pdf.get_content().startswith(b"%PDF") and pdf.get_filename() == "shifts-2026-12-r1.pdf"
    with db.read() as s:
        line = s.get(Delivery, done.delivery_id)
        assert line is not None
        emails = s.scalars(select(Delivery).where(Delivery.id.in_(created))).all()
    assert line.status == DeliveryStatus.QUEUED and {d.status for d in emails} == {DeliveryStatus.SENT}
    assert {d.kind for d in emails} == {DeliveryKind.SHIFT_PUBLICATION}
    assert email_text.load_templates("ja").subjects["shift_publication"].startswith("【シフト表】")


def test_email_not_set_up_leaves_rows_queued(db: Database, clock: FakeClock) -> None:
    [delivery_id] = _email_teachers(db, clock.now, 1)
    _sender(db, clock).run_until_idle()
    d = _delivery(db, delivery_id)
    assert d.status in (DeliveryStatus.PENDING, DeliveryStatus.QUEUED) and d.attempt_count == 0
