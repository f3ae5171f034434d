from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from core.roster import csv_files, rules
from core.roster.csv_files import CsvImportError
from core.store.db import Database
from core.store.models import Shift, Teacher
from tests import factories as f

TEACHERS = (
    "name,line_user_id,email,line_opt_in,email_opt_in,active\r\n"
    f"佐藤 花子,U{1:032x},hanako@example.com,yes,no,yes\r\n"
    f"鈴木 一郎,U{2:032x},,yes,yes,yes\r\n"
    "Tanaka Ken,,ken@example.com,no,yes,no\r\n"
)
SHIFTS = (
    "classroom,teacher,date,start,end,status,note\r\n"
    "本校,佐藤 花子,2026-12-01,16:00,21:00,confirmed,\r\n"
    "本校,佐藤 花子,2026-12-02,22:00,26:00,draft,\"夜間, 受付\"\r\n"
    "本校,鈴木 一郎,2026/12/03,9:00,12:30,,持ち物: 名札\r\n"
)


def _setup(db: Database) -> None:
    with db.write() as s:
        f.classroom(s)
        csv_files.import_teachers(s, TEACHERS.encode())


def _counts(db: Database) -> tuple[int, int]:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Teacher)) or 0, s.scalar(select(func.count()).select_from(Shift)) or 0


def test_round_trip(db: Database, now: dt.datetime, paths) -> None:
    _setup(db)
    with db.write() as s:
        result = csv_files.import_shifts(s, SHIFTS.encode(), now=now)
        assert result.created == 3
    with db.read() as s:
        teachers_csv = csv_files.export_teachers(s)
        shifts_csv = csv_files.export_shifts(s)
        overnight = s.scalar(select(Shift).where(Shift.local_date == dt.date(2026, 12, 2)))
        assert overnight is not None and overnight.ends_next_day and overnight.end_time == dt.time(2)
        assert overnight.note == "夜間, 受付"
    assert "22:00,26:00" in shifts_csv
    assert "2026-12-03,09:00,12:30,draft,持ち物: 名札" in shifts_csv

    # Into a fresh database, the exports come back identical.
    from core.store.bootstrap import open_database
    from core.store.paths import data_paths

    other = open_database(data_paths(paths.home.parent / "other"))
    try:
        with other.write() as s:
            f.classroom(s)
            csv_files.import_teachers(s, teachers_csv.encode("utf-8-sig"))
            csv_files.import_shifts(s, shifts_csv.encode("cp932"), now=now)
        with other.read() as s:
            assert csv_files.export_teachers(s) == teachers_csv
            assert csv_files.export_shifts(s) == shifts_csv
    finally:
        other.dispose()


def test_teacher_reimport_updates_by_name(db: Database) -> None:
    _setup(db)
    changed = TEACHERS.replace("hanako@example.com", "hanako@school.example")
    with db.write() as s:
        result = csv_files.import_teachers(s, changed.encode())
    assert (result.created, result.updated) == (0, 3)
    with db.read() as s:
        assert f.reach(rules.teacher_by_name(s, "佐藤 花子")).email == "hanako@school.example"


