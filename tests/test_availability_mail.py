"""Teachers LINE cannot reach, by e-mail through a real SMTP server on loopback (and the LINE emulator for
the one on LINE): asked for their availability with the month's days listed and how to answer, their
reply entered by the manager and counted as theirs (late after the deadline, history kept, marked as
entered), reminded by e-mail again while silent; and a declined cover request told by e-mail with the
manager's reason. `availability answer` as a real process enters a reply from the command line."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select

from core.channels import email as email_channel
from core.emulator import LineEmulator
from core.outbox.policy import BackoffPolicy
from core.planning import month_grid
from core.roster import availability, availability_text, channel_choice, cover
from core.roster.availability_text import HOURS, NO, YES
from core.sending.kinds import availability_request as kind
from core.sending.kinds import cover_declined
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.models import AvailabilityRequest, Channel, Delivery, ShiftStatus
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import FakeClock, emulator, line_ready, user_id  # noqa: F401
from tests.smtpfixtures import SmtpServer, body, smtp_ca, starttls_server  # noqa: F401

FAST = SenderConfig(concurrency=2, lease=dt.timedelta(seconds=30),
                    backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0))
NOW = dt.datetime(2026, 11, 10, 1, 0, tzinfo=dt.UTC)  # 10:00 in Tokyo
DEADLINE = dt.date(2026, 11, 25)
SUZUKI, TAKAHASHI = "suzuki@example.com", "takahashi@example.com"


@pytest.fixture(autouse=True)
def _no_password_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(email_channel.PASSWORD_ENV, raising=False)


def _send(db: Database, clock: FakeClock) -> None:
    sender = Sender(db, paths=f.home_paths(), config=FAST, clock=clock)
    try:
        sender.run_until_idle()
    finally:
        sender.stop()


def _by_mail(s, name: str, n: int, address: str):
    return f.teacher(s, name, n, line_user_id=None, line_opt_in=False, email=address, email_opt_in=True,
                     channel=channel_choice.EMAIL)


def test_teachers_by_e_mail_are_asked_their_reply_is_entered_and_only_the_silent_are_reminded(
        db: Database, line_ready: LineEmulator, starttls_server: SmtpServer) -> None:
    starttls_server.configure(db)
    clock = FakeClock(NOW)
    with db.write() as s:
        room = f.classroom(s, "本校")
        ids = {"佐藤": f.teacher(s, "佐藤", 1).id, "鈴木": _by_mail(s, "鈴木", 2, SUZUKI).id,
               "高橋": _by_mail(s, "高橋", 3, TAKAHASHI).id,
               "未登録": f.teacher(s, "未登録", 4, line_user_id=None, line_opt_in=False).id}
        dry = kind.ask(s, room.id, 2026, 12, DEADLINE, None, now=NOW, dry_run=True)
        asking = kind.ask(s, room.id, 2026, 12, DEADLINE, None, now=NOW)
        room_id = room.id
    line_ready.add_user(user_id(1), "佐藤")
    for shown in (dry, asking):
        assert set(shown.asked) == {"佐藤", "鈴木", "高橋"} and set(shown.by_email) == {"鈴木", "高橋"}
        assert shown.unreachable == ("未登録",) and shown.messages == 1  # e-mails cost none of LINE's quota
    _send(db, clock)

    [on_line] = line_ready.inbox(user_id(1))
    assert on_line.message["type"] == "flex"
    [asked] = starttls_server.recorder.to(SUZUKI)
    assert len(starttls_server.recorder.to(TAKAHASHI)) == 1 and len(starttls_server.recorder.received) == 2
    message = asked.message
    assert "シフト希望" in message["Subject"] and "2026年12月" in message["Subject"]
    text = body(message, "plain")
    assert "鈴木 先生" in text and "2026年11月25日(水)までに" in text and "返信" in text
    days = [line for line in text.splitlines() if re.fullmatch(r"12/\d+\(.\)", line)]
    assert days[0] == "12/1(火)" and days[-1] == "12/31(木)" and len(days) == 31
    assert "12/1(火)" in body(message, "html")

    # 鈴木 replies with the list, three days filled in, the rest left as they were; the manager enters it.
    filled = {"12/1(火)": "12/1(火) ○", "12/2(水)": "12/2(水) ×", "12/3(木)": "12/3(木) 17時以降"}
    reply = "\n".join(filled.get(day, day) for day in days)
    answers = availability_text.parse_reply(reply, 2026, 12)
    assert answers is not None
    with db.write() as s:
        request = s.scalars(select(AvailabilityRequest)).one()
        assert availability.enter(s, request, ids["鈴木"], answers, at=NOW + dt.timedelta(days=1)) == 3
    with db.read() as s:
        status = availability.month_status(s, room_id, 2026, 12)
        assert status is not None
        rows = {row.name: row for row in status.teachers}
        history = availability.history(s, status.request.id, ids["鈴木"])
    assert rows["鈴木"].answered and rows["鈴木"].entered_by_manager and not rows["鈴木"].late
    assert [(a.answer, a.start) for _, a in sorted(rows["鈴木"].days.items())] == [
        (YES, None), (NO, None), (HOURS, dt.time(17))]
    assert {h.source for h in history} == {availability.MANAGER}
    assert {row.name for row in status.silent} == {"佐藤", "高橋"}
    grid = month_grid.load_month(db, room_id, 2026, 12, now=NOW)  # what the Shifts grid shades
    assert grid.availability[(ids["鈴木"], dt.date(2026, 12, 2))].answer == NO

    with db.write() as s:
        request = s.scalars(select(AvailabilityRequest)).one()
        assert kind.reminding(s, request).by_email == ("高橋",)
        assert set(kind.remind(s, request, now=NOW + dt.timedelta(days=2))) == {"佐藤", "高橋"}
    clock.advance(days=2)
    _send(db, clock)
    again = starttls_server.recorder.to(TAKAHASHI)
    assert len(again) == 2 and again[1].message["Subject"].startswith("【再送")
    assert "まだ回答をいただいていません" in body(again[1].message, "plain")
    assert len(starttls_server.recorder.to(SUZUKI)) == 1  # answered: not reminded
    assert len(line_ready.inbox(user_id(1))) == 2

    # 高橋's reply comes after the deadline: entered, and marked late like a late LINE answer.
    late = dt.datetime(2026, 11, 26, 1, 0, tzinfo=dt.UTC)
    with db.write() as s:
        request = s.scalars(select(AvailabilityRequest)).one()
        given = availability_text.parse_reply("全部OK", 2026, 12)
        assert given is not None
        availability.enter(s, request, ids["高橋"], given, at=late)
        [takahashi] = [a for a in availability.answers(s, request.id) if a.teacher_id == ids["高橋"]]
    assert takahashi.late and len(takahashi.days) == 31 and takahashi.entered_by_manager


def test_a_decline_reaches_a_teacher_by_e_mail_with_the_manager_s_reason(
        db: Database, starttls_server: SmtpServer) -> None:
    starttls_server.configure(db)
    clock = FakeClock(NOW)
    with db.write() as s:
        room = f.classroom(s, "本校", quiet_hours=None)
        teacher = _by_mail(s, "鈴木", 2, SUZUKI)
        shift = f.shift(s, room, teacher, dt.date(2026, 11, 12), "16:00", "20:00", now=NOW,
                        status=ShiftStatus.CONFIRMED)
        request = cover.ask(s, shift.id, teacher.id, now=NOW, reason="通院")
        cover_declined.decline(s, request.id, now=NOW, reason="代わりの先生がいません")
    _send(db, clock)
    _send(db, clock)
    [mail] = starttls_server.recorder.to(SUZUKI)
    assert "代講は見送り" in mail.message["Subject"] and "11月12日(木)" in mail.message["Subject"]
    text = body(mail.message, "plain")
    assert "代講は見送りとなりました" in text and "担当者より：代わりの先生がいません" in text
    with db.read() as s:
        [delivery] = s.scalars(select(Delivery).where(Delivery.kind == cover_declined.KEY)).all()
    assert (delivery.channel, delivery.status) == (Channel.EMAIL, "sent")


@pytest.mark.slow  # a real `shiftcast` process
def test_the_manager_enters_a_reply_from_the_command_line_and_status_says_so(db: Database, paths: DataPaths) -> None:
    from tests.test_cli_language import shiftcast

    with db.write() as s:
        room = f.classroom(s, "本校")
        _by_mail(s, "鈴木", 2, SUZUKI)
        kind.ask(s, room.id, 2026, 12, DEADLINE, None, now=NOW)
    db.dispose()
    unread = shiftcast(paths.home, "--lang", "en", "availability", "answer", "鈴木", "--month", "2026-12",
                       "--classroom", "本校", "--text", "12/5 12/6 ×")
    assert unread.returncode != 0 and "could not be read for certain" in unread.stderr
    entered = shiftcast(paths.home, "--lang", "ja", "availability", "answer", "鈴木", "--month", "2026-12",
                        "--classroom", "本校", "--day", "12/5=×", "--day", "12/6=17:00-21:00", "--text", "火 ○")
    assert entered.returncode == 0, entered.stderr
    assert "鈴木さんの2026-12の回答を7日分入力しました" in entered.stdout  # five Tuesdays and two days
    status = shiftcast(paths.home, "--lang", "ja", "availability", "status", "--month", "2026-12",
                       "--classroom", "本校")
    assert status.returncode == 0, status.stderr
    assert "1人中1人が回答済み" in status.stdout and "（管理者が入力）" in status.stdout
