"""LINE with e-mail fallback end to end: the LINE emulator and a real SMTP server on loopback.

A teacher whose LINE ID LINE does not know (profile 404) gets the reminder by e-mail, once, recorded
as a delivery linked to the LINE one; a 400 about the message never marks a teacher unreachable.
"""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from core.channels import email as email_channel
from core.channels import line_reach, line_render
from core.channels.base import Outgoing
from core.channels.line import LineCancel
from core.emulator import LineEmulator
from core.outbox import queue
from core.outbox.policy import BackoffPolicy
from core.planning.planner import plan
from core.roster import channel_choice, contacts
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.models import (
    Channel,
    ContactRule,
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    ShiftStatus,
)
from tests import factories as f
from tests.linefixtures import FakeClock, emulator, line_ready, user_id  # noqa: F401
from tests.smtpfixtures import SmtpServer, smtp_ca, starttls_server  # noqa: F401

FAST = SenderConfig(concurrency=4, lease=dt.timedelta(seconds=30),
                    backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0))
UNKNOWN = user_id(404)  # never added to the emulator


@pytest.fixture(autouse=True)
def _no_password_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(email_channel.PASSWORD_ENV, raising=False)


def _sender(db: Database, clock: FakeClock) -> Sender:
    return Sender(db, paths=f.home_paths(),
                  config=FAST, clock=clock)


def _fallback_teacher(db: Database, now: dt.datetime, line_id: str = UNKNOWN) -> tuple[int, int]:
    with db.write() as s:
        room = f.classroom(s)
        teacher = f.teacher(s, "佐藤", 1, line_user_id=line_id, email="sato@example.com", email_opt_in=True,
                            channel=channel_choice.LINE_FALLBACK)
        shift = f.shift(s, room, teacher, dt.date(2026, 12, 3), now=now, status=ShiftStatus.CONFIRMED)
        return teacher.id, shift.id


def _all(db: Database) -> list[Delivery]:
    with db.read() as s:
        return list(s.scalars(select(Delivery).order_by(Delivery.id)))


