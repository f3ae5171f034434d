"""A published month as LINE Flex messages, for a classroom without image hosting: the group's month
as carousels of one bubble per week (each day, then each teacher's time), and one teacher's own month
as one bubble. On a revision after the first, the shifts that changed are marked.

LINE's limits are kept here, measured the way LINE measures them (compact UTF-8 JSON): a message's
JSON at most 30 KB (read as 30,000 bytes), at most 12 bubbles in a carousel, altText at most 1,500
characters, at most 5 messages in one push. A week too big for one bubble goes on as many bubbles as
it needs; bubbles are packed into as few carousels as fit. Pure: facts in, messages out.
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.roster import reading
from core.texts import Text, render, t
from core.texts.formats import Language, day_short, month_text

MESSAGE_BYTES = 30_000
CAROUSEL_BUBBLES = 12
MESSAGES_PER_PUSH = 5
ALT_TEXT_LIMIT = 1500
ACCENT = "#1B7F5B"
CHANGED = "#C05621"
MARK = "● "
LINES_PER_TEXT = 40  # a day's rows per text component, so a very large day still splits over bubbles
_CAROUSEL_SHELL = len(b'{"type":"carousel","contents":[]}')

Component = dict[str, Any]
Cells = Mapping[str, Mapping[int, Sequence[str]]]  # teacher name → day of month → "16:00-21:00" lines


@dataclass(frozen=True)
class MonthFacts:
    """What a publication says: its classroom's month, its cells and which of them changed."""

    classroom: str
    year: int
    month: int
    revision: int
    cells: Cells  # its teachers in the order they are listed (the publication's snapshot has it)
    changed: frozenset[tuple[str, int]]
    language: Language


class MonthTooLarge(Exception):
    """Even split over bubbles and carousels, the month needs more messages than one push carries."""

    def __init__(self, messages: int) -> None:
        super().__init__(f"the month needs {messages} Flex messages; one push carries {MESSAGES_PER_PUSH}")
        self.messages = messages


def size(value: Any) -> int:
    """Bytes of the compact UTF-8 JSON: the size LINE's Flex limits are measured on."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def group_messages(facts: MonthFacts) -> list[dict[str, Any]]:
    """The month for the group: carousels of week bubbles, at most five messages (else MonthTooLarge)."""
    header = _header(facts, _title(facts), _revision_line(facts))
    bubbles = [bubble for week in _weeks(facts.year, facts.month)
               for bubble in _week_bubbles(facts, week, header)]
    carousels = _pack(bubbles)
    if len(carousels) > MESSAGES_PER_PUSH:
        raise MonthTooLarge(len(carousels))
    alt = render(_alt(facts), facts.language)
    messages = []
    for number, carousel in enumerate(carousels, start=1):
        part = "" if len(carousels) == 1 else render(t("month_flex.part", part=number, parts=len(carousels)),
                                                      facts.language)
        messages.append({"type": "flex", "altText": _clip(alt + part, ALT_TEXT_LIMIT),
                         "contents": {"type": "carousel", "contents": carousel}})
    return messages


def changed_days(facts: MonthFacts, teacher: str) -> list[int]:
    return sorted(day for name, day in facts.changed if name == teacher)


def teacher_lines(facts: MonthFacts, teacher: str) -> list[tuple[str, bool]]:
    """One teacher's month as (line, changed) pairs, day by day; a shift that went away reads "off"."""
    days = facts.cells.get(teacher, {})
    lines = []
    for day in sorted(set(days) | set(changed_days(facts, teacher))):
        date = dt.date(facts.year, facts.month, day)
        lines.append((f"{day_short(date, facts.language)}  {_times(days.get(day), facts.language)}",
                      (teacher, day) in facts.changed))
    return lines


def teacher_title(facts: MonthFacts, teacher: str) -> Text:
    return t("teacher_month.title", name=teacher, month=month_text(facts.year, facts.month, facts.language))


def teacher_text(facts: MonthFacts, teacher: str) -> str:
    """One teacher's month as plain text (e-mail, and the altText on LINE): title, then a line a day."""
    lines = [render(teacher_title(facts, teacher), facts.language), facts.classroom]
    if facts.revision > 1 and changed_days(facts, teacher):
        lines.append(render(t("teacher_month.changed"), facts.language))
    lines += [(MARK if changed else "") + line for line, changed in teacher_lines(facts, teacher)]
    return "\n".join(lines)


def teacher_message(facts: MonthFacts, teacher: str) -> dict[str, Any]:
    """One teacher's month as one bubble: the classroom and month on top, a row a day."""
    note = t("teacher_month.changed") if facts.revision > 1 and changed_days(facts, teacher) else None
    header = _header(facts, teacher_title(facts, teacher), note, subtitle=facts.classroom)
    lines = teacher_lines(facts, teacher) or [(render(t("month_flex.no_shifts"), facts.language), False)]
    return {"type": "flex", "altText": _clip(teacher_text(facts, teacher), ALT_TEXT_LIMIT),
            "contents": _bubble(header, [_lines(lines)])}


def _title(facts: MonthFacts) -> Text:
    return t("month_flex.title", classroom=facts.classroom,
             month=month_text(facts.year, facts.month, facts.language))


def _revision_line(facts: MonthFacts) -> Text | None:
    if facts.revision <= 1:
        return None
    return t("month_flex.revision", revision=facts.revision, count=len(facts.changed))


