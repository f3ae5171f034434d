"""CSV import and export of teachers and shifts.

An import is all-or-nothing: every row is checked inside one transaction, every bad row is reported
with its line number and reason, and if there is any, the transaction is rolled back. Files may be
UTF-8 (with or without BOM) or Shift_JIS/CP932, which is what Japanese Excel writes. Quotes are read
strictly: a quote left open would otherwise swallow the rest of the file into one cell, so it is
refused at the line it opens on.

An exported cell that a spreadsheet would run as a formula (it starts with = + - @, a tab or a
carriage return) gets a leading apostrophe, OWASP's advice against CSV injection; Excel shows the
text as written. Import takes the apostrophe off again, so export → import gives back the same text.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from core.errors import ShiftcastError, ValidationError
from core.roster import channel_choice, clock, contacts, limits, membership, reading, rules
from core.roster.progress import Progress
from core.roster.taken import Taken
from core.store.models import Classroom, ClassroomTeacher, Shift, ShiftStatus, Teacher, TeacherContact, utcnow
from core.texts import Text, t

# A teachers file's columns: these, with every channel's contact columns after "reading" (core/roster/
# contacts.py `columns`: line_user_id, email, line_opt_in, email_opt_in for the built-in ones).
_TEACHER_FIRST = ("name", "reading")
_TEACHER_LAST = ("active", "classrooms", "channel", "order", "max_shifts", "max_hours", "min_hours", "max_days_in_a_row",
                 "max_weekend_days", "share", "slots")
# Each teacher's limits (core/roster/limits.py): column → the limit it sets. Hours columns hold hours
# ("40", "40:30", "40.5"), stored as minutes.
LIMIT_COLUMNS = {"max_shifts": "max_shifts", "max_hours": "max_minutes", "min_hours": "min_minutes",
                 "max_days_in_a_row": "max_days_in_a_row", "max_weekend_days": "max_weekend_days",
                 "share": "target_share"}
SHIFT_COLUMNS = ("classroom", "teacher", "date", "start", "end", "status", "note")
TEACHER_REQUIRED = ("name",)
SHIFT_REQUIRED = ("classroom", "teacher", "date", "start", "end")

# Headings as a manager types them in Japanese Excel, beside each column's own name. A teachers file
# and a shifts file read the same words for a teacher's name: the name in the one, the teacher in the other.
_TEACHER_NAME = ("名前", "氏名", "講師", "講師名", "先生", "先生名")
TEACHER_HEADINGS: dict[str, tuple[str, ...]] = {
    "name": _TEACHER_NAME,
    "reading": ("ふりがな", "フリガナ", "よみ", "ヨミ", "読み", "よみがな", "読み仮名", "furigana"),
    "order": ("並び順", "順番", "順序", "表示順", "position"),
    "classrooms": ("教室", "所属教室", "教室名", "classroom"),
    "max_shifts": ("最大シフト数", "シフト上限", "max shifts"),
    "max_hours": ("最大時間", "最大勤務時間", "時間上限", "max hours"),
    "min_hours": ("最低時間", "最低勤務時間", "min hours"),
    "max_days_in_a_row": ("最大連続勤務日数", "連続勤務日数", "連勤上限", "max days in a row"),
    "max_weekend_days": ("最大土日勤務日数", "土日勤務上限", "max weekend days"),
    "share": ("配分", "割合", "target_share", "target share"),
    "slots": ("担当コマ", "コマ", "lesson slots"),
    "active": ("有効",),
    "channel": ("連絡方法", "通知方法", "チャネル", "チャンネル"),
}
SHIFT_HEADINGS: dict[str, tuple[str, ...]] = {
    "classroom": ("教室", "教室名"),
    "teacher": _TEACHER_NAME,
    "date": ("日付",),
    "start": ("開始", "開始時刻", "開始時間"),
    "end": ("終了", "終了時刻", "終了時間"),
    "status": ("状態",),
    "note": ("備考", "メモ"),
}


@dataclass(frozen=True)
class FileKind:
    """What a file of teachers or of shifts may hold: its columns, the required ones, their headings."""

    what: str  # "teachers" or "shifts", the catalog's word.… for messages
    columns: tuple[str, ...]
    required: tuple[str, ...]
    headings: Mapping[str, tuple[str, ...]]

    def column(self, heading: str) -> str | None:
        """The column a heading names, or None. Full-width letters, half-width kana, case and spaces
        as Excel users type them do not matter: "ＬＩＮＥ　ＩＤ" is "LINE ID"."""
        key = _plain(heading)
        if key in self.columns:
            return key
        return next((c for c, words in self.headings.items() if key in {_plain(word) for word in words}), None)


def _plain(heading: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", heading).lower().split())


def teacher_columns() -> tuple[str, ...]:
    """A teachers file's columns, as export writes them, the registered channels' contact columns included."""
    return (*_TEACHER_FIRST, *(column.name for _, column in contacts.columns()), *_TEACHER_LAST)


def teachers_file() -> FileKind:
    """What a teachers file may hold, with the contact columns of the channels registered now."""
    headings = {**TEACHER_HEADINGS, **{column.name: column.headings for _, column in contacts.columns()}}
    return FileKind("teachers", teacher_columns(), TEACHER_REQUIRED, headings)


SHIFTS = FileKind("shifts", SHIFT_COLUMNS, SHIFT_REQUIRED, SHIFT_HEADINGS)
TRUE_WORDS = {"yes", "y", "true", "1", "on", "はい", "○", "〇", "有効"}
FALSE_WORDS = {"no", "n", "false", "0", "off", "いいえ", "×", "無効", ""}
STATUS_WORDS = {
    "draft": ShiftStatus.DRAFT, "下書き": ShiftStatus.DRAFT, "": ShiftStatus.DRAFT,
    "confirmed": ShiftStatus.CONFIRMED, "確定": ShiftStatus.CONFIRMED,
    "canceled": ShiftStatus.CANCELED, "cancelled": ShiftStatus.CANCELED, "取消": ShiftStatus.CANCELED,
}
# Between the names of a teacher's classrooms: ASCII's semicolon, or Japanese's 、 (a comma would
# split the cell in a spreadsheet that reads commas as separators).
_CLASSROOM_SEPARATORS = re.compile(r"[;；、]")
MAX_BYTES = 20 * 1024 * 1024
# Far beyond any real file (7 columns; a row's longest cells are a 1,000-character note and a few names),
# so that a header of 200,000 columns or a line of megabytes is refused at once with its line number.
MAX_COLUMNS = 100
MAX_LINE_CHARACTERS = 10_000
# Cells a spreadsheet would run as a formula. Apostrophes already in front are counted in, so a text
# that itself starts with "'=" gains one more on export and loses exactly that one on import.
_FORMULA = re.compile(r"'*[=+\-@\t\r]")
_ESCAPED = re.compile(r"'+[=+\-@\t\r]")


@dataclass(frozen=True)
class RowProblem:
    line: int
    problem: Text

    @property
    def reason(self) -> str:
        """What is wrong with the line, in English."""
        return str(self.problem)

    @property
    def text(self) -> Text:
        return t("csv.row", line=self.line, reason=self.problem)

    def __str__(self) -> str:
        return str(self.text)


class CsvImportError(ShiftcastError):
    """The file was rejected as a whole; `problems` lists every bad row."""

    def __init__(self, problems: list[RowProblem]) -> None:
        self.problems = problems
        more: Text | str = t("csv.more", count=len(problems) - 5) if len(problems) > 5 else ""
        super().__init__(t("csv.rejected", count=len(problems), shown=tuple(p.text for p in problems[:5]), more=more))


@dataclass
class ImportResult:
    created: int = 0
    updated: int = 0
    ids: list[int] = field(default_factory=list)


def decode(data: bytes) -> str:
    return data.decode(_encoding(data))


def _stream(data: bytes) -> TextIO:
    """The file as text read piece by piece, so a large file is never held decoded whole."""
    return io.TextIOWrapper(io.BytesIO(data), encoding=_encoding(data), newline="")


_PIECE = 1 << 20


def _encoding(data: bytes) -> str:
    """UTF-8 (with or without BOM) or CP932, checked a piece at a time; a file with NUL is no text."""
    if len(data) > MAX_BYTES:
        raise CsvImportError([RowProblem(1, t("csv.too_large"))])
    for encoding in ("utf-8-sig", "cp932"):
        if encoding == "utf-8-sig" and len(data) < 3 and codecs.BOM_UTF8.startswith(data) and data:
            continue  # a BOM cut short: Python's decoder would pass it here and fail on the whole file
        decoder = codecs.getincrementaldecoder(encoding)()
        try:
            pieces = (decoder.decode(data[start:start + _PIECE]) for start in range(0, len(data), _PIECE))
            has_nul = any("\x00" in piece for piece in pieces) or "\x00" in decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            continue
        if has_nul:
            break
        return encoding
    raise CsvImportError([RowProblem(1, t("csv.not_text"))])


def _rows(text: str | TextIO, kind: FileKind) -> Iterator[tuple[int, dict[str, str]]]:
    """Yield (line number, row) keyed by column; raises CsvImportError for a bad header."""
    reader = csv.reader(io.StringIO(text, newline="") if isinstance(text, str) else text, strict=True)
    try:
        header = next(reader)
    except StopIteration:
        raise CsvImportError([RowProblem(1, t("csv.empty"))]) from None
    except csv.Error as exc:
        raise CsvImportError([RowProblem(1, _unreadable(exc))]) from None
    if len(header) > MAX_COLUMNS:
        raise CsvImportError([RowProblem(1, t("csv.too_many_columns", count=len(header), limit_count=MAX_COLUMNS))])
    too_wide = _too_wide(header)
    if too_wide is not None:
        raise CsvImportError([RowProblem(1, too_wide)])
    names = _columns(header, kind)
    while True:
        line = reader.line_num + 1
        try:
            values = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield line, _Unreadable(_unreadable(exc))
            return
        if not any(v.strip() for v in values):
            continue
        if len(values) > len(names):
            yield line, _Unreadable(t("csv.too_many_fields", fields=len(values), columns=len(names)))
            continue
        too_wide = _too_wide(values)
        if too_wide is not None:
            yield line, _Unreadable(too_wide)
            continue
        yield line, {n: unescape(v).strip() for n, v in zip(names, values, strict=False)}


def _columns(header: list[str], kind: FileKind) -> list[str]:
    """The column of each heading; raises CsvImportError naming every unknown, missing or repeated one.

    A heading that names no column is refused rather than skipped: its cells would be dropped without
    a word, and "LINE" or "Mail" looks to the person who typed it like data that was imported. A
    column without any heading (the empty cells Excel leaves after the last one) stays ignored.
    """
    found = [(h, kind.column(h) if h.strip() else "") for h in header]
    names = [name or "" for _, name in found]
    problems = []
    unknown = tuple(h.strip() for h, name in found if name is None)
    if unknown:
        problems.append(t("csv.unknown_columns", columns=unknown, what=t(f"word.{kind.what}"),
                          known=_words(kind.columns)))
    missing = [c for c in kind.required if c not in names]
    if missing:
        problems.append(t("csv.missing_columns", missing=_words(missing), found=tuple(header)))
    duplicated = sorted(n for n, times in Counter(names).items() if n and times > 1)
    if duplicated:
        problems.append(t("csv.duplicate_columns", columns=_words(duplicated)))
    if problems:
        raise CsvImportError([RowProblem(1, problem) for problem in problems])
    return names


def _words(columns: Sequence[str]) -> tuple[Text, ...]:
    """Column names as the header of each language names them."""
    return tuple(t(f"word.column.{column}") for column in columns)


def _too_wide(values: list[str]) -> Text | None:
    """Why a line is far longer than any real row, if it is."""
    length = sum(len(v) for v in values) + len(values) - 1  # the commas between the cells
    return t("csv.line_too_long", count=length, limit_count=MAX_LINE_CHARACTERS) if length > MAX_LINE_CHARACTERS else None


class _Unreadable(dict[str, str]):
    """A row that could not be read: no cells, only what was wrong."""

    def __init__(self, problem: Text) -> None:
        super().__init__()
        self.problem = problem


def _unreadable(exc: csv.Error) -> Text:
    """The csv module's complaint in words a spreadsheet user knows."""
    text = str(exc)
    if "unexpected end of data" in text:
        return t("csv.unclosed_quote")
    if "expected after" in text:
        return t("csv.text_after_quote")
    if "field larger than field limit" in text:
        return t("csv.cell_too_long", limit_count=csv.field_size_limit())
    return t("csv.unreadable", detail=text)