def test_every_bad_row_is_reported_and_nothing_is_imported(db: Database, now: dt.datetime) -> None:
    _setup(db)
    with db.write() as s:
        room, suzuki = rules.classroom_by_name(s, "本校"), rules.teacher_by_name(s, "鈴木 一郎")
        f.shift(s, room, suzuki, dt.date(2026, 12, 20), now=now)
    bad = (
        "classroom,teacher,date,start,end,status,note\r\n"
        "本校,佐藤 花子,2026-12-05,16:00,21:00,,ok row\r\n"      # line 2 fine on its own
        "本校,山田,2026-12-05,16:00,21:00,,\r\n"                 # 3 unknown teacher
        "本校,佐藤 花子,2026-12-32,16:00,21:00,,\r\n"            # 4 bad date
        "本校,佐藤 花子,2026-12-06,16:00,21:70,,\r\n"            # 5 bad time
        "本校,佐藤 花子,2026-12-05,20:00,22:00,,\r\n"            # 6 overlaps line 2
        "本校,佐藤 花子,2026-12-05,16:00,21:00,,\r\n"            # 7 duplicate of line 2
        "分校,佐藤 花子,2026-12-07,16:00,21:00,,\r\n"            # 8 unknown classroom
        "本校,鈴木 一郎,2026-12-20,16:00,21:00,,\r\n"            # 9 duplicate of an existing shift
        "本校,佐藤 花子,2026-12-08,16:00,21:00,maybe,\r\n"       # 10 bad status
        "本校,佐藤 花子,2026-12-09,16:00,21:00,,,extra\r\n"      # 11 too many fields
    )
    before = _counts(db)
    with pytest.raises(CsvImportError) as caught, db.write() as s:
        csv_files.import_shifts(s, bad.encode("cp932"), now=now)
    problems = {p.line: p.reason for p in caught.value.problems}
    assert sorted(problems) == [3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert "unknown teacher" in problems[3]
    assert "bad date" in problems[4]
    assert "bad time" in problems[5]
    assert "overlaps" in problems[6]
    assert "duplicate" in problems[7]
    assert "unknown classroom" in problems[8]
    assert "duplicate of existing shift" in problems[9]
    assert "status" in problems[10]
    assert "fields" in problems[11]
    assert _counts(db) == before


def test_bad_teacher_rows(db: Database) -> None:
    bad = (
        "名前,LINE_ID,メール,LINE通知\r\n"
        "佐藤,U123,,yes\r\n"
        "鈴木,,suzuki@,yes\r\n"
        "田中,,,perhaps\r\n"
        "高橋,,,yes\r\n"
        "高橋,,,no\r\n"
        ",,,yes\r\n"
    )
    with pytest.raises(CsvImportError) as caught, db.write() as s:
        csv_files.import_teachers(s, bad.encode("utf-8-sig"))
    reasons = {p.line: p.reason for p in caught.value.problems}
    assert sorted(reasons) == [2, 3, 4, 6, 7]
    assert "malformed LINE user ID" in reasons[2] and "e-mail" in reasons[3]
    assert "yes or no" in reasons[4] and "duplicate" in reasons[6] and "name" in reasons[7]
    assert _counts(db) == (0, 0)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"teacher,date\r\n", "lacks these columns"),
        (b"\xff\xfe\x00\x00garbage", "UTF-8 or Shift_JIS"),
        (b"name,name\r\nx,y\r\n", "more than once"),
    ],
)
def test_unusable_files(db: Database, data: bytes, message: str) -> None:
    with pytest.raises(CsvImportError, match=message), db.write() as s:
        csv_files.import_teachers(s, data)


def test_multiline_quoted_field_line_numbers(db: Database, now: dt.datetime) -> None:
    _setup(db)
    data = (
        "classroom,teacher,date,start,end,status,note\r\n"
        "本校,佐藤 花子,2026-12-05,16:00,21:00,,\"two\r\nlines\"\r\n"
        "本校,nobody,2026-12-05,16:00,21:00,,\r\n"
    )
    with pytest.raises(CsvImportError) as caught, db.write() as s:
        csv_files.import_shifts(s, data.encode(), now=now)
    assert [p.line for p in caught.value.problems] == [4]


_cell_texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
_rows = st.lists(st.lists(st.one_of(_cell_texts, st.sampled_from(["本校", "佐藤 花子", "2026-12-01", "16:00", "26:00", "yes", "confirmed", f"U{1:032x}"])), max_size=8), max_size=6)


@pytest.mark.slow  # 150 generated files
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(header=st.sampled_from([csv_files.SHIFT_COLUMNS, csv_files.teacher_columns(), ("name",), ("x", "y")]),
       rows=_rows, encoding=st.sampled_from(["utf-8", "utf-8-sig", "cp932"]), raw=st.binary(max_size=64))
def test_garbage_never_crashes_nor_half_imports(db: Database, now: dt.datetime, header, rows, encoding, raw) -> None:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    try:
        data = buffer.getvalue().encode(encoding)
    except UnicodeEncodeError:
        data = buffer.getvalue().encode("utf-8")
    with db.write() as s:
        if s.scalar(select(func.count()).select_from(Teacher)) == 0:
            f.classroom(s)
            csv_files.import_teachers(s, TEACHERS.encode())
    for payload in (data, data + raw, raw):
        for importer in ("teachers", "shifts"):
            before = _snapshot(db)
            try:
                with db.write() as s:
                    if importer == "teachers":
                        csv_files.import_teachers(s, payload)
                    else:
                        csv_files.import_shifts(s, payload, now=now)
            except CsvImportError as exc:
                assert exc.problems and all(p.line >= 1 for p in exc.problems)
                assert _snapshot(db) == before
            else:
                # A successful import only adds or updates: every row that was there still is.
                after = _snapshot(db)
                assert {t[0] for t in before[0]} <= {t[0] for t in after[0]}
                assert {x[0] for x in before[1]} <= {x[0] for x in after[1]}