def _alt(facts: MonthFacts) -> Text:
    month = month_text(facts.year, facts.month, facts.language)
    if facts.revision > 1:
        return t("month_flex.alt_update", classroom=facts.classroom, month=month, revision=facts.revision,
                 count=len(facts.changed))
    return t("month_flex.alt", classroom=facts.classroom, month=month)


def _weeks(year: int, month: int) -> list[list[int]]:
    """The month's days, Monday to Sunday, as LINE users' calendars show them."""
    return [[day for day in week if day] for week in calendar.Calendar(firstweekday=0).monthdayscalendar(year, month)]


def _week_bubbles(facts: MonthFacts, week: list[int], header: Component) -> Iterator[dict[str, Any]]:
    language = facts.language
    first, last = (day_short(dt.date(facts.year, facts.month, day), language) for day in (week[0], week[-1]))
    span = first if first == last else f"{first} – {last}"
    blocks = [block for day in week if (block := _day_block(facts, day))]
    if not blocks:
        blocks = [[_row(render(t("month_flex.no_shifts"), language), False)]]
    # The header says which week; a week that needs more than one bubble repeats it on each.
    week_header = _with_line(header, span)
    budget = MESSAGE_BYTES - _CAROUSEL_SHELL - size(_bubble(week_header, []))
    for rows in _fill(blocks, budget):
        yield _bubble(week_header, rows)


def _day_block(facts: MonthFacts, day: int) -> list[Component]:
    teachers = sorted({name for name, days in facts.cells.items() if day in days}
                      | {name for name, changed in facts.changed if changed == day},
                      key=reading.as_listed(list(facts.cells)))  # the order it was published with
    if not teachers:
        return []
    date = dt.date(facts.year, facts.month, day)
    label: Component = {"type": "text", "text": day_short(date, facts.language), "weight": "bold", "size": "sm",
                        "margin": "md"}
    rows = [(f"{name}  {_times(facts.cells.get(name, {}).get(day), facts.language)}", (name, day) in facts.changed)
            for name in teachers]
    return [label, *(_lines(rows[i:i + LINES_PER_TEXT]) for i in range(0, len(rows), LINES_PER_TEXT))]


def _times(lines: Sequence[str] | None, language: Language) -> str:
    return ", ".join(lines) if lines else render(t("month_flex.none"), language)


def _lines(rows: Sequence[tuple[str, bool]]) -> Component:
    """Rows as one text of lines, a span per run: a changed run marked, in colour and bold. One text
    a day rather than one a row keeps 30 teachers × 31 days within a few messages."""
    spans: list[Component] = []
    for changed in _runs(rows):
        text = "\n".join((MARK + line) if mark else line for line, mark in changed)
        text = text if not spans else "\n" + text
        marked = changed[0][1]
        spans.append({"type": "span", "text": text, "color": CHANGED, "weight": "bold"} if marked
                     else {"type": "span", "text": text})
    return {"type": "text", "wrap": True, "size": "sm", "contents": spans}


def _runs(rows: Sequence[tuple[str, bool]]) -> Iterator[list[tuple[str, bool]]]:
    run: list[tuple[str, bool]] = []
    for row in rows:
        if run and run[-1][1] != row[1]:
            yield run
            run = []
        run.append(row)
    if run:
        yield run


def _row(text: str, changed: bool) -> Component:
    return _lines([(text, changed)])


def _fill(blocks: list[list[Component]], budget: int) -> Iterator[list[Component]]:
    """Rows into bubbles of at most `budget` bytes of rows, a day kept whole where it fits in one."""
    rows: list[Component] = []
    used = 0
    for block in blocks:
        block_size = sum(size(row) + 1 for row in block)
        if rows and used + block_size > budget:
            yield rows
            rows, used = [], 0
        for row in block:
            if rows and used + size(row) + 1 > budget:
                yield rows
                rows, used = [], 0
            rows.append(row)
            used += size(row) + 1
    if rows:
        yield rows


def _pack(bubbles: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Bubbles into as few carousels as LINE takes: at most 12 each, each message within its bytes."""
    carousels: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    used = _CAROUSEL_SHELL
    for bubble in bubbles:
        bubble_size = size(bubble) + 1
        if current and (len(current) == CAROUSEL_BUBBLES or used + bubble_size > MESSAGE_BYTES):
            carousels.append(current)
            current, used = [], _CAROUSEL_SHELL
        current.append(bubble)
        used += bubble_size
    if current:
        carousels.append(current)
    return carousels


def _header(facts: MonthFacts, title: Text, note: Text | None, *, subtitle: str | None = None) -> Component:
    lines = [{"type": "text", "text": _clip(render(title, facts.language), 200), "color": "#FFFFFF",
              "weight": "bold", "wrap": True}]
    if subtitle:
        lines.append({"type": "text", "text": _clip(subtitle, 200), "color": "#FFFFFF", "size": "sm", "wrap": True})
    if note is not None:
        lines.append({"type": "text", "text": render(note, facts.language), "color": "#FFFFFF", "size": "xs",
                      "wrap": True})
    return {"type": "box", "layout": "vertical", "backgroundColor": ACCENT, "paddingAll": "12px", "contents": lines}


def _with_line(header: Component, text: str) -> Component:
    line = {"type": "text", "text": text, "color": "#FFFFFF", "size": "sm"}
    return {**header, "contents": [*header["contents"], line]}


def _bubble(header: Component, rows: list[Component]) -> dict[str, Any]:
    return {"type": "bubble", "header": header,
            "body": {"type": "box", "layout": "vertical", "spacing": "xs",
                     "contents": rows or [{"type": "text", "text": " "}]}}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