def escape(value: str) -> str:
    """A cell as exported: text a spreadsheet would run as a formula gets a leading apostrophe."""
    return "'" + value if _FORMULA.match(value) else value


def unescape(value: str) -> str:
    """A cell as imported: the apostrophe `escape` added comes off."""
    return value[1:] if _ESCAPED.match(value) else value


def _flag(row: Mapping[str, str], name: str, default: bool) -> bool:
    if name not in row:
        return default
    value = row[name].strip().lower()
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise ValidationError(t("csv.bad_flag", column=t(f"word.column.{name}"), value=row[name]))


def _date(text: str) -> dt.date:
    cleaned = text.strip().replace("/", "-")
    try:
        year, month, day = (int(p) for p in cleaned.split("-"))
        parsed = dt.date(year, month, day)
    except (ValueError, OverflowError):  # a year of 20 digits does not fit a C long
        raise ValidationError(t("csv.bad_date", text=text)) from None
    return rules.check_day(parsed)


def _run_import(session: Session, rows: Iterator[tuple[int, dict[str, str]]], apply_row,  # type: ignore[no-untyped-def]
                lines: int, progress: Progress | None) -> ImportResult:
    """Apply each row in a savepoint; collect problems; raise (rolling the caller back) if any."""
    result = ImportResult()
    problems: list[RowProblem] = []
    for line, row in rows:
        if progress is not None:
            progress(line, lines)
        if isinstance(row, _Unreadable):
            problems.append(RowProblem(line, row.problem))
            continue
        savepoint = session.begin_nested()
        try:
            apply_row(row, result)
            savepoint.commit()
        except ShiftcastError as exc:
            savepoint.rollback()
            problems.append(RowProblem(line, exc.text if isinstance(exc.text, Text) else t("text.plain", text=exc.text)))
    if problems:
        raise CsvImportError(problems)
    return result


