"""What the screens read and change the roster through: frozen plain values that outlive their read
scope (core/roster/queries.py, core/planning/month_grid.py), and undoable edits that take several shifts or none
(core/roster/edits.py)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from core.errors import NotFoundError, ValidationError
from core.planning import month_grid
from core.roster import channel_choice, edits, queries, rules
from core.store.db import Database
from core.store.kinds import ShiftStatus
from tests import factories as f

# A contract on both databases: the queries are what every screen reads, on a local file or a server.
pytestmark = pytest.mark.backends("sqlite", "postgresql")

DAY = dt.date(2026, 12, 10)
GROUP = "C" + "ab" * 16


def test_classrooms_are_plain_values_read_after_their_scope_ended(db: Database) -> None:
    with db.write() as s:
        f.classroom(s, "分校", timezone="Asia/Tokyo")
        room_id = f.classroom(s, "本校", line_group_id=GROUP, reminder_lead_minutes=90).id
    with db.read() as s:
        rooms = queries.classrooms(s)
        one = queries.classroom(s, room_id)
    assert [r.name for r in rooms] == ["分校", "本校"]
    assert (one.name, one.line_group_id, one.lead_minutes, one.quiet_start, one.timezone) == (
        "本校", GROUP, 90, dt.time(22), "Asia/Tokyo")
    assert rooms[0].line_group_id == ""  # none yet, as the settings form shows it
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.name = "x"  # type: ignore[misc]
    with db.read() as s, pytest.raises(NotFoundError):
        queries.classroom(s, room_id + 100)


def test_a_classroom_update_answers_with_what_was_saved(db: Database) -> None:
    with db.write() as s:
        room_id = f.classroom(s).id
    with db.write() as s:
        saved = queries.update_classroom(s, room_id, reminder_lead_minutes=45, language="en")
    assert (saved.lead_minutes, saved.language) == (45, "en")
    with db.write() as s, pytest.raises(ValidationError):
        queries.update_classroom(s, room_id, timezone="Nowhere/Zone")
    with db.read() as s:
        assert queries.classroom(s, room_id).timezone == "Asia/Tokyo"


def test_teachers_as_the_table_lists_them(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        sato = f.teacher(s, "佐藤", 1, email="sato@example.com", channel=channel_choice.BOTH)
        suzuki = f.teacher(s, "鈴木", 2)
        gone = f.teacher(s, "田中", 3)
        rules.erase_teacher(s, gone.id, now=now)
        f.line(sato).unreachable_since = now
        sato_id, suzuki_id = sato.id, suzuki.id
    with db.read() as s:
        records = queries.teachers(s)
    assert [(r.id, r.name) for r in records] == [(sato_id, "佐藤"), (suzuki_id, "鈴木")]
    first = records[0]
    assert (first.email, first.line_user_id, first.channel, first.line_unreachable) == (
        "sato@example.com", f"U{1:032x}", "both", True)
    assert (records[1].email, records[1].line_unreachable) == ("", False)


def test_line_recipients_are_named_by_teacher_or_classroom(db: Database) -> None:
    with db.write() as s:
        f.teacher(s, "佐藤", 1)
        f.classroom(s, "本校", line_group_id=GROUP)
    stranger = f"U{9:032x}"
    with db.read() as s:
        assert queries.line_recipient_names(s, [f"U{1:032x}", GROUP, stranger]) == {
            f"U{1:032x}": "佐藤", GROUP: "本校"}
        assert queries.line_recipient_names(s, []) == {}


def test_the_shift_dialog_offers_active_teachers_and_confirming_counts_drafts(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        sato, suzuki = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2, active=False)
        f.shift(s, room, sato, DAY, now=now)
        f.shift(s, room, sato, DAY + dt.timedelta(days=1), now=now)
        f.shift(s, room, sato, DAY + dt.timedelta(days=2), now=now, status=ShiftStatus.CONFIRMED)
        f.shift(s, room, sato, DAY + dt.timedelta(days=40), now=now)  # next month
        room_id = room.id
        assert suzuki.active is False
    with db.read() as s:
        assert [t.name for t in month_grid.active_teachers(s)] == ["佐藤"]
        assert month_grid.draft_count(s, room_id, DAY.year, DAY.month) == 2


def _three_drafts(db: Database, now: dt.datetime) -> list[int]:
    with db.write() as s:
        room, sato = f.classroom(s), f.teacher(s)
        return [f.shift(s, room, sato, DAY + dt.timedelta(days=n), now=now).id for n in range(3)]


def test_edits_in_one_step_are_kept_together(db: Database, now: dt.datetime) -> None:
    ids = _three_drafts(db, now)
    with edits.editing(db, now=now) as step:
        copies = step.copy_shift(ids[0], [DAY + dt.timedelta(days=5), DAY + dt.timedelta(days=6)])
        step.edit_shift(ids[1], rules.ShiftChange(note="早番"))
        step.cancel_shift(ids[2])
    with db.read() as s:
        assert len(copies) == 2 and {rules.get_shift(s, c).local_date.day for c in copies} == {15, 16}
        assert rules.get_shift(s, ids[1]).note == "早番"
        assert rules.get_shift(s, ids[2]).status == ShiftStatus.CANCELED
    with db.read() as s:
        draft = dataclasses.replace(_draft_of(rules.get_shift(s, ids[0])), local_date=DAY + dt.timedelta(days=9))
    with edits.editing(db, now=now) as step:
        step.delete_shifts(copies)
        added = step.add_shift(draft)
    with db.read() as s:
        assert {sh.id for sh in rules.month_shifts(s, draft.classroom_id, 2026, 12)} == {*ids, added}


def _draft_of(shift: object) -> rules.ShiftDraft:
    return rules.ShiftDraft(**{field.name: getattr(shift, field.name) for field in dataclasses.fields(rules.ShiftDraft)})


def test_a_step_core_refuses_part_of_changes_nothing(db: Database, now: dt.datetime) -> None:
    ids = _three_drafts(db, now)
    with pytest.raises(NotFoundError), edits.editing(db, now=now) as step:
        step.delete_shifts([ids[0], ids[1] + 100])  # the second is gone: the first comes back
    with db.read() as s:
        assert rules.get_shift(s, ids[0]).status == ShiftStatus.DRAFT


def test_confirming_a_month_answers_the_ids_and_undo_is_refused_once_teachers_may_know(
        db: Database, now: dt.datetime) -> None:
    ids = _three_drafts(db, now)
    with db.read() as s:
        room_id = rules.get_shift(s, ids[0]).classroom_id
    with edits.editing(db, now=now) as step:
        confirmed = step.confirm_month(room_id, DAY.year, DAY.month)
    assert sorted(confirmed) == ids
    with pytest.raises(ValidationError), edits.editing(db, now=now) as step:
        step.make_drafts(confirmed)
    with db.read() as s:
        assert {rules.get_shift(s, i).status for i in ids} == {ShiftStatus.CONFIRMED}
