"""Availability requests (シフト希望) as the manager and the teachers live them: `shiftcast availability
ask` as a real process, the real sender pushing each teacher the month's buttons to the LINE emulator
(whose validation follows LINE's reference, time pickers included), the teachers answering through
the emulator's signed webhooks — buttons, time pickers, text that reads, text that does not, after
the deadline, corrected twice — the replies on their phones, `availability remind` reaching exactly
the two who never answered, and `availability status` saying so."""

from __future__ import annotations

import datetime as dt
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from core.emulator import LineEmulator
from core.emulator.records import InboxMessage
from core.emulator.simulate import postback_actions
from core.emulator.validation import compact_json_size
from core.receiving.server import WebhookReceiver
from core.roster import availability
from core.sending.sender import Sender
from core.store.db import Database
from core.store.models import AvailabilityRequest
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import FakeClock, user_id
from tests.test_cli_language import shiftcast

# The emulator with signed webhooks and the receiver with every standard handler, as the 了解 tests have
# them, on this module's clock.
from tests.test_line_acknowledge import FAST, line, receiver  # noqa: F401
from tests.waiting import wait_until

pytestmark = pytest.mark.slow  # every test here starts real processes
NAMES = [f"講師{n:02d}" for n in range(1, 13)]


@pytest.fixture
def clock() -> FakeClock:
    # The CLI runs as a process on the real clock, so the sender and receiver start from it too.
    real = dt.datetime.now(dt.UTC)
    return FakeClock(real.replace(microsecond=real.microsecond // 1000 * 1000))


def _send(db: Database, clock: FakeClock) -> None:
    clock.now = max(clock.now, dt.datetime.now(dt.UTC))  # what the CLI's process queued is due by now
    sender = Sender(db, paths=f.home_paths(), config=FAST, clock=clock)
    try:
        sender.run_until_idle()
    finally:
        sender.stop()


def _month(clock: FakeClock) -> tuple[int, int]:
    """The month after next: its days are all ahead, whatever today is."""
    today = clock.now.date()
    later = (today.replace(day=1) + dt.timedelta(days=62)).replace(day=1)
    return later.year, later.month


class Teachers:
    """The teachers' side: what each received, and their taps and messages through the emulator."""

    def __init__(self, line: LineEmulator, receiver: WebhookReceiver, clock: FakeClock) -> None:
        self.line, self.receiver, self.clock, self.events = line, receiver, clock, 0

    def inbox(self, n: int, via: str | None = None) -> list[InboxMessage]:
        return [m for m in self.line.inbox(user_id(n)) if via is None or m.via == via]

    def _handled(self) -> None:
        self.events += 1
        assert self.receiver.dispatcher.wait_handled(self.events, timeout=60)

    def _later(self) -> None:
        self.clock.advance(minutes=1)  # a person takes a moment between one tap or message and the next

    def _replied(self, n: int, before: int) -> list[InboxMessage]:
        assert wait_until(lambda: len(self.inbox(n, "reply")) > before), f"no reply to teacher {n}"
        return self.inbox(n, "reply")[before:]

    def tap(self, n: int, shown: str) -> list[InboxMessage]:
        """Tap the button whose chat words are `shown` ("1/5 ○") in the newest request they received."""
        before = len(self.inbox(n, "reply"))
        request = [m for m in self.inbox(n, "push")][-1]
        [action] = [a for a in postback_actions(request.message) if a.get("displayText") == shown]
        self._later()
        self.line.postback(user_id(n), action["data"])
        self._handled()
        return self._replied(n, before)

    def pick(self, n: int, day: int, time: str) -> list[InboxMessage]:
        """Tap △ on `day` of the newest request and choose `time` in LINE's time picker."""
        before = len(self.inbox(n, "reply"))
        request = [m for m in self.inbox(n, "push")][-1]
        pickers = postback_actions(request.message, "datetimepicker")
        action = pickers[day - 1]  # one picker a day, in the order of the days
        assert action["mode"] == "time"
        self._later()
        self.line.pick(user_id(n), action, time)
        self._handled()
        return self._replied(n, before)

    def pick_until(self, n: int, reply: InboxMessage, time: str) -> list[InboxMessage]:
        """Choose until when in the picker the reply to a △ offered as a quick reply."""
        before = len(self.inbox(n, "reply"))
        [action] = postback_actions(reply.message, "datetimepicker")
        self._later()
        self.line.pick(user_id(n), action, time)
        self._handled()
        return self._replied(n, before)

    def write(self, n: int, text: str) -> list[InboxMessage]:
        before = len(self.inbox(n, "reply"))
        self._later()
        self.line.send_text(user_id(n), text)
        self._handled()
        return self._replied(n, before)


def _status(home: Path, month: str) -> dict[str, Any]:
    done = shiftcast(home, "availability", "status", "--month", month, "--classroom", "本校", "--json")
    assert done.returncode == 0, done.stderr
    return {row["name"]: row for row in json.loads(done.stdout)["teachers"]}


def test_teachers_answer_by_buttons_and_text_and_only_the_silent_ones_are_reminded(
        db: Database, paths: DataPaths, line: LineEmulator, receiver: WebhookReceiver, clock: FakeClock,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    year, month = _month(clock)
    shown_month = f"{year}-{month:02d}"
    deadline = clock.now.date() + dt.timedelta(days=10)
    with db.write() as s:
        f.classroom(s, "本校")
        for n, name in enumerate(NAMES, start=1):
            f.teacher(s, name, n)
            line.add_user(user_id(n), name)
        f.teacher(s, "未登録", 99, line_user_id=None, line_opt_in=False)  # not on LINE: not asked

    dry = shiftcast(paths.home, "--lang", "en", "availability", "ask", "--month", shown_month, "--classroom", "本校",
                    "--deadline", deadline.isoformat(), "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "would ask 12 teachers" in dry.stdout and "costs 12 LINE messages" in dry.stdout
    assert "未登録" in dry.stdout  # named as not reachable
    asked = shiftcast(paths.home, "--lang", "ja", "availability", "ask", "--month", shown_month, "--classroom", "本校",
                      "--deadline", deadline.isoformat())
    assert asked.returncode == 0, asked.stderr
    assert "講師12人に依頼しました" in asked.stdout
    _send(db, clock)
    for n in range(1, 13):
        [request] = teachers_inbox = [m for m in line.inbox(user_id(n))]
        assert request.message["type"] == "flex" and request.via == "push", teachers_inbox
        assert compact_json_size(request.message["contents"]) <= 50 * 1024  # the emulator took it: within limits
    sample = line.inbox(user_id(1))[0].message
    days = (dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)).day
    assert len([a for a in postback_actions(sample) if a["label"] == "○"]) == days
    assert len(postback_actions(sample, "datetimepicker")) == days
    assert "シフト希望" in sample["altText"]

    people = Teachers(line, receiver, clock)
    # 1: buttons — ○ on the 1st, × on the 2nd, △ on the 3rd from 17:00 and, in the follow-up, until 21:00
    people.tap(1, f"{month}/1 ○")
    [after_no] = people.tap(1, f"{month}/2 ×")
    assert "× を受け付けました" in after_no.message["text"] and "回答 2日" in after_no.message["text"]
    [asks_until] = people.pick(1, 3, "17:00")
    assert "quickReply" in asks_until.message
    [whole_day] = people.pick_until(1, asks_until, "21:00")
    assert "17:00〜21:00" in whole_day.message["text"]
    # 2–4: text that reads
    [summary] = people.write(2, "全部OK")
    assert f"回答 {days}日" in summary.message["text"]
    people.write(3, "火木 17時以降")
    people.write(4, f"{month}/5 ×")
    # 5: text that could mean anything: explained, the buttons again, nothing recorded; then an answer
    explained = people.write(5, "たぶん大丈夫です")
    assert "読み取れませんでした" in explained[0].message["text"]
    assert explained[1].message["type"] == "flex" and postback_actions(explained[1].message)
    people.write(5, "全部×")
    # 7: corrected twice — text, a button, text again
    people.write(7, f"{month}/5 ×")
    people.tap(7, f"{month}/5 ○")
    [last] = people.write(7, f"{month}/5 17時-21時")
    assert "17:00〜21:00" in last.message["text"]
    # 8–10: a mix
    people.tap(8, f"{month}/10 ○")
    people.write(9, "月水金 ○")
    people.write(10, f"{month}/1 ○ {month}/2 ×")

    # The deadline passes; 6 answers late; 11 and 12 never answer.
    clock.advance(days=11)
    people.write(6, "全部OK")

    would = shiftcast(paths.home, "--lang", "en", "availability", "remind", "--month", shown_month,
                      "--classroom", "本校", "--dry-run")
    assert would.returncode == 0, would.stderr
    assert "would remind 2 teachers who have not answered: 講師11, 講師12" in would.stdout, would.stdout
    assert "costs 2 LINE messages" in would.stdout
    reminded = shiftcast(paths.home, "--lang", "en", "availability", "remind", "--month", shown_month,
                         "--classroom", "本校")
    assert reminded.returncode == 0, reminded.stderr
    assert "reminded 2 teachers" in reminded.stdout
    _send(db, clock)
    pushes = {n: len(people.inbox(n, "push")) for n in range(1, 13)}
    assert pushes == {n: 2 if n in (11, 12) else 1 for n in range(1, 13)}  # exactly those two
    assert people.inbox(11, "push")[-1].message["altText"].startswith("【再送】")

    status = _status(paths.home, shown_month)
    assert [name for name, row in status.items() if not row["answered"]] == ["講師11", "講師12"]
    assert all(status[name]["reminded_at"] for name in ("講師11", "講師12"))
    assert [name for name, row in status.items() if row["late"]] == ["講師06"]
    assert status["講師07"]["corrections"] == 2
    assert status["講師07"]["days"][f"{year}-{month:02d}-05"] == {"answer": "hours", "from": "17:00:00",
                                                                  "until": "21:00:00"}
    assert status["講師01"]["days"][f"{year}-{month:02d}-03"] == {"answer": "hours", "from": "17:00:00",
                                                                  "until": "21:00:00"}
    assert len(status["講師02"]["days"]) == days and len(status["講師05"]["days"]) == days
    tuesdays = {d: a for d, a in status["講師03"]["days"].items()}
    assert tuesdays and all(dt.date.fromisoformat(d).weekday() in (1, 3) and a["from"] == "17:00:00"
                            for d, a in tuesdays.items())
    assert status["講師04"]["days"] == {f"{year}-{month:02d}-05": {"answer": "no", "from": None, "until": None}}
    with db.read() as s:
        request_id = s.query(AvailabilityRequest).one().id
        teacher_7 = next(a.teacher_id for a in availability.answers(s, request_id) if a.name == "講師07")
        history = availability.history(s, request_id, teacher_7)
    assert [(h.answer, h.source, h.replaced_at is None) for h in history] == [
        ("no", "text", False), ("yes", "buttons", False), ("hours", "text", True)]

    shown = shiftcast(paths.home, "--lang", "ja", "availability", "status", "--month", shown_month,
                      "--classroom", "本校")
    assert shown.returncode == 0, shown.stderr
    assert "12人中10人が回答済み" in shown.stdout and "締切後に回答" in shown.stdout and "未回答" in shown.stdout
    # The 了解 handler saw every one of these postbacks and said nothing about them.
    assert not [r for r in caplog.records if r.name == "core.receiving.acknowledge" and r.levelno >= logging.WARNING]


def test_a_forged_or_borrowed_button_changes_nothing(db: Database, paths: DataPaths, line: LineEmulator,
                                                     receiver: WebhookReceiver, clock: FakeClock,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    year, month = _month(clock)
    with db.write() as s:
        room = f.classroom(s, "本校")
        for n in (1, 2):
            f.teacher(s, NAMES[n - 1], n)
            line.add_user(user_id(n), NAMES[n - 1])
    asked = shiftcast(paths.home, "availability", "ask", "--month", f"{year}-{month:02d}", "--classroom", "本校",
                      "--deadline", (clock.now.date() + dt.timedelta(days=5)).isoformat(), "--teacher", NAMES[0])
    assert asked.returncode == 0, asked.stderr
    _send(db, clock)
    [request] = line.inbox(user_id(1))
    button = postback_actions(request.message)[0]["data"]
    line.postback(user_id(2), button)  # teacher 2 taps teacher 1's button (forwarded to them)
    line.postback(user_id(1), button[:-3] + "AAA")  # a made-up MAC
    line.postback(user_id(1), button.replace(":1:y:", ":2:y:"))  # another day, the first day's MAC
    line.send_text(user_id(2), "全部OK")  # teacher 2 was never asked: chat, not an answer
    line.send_text(user_id(1), f"{month}/6 代講お願いします")  # a request for cover: the cover handler's alone
    assert receiver.dispatcher.wait_handled(5, timeout=60)
    with db.read() as s:
        [request_row] = s.query(AvailabilityRequest).all()
        assert request_row.classroom_id == room.id
        assert not any(a.answered for a in availability.answers(s, request_row.id))
    assert [m for m in line.inbox(user_id(2)) if m.via == "reply"] == []
    assert wait_until(lambda: len([m for m in line.inbox(user_id(1)) if m.via == "reply"]) == 1)
    [answer] = [m for m in line.inbox(user_id(1)) if m.via == "reply"]
    assert "読み取れませんでした" not in answer.message.get("text", "")  # the cover handler's words, not ours
    # and no second reply was tried with the spent token
    assert not [r for r in caplog.records if r.name == "core.receiving.replies" and r.levelno >= logging.WARNING]