NEW_TEACHERS_BATCH = 2_000  # rows checked and stored together: few enough to keep memory flat, many per statement


def import_teachers(session: Session, data: bytes, *, progress: Progress | None = None) -> ImportResult:
    """Add new teachers and update existing ones (matched by name).

    Rows are taken in batches. For each, which of its names and addresses teachers already use is read
    in a few queries (`Taken`), and a new teacher is checked in full as rows (`rules.new_teacher`)
    against that, without a savepoint of its own since nothing is touched before every check passed;
    the batch's new teachers are then stored a statement a table, without the ORM. A file of hundreds
    of thousands of rows so costs time and memory by the batch, not by the row. An existing teacher
    is updated as before, in a savepoint. Any bad row still rolls the whole import back."""
    lines = _line_count(data)
    # The teachers there were before: a name among them is an update (once); a name made earlier in
    # this file is in use but not among them, so it is a repeat.
    before = {name: teacher_id for name, teacher_id in session.execute(
        select(Teacher.name, Teacher.id).where(Teacher.name.is_not(None))) if name is not None}
    updated: set[str] = set()
    classrooms = {c.name: c.id for c in session.scalars(select(Classroom))}
    now = utcnow()
    result = ImportResult()
    problems: list[RowProblem] = []
    rows: list[tuple[int, dict[str, str]]] = []
    # Limits, slots and memberships are read once, and only for a file with limit columns (`known`);
    # they are written together once every row is good (`changed`).
    known: dict[str, Any] = {}
    changed: dict[int, limits.Limits] = {}
    contact_columns = contacts.columns()

    def limits_after(row: dict[str, str], existing: int | None, classroom_ids: list[int] | None) -> limits.Limits | None:
        """The teacher's limits after this row; None when the file has no limit column."""
        if not any(column in row for column in (*LIMIT_COLUMNS, "slots")):
            return None
        if not known:
            known.update(current=limits.limits_of(session, before.values()), slots=limits.slot_names(session),
                         members=membership.ids_by_teacher(session))
        was = known["current"].get(existing, limits.NONE) if existing is not None else limits.NONE
        rooms = classroom_ids if classroom_ids is not None else known["members"].get(existing, ()) if existing else ()
        return _limits(row, was, known["slots"], rooms)

    def values_of(row: dict[str, str]) -> tuple[dict[str, Any], list[int] | None]:
        values: dict[str, Any] = {"contacts_in": _contact_changes(row, contact_columns),
                                  "active": _flag(row, "active", True)}
        if "reading" in row:  # a file without the column keeps the readings given in the window
            values["reading"] = row["reading"]
        if "order" in row:  # likewise the places in the manager's order (empty: by reading)
            values["position"] = reading.position_of(row["order"])
        # Optional: an empty or missing cell keeps an existing teacher's choice (new ones get LINE).
        if row.get("channel", "").strip():
            values["channel"] = channel_choice.parse(row["channel"])
        # likewise the classrooms they belong to (empty: none)
        return values, _classroom_ids(row["classrooms"], classrooms) if "classrooms" in row else None

    def check_and_store() -> None:
        taken = Taken.among(session, (row.get("name", "").strip() for _, row in rows), _addresses(rows))
        batch: list[NewRow] = []
        for line, row in rows:
            try:
                name = row.get("name", "").strip()
                if name in updated or (name in taken.names and name not in before):
                    raise ValidationError(t("csv.duplicate_teacher", name=name))
                values, classroom_ids = values_of(row)
                existing = before.get(name) if name else None
                wanted = limits_after(row, existing, classroom_ids)
                if existing is None:
                    batch.append((rules.new_teacher(session, name=name, now=now, taken=taken, **values),
                                  classroom_ids or [], wanted))
                    result.created += 1
                    continue
                _store(session, batch, result, now, changed)  # an update's checks ask the database: it must know these
                if classroom_ids is not None:
                    values["classroom_ids"] = classroom_ids
                with session.begin_nested():  # an update may fail after it began (a classroom it cannot leave)
                    teacher = rules.update_teacher(session, existing, **values)
                if wanted is not None and wanted != known["current"].get(existing, limits.NONE):
                    changed[existing] = wanted
                taken.update(name, {c.channel: c.address for c in teacher.contacts if c.address})
                updated.add(name)
                result.ids.append(teacher.id)
                result.updated += 1
            except ShiftcastError as exc:
                problems.append(RowProblem(line, exc.text if isinstance(exc.text, Text) else t("text.plain", text=exc.text)))
        _store(session, batch, result, now, changed)
        rows.clear()

    for line, row in _rows(_stream(data), teachers_file()):
        if progress is not None:
            progress(line, lines)
        if isinstance(row, _Unreadable):
            problems.append(RowProblem(line, row.problem))
            continue
        rows.append((line, row))
        if len(rows) >= NEW_TEACHERS_BATCH:
            check_and_store()
    check_and_store()
    if problems:
        raise CsvImportError(sorted(problems, key=lambda problem: problem.line))
    limits.store_many(session, changed)
    return result


