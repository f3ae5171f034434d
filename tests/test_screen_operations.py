"""The operations the window changes and reads data through: each takes the Database, opens and commits its
own transaction (all of it or nothing), and answers with frozen values or the changes it made
(core/store/changes_made.py), never a row or a session."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.roster import availability_entry, classroom_setup, closed_days, cover_board, rules, teacher_list
from core.roster.availability_text import DayAnswer
from core.roster.limits import Limits
from core.setup import month_drafts
from core.store import setting_keys as keys
from core.store import setting_values
from core.store.changes_made import ChangesMade, committed
from core.store.db import Database
from core.store.events import CoverRequestsChanged, ShiftsChanged
from core.store.kinds import ShiftStatus
from tests import factories as f

DAY = dt.date(2026, 12, 10)


def test_an_operation_answers_with_its_value_and_the_events_it_committed(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room_id, sato_id = f.classroom(s).id, f.teacher(s).id
    heard: list[ShiftsChanged] = []
    db.events.listen(ShiftsChanged, heard.append)

    def two_shifts(session: Session) -> list[int]:
        return [rules.add_shift(session, rules.ShiftDraft(room_id, sato_id, DAY + dt.timedelta(days=n), dt.time(16),
                                                          dt.time(21)), now=now).id for n in range(2)]

    made = committed(db, two_shifts)
    assert isinstance(made, ChangesMade) and len(made.value) == 2
    changed = made.of(ShiftsChanged)
    assert changed is not None and changed.shift_ids == frozenset(made.value) and heard == [changed]
    assert made.of(CoverRequestsChanged) is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.value = []  # type: ignore[misc]


def test_an_operation_that_raises_keeps_nothing(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        before = f.teacher(s, "佐藤").id
    bad = Limits(max_shifts=-1)
    with pytest.raises(ValidationError):
        teacher_list.save(db, None, {"name": "鈴木", "classroom_ids": [room.id]}, (), bad)
    with pytest.raises(ValidationError):
        teacher_list.save(db, before, {"name": "佐藤 改"}, (), bad)
    found = teacher_list.read(db)
    assert [t.name for t in found.teachers] == ["佐藤"] and found.classrooms == ((room.id, "本校"),)


def test_the_teachers_screen_saves_orders_and_erases_through_operations(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room_id = f.classroom(s).id
    made = teacher_list.save(db, None, {"name": "鈴木", "reading": "すずき", "classroom_ids": [room_id]}, (),
                             Limits(max_shifts=8))
    other = teacher_list.save(db, None, {"name": "青木", "reading": "あおき"}, (), Limits()).value
    found = teacher_list.read(db)
    assert [t.name for t in found.teachers] == ["青木", "鈴木"]
    assert found.limits[made.value].max_shifts == 8 and isinstance(found.teachers, tuple)
    assert teacher_list.move(db, made.value, -1).value == 1
    assert [t.name for t in teacher_list.read(db).teachers] == ["鈴木", "青木"]
    assert teacher_list.sort_by_reading(db).value == 2
    teacher_list.erase(db, other, now=now)
    assert [t.name for t in teacher_list.read(db).teachers] == ["鈴木"]


def test_a_classrooms_set_up_changes_in_its_own_transactions(db: Database) -> None:
    made = classroom_setup.create_classroom(db, name="分校", timezone="Asia/Tokyo", line_group_id=None)
    classroom_setup.set_closed(db, made.value, DAY, True)
    with db.read() as s:
        assert closed_days.closed_on(s, made.value, DAY) is not None
    classroom_setup.set_closed(db, made.value, DAY, False)
    with db.read() as s:
        assert closed_days.closed_on(s, made.value, DAY) is None
    with pytest.raises(ValidationError):
        classroom_setup.create_classroom(db, name="", timezone="Asia/Tokyo", line_group_id=None)


def test_drafting_starts_from_frozen_drafts_and_compares_as_before(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room, sato = f.classroom(s), f.teacher(s)
        kept = f.shift(s, room, sato, DAY, now=now)
        f.shift(s, room, sato, DAY + dt.timedelta(days=1), now=now, status=ShiftStatus.CONFIRMED)
    assert month_drafts.drafts_to_confirm(db, room.id, DAY.year, DAY.month) == 1
    start = month_drafts.draft_start(db, [room.id], DAY.year, DAY.month, now=now)
    (shift_id, draft), = start.current
    assert shift_id == kept.id and draft.local_date == DAY
    new = dataclasses.replace(draft, local_date=DAY + dt.timedelta(days=2))
    replacing = start.compare([new], replace_drafts=True)
    assert replacing.added == (new,) and replacing.removed == ((kept.id, draft),)
    assert start.compare([draft, new], replace_drafts=True).unchanged == (draft,)
    found = month_drafts.sharing(db, room.id, DAY.year, DAY.month)
    assert found.classroom_ids == (room.id,) and found.other_names == ()


def test_availability_entered_for_a_month_never_asked_records_nothing(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room_id, sato_id = f.classroom(s).id, f.teacher(s).id
    made = availability_entry.enter(db, room_id, DAY.year, DAY.month, sato_id, [DayAnswer(DAY, "no")], now=now)
    assert made.value == 0 and made.events == ()
    assert availability_entry.month_status(db, room_id, DAY.year, DAY.month) is None


def test_the_cover_board_reads_frozen_requests(db: Database) -> None:
    assert cover_board.read(db) == []


def test_a_setting_is_read_and_written_in_its_own_transaction(db: Database) -> None:
    assert setting_values.read(db, keys.UI_LAST_FOLDER) is None
    setting_values.write(db, keys.UI_LAST_FOLDER, "C:/Users/sato/Documents")
    assert setting_values.read(db, keys.UI_LAST_FOLDER) == "C:/Users/sato/Documents"
