"""Dates, times and numbers per language in one place, and which language is spoken (pure rules)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QDate, QDateTime, QTime
from PySide6.QtWidgets import QApplication

from core.texts import formats
from core.texts.language import choose, of_locale, system_language
from ui.common import dates, i18n

DAY = dt.date(2026, 12, 1)


def test_the_shapes_of_a_day_and_a_moment() -> None:
    moment = dt.datetime(2026, 12, 1, 17, 0)
    assert formats.wall_text(moment, "ja") == "2026年12月1日(火) 17:00"
    assert formats.wall_text(moment, "en") == "Tue 1 Dec 2026 17:00"
    assert formats.day_short(DAY, "ja") == "12月1日(火)" and formats.day_short(DAY, "en") == "Tue 1 Dec"
    assert formats.month_text(2026, 12, "ja") == "2026年12月" and formats.month_text(2026, 12, "en") == "December 2026"
    assert formats.time_text(dt.time(9, 5, 7), seconds=True) == "09:05:07"
    assert formats.number(12345, "ja") == formats.number(12345, "en") == "12,345"
    assert formats.join(["a", "b"], "ja") == "a、b" and formats.join(["a", "b"], "en") == "a, b"


@pytest.mark.parametrize(("env", "platform", "user_locale", "expected"), [
    ({"LANG": "ja_JP.UTF-8"}, "linux", None, "ja"),
    ({"LANG": "en_GB.UTF-8"}, "linux", None, "en"),
    ({"LC_ALL": "en_US.UTF-8", "LANG": "ja_JP.UTF-8"}, "linux", None, "en"),  # LC_ALL wins
    ({"LC_MESSAGES": "ja_JP.eucJP", "LANG": "en_US.UTF-8"}, "linux", None, "ja"),  # then LC_MESSAGES
    ({"LC_ALL": "", "LANG": "ja_JP"}, "linux", None, "ja"),  # an empty variable says nothing
    ({"LANG": "C"}, "linux", None, "en"),
    ({}, "linux", None, "en"),
    ({}, "win32", "ja-JP", "ja"),  # Windows: the user's default locale name
    ({}, "win32", "Japanese_Japan.932", "ja"),  # as locale.getlocale() says it there
    ({}, "darwin", "ja_JP", "ja"),
    ({"LANG": "en_US.UTF-8"}, "darwin", "ja_JP", "en"),  # a terminal's LANG comes first
    ({}, "win32", "en-GB", "en"),
    ({}, "win32", None, "en"),
])
def test_the_os_locale_decides_when_nothing_is_saved(env: dict[str, str], platform: str, user_locale: str | None,
                                                      expected: str) -> None:
    assert system_language(env, platform, user_locale) == expected
    assert choose("auto", env, platform, user_locale) == expected
    assert choose(None, env, platform, user_locale) == expected


def test_a_saved_language_wins_over_the_locale() -> None:
    assert choose("en", {"LANG": "ja_JP.UTF-8"}, "linux") == "en"
    assert choose("ja", {"LANG": "en_US.UTF-8"}, "win32", "en-US") == "ja"
    assert of_locale("POSIX") is None and of_locale("ja") == "ja"


@pytest.fixture(params=["en", "ja"])
def interface(request: pytest.FixtureRequest, qapp: QApplication, tmp_path: Path) -> Iterator[str]:
    try:
        yield i18n.install(qapp, request.param, tmp_path)
    finally:
        i18n.install(qapp, "en", tmp_path)


def test_the_window_writes_dates_as_core_does(interface: str) -> None:
    """One definition: ui/common/dates.py's text is core's, and the translated Qt patterns the date fields
    show give the same text for every day of a year (all weekdays, one- and two-digit days) but one
    word: Qt's British English (CLDR) abbreviates September "Sept", core writes "Sep" like every other
    three-letter month; only a date field's own display can still say "Sept"."""

    def qt(qdate: QDate, pattern: str) -> str:
        return dates.locale().toString(qdate, pattern).replace("Sept", "Sep")

    assert dates.language() == interface
    for offset in range(366):
        day = DAY + dt.timedelta(days=offset)
        qdate = QDate(day.year, day.month, day.day)
        assert dates.day_text(day) == formats.day_text(day, interface)
        assert qt(qdate, dates.day_pattern()) == dates.day_text(day)
        assert qt(qdate, dates.day_short_pattern()) == dates.day_short(day)
        assert qt(qdate, "ddd") == dates.weekday_short(day)
    wall = QDateTime(QDate(2026, 12, 1), QTime(17, 0, 5))
    expected = {"en": "Tue 1 Dec 2026 17:00:05", "ja": "2026年12月1日(火) 17:00:05"}[interface]
    assert dates.wall_text(wall, seconds=True) == expected


def test_the_window_chooses_its_language_by_the_same_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert i18n.choose("auto") == "ja" and i18n.choose("en") == "en"
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert i18n.choose("auto") == "en" and i18n.choose("ja") == "ja"
