"""Reading a teacher's availability typed as a LINE message, or written in reply to the e-mailed
request and entered by the manager (シフト希望). Pure: text and month in, answers per day out, or None
when the text could mean more than one thing.

A message is read only when every word of it is understood:
- the whole month at once: `全部OK`, `全部○`, `いつでも大丈夫`, `all ok` (every day available) or
  `全部×`, `全部無理` (none);
- otherwise pairs of days and an answer: days are a date of the asked month (`12/5`, `5日`,
  `12月5日`, with or without its weekday in brackets as the e-mailed request lists them, `12/5(金)`)
  or weekdays (`火木`, `火・木`, `火曜`, `tue/thu`), and the answer is `○` (available), `×` (not) or
  hours: `17時以降`, `17:00から`, `21時まで`, `17時-21時`, `17:00〜21:30` (each time as
  core/roster/time_of_day.py reads it, so a bare `17` is not an hour). `火木 17時以降`, `12/5 ×`,
  `12/5 × 12/6 ○` and several lines are read; days not named keep their answer.
Refused (None): a word that is neither, days without an answer or an answer without days, a date of
another month or one the month lacks, and a day given two different answers in one message.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from core.errors import ValidationError
from core.roster import time_of_day

YES, NO, HOURS = "yes", "no", "hours"
ANSWERS = (YES, NO, HOURS)
WEEKDAYS = "月火水木金土日"  # Monday first, as date.weekday() counts

_ALL_YES = frozenset({"全部ok", "全部○", "全部◯", "全部〇", "全日ok", "全日○", "全部大丈夫", "全部可", "いつでもok",
                      "いつでも大丈夫", "いつでも可", "allok", "all", "anyday", "全部いけます", "全部行けます"})
_ALL_NO = frozenset({"全部×", "全部x", "全部ng", "全部無理", "全部不可", "全日×", "全日ng", "allno", "none"})
_YES_WORDS = frozenset({"○", "◯", "〇", "o", "ok", "可", "◎", "yes", "大丈夫"})
# Not 休み: with a date it asks for cover of a shift (core/roster/cover.py reads it).
_NO_WORDS = frozenset({"×", "x", "✕", "✖", "ng", "不可", "無理", "no"})
_ENGLISH_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Each weekday as English writes it (mon, tue, tues, thur, thurs, tuesday, tuesdays), by its number.
_ENGLISH = {form: n for n, name in enumerate(_ENGLISH_DAYS)
            for form in (name[:3], name, name + "s", *(("tues",) if n == 1 else ("thur", "thurs") if n == 3 else ()))}
# A date may carry its weekday in brackets, as the e-mailed request lists the days: 12/5(金), 12/5(fri).
_DATE = re.compile(r"^(?:(?P<month>\d{1,2})[/月])?(?P<day>\d{1,2})日?"
                   r"(?:\((?:[月火水木金土日]|mon|tue|wed|thu|fri|sat|sun)\))?(?P<rest>.*)$")
_WEEKDAYS = re.compile(rf"^(?P<days>[{WEEKDAYS}](?:[・/]?[{WEEKDAYS}])*)(?:曜日|曜)?(?P<rest>.*)$")
_FROM = re.compile(r"^(?P<time>.+?)(?:以降|から|~|〜|-)$")
_UNTIL = re.compile(r"^(?:~|〜|-)?(?P<time>.+?)(?:まで)$|^(?:~|〜|-)(?P<bare>.+)$")
_RANGE = re.compile(r"^(?P<start>[^~〜-]+)(?:~|〜|-|から)(?P<end>[^~〜-]+?)(?:まで)?$")
_SEPARATORS = re.compile(r"[\s,、。]+")


@dataclass(frozen=True, slots=True)
class DayAnswer:
    """One day's answer: available, not, or available between `start` and `end` (either may be open)."""

    day: dt.date
    answer: str
    start: dt.time | None = None
    end: dt.time | None = None


@dataclass(frozen=True, slots=True)
class _Value:
    answer: str
    start: dt.time | None = None
    end: dt.time | None = None


