"""A month's hours as a person reads them: the lines above the table, its headings and cells, and
the CSV file that opens in Excel.

Hours are written both ways payroll uses them: H:MM (7:30) to read, and decimal hours to two places
(7.50, rounded half up) to multiply by a rate. When a listed classroom defines lesson slots, the slots
taught follow: a count per slot name, then every slot (コマ) together, and the rule line says how a
slot is counted; without slots the table is as it was. Every table shown or printed starts with the
title, the rule of what counts (core/roster/hours.py) and what was left out, so a printed sheet says how
it was made. The CSV file is the table alone, its headings on line 1: payroll software reads the
headings from the first line, so the notes stay on the screen and the printout.

The CSV is UTF-8 with a BOM (Excel then reads it as UTF-8), or Shift_JIS for older Excel and payroll
software — written as Windows' Shift_JIS (cp932), which is what Japanese Windows and Excel read, so
the usual extended characters of names (髙, 﨑, ①) are kept. A name it cannot hold is refused,
naming the teacher or classroom, and nothing is written. Cells a spreadsheet would run as a formula
are neutralised as every export is (core/roster/csv_files.py `escape`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from functools import partial

from core.errors import ValidationError
from core.roster import csv_files
from core.roster.hours import DAY_TYPES, RULE, SLOT_RULE, DayType, MonthHours, TeacherHours
from core.store.models import ShiftStatus
from core.texts import Text, render, t
from core.texts.formats import Language, month_text


class Encoding(StrEnum):
    UTF8 = "utf-8"
    SHIFT_JIS = "shift_jis"


# The codec each choice writes with: a BOM for Excel's sake; Windows' Shift_JIS (see above).
CODECS = {Encoding.UTF8: "utf-8-sig", Encoding.SHIFT_JIS: "cp932"}
NONE: Text = t("hours.none")  # in place of an empty table
DAY_HEADINGS = {DayType.WEEKDAY: "hours.weekday", DayType.SATURDAY: "hours.saturday",
                DayType.HOLIDAY: "hours.holiday"}


@dataclass(frozen=True)
class Table:
    preamble: tuple[str, ...]  # the title, the rule, what was left out
    headings: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]  # per column: right-aligned figures


def clock_hours(minutes: int) -> str:
    """450 → "7:30"."""
    return f"{minutes // 60}:{minutes % 60:02d}"


def decimal_hours(minutes: int) -> str:
    """450 → "7.50"; to two places, rounded half up (20 minutes → "0.33")."""
    return str((Decimal(minutes) / 60).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def preamble(hours: MonthHours, lang: Language) -> tuple[str, ...]:
    month = month_text(hours.year, hours.month, lang)
    title = (t("hours.title_classroom", month=month, classroom=hours.classroom) if hours.classroom is not None
             else t("hours.title_all", month=month))
    left = t("hours.left_out", draft_count=hours.left_out.get(ShiftStatus.DRAFT, 0),
             canceled_count=hours.left_out.get(ShiftStatus.CANCELED, 0))
    rule = SLOT_RULE if hours.slot_names else RULE
    return tuple(render(text, lang) for text in (title, rule, left))


Minutes = Callable[[TeacherHours], int]
Column = tuple[Text | str, Callable[[TeacherHours], str]]


def _of_day(kind: DayType, teacher: TeacherHours) -> int:
    return teacher.by_day_type.get(kind, 0)


def _in_classroom(classroom: str, teacher: TeacherHours) -> int:
    return teacher.by_classroom.get(classroom, 0)


def _slots_of(name: str, teacher: TeacherHours) -> str:
    return str(teacher.by_slot.get(name, 0))


def _as_clock(minutes: Minutes, teacher: TeacherHours) -> str:
    return clock_hours(minutes(teacher))


def _as_decimal(minutes: Minutes, teacher: TeacherHours) -> str:
    return decimal_hours(minutes(teacher))


def _splits(hours: MonthHours) -> list[tuple[Text | str, Minutes]]:
    """The minutes split by kind of day, then, for every classroom at once, by classroom."""
    splits: list[tuple[Text | str, Minutes]] = [(t(DAY_HEADINGS[kind]), partial(_of_day, kind)) for kind in DAY_TYPES]
    if hours.classroom is None and len(hours.classrooms) > 1:
        splits += [(room, partial(_in_classroom, room)) for room in hours.classrooms]
    return splits


def _columns(hours: MonthHours, *, decimal_splits: bool) -> list[Column]:
    """Each column after the teacher's name: its heading and its cell."""
    columns: list[Column] = [
        (t("hours.shifts"), lambda h: str(h.shifts)),
        (t("hours.total"), lambda h: clock_hours(h.minutes)),
        (t("hours.total_decimal"), lambda h: decimal_hours(h.minutes)),
    ]
    for heading, minutes in _splits(hours):
        columns.append((heading, partial(_as_clock, minutes)))
        if decimal_splits:
            columns.append((t("hours.decimal_of", what=heading), partial(_as_decimal, minutes)))
    if hours.slot_names:
        columns += [(name, partial(_slots_of, name)) for name in hours.slot_names]
        columns.append((t("hours.slots_total"), lambda h: str(h.slots)))
    return columns


def table(hours: MonthHours, lang: Language, *, decimal_splits: bool = False) -> Table:
    """The month's table; with `decimal_splits` every split in decimal hours too (the CSV's columns)."""
    columns = _columns(hours, decimal_splits=decimal_splits)
    headings = (render(t("hours.teacher"), lang), *(render(heading, lang) for heading, _ in columns))
    rows = tuple((teacher.display_name, *(cell(teacher) for _, cell in columns)) for teacher in hours.teachers)
    return Table(preamble(hours, lang), headings, rows, (False, *(True for _ in columns)))


def csv_text(hours: MonthHours, lang: Language) -> str:
    """The headings on line 1, then a row per teacher with every split in both forms."""
    shown = table(hours, lang, decimal_splits=True)
    rows: list[Sequence[str]] = [shown.headings, *shown.rows]
    return csv_files.write_cells(rows)


def csv_bytes(hours: MonthHours, lang: Language, encoding: Encoding = Encoding.UTF8) -> bytes:
    """The CSV file's bytes; ValidationError naming the teacher, classroom or slot Shift_JIS cannot hold."""
    codec = CODECS[encoding]
    if encoding is Encoding.SHIFT_JIS:
        for teacher in hours.teachers:
            if (bad := _unencodable(teacher.display_name, codec)) is not None:
                raise ValidationError(t("hours.not_shift_jis_teacher", teacher=teacher.display_name, character=bad))
        for room in hours.classrooms:
            if (bad := _unencodable(room, codec)) is not None:
                raise ValidationError(t("hours.not_shift_jis_classroom", classroom=room, character=bad))
        for slot in hours.slot_names:
            if (bad := _unencodable(slot, codec)) is not None:
                raise ValidationError(t("hours.not_shift_jis_slot", slot=slot, character=bad))
    return csv_text(hours, lang).encode(codec)


def _unencodable(text: str, codec: str) -> str | None:
    """The first character of `text` the codec cannot write, or None."""
    try:
        text.encode(codec)
    except UnicodeEncodeError as exc:
        return text[exc.start]
    return None
