"""An answer for a month that is over is refused the same way whether it is tapped or typed: nothing is
recorded and the teacher is told so, through the real receiver with the emulator's signed webhooks."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest

from core.emulator import LineEmulator
from core.emulator.simulate import postback_actions
from core.receiving.server import WebhookReceiver
from core.roster import availability
from core.sending.kinds import availability_request
from core.sending.sender import Sender
from core.store.db import Database
from tests import factories as f
from tests.linefixtures import FakeClock, line, receiver, user_id  # noqa: F401 - fixtures
from tests.test_line_acknowledge import FAST
from tests.waiting import wait_until

NOW = dt.datetime(2026, 11, 20, 1, 0, tzinfo=dt.UTC)  # 10:00 on 20 November in Tokyo
OVER = "2026年11月はすでに終わっているため、この回答は記録していません。"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOW)


@pytest.fixture
def asked(db: Database, line: LineEmulator, clock: FakeClock) -> Iterator[int]:
    """One teacher on LINE asked for November, the request's buttons on their phone."""
    with db.write() as s:
        room = f.classroom(s, "本校")
        f.teacher(s, "青木", 1)
        request_id = availability_request.ask(s, room.id, 2026, 11, dt.date(2026, 11, 25), None, now=clock.now).request_id
    line.add_user(user_id(1), "青木")
    sender = Sender(db, paths=f.home_paths(), config=FAST, clock=clock)
    try:
        sender.run_until_idle()
    finally:
        sender.stop()
    assert request_id is not None
    yield request_id


def _replies(line: LineEmulator) -> list[str]:
    return [m.message.get("text", "") for m in line.inbox(user_id(1)) if m.via == "reply"]


def _answered_days(db: Database, request_id: int) -> list[dt.date]:
    with db.read() as s:
        [mine] = availability.answers(s, request_id)
        return sorted(mine.days)


def test_a_tap_or_a_text_for_a_month_that_is_over_is_refused_with_the_same_reply(
        db: Database, line: LineEmulator, receiver: WebhookReceiver, clock: FakeClock, asked: int) -> None:
    [request] = [m for m in line.inbox(user_id(1)) if m.via == "push"]
    buttons = {a.get("displayText"): a["data"] for a in postback_actions(request.message)}
    line.postback(user_id(1), buttons["11/3 ○"])  # while November lasts: recorded
    assert wait_until(lambda: len(_replies(line)) == 1)
    assert _answered_days(db, asked) == [dt.date(2026, 11, 3)]

    clock.now = dt.datetime(2026, 11, 30, 15, 0, tzinfo=dt.UTC)  # 1 December 00:00 in Tokyo: November is over
    line.postback(user_id(1), buttons["11/5 ○"])
    assert wait_until(lambda: len(_replies(line)) == 2)
    line.send_text(user_id(1), "11/5 ○")
    assert wait_until(lambda: len(_replies(line)) == 3)
    line.send_text(user_id(1), "ありがとうございました")  # chat, not an answer: no reply
    assert receiver.dispatcher.wait_handled(4, timeout=60)
    tapped, typed = _replies(line)[1:]
    assert tapped == typed and tapped.startswith(OVER)
    assert _answered_days(db, asked) == [dt.date(2026, 11, 3)]
