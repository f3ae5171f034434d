"""The teachers import stores new teachers in batches, without the ORM: what it stores is what making
each one by hand stores, batches and updates mixed, and it stays all or nothing across batches."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sqlalchemy import func, select

from core.roster import csv_files, membership, rules
from core.roster.csv_files import CsvImportError
from core.store.db import Database
from core.store.models import ClassroomTeacher, Teacher, TeacherContact
from tests import factories as f

NOW = dt.datetime(2026, 12, 1, 3, tzinfo=dt.UTC)


def _stored(db: Database, name: str) -> tuple[tuple[Any, ...], list[tuple[Any, ...]], list[int]]:
    with db.read() as s:
        teacher = s.scalar(select(Teacher).where(Teacher.name == name))
        assert teacher is not None
        contacts = sorted((c.channel, c.address, c.agreed_at is not None, c.agreed_by_teacher, c.unreachable_since,
                           c.rank) for c in teacher.contacts)
        rooms = sorted(s.scalars(select(ClassroomTeacher.classroom_id).where(ClassroomTeacher.teacher_id == teacher.id)))
        return (teacher.reading, teacher.position, teacher.active, teacher.contact_rule), contacts, rooms


def test_a_new_teacher_from_a_file_is_stored_as_one_made_by_hand(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(csv_files, "NEW_TEACHERS_BATCH", 2)
    with db.write() as s:
        main, north = f.classroom(s, "本校"), f.classroom(s, "北校")
        rules.create_teacher(s, name="手作り", reading="てづくり", position=3, line_user_id=f"U{9:032x}",
                             email="hand@example.com", line_opt_in=True, channel="email+line:first",
                             classroom_ids=[main.id, north.id], now=NOW)
        rooms = (main.id, north.id)
    data = ("name,reading,order,line_user_id,email,line_opt_in,email_opt_in,active,classrooms,channel\n"
            f"一括,てづくり,3,U{8:032x},file@example.com,yes,no,yes,本校;北校,email+line:first\n"
            "二人目,,,,,,,,,\n三人目,,,,,no,no,no,,\n").encode()
    with db.write() as s:
        result = csv_files.import_teachers(s, data)
    assert (result.created, result.updated, len(result.ids)) == (3, 0, 3)
    by_hand, from_file = _stored(db, "手作り"), _stored(db, "一括")
    assert from_file[0] == by_hand[0] and from_file[2] == sorted(rooms)
    assert [c[0] for c in from_file[1]] == [c[0] for c in by_hand[1]]
    assert [c[2:] for c in from_file[1]] == [c[2:] for c in by_hand[1]]
    with db.read() as s:
        by_hand_id = s.scalar(select(Teacher.id).where(Teacher.name == "手作り"))
        assert by_hand_id is not None
        assert sorted(membership.member_ids(s, rooms[0])) == sorted([result.ids[0], by_hand_id])
    assert _stored(db, "三人目")[0][2] is False


def test_updates_between_batches_free_and_take_addresses_as_the_file_says(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(csv_files, "NEW_TEACHERS_BATCH", 2)
    with db.write() as s:
        f.classroom(s, "本校")
        rules.create_teacher(s, name="既存", line_user_id=f"U{1:032x}", now=NOW)
    data = ("name,line_user_id\n"
            f"新人A,U{2:032x}\n"
            f"既存,U{3:032x}\n"  # gives U…1 up
            f"新人B,U{1:032x}\n"  # so a teacher after it may take it
            f"新人C,U{4:032x}\n").encode()
    with db.write() as s:
        result = csv_files.import_teachers(s, data)
    assert (result.created, result.updated) == (3, 1)
    with db.read() as s:
        owners = dict(s.execute(select(TeacherContact.address, Teacher.name).join(Teacher)
                                .where(TeacherContact.address.is_not(None))).all())
    assert owners == {f"U{1:032x}": "新人B", f"U{2:032x}": "新人A", f"U{3:032x}": "既存", f"U{4:032x}": "新人C"}


def test_a_bad_row_after_several_stored_batches_leaves_nothing(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(csv_files, "NEW_TEACHERS_BATCH", 2)
    with db.write() as s:
        rules.create_teacher(s, name="既存", line_user_id=f"U{1:032x}", now=NOW)
    rows = [f"講師{n},U{n + 10:032x}" for n in range(7)]
    rows += [f"重複,U{11:032x}", f"既存の宛先,U{1:032x}", "講師3,"]
    with pytest.raises(CsvImportError) as refused, db.write() as s:
        csv_files.import_teachers(s, ("name,line_user_id\n" + "\n".join(rows) + "\n").encode())
    assert [p.line for p in refused.value.problems] == [9, 10, 11]
    text = str(refused.value)
    assert "講師1" in text and "既存" in text and "講師3" in text  # whose address, and the repeated name
    with db.read() as s:
        assert s.scalar(select(func.count()).select_from(Teacher)) == 1
        assert s.scalar(select(func.count()).select_from(TeacherContact)) == 1
