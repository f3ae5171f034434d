"""Dates, times, weekdays and numbers as each language writes them: the one definition.

"Tue 1 Dec 2026 17:00" / "2026年12月1日(火) 17:00": unambiguous in both languages (never "1/12/26",
which a British and an American reader take for different days). The names follow the language
asked for, not the computer's locale, so English text on a Japanese PC still says "Tue". Pure.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

Language = Literal["ja", "en"]
LANGUAGES: tuple[Language, ...] = ("ja", "en")

EN_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
JA_WEEKDAYS = ("月", "火", "水", "木", "金", "土", "日")
EN_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
EN_MONTHS_LONG = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
                  "October", "November", "December")


def weekday_short(day: dt.date, lang: Language) -> str:
    """ "Tue" / "火". """
    return (JA_WEEKDAYS if lang == "ja" else EN_WEEKDAYS)[day.weekday()]


def day_text(day: dt.date, lang: Language) -> str:
    """ "Tue 1 Dec 2026" / "2026年12月1日(火)". """
    if lang == "ja":
        return f"{day.year}年{day.month}月{day.day}日({weekday_short(day, lang)})"
    return f"{weekday_short(day, lang)} {day.day} {EN_MONTHS[day.month - 1]} {day.year}"


def day_short(day: dt.date, lang: Language) -> str:
    """ "Tue 1 Dec" / "12月1日(火)": where the year is already in view."""
    if lang == "ja":
        return f"{day.month}月{day.day}日({weekday_short(day, lang)})"
    return f"{weekday_short(day, lang)} {day.day} {EN_MONTHS[day.month - 1]}"


def month_text(year: int, month: int, lang: Language) -> str:
    """ "December 2026" / "2026年12月". """
    return f"{year}年{month}月" if lang == "ja" else f"{EN_MONTHS_LONG[month - 1]} {year}"


def time_text(time: dt.time, *, seconds: bool = False) -> str:
    """ "17:00" in both languages (24-hour, as rosters are written)."""
    return time.strftime("%H:%M:%S" if seconds else "%H:%M")


def wall_text(moment: dt.datetime, lang: Language, *, seconds: bool = False) -> str:
    """A moment as read on the wall clock of its own zone: "Tue 1 Dec 2026 17:00" / "2026年12月1日(火) 17:00"."""
    return f"{day_text(moment.date(), lang)} {time_text(moment.timetz(), seconds=seconds)}"


def number(value: int | float, lang: Language) -> str:
    """ "1,000" in both languages (Japanese office text groups digits the same way)."""
    del lang  # same in both today; the parameter keeps every call site language-aware
    return f"{value:,}" if isinstance(value, int) else f"{value:,.1f}"


def join(items: list[str], lang: Language) -> str:
    """A list inside a sentence: "a, b, c" / "a、b、c"."""
    return ("、" if lang == "ja" else ", ").join(items)
