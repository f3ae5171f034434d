"""Staffing needs (必要人数): a slot's number per weekday, a date's number over its weekday's, nobody on a
closed day; the month's needs against the shifts that cover each slot; bad input refused with nothing changed."""

from __future__ import annotations

import datetime as dt

import pytest

from core.errors import ValidationError
from core.planning.month_grid import load_month
from core.roster import closed_days, lesson_slots
from core.roster import needs as nd
from core.roster.lesson_slots import LessonSlot
from core.roster.needs import Need
from core.store.db import Database
from core.store.kinds import ShiftStatus
from core.store.models import Classroom
from core.texts import render
from tests import factories as f

T = dt.time
FIRST, SECOND = LessonSlot("1限", T(16, 50), T(18, 10)), LessonSlot("2限", T(18, 20), T(19, 40))
TUESDAY = dt.date(2027, 1, 12)  # 2027-01-11 is 成人の日, a national holiday


def _room(db: Database) -> int:
    with db.write() as s:
        room = f.classroom(s, "本校").id
        lesson_slots.set_slots(s, room, [FIRST, SECOND])
    return room


@pytest.mark.backends("sqlite", "postgresql")
def test_a_date_wins_over_its_weekday_and_a_closed_day_needs_nobody(db: Database) -> None:
    room = _room(db)
    with db.write() as s:
        nd.set_need(s, room, Need("1限", 2, weekday=1))  # Tuesdays
        nd.set_need(s, room, Need("1限", 3, weekday=0))  # Mondays
        nd.set_need(s, room, Need("1限", 1, weekday=1))  # the same Tuesday again: a new number
        nd.set_need(s, room, Need(" 2限 ", 4, day=TUESDAY))
        nd.set_need(s, room, Need("1限", 5, day=TUESDAY))
        closed_days.mark_closed(s, room, dt.date(2027, 1, 19))
    with db.read() as s:
        month = nd.needs_for_month(s, room, 2027, 1)
        listed = nd.classroom_needs(s, room)
    assert len(month) == 31 * 2
    assert month[(dt.date(2027, 1, 5), "1限")] == 1  # a Tuesday
    assert month[(dt.date(2027, 1, 5), "2限")] == 0  # nothing set
    assert month[(TUESDAY, "1限")] == 5 and month[(TUESDAY, "2限")] == 4  # the date's number
    assert month[(dt.date(2027, 1, 19), "1限")] == 0  # closed by the manager
    assert month[(dt.date(2027, 1, 11), "1限")] == 0  # a Monday, but 成人の日
    assert month[(dt.date(2027, 1, 18), "1限")] == 3
    assert listed == [Need("1限", 3, weekday=0), Need("1限", 1, weekday=1), Need("1限", 5, day=TUESDAY),
                      Need("2限", 4, day=TUESDAY)]


def test_a_classroom_with_no_needs_plans_without_them(db: Database, now: dt.datetime) -> None:
    room = _room(db)
    with db.read() as s:
        assert nd.needs_for_month(s, room, 2027, 1) == {}
        assert nd.coverage(s, room, 2027, 1) == []
    assert load_month(db, room, 2027, 1, now=now).coverage() == []


