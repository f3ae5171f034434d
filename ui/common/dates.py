"""How the interface writes a date: the one place for it.

Unambiguous in both languages: "Wed 2 Dec 2026" / "2026年12月2日(水)", never "2/12/26", which a
British and an American manager read as different days. The names of months and weekdays follow
the interface's language, not the PC's, so an English window on a Japanese PC says "Wed", not "水".
The patterns are translatable (the Japanese translation holds the Japanese ones), so the language
a date is written in is always the language of the words around it. The text itself comes from
core/texts/formats.py, the one definition the CLI, alerts and messages use too; the Qt patterns
remain for the date fields, and tests/test_texts_formats.py holds them to the same text.
"""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QCoreApplication, QDate, QDateTime, QLocale
from PySide6.QtWidgets import QDateEdit, QWidget

from core.roster import clock, rules
from core.texts import formats
from core.texts.formats import Language


def locale() -> QLocale:
    """The locale whose month and weekday names the interface uses."""
    return QLocale(QCoreApplication.translate("Dates", "en_GB", "the locale for month and weekday names: ja_JP in Japanese"))


def day_pattern() -> str:
    """A day with its weekday and year, as a Qt date pattern (also what the date fields show)."""
    return QCoreApplication.translate("Dates", "ddd d MMM yyyy",
                                      "a day with weekday and year, Qt date pattern: yyyy年M月d日(ddd) in Japanese")


def day_field(day: dt.date, parent: QWidget | None = None) -> QDateEdit:
    """A field for a roster's day: a calendar to pick from, the interface's pattern, the days a shift may fall on."""
    field = QDateEdit(parent)
    field.setCalendarPopup(True)
    field.setLocale(locale())
    field.setDisplayFormat(day_pattern())
    first, last = rules.FIRST_DAY, rules.LAST_DAY
    field.setDateRange(QDate(first.year, first.month, first.day), QDate(last.year, last.month, last.day))
    field.setDate(QDate(day.year, day.month, day.day))
    return field


def language() -> Language:
    """The language dates are written in: that of the translated words around them."""
    return "ja" if locale().language() == QLocale.Language.Japanese else "en"


def day_text(day: dt.date) -> str:
    """ "Wed 2 Dec 2026" / "2026年12月2日(水)". """
    return formats.day_text(day, language())


def day_short_pattern() -> str:
    """ "ddd d MMM" / "M月d日(ddd)": `day_short` as a Qt date pattern."""
    return QCoreApplication.translate("Dates", "ddd d MMM",
                                      "a day with weekday, no year, Qt date pattern: M月d日(ddd) in Japanese")


def day_short(day: dt.date) -> str:
    """ "Wed 2 Dec" / "12月2日(水)": where the month's year is already on screen."""
    return formats.day_short(day, language())


def weekday_short(day: dt.date) -> str:
    """ "Wed" / "水". """
    return formats.weekday_short(day, language())


def moment_text(moment: dt.datetime, zone_name: str | None = None, *, seconds: bool = False) -> str:
    """ "Wed 2 Dec 2026 15:00" / "2026年12月2日(水) 15:00", on a classroom's clock (the zone's name), else
    in the PC's time zone; with `seconds`, ":05" seconds when they matter."""
    if zone_name is not None:
        return formats.wall_text(moment.astimezone(clock.zone(zone_name)), language(), seconds=seconds)
    return wall_text(QDateTime.fromSecsSinceEpoch(int(moment.timestamp())).toLocalTime(), seconds=seconds)


def day_of(day: QDate) -> dt.date:
    """A QDate as a date (PySide6's stubs type QDate.toPython() as object)."""
    return dt.date(day.year(), day.month(), day.day())


def wall_text(local: QDateTime, *, seconds: bool = False) -> str:
    """A wall-clock moment already in the zone it is to be read in (e.g. a classroom's):
    "Wed 2 Dec 2026 15:00" / "2026年12月2日(水) 15:00", with ":05" seconds when they matter."""
    time = local.time()
    moment = dt.datetime.combine(day_of(local.date()), dt.time(time.hour(), time.minute(), time.second()))
    return formats.wall_text(moment, language(), seconds=seconds)
