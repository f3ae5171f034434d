"""A manager's own order of the teachers: those given a place come first, in it, then the rest by
reading, everywhere teachers are listed; moving one fixes the order shown, and one step goes back to
the order by reading."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from sqlalchemy import select

import main
from core.errors import NotFoundError, ValidationError
from core.planning import month_grid
from core.publication import publish
from core.roster import csv_files, month, order, queries, reading, rules
from core.store.db import Database
from tests import factories as f

# By reading: 伊藤 (いとう), 佐藤 (さとう), 鈴木 (すずき), 中村 (なかむら); 高橋 has none and comes last.
GIVEN = [("中村", "なかむら"), ("伊藤", "いとう"), ("高橋", None), ("佐藤", "さとう"), ("鈴木", "すずき")]
BY_READING = ["伊藤", "佐藤", "鈴木", "中村", "高橋"]


def _teachers(db: Database) -> dict[str, int]:
    with db.write() as s:
        return {name: f.teacher(s, name, n, reading=said).id for n, (name, said) in enumerate(GIVEN, start=1)}


def _listed(db: Database) -> list[str]:
    with db.read() as s:
        return [r.name for r in queries.teachers(s)]


def test_placed_teachers_come_first_in_their_order_then_the_rest_by_reading() -> None:
    def key(name: str | None, said: str | None, position: int | None = None, ident: int = 0) -> reading.OrderKey:
        return reading.order_key(name, said, ident, position)

    assert key("中村", "なかむら", 1) < key("伊藤", "いとう", 2) < key("伊藤", "いとう")  # a place beats any reading
    assert key("高橋", None, 3) < key("伊藤", "いとう")  # a place beats having a reading
    assert key("伊藤", "いとう", 2) < key("中村", "なかむら", 2)  # a shared place: by reading
    assert key("伊藤", None) < key(None, None, 1, ident=1)  # erased last, a place or not
    assert order.moved([1, 2, 3, 4], 3, 1) == [3, 1, 2, 4]
    assert order.moved([1, 2, 3, 4], 1, 3) == [2, 3, 1, 4]
    assert order.moved([1, 2, 3, 4], 2, 0) == [2, 1, 3, 4] and order.moved([1, 2, 3, 4], 2, 99) == [1, 3, 4, 2]


def test_the_first_move_fixes_the_order_shown_then_moves(db: Database) -> None:
    ids = _teachers(db)
    assert _listed(db) == BY_READING
    with db.write() as s:
        assert order.move_by(s, ids["中村"], -1) == 3
    assert _listed(db) == ["伊藤", "佐藤", "中村", "鈴木", "高橋"]
    with db.read() as s:  # everyone has the place they are shown in
        assert [(r.name, r.position) for r in queries.teachers(s)] == [
            ("伊藤", 1), ("佐藤", 2), ("中村", 3), ("鈴木", 4), ("高橋", 5)]
    with db.write() as s:
        assert order.move_to(s, ids["高橋"], 1) == 1
        assert order.move_by(s, ids["伊藤"], 1) == 3
        assert order.move_by(s, ids["高橋"], -1) == 1  # already first: stays
        assert order.move_to(s, ids["佐藤"], 50) == 5  # beyond the end: last
    assert _listed(db) == ["高橋", "伊藤", "中村", "鈴木", "佐藤"]


def test_a_teacher_added_later_follows_the_placed_ones_by_reading_until_moved(db: Database) -> None:
    ids = _teachers(db)
    with db.write() as s:
        order.move_to(s, ids["高橋"], 1)
        rules.create_teacher(s, name="青木", reading="あおき")
    assert _listed(db) == ["高橋", *BY_READING[:-1], "青木"]
    with db.write() as s:
        order.move_by(s, rules.teacher_by_name(s, "青木").id, -1)
    assert _listed(db) == ["高橋", "伊藤", "佐藤", "鈴木", "青木", "中村"]


def test_back_to_the_order_by_reading(db: Database) -> None:
    ids = _teachers(db)
    with db.write() as s:
        order.move_to(s, ids["高橋"], 1)
        assert order.by_reading(s) == 5
        assert order.by_reading(s) == 0
    assert _listed(db) == BY_READING
    with db.read() as s:
        assert {r.position for r in queries.teachers(s)} == {None}


def test_an_erased_teacher_has_no_place_to_move_to(db: Database, now: dt.datetime) -> None:
    ids = _teachers(db)
    with db.write() as s:
        rules.erase_teacher(s, ids["佐藤"], now=now)
        with pytest.raises(NotFoundError):
            order.move_to(s, ids["佐藤"], 1)
        assert order.move_to(s, ids["高橋"], 9) == 4  # of the four left
    assert _listed(db) == ["伊藤", "鈴木", "中村", "高橋"]


def test_a_place_is_a_whole_number_from_one(db: Database) -> None:
    ids = _teachers(db)
    with db.write() as s:
        for wrong in (0, -1, reading.MAX_POSITION + 1):
            with pytest.raises(ValidationError, match="whole number from 1"):
                rules.update_teacher(s, ids["中村"], position=wrong)
        rules.update_teacher(s, ids["中村"], position=2)
        assert rules.get_teacher(s, ids["中村"]).position == 2


def test_the_grid_the_month_image_and_the_publication_follow_the_order(db: Database, now: dt.datetime) -> None:
    ids = _teachers(db)
    with db.write() as s:
        room = f.classroom(s)
        for day, name in enumerate(["中村", "高橋", "佐藤", "伊藤"], start=1):
            f.shift(s, room, rules.get_teacher(s, ids[name]), dt.date(2026, 12, day), now=now)
        order.move_to(s, ids["中村"], 1)
        order.move_to(s, ids["高橋"], 2)
    with db.read() as s:
        assert [t.name for t in month_grid.active_teachers(s)] == ["中村", "高橋", "伊藤", "佐藤", "鈴木"]
        drawn = month.from_database(s, room, 2026, 12)
        assert drawn.teachers == list(drawn.cells) == ["中村", "高橋", "伊藤", "佐藤"]
        assert publish.build_month(s, room, 2026, 12, now=now, include_drafts=True).teachers == drawn.teachers
    snapshot = month_grid.load_month(db, room.id, 2026, 12, now=now)
    assert [t.name for t in snapshot.rows] == ["中村", "高橋", "伊藤", "佐藤", "鈴木"]


def test_the_csv_order_column_round_trips_and_a_file_without_it_keeps_the_places(db: Database) -> None:
    ids = _teachers(db)
    with db.write() as s:
        order.move_to(s, ids["高橋"], 1)
        exported = csv_files.export_teachers(s)
    lines = exported.splitlines()
    place = csv_files.teacher_columns().index("order")
    assert lines[0].split(",")[place] == "order"
    assert [(line.split(",")[0], line.split(",")[place]) for line in lines[1:]] == [
        ("高橋", "1"), ("伊藤", "2"), ("佐藤", "3"), ("鈴木", "4"), ("中村", "5")]
    with db.write() as s:  # back to reading, then the file puts the places back
        order.by_reading(s)
        csv_files.import_teachers(s, exported.encode())
    assert _listed(db) == ["高橋", "伊藤", "佐藤", "鈴木", "中村"]
    with db.write() as s:  # a file without the column keeps them; a Japanese heading and an empty cell
        csv_files.import_teachers(s, "name,email\r\n中村,nakamura@example.com\r\n".encode())
        assert rules.teacher_by_name(s, "中村").position == 5
        csv_files.import_teachers(s, "氏名,並び順\r\n中村,１\r\n高橋,\r\n".encode("cp932"))
    assert _listed(db)[:2] == ["中村", "伊藤"] and _listed(db)[-1] == "高橋"
    with db.write() as s, pytest.raises(csv_files.CsvImportError, match="line 2.*whole number"):
        csv_files.import_teachers(s, "名前,順番\r\n中村,一番\r\n".encode())


def test_the_command_line_shows_the_order_moves_and_goes_back_to_reading(capsys: pytest.CaptureFixture[str],
                                                                         db: Database) -> None:
    _teachers(db)
    assert main.main(["teachers", "move", "中村", "--to", "1"]) == 0
    assert capsys.readouterr().out.strip() == "moved 中村 to place 1 of 5"
    assert main.main(["teachers", "move", "高橋", "--up"]) == 0
    assert main.main(["teachers", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert [(r["name"], r["position"]) for r in rows] == [
        ("中村", 1), ("伊藤", 2), ("佐藤", 3), ("高橋", 4), ("鈴木", 5)]
    assert main.main(["teachers"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in lines[:5]] == ["中村", "伊藤", "佐藤", "高橋", "鈴木"]
    assert lines[0].endswith("place 1") and "order --by-reading" in lines[-1]
    assert main.main(["teachers", "move", "山田", "--down"]) == 1
    assert "unknown teacher '山田'" in capsys.readouterr().err
    assert main.main(["teachers", "order", "--by-reading"]) == 0
    assert capsys.readouterr().out.strip() == "5 teachers are listed by reading again"
    assert main.main(["teachers"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in lines[:5]] == BY_READING and lines[-1] == "5 teachers"


def test_the_readiness_check_names_unreached_teachers_in_the_listing_order(db: Database) -> None:
    from core.setup import readiness
    from core.texts import render

    with db.write() as s:
        ids = {name: f.teacher(s, name, n, reading=said, line_user_id=None, line_opt_in=False).id
               for n, (name, said) in enumerate(GIVEN, start=1)}
        order.move_to(s, ids["高橋"], 1)
    expected = ["高橋", *BY_READING[:-1]]
    said = readiness.not_told(db, list(ids.values()))
    assert [render(line, "en").split(":")[0] for line in said] == expected
    found = {r.key: r for r in readiness.check(db, now=dt.datetime(2026, 12, 1, tzinfo=dt.UTC), autostart=True)}
    assert [render(line, "en").split(":")[0] for line in found["teachers"].details] == expected


def test_a_published_month_keeps_the_order_it_was_published_with(db: Database, now: dt.datetime,
                                                                 tmp_path: Path) -> None:
    from core.messages import month_flex
    from core.publication.image_store import ImageStore
    from core.sending import message_facts
    from core.store.models import Publication

    ids = _teachers(db)
    with db.write() as s:
        room = f.classroom(s, line_group_id="C" + "1" * 32)
        for name in ("中村", "高橋", "伊藤"):  # all three on the 3rd, so the day lists them together
            f.shift(s, room, rules.get_teacher(s, ids[name]), dt.date(2026, 12, 3), now=now)
        order.move_to(s, ids["中村"], 1)
        order.move_to(s, ids["高橋"], 2)
        publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(tmp_path / "images"))
        order.by_reading(s)  # after publishing: what was sent does not change
    with db.read() as s:
        publication = s.scalars(select(Publication)).one()
        facts = message_facts.month_facts(publication, rules.get_classroom(s, room.id))
    assert list(facts.cells) == ["中村", "高橋", "伊藤"]
    text = json.dumps(month_flex.group_messages(facts), ensure_ascii=False)
    assert text.index("中村  16:00") < text.index("高橋  16:00") < text.index("伊藤  16:00")


def test_the_changes_since_the_last_publication_are_listed_in_the_grid_s_order(db: Database, now: dt.datetime,
                                                                               tmp_path: Path) -> None:
    from core.publication import history
    from core.publication.image_store import ImageStore

    ids = _teachers(db)
    with db.write() as s:
        room = f.classroom(s, line_group_id="C" + "1" * 32)
        shifts = {name: f.shift(s, room, rules.get_teacher(s, ids[name]), dt.date(2026, 12, 3), now=now).id
                  for name in ("中村", "高橋", "伊藤")}
        publish.publish(s, room.id, 2026, 12, now=now, store=ImageStore(tmp_path / "images"))
        for shift_id in shifts.values():
            rules.edit_shift(s, shift_id, rules.ShiftChange(start_time=dt.time(15)), now=now)
        order.move_to(s, ids["高橋"], 1)
    with db.read() as s:
        view, changes = history.pending_changes(s, room.id, 2026, 12, now=now)
    assert [c.teacher for c in changes] == view.teachers == ["高橋", "伊藤", "中村"]