def test_coverage_counts_shifts_covering_the_whole_slot(db: Database, now: dt.datetime) -> None:
    room_id = _room(db)
    with db.write() as s:
        room = s.get(Classroom, room_id)
        assert room is not None
        nd.set_need(s, room_id, Need("1限", 2, weekday=1))
        nd.set_need(s, room_id, Need("2限", 1, weekday=1))
        sato, suzuki, tanaka, ito = (f.teacher(s, name, n) for n, name in enumerate(("佐藤", "鈴木", "田中", "伊藤"), 1))
        f.shift(s, room, sato, TUESDAY, "16:50", "19:40", now=now)  # both slots
        f.shift(s, room, suzuki, TUESDAY, "16:00", "18:10", now=now, status=ShiftStatus.CONFIRMED)  # 1限
        f.shift(s, room, tanaka, TUESDAY, "17:00", "19:40", now=now)  # starts after 1限 starts: 2限 only
        canceled = f.shift(s, room, ito, TUESDAY, "16:00", "21:00", now=now)
        canceled.status = ShiftStatus.CANCELED
        f.shift(s, room, ito, dt.date(2027, 1, 5), "18:20", "26:00", now=now)  # ends next day: covers 2限
    with db.read() as s:
        found = {(c.day, c.slot): c for c in nd.coverage(s, room_id, 2027, 1)}
    first, second = found[(TUESDAY, "1限")], found[(TUESDAY, "2限")]
    assert (first.needed, first.assigned, first.short, first.over) == (2, 2, 0, 0)
    assert (second.needed, second.assigned, second.short, second.over) == (1, 2, 0, 1)
    earlier = found[(dt.date(2027, 1, 5), "1限")]
    assert (earlier.assigned, earlier.short) == (0, 2)
    assert found[(dt.date(2027, 1, 5), "2限")].assigned == 1
    assert found[(dt.date(2027, 1, 6), "1限")].needed == 0
    # the grid reads the same numbers from its snapshot
    shown = {(c.day, c.slot): c for c in load_month(db, room_id, 2027, 1, now=now).coverage()}
    assert shown == found


@pytest.mark.parametrize(("need", "code"), [
    (Need("3限", 1, weekday=0), "needs.unknown_slot"),
    (Need("1限", -1, weekday=0), "needs.bad_count"),
    (Need("1限", 100, weekday=0), "needs.bad_count"),
    (Need("1限", 1, weekday=7), "patterns.bad_weekday"),
    (Need("1限", 1, day=dt.date(2100, 1, 1)), "needs.day_range"),
    (Need("1限", 1, day=dt.date(1999, 12, 31)), "needs.day_range"),
    (Need("1限", 1), "needs.weekday_or_day"),
    (Need("1限", 1, weekday=1, day=TUESDAY), "needs.weekday_or_day"),
])
def test_bad_input_is_refused_and_changes_nothing(db: Database, need: Need, code: str) -> None:
    room = _room(db)
    with db.write() as s:
        nd.set_need(s, room, Need("1限", 2, weekday=0))
    with pytest.raises(ValidationError) as refused, db.write() as s:
        nd.set_need(s, room, need)
    assert refused.value.code == code
    assert "コマ" in render(refused.value.text, "ja") or code != "needs.unknown_slot"
    with pytest.raises(ValidationError), db.write() as s:
        nd.set_needs(s, room, [Need("2限", 1, weekday=2), need])
    with db.read() as s:
        assert nd.classroom_needs(s, room) == [Need("1限", 2, weekday=0)]


def test_clearing_a_weekday_a_date_a_slot_or_everything(db: Database) -> None:
    room = _room(db)
    everything = [Need("1限", 2, weekday=0), Need("1限", 2, weekday=1), Need("2限", 1, weekday=0),
                  Need("1限", 3, day=TUESDAY), Need("2限", 3, day=TUESDAY)]
    with db.write() as s:
        nd.set_needs(s, room, everything)
        assert nd.clear_needs(s, room, slot="1限", weekday=0) == 1
        assert nd.clear_needs(s, room, day=TUESDAY) == 2
        assert nd.classroom_needs(s, room) == [Need("1限", 2, weekday=1), Need("2限", 1, weekday=0)]
        assert nd.clear_needs(s, room, slot="2限") == 1
        with pytest.raises(ValidationError):
            nd.clear_needs(s, room, slot="9限")
        assert nd.clear_needs(s, room) == 1
        assert nd.classroom_needs(s, room) == []
    with pytest.raises(ValidationError), db.write() as s:
        nd.set_needs(s, room, [Need("1限", 2, weekday=0), Need("1限", 3, weekday=0)])  # one weekday twice


def test_saving_the_lesson_slots_keeps_the_needs_of_slots_kept(db: Database) -> None:
    room = _room(db)
    with db.write() as s:
        nd.set_needs(s, room, [Need("1限", 2, weekday=0), Need("2限", 1, weekday=0)])
        lesson_slots.set_slots(s, room, [SECOND])
    with db.read() as s:
        assert nd.classroom_needs(s, room) == [Need("2限", 1, weekday=0)]
