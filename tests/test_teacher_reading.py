"""Teachers are listed by their reading (ふりがな), then by name, everywhere they are listed: the roster
grid, the teachers' list, the command line, the month image and the CSV export."""

from __future__ import annotations

import datetime as dt
import json

import pytest

import main
from core.errors import ValidationError
from core.planning import month_grid
from core.publication import publish
from core.roster import csv_files, month, queries, reading, rules
from core.store.db import Database
from tests import factories as f

# In code-point order: 中村 (U+4E2D), 伊藤 (U+4F0A), 佐藤 (U+4F50), 高橋 (U+9AD8), 鈴木 (U+9234).
# By reading: いとう, さとう, すずき, なかむら; then 高橋, who has none.
GIVEN = [("中村", "なかむら"), ("伊藤", "いとう"), ("高橋", None), ("佐藤", "サトウ"), ("鈴木", "ｽｽﾞｷ")]
ORDER = ["伊藤", "佐藤", "鈴木", "中村", "高橋"]


def _teachers(db: Database) -> dict[str, int]:
    with db.write() as s:
        return {name: f.teacher(s, name, n, reading=said).id for n, (name, said) in enumerate(GIVEN, start=1)}


def test_the_order_rule() -> None:
    def key(name: str | None, said: str | None, ident: int = 0) -> reading.OrderKey:
        return reading.order_key(name, said, ident)

    assert key("伊藤", "いとう") < key("佐藤", "さとう") < key("中村", "なかむら")
    assert key("佐藤", "サトウ") == key("佐藤", "さとう") == key("佐藤", "ｻﾄｳ")  # one reading, whatever the kana
    assert key("佐藤", "さとう") < key("佐藤B", "さとう")  # same reading: by name
    assert key("伊藤", "いとう") < key("中村", None) < key("伊藤", None)  # without a reading: after, by name
    assert key("中村", "  ") == key("中村", None)
    assert key("伊藤", None) < key(None, None, 1) < key(None, None, 2)  # erased last, by id
    assert reading.folded("ＡＢＣ") == "abc" and reading.folded("ヴァ") == "ゔぁ"


def test_create_and_update_take_the_reading(db: Database) -> None:
    with db.write() as s:
        teacher = rules.create_teacher(s, name="佐藤", reading="  さとう ")
        assert teacher.reading == "さとう"
        rules.update_teacher(s, teacher.id, reading="サトウ")
        assert teacher.reading == "サトウ"
        rules.update_teacher(s, teacher.id, email="sato@example.com")  # left out: kept
        assert teacher.reading == "サトウ"
        rules.update_teacher(s, teacher.id, reading="")
        assert teacher.reading is None
        with pytest.raises(ValidationError, match="reading is longer than 200"):
            rules.update_teacher(s, teacher.id, reading="あ" * 201)


def test_the_teachers_list_and_the_grid_rows_follow_the_readings(db: Database, now: dt.datetime) -> None:
    ids = _teachers(db)
    with db.write() as s:
        room = f.classroom(s)
        gone = rules.create_teacher(s, name="青木", reading="あおき")
        f.shift(s, room, gone, dt.date(2026, 12, 3), now=now)
        rules.update_teacher(s, gone.id, active=False)  # not active, yet on this month's grid
        f.shift(s, room, rules.get_teacher(s, ids["中村"]), dt.date(2026, 12, 4), now=now)
    with db.read() as s:
        assert [t.name for t in rules.list_teachers(s)] == ["青木", *ORDER]
        assert [r.name for r in queries.teachers(s)] == ["青木", *ORDER]
        assert [r.reading for r in queries.teachers(s)][:2] == ["あおき", "いとう"]
        assert [t.name for t in month_grid.active_teachers(s)] == ORDER
    snapshot = month_grid.load_month(db, room.id, 2026, 12, now=now)
    assert [t.name for t in snapshot.rows] == [*ORDER, "青木"]  # active ones, then the others with shifts


def test_the_month_image_rows_follow_the_readings(db: Database, now: dt.datetime) -> None:
    ids = _teachers(db)
    with db.write() as s:
        room = f.classroom(s)
        for day, name in enumerate(["中村", "高橋", "佐藤", "伊藤"], start=1):
            f.shift(s, room, rules.get_teacher(s, ids[name]), dt.date(2026, 12, day), now=now)
        drawn = month.from_database(s, room, 2026, 12)
        assert drawn.teachers == ["伊藤", "佐藤", "中村", "高橋"]
        built = publish.build_month(s, room, 2026, 12, now=now, include_drafts=True)
        assert built.teachers == drawn.teachers


def test_the_csv_sets_the_reading_and_exports_in_its_order(db: Database) -> None:
    data = "名前,ふりがな,LINE ID\r\n中村,なかむら,\r\n伊藤,いとう,\r\n高橋,,\r\n佐藤,さとう,\r\n".encode("cp932")
    with db.write() as s:
        csv_files.import_teachers(s, data)
        exported = csv_files.export_teachers(s)
    lines = exported.splitlines()
    assert lines[0].startswith("name,reading,line_user_id")
    assert [line.split(",")[:2] for line in lines[1:]] == [["伊藤", "いとう"], ["佐藤", "さとう"], ["中村", "なかむら"],
                                                         ["高橋", ""]]
    with db.write() as s:  # a file without the column keeps the readings
        csv_files.import_teachers(s, "name,email\r\n中村,nakamura@example.com\r\n".encode())
        assert rules.teacher_by_name(s, "中村").reading == "なかむら"
        csv_files.import_teachers(s, "氏名,よみ\r\n中村,ナカムラ\r\n".encode())
        assert rules.teacher_by_name(s, "中村").reading == "ナカムラ"


def test_the_command_line_lists_teachers_by_reading(capsys: pytest.CaptureFixture[str], db: Database) -> None:
    _teachers(db)
    assert main.main(["teachers", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == ORDER and rows[0]["reading"] == "いとう" and rows[-1]["reading"] is None
    assert main.main(["teachers"]) == 0
    assert [line.split()[1] for line in capsys.readouterr().out.splitlines()[:len(ORDER)]] == ORDER