def _snapshot(db: Database) -> tuple[list[tuple], list[tuple]]:
    with db.read() as s:
        teachers = [(t.id, t.name, f.reach(t).line_user_id, f.reach(t).email, f.reach(t).line_opt_in, f.reach(t).email_opt_in, t.active) for t in s.scalars(select(Teacher).order_by(Teacher.id))]
        shifts = [(x.id, x.teacher_id, x.local_date, x.start_time, x.end_time, x.status) for x in s.scalars(select(Shift).order_by(Shift.id))]
    return teachers, shifts


def test_typed_times_import_in_every_accepted_form(db: Database, now: dt.datetime) -> None:
    _setup(db)
    data = (
        "classroom,teacher,date,start,end\r\n"
        "本校,佐藤 花子,2026-12-01,1600,21時\r\n"
        "本校,佐藤 花子,2026-12-02,１６：００,２１時３０分\r\n"
        "本校,鈴木 一郎,2026-12-03,22時,2600\r\n"
    )
    with db.write() as s:
        csv_files.import_shifts(s, data.encode("utf-8"), now=now)
    with db.read() as s:
        got = [(x.start_time, x.end_time, x.ends_next_day) for x in s.scalars(select(Shift).order_by(Shift.local_date))]
    assert got == [(dt.time(16), dt.time(21), False), (dt.time(16), dt.time(21, 30), False), (dt.time(22), dt.time(2), True)]


# The payloads of a CSV-injection report: each would run as a formula when Excel opens the export.
FORMULAS = ('=HYPERLINK("http://x","click")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3", "'=already quoted")


def _cells(text: str) -> list[list[str]]:
    import csv
    import io

    return list(csv.reader(io.StringIO(text, newline="")))


def test_formula_cells_are_exported_with_an_apostrophe_and_round_trip(db: Database, now: dt.datetime, paths) -> None:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["name", "line_user_id"])
    writer.writerows([name, ""] for name in FORMULAS[:-1])
    with db.write() as s:
        room = f.classroom(s, "@本校")
        csv_files.import_teachers(s, buffer.getvalue().encode())
        # Typed in the app: in a CSV a leading apostrophe is the spreadsheet's own "this is text" mark.
        rules.create_teacher(s, name=FORMULAS[-1])
        teachers = [rules.teacher_by_name(s, name) for name in FORMULAS]
        for day, teacher in enumerate(teachers, start=1):
            f.shift(s, room, teacher, dt.date(2026, 12, day), now=now)
        rules.edit_shift(s, s.scalars(select(Shift).order_by(Shift.id)).first().id,  # type: ignore[union-attr]
                         rules.ShiftChange(note="=1+1\tsecond"), now=now)
    with db.read() as s:
        assert sorted((t.name for t in rules.list_teachers(s)), key=str) == sorted(FORMULAS)  # imported as written
        teachers_csv = csv_files.export_teachers(s)
        shifts_csv = csv_files.export_shifts(s)

    exported_names = [row[0] for row in _cells(teachers_csv)[1:]]
    assert sorted(exported_names) == sorted("'" + name for name in FORMULAS)
    shift_rows = _cells(shifts_csv)[1:]
    assert {row[0] for row in shift_rows} == {"'@本校"}
    assert sorted(row[1] for row in shift_rows) == sorted("'" + name for name in FORMULAS)
    assert shift_rows[0][6] == "'=1+1\tsecond"
    for row in _cells(teachers_csv) + _cells(shifts_csv):
        assert not any(cell[:1] in ("=", "+", "-", "@", "\t", "\r") for cell in row), row

    from core.store.bootstrap import open_database
    from core.store.paths import data_paths

    other = open_database(data_paths(paths.home.parent / "other"))
    try:
        with other.write() as s:
            f.classroom(s, "@本校")
            csv_files.import_teachers(s, teachers_csv.encode("utf-8-sig"))
            csv_files.import_shifts(s, shifts_csv.encode("utf-8-sig"), now=now)
        with other.read() as s:
            assert sorted((t.name for t in rules.list_teachers(s)), key=str) == sorted(FORMULAS)  # the apostrophe came off
            assert s.scalars(select(Shift).order_by(Shift.local_date)).first().note == "=1+1\tsecond"  # type: ignore[union-attr]
            assert csv_files.export_teachers(s) == teachers_csv
            assert csv_files.export_shifts(s) == shifts_csv
    finally:
        other.dispose()