def month_days(year: int, month: int) -> list[dt.date]:
    return [dt.date(year, month, d) for d in range(1, calendar.monthrange(year, month)[1] + 1)]


def _normal(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower().strip()


def parse(text: str, year: int, month: int) -> tuple[DayAnswer, ...] | None:
    """The answers `text` gives for days of `year`-`month`, in day order; None when it is not
    unambiguous (the reply then explains and shows the buttons)."""
    normal = _normal(text)
    if not normal or len(normal) > 500:
        return None
    squeezed = _SEPARATORS.sub("", normal).rstrip("!")
    if squeezed in _ALL_YES or squeezed in _ALL_NO:
        answer = YES if squeezed in _ALL_YES else NO
        return tuple(DayAnswer(day, answer) for day in month_days(year, month))
    found: dict[dt.date, _Value] = {}
    days: list[dt.date] = []
    for word in _words(normal):
        named = _days(word, year, month)
        if named is not None:
            chosen, rest = named
            if days and not rest:
                return None  # days after days without an answer between: "12/5 12/6 ×" might mean either
            days = chosen
            if not rest:
                continue
            word = rest
        value = _value(word)
        if value is None or not days:
            return None
        for day in days:
            if found.get(day, value) != value:
                return None  # one day, two answers
            found[day] = value
        days = []
    if days or not found:
        return None
    return tuple(DayAnswer(day, v.answer, v.start, v.end) for day, v in sorted(found.items()))


def parse_reply(text: str, year: int, month: int) -> tuple[DayAnswer, ...] | None:
    """`parse` for a reply to the e-mailed request, which lists the month's days a line each: a line
    that names one day and nothing else is a day left unanswered, not a day waiting for its answer."""
    kept = [line for line in text.splitlines() if not _blank_day(_normal(line), year, month)]
    return parse("\n".join(kept), year, month)


def _blank_day(line: str, year: int, month: int) -> bool:
    words = list(_words(line))
    if len(words) != 1:
        return False
    named = _days(words[0], year, month)
    return named is not None and len(named[0]) == 1 and not named[1]


def _words(normal: str) -> Iterable[str]:
    return (w for w in _SEPARATORS.split(normal) if w)


def _days(word: str, year: int, month: int) -> tuple[list[dt.date], str] | None:
    """The days a word names and what follows them in it ("12/5×" → 5th, "×"); None: it names none.
    A date of another month or past the month's end names no day the request asks about: refused."""
    names = re.split(r"[/・&+]", word)
    if all(name in _ENGLISH for name in names):
        wanted = {_ENGLISH[name] for name in names}
        return [d for d in month_days(year, month) if d.weekday() in wanted], ""
    weekdays = _WEEKDAYS.match(word)
    if weekdays is not None:
        wanted = {WEEKDAYS.index(c) for c in weekdays["days"] if c in WEEKDAYS}
        return [d for d in month_days(year, month) if d.weekday() in wanted], weekdays["rest"]
    date = _DATE.match(word)
    if date is None or (date["month"] is None and "日" not in word):
        return None  # a bare number is not a day
    if date["month"] is not None and int(date["month"]) != month:
        return [], "?"  # another month: the caller refuses "?"
    try:
        return [dt.date(year, month, int(date["day"]))], date["rest"]
    except ValueError:
        return [], "?"


def _value(word: str) -> _Value | None:
    if word in _YES_WORDS:
        return _Value(YES)
    if word in _NO_WORDS:
        return _Value(NO)
    hours = _RANGE.match(word)
    if hours is not None:
        start, end = _time(hours["start"]), _time(hours["end"])
    elif (since := _FROM.match(word)) is not None:
        start, end = _time(since["time"]), None
        if start is None:
            return None
    elif (until := _UNTIL.match(word)) is not None:
        start, end = None, _time(until["time"] or until["bare"])
        if end is None:
            return None
    else:
        return None
    if hours is not None and (start is None or end is None or end <= start):
        return None
    return _Value(HOURS, start, end)


def _time(text: str | None) -> dt.time | None:
    if not text:
        return None
    try:
        return time_of_day.parse(text)[0]
    except ValidationError:
        return None
