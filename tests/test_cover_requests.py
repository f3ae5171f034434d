"""Cover requests (代講) over real HTTP: the sender pushes a reminder with its "Ask for cover" button to the
LINE emulator, the teacher taps it (a signed webhook to the receiver), the manager calls for volunteers
in the group, two teachers offer, one who is not free is refused, the manager assigns one, and the real
planner and sender tell the released and the new teacher. A request the manager declines is told to
the teacher who asked, with the manager's reason, and nothing on the roster changes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from core.channels.line import LineCancel
from core.emulator import LineEmulator
from core.emulator.records import InboxMessage
from core.emulator.simulate import postback_actions
from core.messages import cover as cover_messages
from core.messages.flex_text import lines as lines_of
from core.outbox.policy import BackoffPolicy
from core.planning.planner import plan
from core.receiving.server import WebhookReceiver
from core.roster import cover, rules
from core.sending.kinds import cover_call, cover_declined
from core.sending.sender import Sender, SenderConfig
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.kinds import CoverState, CoverStep, DeliveryKind, ShiftStatus
from core.store.models import Delivery, DeliveryStatus, Shift
from tests import factories as f
from tests.linefixtures import TOKEN, FakeClock, line, receiver, user_id  # noqa: F401 - fixtures
from tests.waiting import wait_until

GROUP = "C" + "7" * 32
FAST = SenderConfig(concurrency=2, lease=dt.timedelta(seconds=30),
                    backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0))
NOW = dt.datetime(2026, 12, 4, 1, 0, tzinfo=dt.UTC)  # 10:00 in Tokyo
DAY = dt.date(2026, 12, 4)
NAMES = ("青木", "井上", "上田", "江口")  # asks; volunteers; volunteers; busy at that time


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOW)


@pytest.fixture
def send(db: Database, clock: FakeClock) -> Iterator[Any]:
    made: list[Sender] = []

    def run() -> None:
        with db.write() as s:
            plan(s, now=clock.now)
        sender = Sender(db, paths=f.home_paths(), config=FAST, clock=clock)
        made.append(sender)
        sender.run_until_idle()

    yield run
    for sender in made:
        sender.stop()


@pytest.fixture
def roster(db: Database, line: LineEmulator) -> dict[str, int]:
    """Four teachers on LINE in one classroom's group; 青木 on 11:00–15:00 today (reminded at once), 江口 on
    12:00–14:00 elsewhere that day; the "Ask for cover" button on."""
    with db.write() as s:
        room = f.classroom(s, "本校", line_group_id=GROUP, quiet_hours=None)
        other = f.classroom(s, "駅前校", quiet_hours=None)
        teachers = [f.teacher(s, name, n) for n, name in enumerate(NAMES, start=1)]
        shift = f.shift(s, room, teachers[0], DAY, "11:00", "15:00", now=NOW, status=ShiftStatus.CONFIRMED)
        f.shift(s, other, teachers[3], DAY, "12:00", "14:00", now=NOW, status=ShiftStatus.CONFIRMED)
        f.shift(s, room, teachers[1], DAY, "18:00", "20:00", now=NOW, status=ShiftStatus.CONFIRMED)
        keys.LINE_COVER_BUTTON.write(s, True)
        ids = {name: t.id for name, t in zip(NAMES, teachers, strict=True)} | {"shift": shift.id}
    for n, name in enumerate(NAMES, start=1):
        line.add_user(user_id(n), name)
    line.add_group(GROUP, "本校の講師", [user_id(n) for n in range(1, len(NAMES) + 1)])
    return ids


def _pushes(line: LineEmulator, who: str) -> list[InboxMessage]:
    return [m for m in line.inbox(who) if m.via == "push"]


def _replies(line: LineEmulator, who: str) -> list[str]:
    return ["\n".join(lines_of(m.message)) for m in line.inbox(who) if m.via == "reply"]


def _wait_reply(line: LineEmulator, who: str, count: int) -> list[str]:
    assert wait_until(lambda: len(_replies(line, who)) >= count)
    return _replies(line, who)


def _shift_teacher(db: Database, shift_id: int) -> int:
    with db.read() as s:
        shift = s.get(Shift, shift_id)
        assert shift is not None
        return shift.teacher_id


def test_a_request_from_the_reminder_goes_through_a_call_two_volunteers_and_an_assignment(
        db: Database, line: LineEmulator, receiver: WebhookReceiver, send: Any, roster: dict[str, int]) -> None:
    send()
    [reminder] = _pushes(line, user_id(1))
    assert [a["label"] for a in postback_actions(reminder.message)] == ["代講を頼む"]

    line.tap(user_id(1), label="代講を頼む")
    assert receiver.dispatcher.wait_handled(1, timeout=60)
    [passed] = _wait_reply(line, user_id(1), 1)
    assert "担当者に伝えました" in passed
    with db.read() as s:
        [request] = cover.requests(s)
    assert (request.state, request.teacher_name, request.shift_id) == (CoverState.OPEN, "青木", roster["shift"])
    assert _shift_teacher(db, roster["shift"]) == roster["青木"]  # nothing changes without the manager

    with db.write() as s:
        cover_call.call(s, request.id, now=NOW, to_group=True)
    send()
    [call] = _pushes(line, GROUP)
    [take] = postback_actions(call.message)
    assert take["label"] == "引き受けます" and "青木" in "\n".join(lines_of(call.message))

    for n in (2, 3, 4):  # 井上 and 上田 are free at 11:00–15:00; 江口 is on a shift at 駅前校
        line.postback(user_id(n), take["data"], group_id=GROUP)  # tapped in the group, as LINE sends it
    assert receiver.dispatcher.wait_handled(4, timeout=60)
    answers = _wait_reply(line, GROUP, 3)  # a reply to a tap in the group is said in the group
    assert ["担当者が決めてご連絡します" in a for a in answers] == [True, True, False]
    assert "同じ時間にシフトがある" in answers[2]
    with db.read() as s:
        [request] = cover.requests(s)
    assert request.state == CoverState.CALLING
    assert [(v.teacher_name, v.free) for v in request.volunteers] == [("井上", True), ("上田", True)]
    assert _shift_teacher(db, roster["shift"]) == roster["青木"]  # still nothing without the manager

    with db.write() as s:
        cover.assign(s, request.id, roster["井上"], now=NOW)
    assert _shift_teacher(db, roster["shift"]) == roster["井上"]
    send()
    send()  # planning again adds nothing: each message once

    released = [lines_of(m.message) for m in _pushes(line, user_id(1))[1:]]
    assert len(released) == 1 and "\n".join(released[0]).count("11:00") >= 1
    new_teacher = _pushes(line, user_id(2))
    with db.read() as s:
        kinds_sent = sorted(s.scalars(select(Delivery.kind).where(Delivery.teacher_id == roster["井上"],
                                                                  Delivery.status == "sent")))
    assert kinds_sent == [DeliveryKind.COVER_ASSIGNED, DeliveryKind.SHIFT_REMINDER]
    assert len(new_teacher) == 2
    assert any("代講をお願いします" in "\n".join(lines_of(m.message)) for m in new_teacher)
    assert _pushes(line, user_id(3)) == []  # the volunteer not chosen hears nothing more
    assert len(_pushes(line, user_id(4))) == 1  # 江口: only the reminder of their own shift at 駅前校
    with db.read() as s:
        [done] = cover.requests(s, still_open=False)
    assert done.state == CoverState.ASSIGNED and done.assigned_teacher_name == "井上"
    assert [(step.step, step.teacher_name) for step in done.steps] == [
        (CoverStep.ASKED, "青木"), (CoverStep.CALLED, None), (CoverStep.VOLUNTEERED, "井上"),
        (CoverStep.VOLUNTEERED, "上田"), (CoverStep.REFUSED, "江口"), (CoverStep.ASSIGNED, "井上")]


def test_a_text_asks_for_the_one_shift_that_day_offers_a_choice_for_several_and_says_when_there_is_none(
        db: Database, line: LineEmulator, receiver: WebhookReceiver, roster: dict[str, int]) -> None:
    line.send_text(user_id(1), "12/4 代講お願いします")  # 青木: one shift that day
    assert "担当者に伝えました" in _wait_reply(line, user_id(1), 1)[0]
    line.send_text(user_id(1), "12/9 休みたいです")  # no shift that day
    assert "シフトはありません" in _wait_reply(line, user_id(1), 2)[1]
    line.send_text(user_id(1), "こんにちは")  # no cover asked: no answer
    assert receiver.dispatcher.wait_handled(3, timeout=60)

    with db.write() as s:  # 井上 has a second shift today
        shift = s.get(Shift, roster["shift"])
        assert shift is not None
        f.shift(s, shift.classroom, rules.get_teacher(s, roster["井上"]), DAY, "15:30", "17:00", now=NOW,
                status=ShiftStatus.CONFIRMED)
    line.send_text(user_id(2), "１２月４日　代わりをお願いできますか")
    assert receiver.dispatcher.wait_handled(4, timeout=60)
    assert wait_until(lambda: any(m.via == "reply" for m in line.inbox(user_id(2))))
    [choice] = [m for m in line.inbox(user_id(2)) if m.via == "reply"]
    labels = [a["label"] for a in postback_actions(choice.message)]
    assert len(labels) == 2 and "15:30" in labels[0] and "18:00" in labels[1]
    line.tap(user_id(2), message_id=choice.message_id, label=labels[1])
    assert receiver.dispatcher.wait_handled(5, timeout=60)
    assert wait_until(lambda: len([m for m in line.inbox(user_id(2)) if m.via == "reply"]) == 2)
    with db.read() as s:
        asked = [(r.teacher_name, r.start_time) for r in cover.requests(s)]
    assert asked == [("青木", dt.time(11, 0)), ("井上", dt.time(18, 0))]
    assert _replies(line, user_id(3)) == []


def test_forged_or_foreign_postbacks_open_nothing(db: Database, line: LineEmulator, receiver: WebhookReceiver,
                                                  roster: dict[str, int], caplog: pytest.LogCaptureFixture) -> None:
    with db.write() as s:
        sign = cover_messages.signer(s)
    assert sign is not None
    line.postback(user_id(1), f"cv:pick:{roster['shift']}:forged")
    line.postback(user_id(2), sign("pick", roster["shift"]))  # signed, but not 井上's shift
    line.postback(user_id(1), "av:week:1:x")  # another feature's postback
    assert receiver.dispatcher.wait_handled(3, timeout=60)
    with db.read() as s:
        assert cover.requests(s, still_open=False) == []
    assert not [r for r in caplog.records if r.name == "core.receiving.acknowledge"]


def test_a_call_s_button_counts_only_from_the_teacher_or_the_group_it_was_sent_to(
        db: Database, line: LineEmulator, receiver: WebhookReceiver, send: Any, roster: dict[str, int],
        caplog: pytest.LogCaptureFixture) -> None:
    with db.write() as s:
        request = cover.ask(s, roster["shift"], roster["青木"], now=NOW)
        cover_call.call(s, request.id, now=NOW, teacher_ids=[roster["井上"]])
        cover_call.call(s, request.id, now=NOW, to_group=True)
        sign = cover_messages.signer(s)
    assert sign is not None
    send()
    [inoue_take] = postback_actions(_pushes(line, user_id(2))[-1].message)
    [group_take] = postback_actions(_pushes(line, GROUP)[-1].message)
    line.add_user(user_id(9), "部外者")
    with caplog.at_level("WARNING"):
        line.postback(user_id(3), inoue_take["data"])  # 上田 was never called in person: 井上's button, passed on
        line.postback(user_id(3), group_take["data"])  # the group's button, but sent from 上田's own chat
        line.postback(user_id(3), sign("take", request.id))  # the older form of the button, never sent to 上田
        line.postback(user_id(9), group_take["data"], group_id=GROUP)  # in the group, but no teacher
        assert receiver.dispatcher.wait_handled(4, timeout=60)
    with db.read() as s:
        assert cover.request(s, request.id).volunteers == ()
    assert _replies(line, user_id(3)) == [] and _replies(line, GROUP) == []
    assert sum("was not sent to was ignored" in r.getMessage() for r in caplog.records) == 3

    line.postback(user_id(2), inoue_take["data"])  # 井上's own button from 井上's chat
    line.postback(user_id(3), group_take["data"], group_id=GROUP)  # 上田 taps it in the group it went to
    assert "担当者が決めてご連絡します" in _wait_reply(line, user_id(2), 1)[0]
    assert "担当者が決めてご連絡します" in _wait_reply(line, GROUP, 1)[0]
    with db.read() as s:
        assert [v.teacher_name for v in cover.request(s, request.id).volunteers] == ["井上", "上田"]


@pytest.mark.parametrize(("text", "day"), [
    ("12/5 代講お願いします", dt.date(2026, 12, 5)),
    ("１２月５日　代わりをお願いします", dt.date(2026, 12, 5)),
    ("5日はお休みさせてください", dt.date(2026, 12, 5)),
    ("1/8 cover please", dt.date(2027, 1, 8)),
    ("12/5 よろしくお願いします", None),
    ("代講お願いします", None),
    ("2/30 代講", None),
    ("12/5 休み希望です", None),  # a wish for the roster (シフト希望), not cover of a shift
])
def test_asked_day_reads_the_day_a_teacher_asks_cover_for(text: str, day: dt.date | None) -> None:
    assert cover.asked_day(text, dt.date(2026, 12, 2)) == day


def test_the_manager_can_decline_and_a_request_is_withdrawn_when_its_shift_changes(
        db: Database, roster: dict[str, int]) -> None:
    with db.write() as s:
        first = cover.ask(s, roster["shift"], roster["青木"], now=NOW)
        assert cover.ask(s, roster["shift"], roster["青木"], now=NOW).id == first.id  # asked twice: one request
        cover.decline(s, first.id, now=NOW)
        second = cover.ask(s, roster["shift"], roster["青木"], now=NOW)
        rules.edit_shift(s, roster["shift"], rules.ShiftChange(end_time=dt.time(16, 0)), now=NOW)
        assert cover.withdraw_stale(s, now=NOW) == [second.id]
        assert cover.open_count(s) == 0
        with pytest.raises(Exception, match="declined|withdrawn"):
            cover.assign(s, second.id, roster["上田"], now=NOW)
    assert _shift_teacher(db, roster["shift"]) == roster["青木"]


def test_an_english_classroom_s_teachers_get_the_buttons_and_answers_in_english(
        db: Database, line: LineEmulator, receiver: WebhookReceiver, send: Any) -> None:
    from core.receiving import acknowledge
    with db.write() as s:
        room = f.classroom(s, "Main", language="en", quiet_hours=None)
        teacher = f.teacher(s, "Ada", 1)
        f.shift(s, room, teacher, DAY, "11:00", "15:00", now=NOW, status=ShiftStatus.CONFIRMED)
        keys.LINE_COVER_BUTTON.write(s, True)
        acknowledge.enable(s, True)
    line.add_user(user_id(1), "Ada")
    send()
    [reminder] = _pushes(line, user_id(1))
    assert [a["label"] for a in postback_actions(reminder.message)] == ["OK", "Ask for cover"]
    line.tap(user_id(1), label="Ask for cover")
    assert "passed to the manager" in _wait_reply(line, user_id(1), 1)[0]
    line.send_text(user_id(1), "12/9 I need cover")
    assert "no confirmed shift" in _wait_reply(line, user_id(1), 2)[1]


def test_the_reminder_s_own_builder_carries_both_buttons_as_the_lean_path_does(db: Database, roster: dict[str, int],
                                                                               clock: FakeClock) -> None:
    from core.outbox import queue
    from core.receiving import acknowledge
    from core.sending import builders
    with db.write() as s:
        acknowledge.enable(s, True)
        delivery_id, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER, dedup="test:reminder", due_at=NOW, now=NOW, recipient=user_id(1),
            teacher_id=roster["青木"], subject_type="shift", subject_id=roster["shift"], subject_version=1)
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None
        built = builders.prepare(s, delivery, NOW, f.home_paths())
        sign = cover_messages.signer(s)
        assert sign is not None
    [message] = built.messages
    actions = postback_actions(message)
    assert [a["label"] for a in actions] == ["了解", "代講を頼む"]
    assert actions[1]["data"] == sign("ask", delivery_id)


def test_without_a_keyring_the_了解_handler_passes_over_a_cover_postback_in_silence(
        db: Database, line: LineEmulator, receiver: WebhookReceiver, roster: dict[str, int],
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import keyring
    from keyring.backends import fail

    monkeypatch.setenv("SHIFTCAST_LINE_TOKEN", TOKEN)
    keyring.set_keyring(fail.Keyring())
    with caplog.at_level("WARNING"):
        line.postback(user_id(1), f"cv:take:1:{'A' * 43}")
        assert receiver.dispatcher.wait_handled(1, timeout=60)
    assert not [r for r in caplog.records if r.name == "core.receiving.acknowledge"]
    assert [r.name for r in caplog.records if "cover postback was ignored" in r.getMessage()] == ["core.receiving.cover"]


def test_a_volunteer_after_the_assignment_hears_the_shift_needs_no_cover_any_more(
        db: Database, line: LineEmulator, receiver: WebhookReceiver, roster: dict[str, int]) -> None:
    with db.write() as s:
        request = cover.ask(s, roster["shift"], roster["青木"], now=NOW)
        [call] = cover_call.call(s, request.id, now=NOW, teacher_ids=[roster["井上"]])
        cover.assign(s, request.id, roster["上田"], now=NOW)
        sign = cover_messages.signer(s)
    assert sign is not None
    line.postback(user_id(2), sign("call", call))
    assert "すでに決まったか" in _wait_reply(line, user_id(2), 1)[0]
    with db.read() as s:
        done = cover.request(s, request.id)
    assert done.volunteers == () and done.steps[-1].step == CoverStep.REFUSED
    assert _shift_teacher(db, roster["shift"]) == roster["上田"]


def _roster_rows(db: Database) -> list[tuple[object, ...]]:
    with db.read() as s:
        return [(shift.id, shift.teacher_id, shift.local_date, shift.start_time, shift.end_time, shift.status,
                 shift.version) for shift in s.scalars(select(Shift).order_by(Shift.id))]


def test_a_declined_request_is_told_to_the_teacher_who_asked_once_with_the_reason_and_the_roster_stays(
        db: Database, line: LineEmulator, receiver: WebhookReceiver, send: Any, roster: dict[str, int]) -> None:
    send()
    line.tap(user_id(1), label="代講を頼む")
    assert "担当者に伝えました" in _wait_reply(line, user_id(1), 1)[0]
    with db.read() as s:
        [request] = cover.requests(s)
    before = _roster_rows(db)

    with db.write() as s:
        made = cover_declined.decline(s, request.id, now=NOW, reason="この日は代わりの先生がいません")
    assert len(made) == 1
    send()
    send()  # planning and sending again add nothing: one decline message

    [reminder, *after] = _pushes(line, user_id(1))
    assert [a["label"] for a in postback_actions(reminder.message)] == ["代講を頼む"]
    [declined] = after
    text = "\n".join(lines_of(declined.message))
    assert "代講は見送り" in text and "担当者より：この日は代わりの先生がいません" in text and "11:00" in text
    assert _roster_rows(db) == before  # nothing on the roster changed
    for n in (2, 3, 4):  # the others hear nothing of it (each has only their own reminders)
        assert not any("見送り" in "\n".join(lines_of(m.message)) for m in _pushes(line, user_id(n)))
    assert _pushes(line, GROUP) == []
    with db.read() as s:
        done = cover.request(s, request.id)
        sent = s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.COVER_DECLINED)).all()
    assert (done.state, done.decline_reason, done.steps[-1].step) == (CoverState.DECLINED, "この日は代わりの先生がいません",
                                                                      CoverStep.DECLINED)
    assert [(d.teacher_id, d.status) for d in sent] == [(roster["青木"], DeliveryStatus.SENT)]


def test_a_decline_without_a_reason_says_none_in_english_and_waits_for_quiet_hours_to_end(
        db: Database, line: LineEmulator, send: Any, clock: FakeClock) -> None:
    night = dt.datetime(2026, 12, 3, 14, 0, tzinfo=dt.UTC)  # 23:00 in Tokyo, inside 22:00–07:00
    with db.write() as s:
        room = f.classroom(s, "Main", language="en")  # quiet hours 22:00–07:00
        teacher = f.teacher(s, "Ada", 1)
        shift = f.shift(s, room, teacher, DAY, "11:00", "15:00", now=night, status=ShiftStatus.CONFIRMED)
        request = cover.ask(s, shift.id, teacher.id, now=night, reason="dentist")
        cover_declined.decline(s, request.id, now=night)
        [waiting] = s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.COVER_DECLINED)).all()
        assert waiting.next_attempt_at == dt.datetime(2026, 12, 3, 22, 0, tzinfo=dt.UTC)  # 07:00 in Tokyo
    line.add_user(user_id(1), "Ada")
    clock.now = dt.datetime(2026, 12, 3, 22, 0, tzinfo=dt.UTC)
    send()
    declined = [m for m in _pushes(line, user_id(1)) if "Cover not arranged" in "\n".join(lines_of(m.message))]
    assert len(declined) == 1
    text = "\n".join(lines_of(declined[0].message))
    assert "stays yours" in text and "From the manager" not in text and "dentist" not in text


def test_a_request_superseded_by_the_manager_giving_the_shift_to_another_is_told_by_the_correction_alone(
        db: Database, line: LineEmulator, receiver: WebhookReceiver, send: Any, roster: dict[str, int]) -> None:
    send()
    line.tap(user_id(1), label="代講を頼む")
    assert receiver.dispatcher.wait_handled(1, timeout=60)
    with db.write() as s:  # the manager moves the shift in the grid instead of answering the request
        rules.edit_shift(s, roster["shift"], rules.ShiftChange(teacher_id=roster["上田"]), now=NOW)
    send()
    send()
    with db.read() as s:
        [request] = cover.requests(s, still_open=False)
        told = sorted(s.scalars(select(Delivery.kind).where(Delivery.teacher_id == roster["青木"],
                                                            Delivery.status == DeliveryStatus.SENT)))
    assert request.state == CoverState.WITHDRAWN
    assert told == [DeliveryKind.SHIFT_CORRECTION, DeliveryKind.SHIFT_REMINDER]  # no decline, no second notice
    [_, released] = _pushes(line, user_id(1))
    assert "担当が変更" in "\n".join(lines_of(released.message))


def test_a_decline_to_a_teacher_line_cannot_reach_goes_by_e_mail_beside_a_canceled_line_delivery(
        db: Database) -> None:
    """The decline is planned as every teacher message is (core/planning/context.py): with LINE then
    e-mail and LINE unable to reach them, the e-mail stands in for a LINE delivery recorded as canceled."""
    from core.roster import channel_choice

    with db.write() as s:
        room = f.classroom(s, "本校", quiet_hours=None)
        teacher = f.teacher(s, "青木", 1, email="aoki@example.com", email_opt_in=True,
                            channel=channel_choice.LINE_FALLBACK)
        f.line(teacher).unreachable_since = NOW
        shift = f.shift(s, room, teacher, DAY, "11:00", "15:00", now=NOW, status=ShiftStatus.CONFIRMED)
        request = cover.ask(s, shift.id, teacher.id, now=NOW, reason="通院")
        made = cover_declined.decline(s, request.id, now=NOW)
        rows = {d.channel: d for d in s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.COVER_DECLINED))}
    assert sorted(rows) == ["email", "line"]
    assert made == [rows["email"].id]
    assert (rows["line"].status, rows["line"].cancel_reason) == (DeliveryStatus.CANCELED, LineCancel.UNREACHABLE)
    assert (rows["email"].status, rows["email"].linked_delivery_id, rows["email"].recipient) == (
        DeliveryStatus.QUEUED, rows["line"].id, "aoki@example.com")