@pytest.mark.parametrize(
    ("value", "exported"),
    [("=A1", "'=A1"), ("+1", "'+1"), ("-1", "'-1"), ("@x", "'@x"), ("\tx", "'\tx"), ("\rx", "'\rx"),
     ("'=A1", "''=A1"), ("''@x", "'''@x"), ("it's", "it's"), ("'quoted'", "'quoted'"), ("a=b", "a=b"), ("", "")],
)
def test_escape_is_undone_exactly(value: str, exported: str) -> None:
    assert csv_files.escape(value) == exported
    assert csv_files.unescape(exported) == value


@given(st.text(alphabet=st.sampled_from("'=+-@\t\rab 本"), max_size=8))
def test_every_text_survives_escaping_and_none_exports_as_a_formula(value: str) -> None:
    exported = csv_files.escape(value)
    assert csv_files.unescape(exported) == value
    assert exported[:1] not in ("=", "+", "-", "@", "\t", "\r")


@pytest.mark.parametrize(
    ("data", "line"),
    [
        ('name,line_user_id\n"unterminated,U123\n', 2),
        (f'name,line_user_id\n佐藤,U{1:032x}\n"unterminated,U123\n鈴木,\n', 3),
        ('name,line_user_id\n佐藤,\n"closed" and more,U123\n', 3),
    ],
)
def test_a_broken_quote_is_refused_at_its_line_and_nothing_is_imported(db: Database, data: str, line: int) -> None:
    with pytest.raises(CsvImportError) as caught, db.write() as s:
        csv_files.import_teachers(s, data.encode())
    assert [p.line for p in caught.value.problems] == [line]
    assert '"' in caught.value.problems[0].reason and "nothing was imported" in str(caught.value)
    assert _counts(db) == (0, 0)


def test_an_unterminated_quote_in_shifts_is_refused(db: Database, now: dt.datetime) -> None:
    _setup(db)
    data = (
        "classroom,teacher,date,start,end,status,note\r\n"
        "本校,佐藤 花子,2026-12-05,16:00,21:00,,fine\r\n"
        "本校,佐藤 花子,2026-12-06,16:00,21:00,,\"never closed\r\n"
        "本校,佐藤 花子,2026-12-07,16:00,21:00,,\r\n"
    )
    with pytest.raises(CsvImportError) as caught, db.write() as s:
        csv_files.import_shifts(s, data.encode(), now=now)
    assert [(p.line, "never closed" in p.reason) for p in caught.value.problems] == [(3, True)]
    assert _counts(db) == (3, 0)


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31", "1999-12-31", "2100-01-01"])
def test_dates_beyond_the_roster_years_are_bad_values(db: Database, now: dt.datetime, day: str) -> None:
    _setup(db)
    data = (
        "classroom,teacher,date,start,end\r\n"
        "本校,佐藤 花子,2026-12-05,16:00,21:00\r\n"
        f"本校,佐藤 花子,{day},16:00,26:00\r\n"
    )
    with pytest.raises(CsvImportError) as caught, db.write() as s:
        csv_files.import_shifts(s, data.encode(), now=now)
    assert [p.line for p in caught.value.problems] == [3]
    assert caught.value.problems[0].reason == (f"bad date {day}: a shift's date must be between 2000-01-01 and 2099-12-31")
    assert _counts(db) == (3, 0)


def test_the_first_and_last_roster_days_import(db: Database, now: dt.datetime) -> None:
    _setup(db)
    data = (
        "classroom,teacher,date,start,end\r\n"
        "本校,佐藤 花子,2000-01-01,00:00,21:00\r\n"
        "本校,佐藤 花子,2099-12-31,23:00,47:00\r\n"
    )
    with db.write() as s:
        assert csv_files.import_shifts(s, data.encode(), now=now).created == 2
        assert csv_files.export_shifts(s, month=(2099, 12)).splitlines()[1] == "本校,佐藤 花子,2099-12-31,23:00,47:00,draft,"


# ----- headings --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("importer", "data", "unknown"),
    [
        ("teachers", f"Name,LINE,Mail\r\n佐藤 花子,U{1:032x},hanako@example.com\r\n", ["LINE", "Mail"]),
        ("shifts", "教室,講師,日付,開始,終了,担当科目\r\n本校,佐藤 花子,2026-12-01,16:00,21:00,数学\r\n", ["担当科目"]),
        ("shifts", "classroom,teacher,date,start,end,email\r\n本校,佐藤 花子,2026-12-01,16:00,21:00,a@b.jp\r\n", ["email"]),
    ],
)
def test_unknown_columns_are_refused_by_name_and_nothing_is_imported(db: Database, now: dt.datetime, importer: str,
                                                                     data: str, unknown: list[str]) -> None:
    _setup(db)
    before = _snapshot(db)
    with pytest.raises(CsvImportError) as caught, db.write() as s:
        if importer == "teachers":
            csv_files.import_teachers(s, data.encode())
        else:
            csv_files.import_shifts(s, data.encode(), now=now)
    [problem] = caught.value.problems
    assert problem.line == 1 and all(name in problem.reason for name in unknown)
    assert "does not know" in problem.reason
    assert _snapshot(db) == before


