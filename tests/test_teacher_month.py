"""Each teacher's own month on publish (core/sending/kinds/teacher_month.py): asked for, every teacher
with shifts that month gets their month on their channels, through the real sender to the LINE
emulator (which checks LINE's limits) and a real SMTP server; a revision goes only to those whose
shifts changed, marked; the dry run and the quota forecast count the personal messages."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from sqlalchemy import select

from core.channels import email as email_channel
from core.emulator import LineEmulator
from core.messages import flex_text
from core.planning import forecast
from core.publication import publish
from core.publication.image_store import ImageStore
from core.roster import rules
from core.sending.sender import Sender, SenderConfig
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Delivery, DeliveryStatus, Teacher
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import FakeClock, emulator, line_ready, user_id  # noqa: F401
from tests.smtpfixtures import SmtpServer, body, smtp_ca, starttls_server  # noqa: F401

GROUP = "C" + "1" * 32


@pytest.fixture
def line_group(line_ready: LineEmulator, monkeypatch: pytest.MonkeyPatch) -> LineEmulator:
    """The emulator with five teachers on LINE, all in the classroom's group."""
    monkeypatch.delenv(email_channel.PASSWORD_ENV, raising=False)
    for n in range(1, 6):
        line_ready.add_user(user_id(n), f"講師{n}")
    line_ready.add_group(GROUP, "本校 講師", [user_id(n) for n in range(1, 6)])
    return line_ready


def _month(db: Database, now: dt.datetime) -> dict[str, int]:
    with db.write() as s:
        room = f.classroom(s, line_group_id=GROUP)
        a, b = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        mail = rules.create_teacher(s, name="田中", email="tanaka@example.com", email_opt_in=True, channel="email")
        f.teacher(s, "休みの先生", 4)  # no shift this month: gets nothing
        s1 = f.shift(s, room, a, dt.date(2026, 12, 3), now=now)
        f.shift(s, room, a, dt.date(2026, 12, 10), "10:00", "13:00", now=now)
        f.shift(s, room, b, dt.date(2026, 12, 4), "09:00", "12:00", now=now)
        f.shift(s, room, mail, dt.date(2026, 12, 5), "13:00", "17:00", now=now)
        return {"room": room.id, "s1": s1.id, "a": a.id, "b": b.id, "mail": mail.id}


def _send(db: Database, now: dt.datetime) -> None:
    Sender(db, paths=f.home_paths(), config=SenderConfig(concurrency=2), clock=FakeClock(now)).run_until_idle()


def _statuses(db: Database, kind: str) -> dict[tuple[int | None, str], str]:
    with db.read() as s:
        return {(d.teacher_id, d.channel): d.status for d in s.scalars(select(Delivery).where(Delivery.kind == kind))}


def test_publish_sends_each_teacher_their_month_when_asked(
        db: Database, paths: DataPaths, line_group: LineEmulator, starttls_server: SmtpServer,
        now: dt.datetime) -> None:
    starttls_server.configure(db)
    ids = _month(db, now)
    with db.write() as s:
        done = publish.publish(s, ids["room"], 2026, 12, now=now, store=ImageStore(paths.images), each_teacher=True)
    assert len(done.teacher_months) == 3
    _send(db, now)
    assert _statuses(db, "teacher_month") == {
        (ids["a"], "line"): DeliveryStatus.SENT, (ids["b"], "line"): DeliveryStatus.SENT,
        (ids["mail"], "email"): DeliveryStatus.SENT}
    assert set(_statuses(db, "shift_publication").values()) == {DeliveryStatus.SENT}
    [group] = line_group.inbox(GROUP)
    assert group.message["contents"]["type"] == "carousel"  # no hosting: the month as Flex
    [mine] = line_group.inbox(user_id(1))
    bubble = mine.message["contents"]
    assert bubble["type"] == "bubble"
    assert flex_text.lines(bubble["header"]) == ["佐藤さんの2026年12月のシフト", "本校"]
    assert flex_text.lines(bubble["body"]) == ["12月3日(木)  16:00-21:00", "12月10日(木)  10:00-13:00"]
    assert mine.message["altText"].startswith("佐藤さんの2026年12月のシフト")
    assert line_group.inbox(user_id(4)) == []
    # 田中 reads e-mail: the month's roster (image and PDF) and their own month, each its own message
    mails = {m.message["Subject"]: m for m in starttls_server.recorder.to("tanaka@example.com")}
    assert set(mails) == {"【シフト表】本校 2026年12月", "【あなたのシフト】本校 2026年12月"}
    mail = mails["【あなたのシフト】本校 2026年12月"]
    assert "12月5日(土)  13:00-17:00" in body(mail.message, "plain")


def test_without_the_tick_no_teacher_gets_their_own_month(
        db: Database, paths: DataPaths, line_group: LineEmulator, now: dt.datetime) -> None:
    ids = _month(db, now)
    with db.write() as s:
        done = publish.publish(s, ids["room"], 2026, 12, now=now, store=ImageStore(paths.images))
    assert done.teacher_months == [] and _statuses(db, "teacher_month") == {}