def _contact_changes(row: Mapping[str, str], columns: Sequence[tuple[str, contacts.ContactColumn]]
                     ) -> dict[str, rules.ContactChange]:
    """What a row says of each contact, by channel: the address in its column, the teacher's agreement
    (yes/no) in its own. A column the file lacks changes nothing; an empty address cell clears it."""
    changes: dict[str, rules.ContactChange] = {}
    for channel, column in columns:
        if column.name not in row:
            continue
        change = changes.get(channel, rules.ContactChange())
        changes[channel] = (replace(change, agreed=_flag(row, column.name, False)) if column.agreed
                            else replace(change, address=row[column.name]))
    return changes


def _addresses(rows: Iterable[tuple[int, dict[str, str]]]) -> Iterator[str]:
    """The addresses rows give, as their channels' rules store them (an unusable one is the row's problem)."""
    columns = [(channel, column.name) for channel, column in contacts.columns() if not column.agreed]
    for _, row in rows:
        for channel, column in columns:
            try:
                address = contacts.check_address(channel, row.get(column))
            except ValidationError:
                continue
            if address is not None:
                yield address


NewRow = tuple[rules.NewTeacher, list[int], "limits.Limits | None"]  # checked teacher, classrooms, limits


def _store(session: Session, batch: list[NewRow], result: ImportResult, now: dt.datetime,
           changed: dict[int, limits.Limits]) -> None:
    """Store checked new teachers, a statement a table: their rows, their contacts, their classrooms; their
    limits go into `changed`, written once the whole file is good."""
    if not batch:
        return
    made = session.execute(insert(Teacher).returning(Teacher.id, sort_by_parameter_order=True),
                           [teacher.values for teacher, _, _ in batch]).scalars().all()
    session.execute(insert(TeacherContact), [{**contact, "teacher_id": teacher_id}
                                             for (teacher, _, _), teacher_id in zip(batch, made, strict=True)
                                             for contact in teacher.contacts])
    joined = [{"classroom_id": classroom_id, "teacher_id": teacher_id, "since": now}
              for (_, classroom_ids, _), teacher_id in zip(batch, made, strict=True)
              for classroom_id in sorted(set(classroom_ids))]
    if joined:
        session.execute(insert(ClassroomTeacher), joined)
    changed.update({teacher_id: wanted for (_, _, wanted), teacher_id in zip(batch, made, strict=True)
                    if wanted is not None and wanted != limits.NONE})
    result.ids.extend(made)
    batch.clear()