def _make_due(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        for d in s.scalars(select(Delivery).where(Delivery.status == DeliveryStatus.PENDING)):
            d.next_attempt_at = now


def test_unknown_line_id_gets_the_reminder_by_email_once_as_a_linked_delivery(
        db: Database, line_ready: LineEmulator, starttls_server: SmtpServer, now: dt.datetime) -> None:
    starttls_server.configure(db)
    clock = FakeClock(now)
    teacher_id, _ = _fallback_teacher(db, now)
    # The teacher screen checks the ID when it is saved: LINE's profile answers 404.
    assert line_reach.check_teacher(db, teacher_id, now=now) is line_reach.Reach.UNREACHABLE
    with db.write() as s:
        plan(s, now=now)
        plan(s, now=now)
    _make_due(db, now)
    sender = _sender(db, clock)
    sender.run_until_idle()
    clock.advance(minutes=30)
    sender.run_until_idle()
    line, email = _all(db)
    assert (line.channel, line.status, line.cancel_reason) == (Channel.LINE, DeliveryStatus.CANCELED,
                                                               LineCancel.UNREACHABLE)
    assert (email.channel, email.status, email.linked_delivery_id) == (Channel.EMAIL, DeliveryStatus.SENT, line.id)
    [received] = starttls_server.recorder.received
    assert received.rcpt_to == ["sato@example.com"] and "16:00〜21:00" in received.message["Subject"]
    assert line_ready.inbox(UNKNOWN) == [] and not [r for r in line_ready.request_log() if "push" in r.path]


def test_unreachable_found_after_planning_falls_back_at_send_time(
        db: Database, line_ready: LineEmulator, starttls_server: SmtpServer, now: dt.datetime) -> None:
    starttls_server.configure(db)
    clock = FakeClock(now)
    teacher_id, _ = _fallback_teacher(db, now)
    with db.write() as s:
        plan(s, now=now)  # LINE is believed fine: a LINE reminder is planned
    [planned] = _all(db)
    assert planned.channel == Channel.LINE
    assert line_reach.check_all(db, now=now) == {teacher_id: line_reach.Reach.UNREACHABLE}  # the daily job
    _make_due(db, now)
    _sender(db, clock).run_until_idle()
    with db.write() as s:
        plan(s, now=now)  # planning again adds nothing: the e-mail already exists
    line, email = _all(db)
    assert (line.status, line.cancel_reason) == (DeliveryStatus.CANCELED, LineCancel.UNREACHABLE)
    assert (email.status, email.linked_delivery_id, email.channel) == (DeliveryStatus.SENT, line.id, Channel.EMAIL)
    assert len(starttls_server.recorder.received) == 1


def test_a_400_about_the_message_does_not_mark_the_teacher_unreachable(
        db: Database, line_ready: LineEmulator, starttls_server: SmtpServer, now: dt.datetime,
        monkeypatch: pytest.MonkeyPatch) -> None:
    starttls_server.configure(db)
    line_ready.add_user(user_id(1), "佐藤")
    teacher_id, _ = _fallback_teacher(db, now, line_id=user_id(1))
    assert line_reach.check_teacher(db, teacher_id, now=now) is line_reach.Reach.REACHABLE
    with db.write() as s:
        plan(s, now=now)
    _make_due(db, now)
    # Every reminder's push is made by line_render.push, on the lean path and the ORM path alike.
    monkeypatch.setattr(line_render, "push", lambda to, message: Outgoing(
        "push", to, ({"type": "text", "text": ""},)))  # a bad message, not a bad recipient
    _sender(db, FakeClock(now)).run_until_idle()
    [line] = _all(db)
    assert (line.status, line.last_error_code) == (DeliveryStatus.FAILED, "LINE_400")
    assert line.last_error_at_recipient is False
    with db.read() as s:
        assert f.reach_of(s, teacher_id).line_unreachable_at is None
    assert starttls_server.recorder.received == []


def test_a_400_at_the_recipient_marks_the_teacher_unreachable_and_sends_the_email(
        db: Database, line_ready: LineEmulator, starttls_server: SmtpServer, now: dt.datetime,
        monkeypatch: pytest.MonkeyPatch) -> None:
    starttls_server.configure(db)
    line_ready.add_user(user_id(1), "佐藤")
    teacher_id, _ = _fallback_teacher(db, now, line_id=user_id(1))
    with db.write() as s:
        plan(s, now=now)
    _make_due(db, now)
    # LINE refuses the request and names "to": the recipient, not the message, is at fault.
    monkeypatch.setattr(line_render, "push", lambda to, message: Outgoing(
        "push", "U-not-a-line-id", ({"type": "text", "text": "明日のシフト"},)))
    _sender(db, FakeClock(now)).run_until_idle()
    line, email = _all(db)
    assert (line.status, line.last_error_code, line.last_error_at_recipient) == (DeliveryStatus.FAILED, "LINE_400", True)
    assert (email.channel, email.status, email.linked_delivery_id) == (Channel.EMAIL, DeliveryStatus.SENT, line.id)
    with db.read() as s:
        assert f.reach_of(s, teacher_id).line_unreachable_at is not None
    assert len(starttls_server.recorder.received) == 1


def test_a_reachable_line_id_is_sent_by_line_only(db: Database, line_ready: LineEmulator,
                                                  starttls_server: SmtpServer, now: dt.datetime) -> None:
    starttls_server.configure(db)
    line_ready.add_user(user_id(1), "佐藤")
    teacher_id, _ = _fallback_teacher(db, now, line_id=user_id(1))
    line_reach.check_teacher(db, teacher_id, now=now)
    with db.write() as s:
        plan(s, now=now)
    _make_due(db, now)
    _sender(db, FakeClock(now)).run_until_idle()
    [line] = _all(db)
    assert line.status == DeliveryStatus.SENT and len(line_ready.inbox(user_id(1))) == 1
    assert starttls_server.recorder.received == []


def test_retries_running_out_on_line_fall_back_without_blaming_the_teacher(
        db: Database, line_ready: LineEmulator, starttls_server: SmtpServer, now: dt.datetime) -> None:
    from core.emulator import FaultPlan

    starttls_server.configure(db)
    clock = FakeClock(now)
    line_ready.add_user(user_id(1), "佐藤")
    teacher_id, _ = _fallback_teacher(db, now, line_id=user_id(1))
    with db.write() as s:
        plan(s, now=now)
    _make_due(db, now)
    line_ready.set_faults(FaultPlan(fail_next=1000))
    sender = _sender(db, clock)
    for minutes in (0, 2, 4, 8, 16, 32):
        clock.advance(minutes=minutes)
        sender.run_until_idle()
    line, email = _all(db)
    assert line.dead_lettered_at is not None and email.linked_delivery_id == line.id
    assert email.status == DeliveryStatus.SENT and len(starttls_server.recorder.received) == 1
    with db.read() as s:
        assert f.reach_of(s, teacher_id).line_unreachable_at is None


def test_e_mail_that_cannot_reach_a_teacher_goes_on_their_next_channel_as_line_does(
        db: Database, line_ready: LineEmulator, starttls_server: SmtpServer, now: dt.datetime) -> None:
    """The teacher check is one for every channel: a teacher ranking e-mail, then LINE, whose e-mail
    the server refused, gets their reminder on LINE, and the e-mail is canceled with e-mail's reason."""
    starttls_server.configure(db)
    line_ready.add_user(user_id(1), "佐藤")
    with db.write() as s:
        room = f.classroom(s)
        teacher = f.teacher(s, "佐藤", 1, email="sato@example.com", email_opt_in=True,
                            channel=channel_choice.Choice(ContactRule.FIRST, ("email", "line")))
        mail = contacts.on(teacher.contacts, "email")
        assert mail is not None
        mail.unreachable_since = now - dt.timedelta(days=1)
        shift = f.shift(s, room, teacher, dt.date(2026, 12, 3), now=now, status=ShiftStatus.CONFIRMED)
        queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup=f"shift_reminder:shift:{shift.id}:v1:email",
                      due_at=now, now=now, channel="email", recipient="sato@example.com", teacher_id=teacher.id,
                      classroom_id=room.id, subject_type="shift", subject_id=shift.id, subject_version=1)
    _sender(db, FakeClock(now)).run_until_idle()
    by_mail, by_line = _all(db)
    assert (by_mail.channel, by_mail.status, by_mail.cancel_reason) == ("email", DeliveryStatus.CANCELED, "UNREACHABLE")
    assert (by_line.channel, by_line.status, by_line.linked_delivery_id) == ("line", DeliveryStatus.SENT, by_mail.id)
    assert len(line_ready.inbox(user_id(1))) == 1 and starttls_server.recorder.received == []
