"""Reminders not acknowledged: the pure rule (which shifts wait for their 了解, and when the manager
hears of one) and the readiness check's line, read from a real database, in English and Japanese."""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from core.outbox import queue
from core.planning import unacknowledged
from core.planning.unacknowledged import GRACE, Reminded
from core.setup import readiness
from core.setup.readiness import Fix, State
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Classroom, Delivery, DeliveryKind, DeliveryStatus, ShiftStatus
from core.texts import render
from tests import factories as f

NOW = dt.datetime(2026, 12, 1, 5, 0, tzinfo=dt.UTC)  # 14:00 in Tokyo
TOKYO = ZoneInfo("Asia/Tokyo")
HOURS = dt.timedelta(hours=3)


def _reminded(**changes: object) -> Reminded:
    starts = NOW + dt.timedelta(hours=2)
    base = Reminded(shift_id=1, version=1, teacher_id=1, teacher="佐藤", classroom_id=1, classroom="本校", starts_at=starts,
                    local_start=starts.astimezone(TOKYO), canceled=False, sent_at=NOW - dt.timedelta(minutes=5),
                    acknowledged_at=None, window=HOURS)
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(("case", "reminded", "button_on", "waits"), [
    ("sent, not acknowledged, within the window", _reminded(), True, True),
    ("acknowledged", _reminded(acknowledged_at=NOW - dt.timedelta(minutes=1)), True, False),
    ("not sent yet", _reminded(sent_at=None), True, False),
    ("the 了解 button is off", _reminded(), False, False),
    ("outside the window", _reminded(starts_at=NOW + HOURS + dt.timedelta(minutes=1)), True, False),
    ("at the window's edge", _reminded(starts_at=NOW + HOURS), True, True),
    ("a longer window of its classroom", _reminded(starts_at=NOW + dt.timedelta(hours=5),
                                                  window=dt.timedelta(hours=6)), True, True),
    ("the shift was canceled", _reminded(canceled=True), True, False),
    ("the shift has started", _reminded(starts_at=NOW), True, False),
])
def test_which_shifts_wait_for_their_acknowledgement(case: str, reminded: Reminded, button_on: bool,
                                                      waits: bool) -> None:
    assert unacknowledged.waiting(reminded, now=NOW, button_on=button_on) is waits, case
    assert (unacknowledged.not_acknowledged([reminded], now=NOW, button_on=button_on) == [reminded]) is waits


def test_the_soonest_is_listed_first() -> None:
    later, sooner = _reminded(shift_id=1), _reminded(shift_id=2, starts_at=NOW + dt.timedelta(hours=1))
    assert unacknowledged.not_acknowledged([later, sooner], now=NOW, button_on=True) == [sooner, later]


@pytest.mark.parametrize(("case", "reminded", "expected"), [
    ("the teacher gets GRACE to tap", _reminded(), NOW - dt.timedelta(minutes=5) + GRACE),
    ("a reminder sent long before waits for the window to open",
     _reminded(sent_at=NOW - dt.timedelta(days=1)), NOW + dt.timedelta(hours=2) - HOURS),
    ("too close to the start: no nudge", _reminded(sent_at=NOW + dt.timedelta(hours=2) - GRACE), None),
    ("nothing sent: no nudge", _reminded(sent_at=None), None),
])
def test_when_the_manager_is_told(case: str, reminded: Reminded, expected: dt.datetime | None) -> None:
    assert unacknowledged.nudge_at(reminded) == expected, case


def _sent_reminder(db: Database, name: str, n: int, start: str, *, acknowledged: bool = False,
                   status: ShiftStatus = ShiftStatus.CONFIRMED) -> int:
    with db.write() as s:
        room = s.scalar(select(Classroom).where(Classroom.name == "本校")) or f.classroom(s, "本校")
        teacher = f.teacher(s, name, n)
        shift = f.shift(s, room, teacher, NOW.astimezone(TOKYO).date(), start, "21:00", now=NOW, status=status)
        delivery_id, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER,
            dedup=queue.dedup_key(DeliveryKind.SHIFT_REMINDER, f"shift:{shift.id}", shift.version), due_at=NOW,
            now=NOW, recipient=f.reach(teacher).line_user_id, teacher_id=teacher.id, classroom_id=room.id,
            subject_type="shift", subject_id=shift.id, subject_version=shift.version)
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None
        delivery.status, delivery.sent_at = DeliveryStatus.SENT, NOW - dt.timedelta(minutes=40)
        if acknowledged:
            delivery.acknowledged_at = NOW - dt.timedelta(minutes=30)
        return shift.id


def _acknowledged_line(db: Database) -> readiness.Requirement | None:
    found = {r.key: r for r in readiness.check(db, now=NOW, autostart=True)}
    return found.get("acknowledged")


@pytest.mark.backends("sqlite", "postgresql")
def test_the_readiness_check_names_the_shifts_whose_reminder_is_not_acknowledged(db: Database) -> None:
    _sent_reminder(db, "佐藤", 1, "17:00")
    _sent_reminder(db, "鈴木", 2, "16:00")
    _sent_reminder(db, "田中", 3, "16:30", acknowledged=True)
    _sent_reminder(db, "高橋", 4, "19:00")  # starts in 5 hours: outside the window
    assert _acknowledged_line(db) is None  # the 了解 button is off: nothing to say

    with db.write() as s:
        keys.LINE_ACK_BUTTON.write(s, True)
    line = _acknowledged_line(db)
    assert line is not None
    assert (line.state, line.fix) == (State.WARNING, Fix.UNACKNOWLEDGED)
    assert render(line.says, "en") == ("2 shifts in the next 3 hours are not acknowledged: "
                                       "鈴木 (本校 16:00), 佐藤 (本校 17:00)")
    assert render(line.says, "ja") == ("3時間以内に始まる2件のシフトに了解がありません: "
                                       "鈴木さん（本校 16:00）、佐藤さん（本校 17:00）")
    assert render(line.fix_says, "ja") == "これらの講師にリマインダーを見たかご確認ください。"  # type: ignore[arg-type]


@pytest.mark.backends("sqlite", "postgresql")
def test_a_classroom_with_a_longer_window_counts_later_shifts(db: Database) -> None:
    _sent_reminder(db, "高橋", 1, "19:00")
    with db.write() as s:
        keys.LINE_ACK_BUTTON.write(s, True)
    line = _acknowledged_line(db)
    assert line is not None and line.state is State.OK
    assert render(line.says, "en") == "every reminder for a shift in the next 3 hours is acknowledged"
    assert render(line.says, "ja") == "3時間以内に始まるシフトのリマインダーはすべて了解済みです。"
    with db.write() as s:
        keys.NUDGE_HOURS.of(1).write(s, 6)
    line = _acknowledged_line(db)
    assert line is not None and line.state is State.WARNING
    assert render(line.says, "en") == "1 shift in the next 6 hours is not acknowledged: 高橋 (本校 19:00)"


@pytest.mark.backends("sqlite", "postgresql")
def test_a_canceled_shift_is_not_listed(db: Database) -> None:
    _sent_reminder(db, "佐藤", 1, "17:00", status=ShiftStatus.CANCELED)
    with db.write() as s:
        keys.LINE_ACK_BUTTON.write(s, True)
    line = _acknowledged_line(db)
    assert line is not None and line.state is State.OK
