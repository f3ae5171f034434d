"""Classrooms' own teachers: who joins and leaves, and the lists that follow (the grid, cover)."""

from __future__ import annotations

import datetime as dt

import pytest

from core.errors import ValidationError
from core.planning import month_grid
from core.roster import cover, membership, rules
from core.store.db import Database
from core.store.models import ShiftStatus
from tests import factories as f

DAY = dt.date(2026, 12, 10)


def test_a_teacher_added_for_a_classroom_joins_it_and_a_shift_elsewhere_makes_them_a_member(
        db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        main, north = f.classroom(s, "本校"), f.classroom(s, "北校")
        sato = f.teacher(s, "佐藤", 1, classroom_ids=[main.id])
        assert membership.classroom_ids(s, sato.id) == {main.id}
        f.shift(s, north, sato, DAY, now=now)  # placed rather than refused
        assert membership.classroom_ids(s, sato.id) == {main.id, north.id}
        assert membership.names_by_teacher(s) == {sato.id: ("北校", "本校")}
        rules.erase_teacher(s, sato.id, now=now)  # a deleted teacher belongs nowhere
        assert membership.classroom_ids(s, sato.id) == set()


def test_a_shift_moved_to_another_teacher_makes_them_a_member_and_a_canceled_one_does_not(
        db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        main, north = f.classroom(s, "本校"), f.classroom(s, "北校")
        sato = f.teacher(s, "佐藤", 1, classroom_ids=[main.id])
        ito = f.teacher(s, "伊藤", 2, classroom_ids=[main.id])
        shift = f.shift(s, main, sato, DAY, now=now)
        rules.edit_shift(s, shift.id, rules.ShiftChange(teacher_id=ito.id), now=now)
        assert membership.member_ids(s, main.id) == {sato.id, ito.id}
        rules.add_shift(s, rules.ShiftDraft(north.id, sato.id, DAY + dt.timedelta(days=1), dt.time(16), dt.time(21),
                                            status=ShiftStatus.CANCELED), now=now)
        assert membership.member_ids(s, north.id) == set()


@pytest.mark.backends("sqlite", "postgresql")
def test_leaving_is_refused_while_confirmed_shifts_are_to_come_there(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        main, north = f.classroom(s, "本校"), f.classroom(s, "北校")
        sato = f.teacher(s, "佐藤", 1, classroom_ids=[main.id, north.id])
        f.shift(s, main, sato, now.date() - dt.timedelta(days=5), now=now, status=ShiftStatus.CONFIRMED)  # past
        f.shift(s, main, sato, DAY, now=now)  # a draft nobody was told of
        f.shift(s, north, sato, DAY + dt.timedelta(days=1), now=now, status=ShiftStatus.CONFIRMED)
        f.shift(s, north, sato, DAY + dt.timedelta(days=2), now=now, status=ShiftStatus.CONFIRMED)
        with pytest.raises(ValidationError, match=r"佐藤 still has 2 confirmed shifts to come at 北校"):
            membership.leave(s, north.id, sato.id, now=now)
        with pytest.raises(ValidationError, match="北校"):  # through the teacher's edit too, all or nothing
            rules.update_teacher(s, sato.id, classroom_ids=[], now=now)
        assert membership.classroom_ids(s, sato.id) == {main.id, north.id}
        assert membership.leave(s, main.id, sato.id, now=now) is True
        assert membership.leave(s, main.id, sato.id, now=now) is False
        rules.update_teacher(s, sato.id, classroom_ids=[north.id, main.id], now=now)
        assert membership.classroom_ids(s, sato.id) == {main.id, north.id}


@pytest.mark.backends("sqlite", "postgresql")
def test_the_grid_lists_the_classroom_s_members_and_anyone_with_a_shift_there(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        main, north = f.classroom(s, "本校"), f.classroom(s, "北校")
        sato = f.teacher(s, "佐藤", 1, reading="さとう", classroom_ids=[main.id])
        ito = f.teacher(s, "伊藤", 2, reading="いとう", classroom_ids=[north.id])
        ueda = f.teacher(s, "上田", 3, reading="うえだ", classroom_ids=[north.id])
        new = f.teacher(s, "江口", 4, reading="えぐち")  # of no classroom yet: listed everywhere
        f.shift(s, main, ueda, DAY, now=now)  # makes 上田 a member of 本校 too
        rules.update_teacher(s, ito.id, active=False)
        ids = (main.id, north.id, sato.id, ito.id, ueda.id, new.id)
    main_id, north_id, sato_id, ito_id, ueda_id, new_id = ids

    grid = month_grid.load_month(db, main_id, 2026, 12, now=now)
    assert [r.name for r in grid.rows] == ["上田", "江口", "佐藤"]  # the listing order, by reading
    assert grid.members == {sato_id, ueda_id}
    assert {t.id for t in grid.active_teachers} == {sato_id, ueda_id, new_id}  # any active one can be given a shift
    north_grid = month_grid.load_month(db, north_id, 2026, 12, now=now)
    assert [r.name for r in north_grid.rows] == ["上田", "江口"]  # 伊藤 is inactive and has no shift there


def test_cover_asks_the_classroom_s_own_teachers_first(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        main, north = f.classroom(s, "本校"), f.classroom(s, "北校")
        f.teacher(s, "青木", 1, reading="あおき", classroom_ids=[north.id])
        sato = f.teacher(s, "佐藤", 2, reading="さとう", classroom_ids=[main.id])
        f.teacher(s, "伊藤", 3, reading="いとう", classroom_ids=[north.id])
        shift = f.shift(s, main, sato, DAY, now=now, status=ShiftStatus.CONFIRMED)
        f.teacher(s, "和田", 4, reading="わだ", classroom_ids=[main.id])
        assert [t.name for t in cover.free_teachers(s, shift.id)] == ["和田", "青木", "伊藤"]


def test_members_first_keeps_each_part_in_its_order() -> None:
    class Row:
        def __init__(self, id_: int) -> None:
            self.id = id_

    rows = [Row(n) for n in (5, 1, 4, 2, 3)]
    assert [r.id for r in membership.members_first(rows, {4, 3})] == [4, 3, 5, 1, 2]


def test_the_command_line_shows_classrooms_and_joins_and_leaves(capsys: pytest.CaptureFixture[str], db: Database,
                                                                now: dt.datetime) -> None:
    import json

    import main

    with db.write() as s:
        main_room, north = f.classroom(s, "本校"), f.classroom(s, "北校")
        sato = f.teacher(s, "佐藤", 1, classroom_ids=[main_room.id])
        f.teacher(s, "伊藤", 2)
        f.shift(s, main_room, sato, DAY + dt.timedelta(days=30), now=dt.datetime.now(dt.UTC),
                status=ShiftStatus.CONFIRMED)
        assert north.id
    assert main.main(["teachers", "join", "佐藤", "--classroom", "北校"]) == 0
    assert capsys.readouterr().out.strip() == "佐藤 is now one of 北校's teachers"
    assert main.main(["--lang", "ja", "teachers", "join", "佐藤", "--classroom", "北校"]) == 0
    assert capsys.readouterr().out.strip() == "佐藤さんはすでに北校の所属講師です。"
    assert main.main(["teachers", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["name"], r["classrooms"]) for r in rows] == [("伊藤", []), ("佐藤", ["北校", "本校"])]
    assert main.main(["--lang", "ja", "teachers"]) == 0
    assert capsys.readouterr().out.splitlines()[1].endswith("[LINE通知,在籍]  所属：北校、本校")
    assert main.main(["teachers", "leave", "佐藤", "--classroom", "本校"]) == 1
    assert "佐藤 still has 1 confirmed shift to come at 本校" in capsys.readouterr().err
    assert main.main(["--lang", "ja", "teachers", "leave", "佐藤", "--classroom", "北校"]) == 0
    assert capsys.readouterr().out.strip() == "佐藤さんを北校の所属講師から外しました。"
    with pytest.raises(SystemExit):
        main.main(["--lang", "ja", "teachers", "--help"])
    assert "講師を教室の所属講師から外します" in capsys.readouterr().out


def test_the_teachers_csv_round_trips_classrooms_and_a_file_without_them_keeps_memberships(db: Database) -> None:
    from core.roster import csv_files

    with db.write() as s:
        main_room, north = f.classroom(s, "本校"), f.classroom(s, "北校")
        sato = f.teacher(s, "佐藤", 1, classroom_ids=[main_room.id, north.id])
        ito = f.teacher(s, "伊藤", 2, classroom_ids=[north.id])
        exported = csv_files.export_teachers(s)
        ids = (main_room.id, north.id, sato.id, ito.id)
    main_id, north_id, sato_id, ito_id = ids
    rooms = csv_files.teacher_columns().index("classrooms")
    assert exported.splitlines()[0].split(",")[rooms] == "classrooms"
    assert [line.split(",")[rooms] for line in exported.splitlines()[1:]] == ["北校", "北校;本校"]
    with db.write() as s:  # everyone out, then the file puts them back
        rules.update_teacher(s, sato_id, classroom_ids=[])
        rules.update_teacher(s, ito_id, classroom_ids=[])
        csv_files.import_teachers(s, exported.encode())
        assert (membership.classroom_ids(s, sato_id), membership.classroom_ids(s, ito_id)) == (
            {main_id, north_id}, {north_id})
    with db.write() as s:  # without the column they stay; a Japanese heading with 、 and an empty cell
        csv_files.import_teachers(s, "name,email\r\n佐藤,sato@example.com\r\n".encode())
        assert membership.classroom_ids(s, sato_id) == {main_id, north_id}
        csv_files.import_teachers(s, "氏名,所属教室\r\n佐藤,本校\r\n伊藤,本校、北校\r\n上田,\r\n".encode("cp932"))
        assert (membership.classroom_ids(s, sato_id), membership.classroom_ids(s, ito_id)) == (
            {main_id}, {main_id, north_id})
        assert membership.classroom_ids(s, rules.teacher_by_name(s, "上田").id) == set()
    with db.write() as s, pytest.raises(csv_files.CsvImportError, match="line 2: unknown classroom '南校'"):
        csv_files.import_teachers(s, "名前,教室\r\n佐藤,本校;南校\r\n".encode())


def test_an_availability_request_asks_the_classroom_s_own_teachers(db: Database, now: dt.datetime) -> None:
    from core.sending.kinds import availability_request

    with db.write() as s:
        main, north = f.classroom(s, "本校"), f.classroom(s, "北校")
        f.teacher(s, "佐藤", 1, classroom_ids=[main.id])
        f.teacher(s, "鈴木", 2, classroom_ids=[north.id])
        f.teacher(s, "上田", 3)  # of no classroom: listed, and asked, everywhere
        asking = availability_request.ask(s, main.id, 2026, 12, dt.date(2026, 11, 25), None, now=now, dry_run=True)
    assert sorted(asking.asked) == sorted(["佐藤", "上田"])