def _limits(row: Mapping[str, str], before: limits.Limits, slots: Sequence[limits.SlotName],
            classroom_ids: Iterable[int]) -> limits.Limits:
    """The teacher's limits after this row: a column the file has sets its limit (empty: none); a column
    it lacks keeps what is set."""
    changes: dict[str, Any] = {}
    for column, name in LIMIT_COLUMNS.items():
        if column in row:
            read = limits.parse_hours if column.endswith("hours") else limits.parse_count
            changes[name] = read(row[column], name)
    if "slots" in row:
        changes["slots"] = limits.parse_slots(row["slots"], slots, frozenset(classroom_ids))
    return limits.check(replace(before, **changes))


def _classroom_ids(cell: str, classrooms: Mapping[str, int]) -> list[int]:
    """The classrooms a cell names ("本校;北校", "本校、北校"); an unknown name is refused by name."""
    names = [name.strip() for name in _CLASSROOM_SEPARATORS.split(cell) if name.strip()]
    unknown = next((name for name in names if name not in classrooms), None)
    if unknown is not None:
        raise ValidationError(t("csv.unknown_classroom", name=unknown))
    return [classrooms[name] for name in names]


def import_shifts(session: Session, data: bytes, *, now: dt.datetime, progress: Progress | None = None) -> ImportResult:
    """Add every shift in the file. A row equal to an existing shift or another row is a duplicate."""
    text = decode(data)
    rows = _rows(text, SHIFTS)
    classrooms = {c.name: c for c in session.scalars(select(Classroom))}
    seen: set[tuple[object, ...]] = set()

    def apply(row: dict[str, str], result: ImportResult) -> None:
        classroom = classrooms.get(row.get("classroom", ""))
        if classroom is None:
            raise ValidationError(t("csv.unknown_classroom", name=row.get("classroom", "")))
        teacher = session.scalar(select(Teacher).where(Teacher.name == row.get("teacher", "")))
        if teacher is None:
            raise ValidationError(t("csv.unknown_teacher", name=row.get("teacher", "")))
        local_date = _date(row.get("date", ""))
        start, start_next = clock.parse_wall_time(row.get("start", ""))
        end, ends_next_day = clock.parse_wall_time(row.get("end", ""), allow_next_day=True)
        status_word = row.get("status", "").strip().lower()
        if status_word not in STATUS_WORDS:
            raise ValidationError(t("csv.bad_status", value=row["status"]))
        key = (classroom.id, teacher.id, local_date, start, end, ends_next_day)
        if key in seen:
            raise ValidationError(t("csv.duplicate_row"))
        seen.add(key)
        same = session.scalar(
            select(Shift.id).where(
                Shift.classroom_id == classroom.id,
                Shift.teacher_id == teacher.id,
                Shift.local_date == local_date,
                Shift.start_time == start,
                Shift.end_time == end,
                Shift.status != ShiftStatus.CANCELED,
            )
        )
        if same is not None:
            raise ValidationError(t("csv.duplicate_shift", id=same))
        draft = rules.ShiftDraft(
            classroom_id=classroom.id,
            teacher_id=teacher.id,
            local_date=local_date,
            start_time=start,
            end_time=end,
            ends_next_day=ends_next_day,
            note=row.get("note", ""),
            status=STATUS_WORDS[status_word],
        )
        shift = rules.add_shift(session, draft, now=now)
        result.created += 1
        result.ids.append(shift.id)

    return _run_import(session, rows, apply, _line_count(text), progress)


