"""Typed times of day: every form a manager writes, and clear refusals for the rest."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import ValidationError
from core.roster import clock, time_of_day


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("17:00", dt.time(17)),
        ("9:05", dt.time(9, 5)),
        ("09:05", dt.time(9, 5)),
        ("1700", dt.time(17)),
        ("0930", dt.time(9, 30)),
        ("930", dt.time(9, 30)),
        ("0000", dt.time(0)),
        ("17時", dt.time(17)),
        ("17時30分", dt.time(17, 30)),
        ("17時5分", dt.time(17, 5)),
        ("9時半", dt.time(9, 30)),
        ("１７：００", dt.time(17)),
        ("１７００", dt.time(17)),
        ("１７時３０分", dt.time(17, 30)),
        (" 17:00 ", dt.time(17)),
        ("午後5時", dt.time(17)),
        ("午前9時30分", dt.time(9, 30)),
        ("午前0時", dt.time(0)),
        ("5pm", dt.time(17)),
        ("5:30 pm", dt.time(17, 30)),
        ("5:30 P.M.", dt.time(17, 30)),
        ("12am", dt.time(0)),
        ("12pm", dt.time(12)),
        ("9 am", dt.time(9)),
    ],
)
def test_accepted_forms(text: str, expected: dt.time) -> None:
    assert time_of_day.parse(text) == (expected, False)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("26:00", (dt.time(2), True)), ("2600", (dt.time(2), True)), ("26時", (dt.time(2), True)),
     ("２４：００", (dt.time(0), True)), ("47:59", (dt.time(23, 59), True)), ("23:59", (dt.time(23, 59), False))],
)
def test_after_midnight_when_allowed(text: str, expected: tuple[dt.time, bool]) -> None:
    assert time_of_day.parse(text, allow_next_day=True) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "no time given"),
        ("   ", "no time given"),
        ("17", "write it like 17:00, 1700 or 17時30分"),
        ("9", "write it like"),
        ("17:0", "write it like"),
        ("17:000", "write it like"),
        ("009:00", "write it like"),
        ("17000", "write it like"),
        ("ab:cd", "write it like"),
        ("-1:00", "write it like"),
        ("17.00", "write it like"),
        ("２５：００", "hours must be 00–23"),
        ("2400", "hours must be 00–23"),
        ("24:00", "hours must be 00–23"),
        ("09:60", "minutes must be 00–59"),
        ("1760", "minutes must be 00–59"),
        ("17時60分", "minutes must be 00–59"),
        ("13pm", "with am or pm"),
        ("0am", "with am or pm"),
        ("午後12時", "after 午前 or 午後"),
        ("午後", "write it like"),
        ("١٧:٠٠", "write it like"),  # Arabic-Indic digits are not what anyone here types
    ],
)
def test_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(ValidationError, match=reason) as caught:
        time_of_day.parse(text)
    assert repr(text) in str(caught.value) or not text.strip()


def test_next_day_limit_is_named() -> None:
    with pytest.raises(ValidationError, match="hours must be 00–47"):
        time_of_day.parse("48:00", allow_next_day=True)
    # am/pm and 午前/午後 name a time on the day itself, never the next one.
    assert time_of_day.parse("午後11時", allow_next_day=True) == (dt.time(23), False)


@given(hours=st.integers(0, 47), minutes=st.integers(0, 59))
def test_what_the_roster_writes_reads_back(hours: int, minutes: int) -> None:
    wall, next_day = time_of_day.parse(f"{hours}:{minutes:02d}", allow_next_day=True)
    assert clock.format_wall_time(wall, next_day=next_day) == f"{hours:02d}:{minutes:02d}"
    assert time_of_day.parse(f"{hours:02d}{minutes:02d}", allow_next_day=True) == (wall, next_day)
    assert clock.parse_wall_time(f"{hours}時{minutes}分", allow_next_day=True) == (wall, next_day)
