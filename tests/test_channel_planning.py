"""Channel choice per teacher: what the planner creates on which channel, the fallback recorded as a
linked delivery, publication e-mails per teacher, and the CSV column."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from core.channels.line import LineCancel
from core.errors import ValidationError
from core.planning import fallback, mailed_publication
from core.planning.planner import plan
from core.roster import channel_choice, csv_files, rules
from core.store.db import Database
from core.store.models import (
    Channel,
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    Publication,
    ShiftStatus,
)
from tests import factories as f

DAY = dt.date(2026, 12, 10)


def _teacher(s, name: str, n: int, choice: channel_choice.Choice, **kwargs: object):
    kwargs.setdefault("email", f"t{n}@example.com")
    kwargs.setdefault("email_opt_in", True)
    return f.teacher(s, name, n, channel=choice, **kwargs)


def _delivery(s: Session, delivery_id: int | None) -> Delivery:
    assert delivery_id is not None
    delivery = s.get(Delivery, delivery_id)
    assert delivery is not None, delivery_id
    return delivery


def _teacher_id(delivery: Delivery) -> int:
    """Every delivery here is for a teacher."""
    assert delivery.teacher_id is not None, delivery.id
    return delivery.teacher_id


def _rows(db: Database) -> list[Delivery]:
    with db.read() as s:
        return list(s.scalars(select(Delivery).order_by(Delivery.id)))


@pytest.mark.parametrize("choice,expected", [
    (channel_choice.LINE, ["line"]), (channel_choice.EMAIL, ["email"]), (channel_choice.BOTH, ["line", "email"]),
    (channel_choice.LINE_FALLBACK, ["line"]),
])
def test_reminders_are_planned_per_chosen_channel(db: Database, now: dt.datetime, choice: channel_choice.Choice,
                                                  expected: list[str]) -> None:
    with db.write() as s:
        room = f.classroom(s)
        teacher = _teacher(s, "佐藤", 1, choice)
        f.shift(s, room, teacher, DAY, now=now, status=ShiftStatus.CONFIRMED)
        plan(s, now=now)
        plan(s, now=now)  # idempotent per channel
    rows = _rows(db)
    assert [d.channel for d in rows] == expected
    assert {d.recipient for d in rows if d.channel == Channel.EMAIL} <= {"t1@example.com"}
    assert all(d.dedup_key.endswith(":email") == (d.channel == Channel.EMAIL) for d in rows)


def test_consent_wins_over_choice(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        no_mail = _teacher(s, "佐藤", 1, channel_choice.BOTH, email_opt_in=False)
        no_line = _teacher(s, "鈴木", 2, channel_choice.LINE_FALLBACK, line_opt_in=False)
        f.shift(s, room, no_mail, DAY, now=now, status=ShiftStatus.CONFIRMED)
        f.shift(s, room, no_line, DAY, now=now, status=ShiftStatus.CONFIRMED)
        plan(s, now=now)
    assert sorted((d.teacher_id, d.channel, d.linked_delivery_id) for d in _rows(db)) == [
        (no_mail.id, "line", None), (no_line.id, "email", None)]


def test_unreachable_fallback_teacher_gets_email_linked_to_a_canceled_line_delivery(db: Database,
                                                                                    now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        teacher = _teacher(s, "佐藤", 1, channel_choice.LINE_FALLBACK)
        f.line(teacher).unreachable_since = now
        f.shift(s, room, teacher, DAY, now=now, status=ShiftStatus.CONFIRMED)
        report = plan(s, now=now)
        plan(s, now=now)
    line, email = _rows(db)
    assert (line.channel, line.status, line.cancel_reason) == (Channel.LINE, DeliveryStatus.CANCELED,
                                                               LineCancel.UNREACHABLE)
    assert (email.channel, email.status, email.linked_delivery_id) == (Channel.EMAIL, DeliveryStatus.PENDING, line.id)
    assert email.next_attempt_at == line.next_attempt_at
    assert email.dedup_key == fallback.twin_key(line.dedup_key, Channel.LINE, Channel.EMAIL)
    assert [p.channel for p in report.created] == [Channel.EMAIL] and "by e-mail" in str(report.created[0].why)


def test_a_new_line_id_forgets_unreachability(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        teacher = _teacher(s, "佐藤", 1, channel_choice.LINE_FALLBACK)
        f.line(teacher).unreachable_since = now
        rules.update_teacher(s, teacher.id, email="new@example.com")
        assert f.reach(teacher).line_unreachable_at == now
        rules.update_teacher(s, teacher.id, line_user_id="U" + "f" * 32)
        assert f.reach(teacher).line_unreachable_at is None


def test_channel_words() -> None:
    assert channel_choice.parse("メール") is channel_choice.EMAIL
    assert channel_choice.parse(" Fallback ") is channel_choice.LINE_FALLBACK
    assert channel_choice.parse("") is channel_choice.LINE
    with pytest.raises(ValidationError):
        channel_choice.parse("fax")


def test_csv_channel_column_is_optional_and_round_trips(db: Database) -> None:
    data = ("name,line_user_id,email,line_opt_in,email_opt_in,channel\n"
            f"佐藤,U{1:032x},a@example.com,yes,yes,both\n"
            f"鈴木,U{2:032x},b@example.com,yes,yes,\n").encode()
    with db.write() as s:
        csv_files.import_teachers(s, data)
        assert [channel_choice.of(t) for t in rules.list_teachers(s)] == [channel_choice.BOTH, channel_choice.LINE]
        # Without the column an update keeps the choice.
        csv_files.import_teachers(s, "name,email\n佐藤,c@example.com\n".encode())
        assert channel_choice.of(rules.teacher_by_name(s, "佐藤")) == channel_choice.BOTH
        exported = csv_files.export_teachers(s)
    assert ",channel,order," in exported.splitlines()[0] and ",both" in exported
    with db.write() as s, pytest.raises(csv_files.CsvImportError, match="line 2: channel must be"):
        csv_files.import_teachers(s, "name,通知方法\n佐藤,fax\n".encode())


def test_publication_email_goes_to_each_teacher_of_the_month_once(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s, line_group_id="C" + "1" * 32)
        other_room = f.classroom(s, "分校")
        by_mail = _teacher(s, "佐藤", 1, channel_choice.EMAIL)
        both = _teacher(s, "鈴木", 2, channel_choice.BOTH)
        line_only = _teacher(s, "高橋", 3, channel_choice.LINE)
        fallback_ok = _teacher(s, "田中", 4, channel_choice.LINE_FALLBACK)
        fallback_gone = _teacher(s, "伊藤", 5, channel_choice.LINE_FALLBACK)
        f.line(fallback_gone).unreachable_since = now
        elsewhere = _teacher(s, "渡辺", 6, channel_choice.EMAIL)
        for t in (by_mail, both, line_only, fallback_ok, fallback_gone):
            f.shift(s, room, t, DAY, now=now)
        f.shift(s, other_room, elsewhere, DAY, now=now)
        publication = Publication(classroom_id=room.id, year=2026, month=12, revision=1, document_id="d1",
                                  image_sha256="0" * 64, image_bytes=1, image_width=1, image_height=1,
                                  preview_sha256="1" * 64, preview_bytes=1, snapshot_json="{}", created_at=now)
        s.add(publication)
        s.flush()
        first = mailed_publication.fan_out(s, publication, now=now)
        assert mailed_publication.fan_out(s, publication, now=now) == []
        assert plan(s, now=now).publication_emails == []
        rows = s.scalars(select(Delivery).where(Delivery.id.in_(first))).all()
        assert sorted(_teacher_id(d) for d in rows) == [by_mail.id, both.id, fallback_gone.id]
        assert {d.kind for d in rows} == {DeliveryKind.SHIFT_PUBLICATION}
        # The group message failed for good: the fallback teachers who could read LINE get a copy too.
        more = mailed_publication.fan_out(s, publication, now=now, line_failed=True)
        assert [_delivery(s, i).teacher_id for i in more] == [fallback_ok.id]


def test_the_minute_sweep_falls_back_for_failures_nobody_followed_up(db: Database, now: dt.datetime) -> None:
    from core.outbox import queue

    with db.write() as s:
        room = f.classroom(s)
        gone = _teacher(s, "佐藤", 1, channel_choice.LINE_FALLBACK)
        bad_message = _teacher(s, "鈴木", 2, channel_choice.LINE_FALLBACK)
        line_only = _teacher(s, "高橋", 3, channel_choice.LINE)
        wrong_id = _teacher(s, "伊藤", 4, channel_choice.LINE_FALLBACK)
        # The sweep goes by the recorded flag, not by the words of the message.
        for teacher, code, message, at_recipient in (
                (gone, "LINE_404", "HTTP 404: Not found", True),
                (bad_message, "LINE_400", "HTTP 400: x; messages[0].text: empty", False),
                (line_only, "LINE_404", "HTTP 404: Not found", True),
                (wrong_id, "LINE_400", "HTTP 400: The request body has 1 error(s)", True)):
            shift = f.shift(s, room, teacher, DAY, now=now, status=ShiftStatus.CONFIRMED)
            delivery_id, _ = queue.enqueue(
                s, kind=DeliveryKind.SHIFT_REMINDER,
                dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift.id}", shift.version), due_at=now,
                now=now, recipient=f.reach(teacher).line_user_id, teacher_id=teacher.id, classroom_id=room.id,
                subject_type="shift", subject_id=shift.id, subject_version=shift.version)
            queue.transition(s, delivery_id, expected=[DeliveryStatus.QUEUED], now=now,
                              status=DeliveryStatus.FAILED, last_error_code=code, last_error_message=message,
                              last_error_at_recipient=at_recipient)
        created = fallback.sweep(s, now=now)
        assert fallback.sweep(s, now=now) == []
        email, other = sorted((_delivery(s, i) for i in created), key=_teacher_id)
        assert (email.teacher_id, email.channel, email.recipient) == (gone.id, Channel.EMAIL, "t1@example.com")
        assert _delivery(s, email.linked_delivery_id).teacher_id == gone.id
        assert (other.teacher_id, other.channel, other.recipient) == (wrong_id.id, Channel.EMAIL, "t4@example.com")


@pytest.mark.parametrize("code,at_recipient,unreachable,emailed", [
    ("LINE_404", True, True, True),
    ("LINE_400", True, True, True),  # LINE named "to": the recipient's ID
    ("LINE_400", False, False, False),  # about the message (e.g. messages[0].text)
    ("LINE_5XX", False, False, True),  # retries ran out (dead)
])
def test_after_a_line_failure(db: Database, now: dt.datetime, code: str, at_recipient: bool, unreachable: bool,
                              emailed: bool) -> None:
    from core.outbox import queue

    with db.write() as s:
        room = f.classroom(s)
        teacher = _teacher(s, "佐藤", 1, channel_choice.LINE_FALLBACK)
        shift = f.shift(s, room, teacher, DAY, now=now, status=ShiftStatus.CONFIRMED)
        line_id, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER,
            dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift.id}", shift.version), due_at=now,
            now=now, recipient=f.reach(teacher).line_user_id, teacher_id=teacher.id, classroom_id=room.id,
            subject_type="shift", subject_id=shift.id, subject_version=shift.version)
        created = fallback.after_failure(s, line_id, code=code, at_recipient=at_recipient, dead=code == "LINE_5XX",
                                         now=now)
        assert (f.reach(teacher).line_unreachable_at is not None) == unreachable
        assert bool(created) == emailed
        if created:
            assert _delivery(s, created[0]).linked_delivery_id == line_id
