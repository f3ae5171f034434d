"""What a teacher receives when asked when they can work (シフト希望): a Flex carousel, a short
bubble on how to answer and then a bubble per week of the month, each day with three buttons —
○ available, × not, △ hours (LINE's time picker asks from when; the reply then offers a picker for
until when) — and the texts that answer them: what a tap recorded, the summary of their month after
a typed answer, which they may correct by tapping again or typing, and the explanation when a typed answer could mean more than one thing.

Every button's data is signed with the database's button key, with the MAC every signed button of
Shiftcast uses (core/messages/ack.py), as `av:<request>:<teacher>:<day>:<y|n|h|e>:<MAC>`, so only a button this database built for that teacher is
believed, and the 了解 handler passes over it. LINE's limits, measured as LINE measures them
(core/messages/month_flex.py): a bubble's JSON at most 30 KB, a carousel at most 12 bubbles and
50 KB, postback data at most 300 characters, at most 5 messages in a reply. A week of seven days is
about 5 KB, so a month (at most six weeks and the intro) is one carousel of about 32 KB. Pure.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.messages import ack
from core.messages.month_flex import ALT_TEXT_LIMIT, size
from core.roster.availability_text import HOURS, NO, YES, DayAnswer, month_days
from core.texts import Text, render, t
from core.texts.formats import Language, day_short, month_text, time_text

PREFIX = "av"
CAROUSEL_BYTES = 50_000
BUBBLE_BYTES = 30_000
ACCENT = "#2B6CB0"
CODES = {YES: "y", NO: "n", HOURS: "h"}
UNTIL = "e"  # the follow-up picker: until when, for a day answered with hours
INITIAL_FROM = "17:00"
INITIAL_UNTIL = "21:00"
Sign = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class Asked:
    """One teacher's request as their message shows it."""

    request_id: int
    teacher_id: int
    classroom: str
    year: int
    month: int
    deadline: dt.date
    language: Language
    reminder: bool = False
    answers: Mapping[dt.date, DayAnswer] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Tap:
    """What a button of ours said: which request, teacher and day, and the answer (or UNTIL)."""

    request_id: int
    teacher_id: int
    day: int
    code: str


def payload(request_id: int, teacher_id: int, day: int, code: str) -> str:
    return f"{PREFIX}:{request_id}:{teacher_id}:{day}:{code}"


def sign(key: str, payload_: str) -> str:
    """A button's data: its payload and the payload's MAC."""
    return f"{payload_}:{ack.mac(key, payload_)}"


def is_ours(data: str) -> bool:
    return data.startswith(PREFIX + ":")


def read_tap(key: str, data: str) -> Tap | None:
    """The tap a signed button of ours carries, or None for anything else (compared in constant time)."""
    found, _, given = data.rpartition(":")
    parts = found.split(":")
    if (len(parts) != 5 or parts[0] != PREFIX or not given
            or not all(p.isascii() and p.isdigit() and len(p) <= 18 for p in parts[1:4])):
        return None
    if not ack.mac_matches(key, found, given):
        return None
    if parts[4] not in (*CODES.values(), UNTIL):
        return None
    return Tap(int(parts[1]), int(parts[2]), int(parts[3]), parts[4])


def answer_of(code: str) -> str | None:
    return next((answer for answer, c in CODES.items() if c == code), None)


def _text(value: Text, language: Language) -> str:
    return render(value, language)


def mark(answer: DayAnswer | None, language: Language) -> str:
    """A day's answer in a few characters: ○, ×, 17:00〜21:00, 17:00〜, 〜21:00, or — unanswered."""
    if answer is None:
        return "—"
    if answer.answer == YES:
        return "○"
    if answer.answer == NO:
        return "×"
    start = time_text(answer.start) if answer.start else ""
    end = time_text(answer.end) if answer.end else ""
    return f"{start}〜{end}" if language == "ja" else f"{start}–{end}".strip()


def messages(asked: Asked, sign: Sign) -> list[dict[str, Any]]:
    """The request as one Flex carousel (split over a second message only if a month ever outgrew one)."""
    bubbles = [_intro(asked)] + [_week(asked, week, sign) for week in _weeks(asked.year, asked.month)]
    alt = _text(t("availability.alt_reminder" if asked.reminder else "availability.alt",
                  month=month_text(asked.year, asked.month, asked.language), deadline=asked.deadline),
                asked.language)[:ALT_TEXT_LIMIT]
    found: list[dict[str, Any]] = []
    carousel: list[dict[str, Any]] = []
    for bubble in bubbles:
        if carousel and (len(carousel) == 12 or size({"contents": [*carousel, bubble]}) > CAROUSEL_BYTES - 100):
            found.append(carousel)  # type: ignore[arg-type]
            carousel = []
        carousel.append(bubble)
    found.append(carousel)  # type: ignore[arg-type]
    return [{"type": "flex", "altText": alt, "contents": {"type": "carousel", "contents": c}} for c in found]


def _weeks(year: int, month: int) -> list[list[dt.date]]:
    weeks = calendar.Calendar(firstweekday=0).monthdatescalendar(year, month)
    return [[d for d in week if d.month == month] for week in weeks]