def test_an_unknown_column_and_a_missing_one_are_both_told(db: Database) -> None:
    with pytest.raises(CsvImportError) as caught, db.write() as s:
        csv_files.import_teachers(s, "名簿,LINE\r\n佐藤,x\r\n".encode())
    reasons = [p.reason for p in caught.value.problems]
    assert len(reasons) == 2 and "名簿, LINE" in reasons[0] and "lacks these columns: name" in reasons[1]


@pytest.mark.parametrize("name", ["名前", "氏名", "講師", "講師名", "先生", "Name", "ＮＡＭＥ"])
def test_japanese_headings_of_a_teachers_file(db: Database, name: str) -> None:
    data = (f"{name},LINE ID,メールアドレス,LINE通知,メール通知,有効,連絡方法\r\n"
            f"佐藤 花子,U{1:032x},hanako@example.com,はい,はい,○,line_fallback\r\n")
    with db.write() as s:
        assert csv_files.import_teachers(s, data.encode("cp932")).created == 1
    with db.read() as s:
        teacher = rules.teacher_by_name(s, "佐藤 花子")
        reach = f.reach(teacher)
        assert (reach.line_user_id, reach.email, reach.line_opt_in, reach.email_opt_in) == (
            f"U{1:032x}", "hanako@example.com", True, True)


@pytest.mark.parametrize(
    "header",
    ["教室名,講師名,日付,開始時刻,終了時刻,備考", "教室,先生,日付,開始,終了,メモ", "教室,氏名,日付,開始時刻,終了時刻,メモ",
     "教室, 名前 ,日付,開始,終了,備考"],
)
def test_japanese_headings_of_a_shifts_file(db: Database, now: dt.datetime, header: str) -> None:
    _setup(db)
    data = f"{header}\r\n本校,佐藤 花子,2026/12/01,16:00,21:00,持ち物: 名札\r\n"
    with db.write() as s:
        assert csv_files.import_shifts(s, data.encode("cp932"), now=now).created == 1
    with db.read() as s:
        shift = s.scalar(select(Shift))
        assert shift is not None and shift.teacher.name == "佐藤 花子" and shift.note == "持ち物: 名札"
        assert (shift.local_date, shift.start_time, shift.end_time) == (dt.date(2026, 12, 1), dt.time(16), dt.time(21))


def test_missing_columns_are_named_in_the_managers_language(db: Database, now: dt.datetime) -> None:
    from core.texts import render

    _setup(db)
    with pytest.raises(CsvImportError) as caught, db.write() as s:
        csv_files.import_shifts(s, "教室,講師\r\n本校,佐藤 花子\r\n".encode(), now=now)
    [problem] = caught.value.problems
    assert render(problem.problem, "ja") == "見出しに必要な列がありません: 日付、開始、終了（見つかった列: 教室、講師）"
    assert str(problem.problem) == "the header lacks these columns: date, start, end (found: 教室, 講師)"
    with pytest.raises(CsvImportError) as caught, db.write() as s:
        csv_files.import_teachers(s, "氏名,LINE,Mail\r\n".encode())
    [problem] = caught.value.problems
    assert render(problem.problem, "ja") == ("見出しに使えない列があります: LINE、Mail。講師のファイルで使える列は 名前、ふりがな、"
                                             "LINEユーザーID、メール、LINE WORKS ID、LINE通知、メール通知、有効、所属教室、連絡方法、並び順、最大シフト数、"
                                                 "最大時間、最低時間、最大連続勤務日数、最大土日勤務日数、配分、担当コマ です。")


@pytest.mark.parametrize("data", [b"\xef", b"\xef\xbb"])
def test_a_file_that_is_a_cut_off_bom_is_no_text(db: Database, now: dt.datetime, data: bytes) -> None:
    for read in (lambda s: csv_files.import_shifts(s, data, now=now), lambda s: csv_files.import_teachers(s, data)):
        with db.write() as s, pytest.raises(CsvImportError) as refused:
            read(s)
        assert [p.line for p in refused.value.problems] == [1]