def _line_count(text: str | bytes) -> int:
    """The file's lines, for progress (a quoted cell over several lines makes it a little high). In
    bytes too: neither UTF-8 nor CP932 has a newline byte inside another character."""
    if isinstance(text, bytes):
        return text.count(b"\n") + (0 if text.endswith(b"\n") else 1)
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def write_cells(rows: Iterable[Sequence[str]]) -> str:
    """Rows as CSV text for a spreadsheet: CRLF line ends, every cell escaped (`escape`)."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerows([escape(cell) for cell in row] for row in rows)
    return buffer.getvalue()


def _write(header: tuple[str, ...], rows: list[list[str]]) -> str:
    return write_cells([header, *rows])


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def export_teachers(session: Session) -> str:
    classrooms = membership.names_by_teacher(session)
    teachers = rules.list_teachers(session)
    room_ids = membership.ids_by_teacher(session)
    slots = limits.slot_names(session)
    set_limits = limits.limits_of(session, (t.id for t in teachers))
    columns = contacts.columns()
    return _write(
        teacher_columns(),
        [
            [t.name or "", t.reading or "", *(_contact_cell(t, channel, column) for channel, column in columns),
             _yes(t.active), ";".join(classrooms.get(t.id, ())), channel_choice.of(t).word,
             "" if t.position is None else str(t.position),
             *_limit_cells(set_limits[t.id], slots, room_ids.get(t.id, frozenset()))]
            for t in teachers
        ],
    )


def _contact_cell(teacher: Teacher, channel: str, column: contacts.ContactColumn) -> str:
    value = contacts.column_value(teacher.contacts, channel, column)
    return _yes(value) if isinstance(value, bool) else value or ""


def _limit_cells(chosen: limits.Limits, slots: Sequence[limits.SlotName], classroom_ids: frozenset[int]) -> list[str]:
    """The limit columns of a teacher's row, as `_limits` reads them back (hours as 40:30)."""
    cells = []
    for column, name in LIMIT_COLUMNS.items():
        value = getattr(chosen, name)
        cells.append("" if value is None else limits.clock_hours(value) if column.endswith("hours") else str(value))
    return [*cells, limits.slots_text(chosen.slots, slots, classroom_ids)]


def export_shifts(session: Session, *, classroom_id: int | None = None, month: tuple[int, int] | None = None) -> str:
    query = select(Shift).order_by(Shift.local_date, Shift.start_time, Shift.id)
    if classroom_id is not None:
        query = query.where(Shift.classroom_id == classroom_id)
    if month is not None:
        first, last = rules.month_bounds(*month)
        query = query.where(Shift.local_date >= first, Shift.local_date <= last)
    return _write(
        SHIFT_COLUMNS,
        [
            [
                s.classroom.name,
                s.teacher.display_name,
                s.local_date.isoformat(),
                clock.format_wall_time(s.start_time),
                clock.format_wall_time(s.end_time, next_day=s.ends_next_day),
                s.status.value,
                s.note,
            ]
            for s in session.scalars(query)
        ],
    )