def _header(title: str, note: str | None = None) -> dict[str, Any]:
    lines: list[dict[str, Any]] = [{"type": "text", "text": title, "color": "#FFFFFF", "weight": "bold", "wrap": True}]
    if note:
        lines.append({"type": "text", "text": note, "color": "#FFFFFF", "size": "xs", "wrap": True})
    return {"type": "box", "layout": "vertical", "backgroundColor": ACCENT, "paddingAll": "12px", "contents": lines}


def _intro(asked: Asked) -> dict[str, Any]:
    language = asked.language
    title = _text(t("availability.title", classroom=asked.classroom,
                    month=month_text(asked.year, asked.month, language)), language)
    note = _text(t("availability.deadline", deadline=asked.deadline), language)
    lines = [t("availability.reminder_line")] if asked.reminder else []
    lines += [t("availability.how_buttons"), t("availability.how_text")]
    return {"type": "bubble", "size": "kilo", "header": _header(title, note),
            "body": {"type": "box", "layout": "vertical", "spacing": "md", "contents": [
                {"type": "text", "text": _text(line, language), "wrap": True, "size": "sm"} for line in lines]}}


def _week(asked: Asked, days: list[dt.date], sign: Sign) -> dict[str, Any]:
    language = asked.language
    title = f"{day_short(days[0], language)} – {day_short(days[-1], language)}"
    rows = [_day(asked, day, sign) for day in days]
    bubble = {"type": "bubble", "size": "kilo", "header": _header(title),
              "body": {"type": "box", "layout": "vertical", "spacing": "sm", "contents": rows}}
    assert size(bubble) <= BUBBLE_BYTES, "a week of availability buttons outgrew a bubble"
    return bubble


def _day(asked: Asked, day: dt.date, sign: Sign) -> dict[str, Any]:
    language = asked.language

    def data(code: str) -> str:
        return sign(payload(asked.request_id, asked.teacher_id, day.day, code))

    shown = f"{day.month}/{day.day}"
    current = asked.answers.get(day)
    label = day_short(day, language) if current is None else f"{day_short(day, language)} {mark(current, language)}"
    return {"type": "box", "layout": "horizontal", "spacing": "xs", "alignItems": "center", "contents": [
        {"type": "text", "text": label, "size": "xs", "flex": 4, "wrap": True},
        _button("○", {"type": "postback", "label": "○", "data": data(CODES[YES]), "displayText": f"{shown} ○"}),
        _button("×", {"type": "postback", "label": "×", "data": data(CODES[NO]), "displayText": f"{shown} ×"}),
        _button("△", {"type": "datetimepicker", "label": "△", "data": data(CODES[HOURS]), "mode": "time",
                      "initial": INITIAL_FROM}),
    ]}


def _button(_label: str, action: dict[str, Any]) -> dict[str, Any]:
    return {"type": "button", "style": "secondary", "height": "sm", "flex": 2, "action": action}


def until_picker(asked: Asked, day: dt.date, start: dt.time | None, sign: Sign) -> dict[str, Any]:
    """A quick reply with a time picker for until when the teacher can work on `day`."""
    action: dict[str, Any] = {"type": "datetimepicker", "label": _text(t("availability.until_label"), asked.language),
                              "data": sign(payload(asked.request_id, asked.teacher_id, day.day, UNTIL)),
                              "mode": "time", "initial": INITIAL_UNTIL}
    if start is not None:
        action["min"] = time_text(start)
    return {"items": [{"type": "action", "action": action}]}


def summary(asked: Asked) -> str:
    """The teacher's current answers for the month, a line a day, and how to correct them."""
    language = asked.language
    days = month_days(asked.year, asked.month)
    lines = [f"{day_short(day, language)} {mark(asked.answers.get(day), language)}" for day in days]
    missing = sum(1 for day in days if day not in asked.answers)
    head = _text(t("availability.summary", month=month_text(asked.year, asked.month, language),
                   count=len(days) - missing, missing_count=missing), language)
    tail = _text(t("availability.correct"), language)
    return "\n".join([head, "", *lines, "", tail])


def tap_summary(asked: Asked, day: dt.date) -> str:
    """What a tap recorded, in one line, with how much of the month is answered: a tap is one day, so
    its reply stays short; a typed answer gets the whole month (`summary`)."""
    language = asked.language
    days = month_days(asked.year, asked.month)
    missing = sum(1 for d in days if d not in asked.answers)
    head = _text(t("availability.tap_summary", day=day_short(day, language), mark=mark(asked.answers.get(day), language),
                   month=month_text(asked.year, asked.month, language), count=len(days) - missing,
                   missing_count=missing), language)
    return f"{head}\n{_text(t('availability.correct'), language)}"


def not_understood(asked: Asked) -> str:
    return _text(t("availability.not_understood"), asked.language)


def month_over(asked: Asked) -> str:
    """The reply to an answer, tapped or typed, for a month that is over: nothing was recorded."""
    return _text(t("availability.month_over", month=month_text(asked.year, asked.month, asked.language)),
                 asked.language)


def until_question(asked: Asked, day: dt.date) -> str:
    return _text(t("availability.ask_until", day=day_short(day, asked.language)), asked.language)