@pytest.mark.backends("sqlite", "postgresql")
def test_a_revision_goes_only_to_the_teachers_whose_shifts_changed_marked(
        db: Database, paths: DataPaths, line_group: LineEmulator, now: dt.datetime) -> None:
    ids = _month(db, now)
    store = ImageStore(paths.images)
    with db.write() as s:
        publish.publish(s, ids["room"], 2026, 12, now=now, store=store, each_teacher=True)
    _send(db, now)
    with db.write() as s:
        rules.edit_shift(s, ids["s1"], rules.ShiftChange(start_time=dt.time(15)), now=now)
        second = publish.publish(s, ids["room"], 2026, 12, now=now, store=store, each_teacher=True)
    _send(db, now)
    # 佐藤's shift changed; 田中's e-mail never went (no mail server here), so it goes again
    assert len(second.teacher_months) == 2
    assert len(line_group.inbox(user_id(2))) == 1  # 鈴木: had it, nothing changed, nothing new
    [_, revised] = line_group.inbox(user_id(1))
    bubble = revised.message["contents"]
    assert "前回から変わったシフトに●を付けています。" in flex_text.lines(bubble["header"])
    assert flex_text.lines(bubble["body"]) == ["● 12月3日(木)  15:00-21:00", "12月10日(木)  10:00-13:00"]


def test_the_dry_run_and_the_forecast_count_the_personal_messages(
        db: Database, paths: DataPaths, line_group: LineEmulator, now: dt.datetime) -> None:
    ids = _month(db, now)
    with db.read() as s:
        group_only = publish.plan_publish(s, ids["room"], 2026, 12, now=now, members=5)
        with_each = publish.plan_publish(s, ids["room"], 2026, 12, now=now, members=5, each_teacher=True)
    assert (group_only.messages, group_only.teacher_messages) == (5, 0)
    # 佐藤 and 鈴木 on LINE cost one each; 田中's e-mail costs nothing of LINE's quota
    assert (with_each.messages, with_each.teacher_messages, with_each.teachers) == (7, 2, 3)
    with db.write() as s:
        keys.LINE_GROUP_MEMBERS.of(ids["room"]).write(s, 5)
        publish.publish(s, ids["room"], 2026, 12, now=now, store=ImageStore(paths.images), each_teacher=True)
    planned = [p for p in forecast.dry_run(db, now=now, days=1) if p.kind == "teacher_month"]
    assert sorted((p.recipient, p.channel, p.messages) for p in planned) == [
        ("佐藤", "line", 1), ("田中", "email", 0), ("鈴木", "line", 1)]
    # the group (5 members) + the two personal months + the three LINE reminders of the month
    assert forecast.forecast(db, now=now).planned_rest_of_month == 5 + 2 + 3


def test_the_command_line_asks_for_it_with_each_teacher(
        db: Database, paths: DataPaths, capsys: pytest.CaptureFixture[str], now: dt.datetime) -> None:
    import main

    _month(db, now)
    with db.write() as s:
        keys.LINE_GROUP_MEMBERS.of(rules.classroom_by_name(s, "本校").id).write(s, 5)
    argv = ["--lang", "en", "publish", "--classroom", "本校", "--month", "2026-12"]
    assert main.main([*argv, "--dry-run", "--each-teacher"]) == 0
    out = capsys.readouterr().out
    assert "members: 5, messages it costs: 5" in out  # the group alone
    assert "to each teacher their own month: teachers 3, LINE messages it costs 2" in out
    assert main.main([*argv, "--each-teacher", "--when-ready", "--json"]) == 0  # LINE is not connected here
    assert len(json.loads(capsys.readouterr().out)["teacher_months"]) == 3


@pytest.mark.backends("sqlite", "postgresql")
def test_an_email_copy_made_later_is_not_linked_to_a_teachers_own_month(
        db: Database, paths: DataPaths, line_group: LineEmulator, now: dt.datetime) -> None:
    from core.planning import mailed_publication
    from core.roster import contacts

    with db.write() as s:
        room = f.classroom(s)  # no LINE group: the month goes by e-mail, and to each teacher if asked
        on_line = f.teacher(s, "佐藤", 1)
        either = f.teacher(s, "鈴木", 2, email="suzuki@example.com", email_opt_in=True, channel="line_fallback")
        by_mail = rules.create_teacher(s, name="田中", email="tanaka@example.com", email_opt_in=True, channel="email")
        for teacher, day in ((on_line, 3), (either, 4), (by_mail, 5)):
            f.shift(s, room, teacher, dt.date(2026, 12, day), now=now)
        done = publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(paths.images), each_teacher=True)
    assert done.delivery_id is None and len(done.teacher_months) == 3
    with db.write() as s:  # 鈴木's LINE consent is withdrawn: their rule falls back to e-mail
        withdrawn = s.get(Teacher, either.id)
        assert withdrawn is not None
        contacts.contact(withdrawn, "line").agreed_at = None
        [copy_id] = mailed_publication.fan_out_recent(s, now=now)
        copy = s.get(Delivery, copy_id)
        assert copy is not None and copy.teacher_id == either.id and copy.kind == "shift_publication"
        assert copy.linked_delivery_id is None  # no group message to stand in for


@pytest.mark.backends("sqlite", "postgresql")
def test_a_revision_also_goes_to_those_who_never_had_their_month(
        db: Database, paths: DataPaths, line_group: LineEmulator, now: dt.datetime) -> None:
    ids = _month(db, now)
    store = ImageStore(paths.images)
    with db.write() as s:
        publish.publish(s, ids["room"], 2026, 12, now=now, store=store)  # not asked for the first time
    _send(db, now)
    with db.write() as s:
        rules.edit_shift(s, ids["s1"], rules.ShiftChange(start_time=dt.time(15)), now=now)
        second = publish.publish(s, ids["room"], 2026, 12, now=now, store=store, each_teacher=True)
    _send(db, now)
    assert len(second.teacher_months) == 3  # 佐藤 changed; 鈴木 and 田中 never had theirs
    [unchanged] = line_group.inbox(user_id(2))
    assert flex_text.lines(unchanged.message["contents"]["body"]) == ["12月4日(金)  09:00-12:00"]
