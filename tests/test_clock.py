from __future__ import annotations

import datetime as dt

import pytest

from core.errors import ValidationError
from core.roster import clock


def test_tokyo_wall_time_to_utc() -> None:
    assert clock.to_utc(dt.date(2026, 12, 1), dt.time(9, 0), "Asia/Tokyo") == dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC)


def test_shift_past_midnight() -> None:
    start, end = clock.shift_interval(dt.date(2026, 12, 31), dt.time(22), dt.time(2), True, "Asia/Tokyo")
    assert end - start == dt.timedelta(hours=4)
    assert end == dt.datetime(2026, 12, 31, 17, 0, tzinfo=dt.UTC)


def test_daylight_saving_spring_forward_gap_and_short_night() -> None:
    # New York, 2026-03-08: clocks jump from 02:00 to 03:00.
    zone = "America/New_York"
    before = clock.to_utc(dt.date(2026, 3, 7), dt.time(9), zone)
    after = clock.to_utc(dt.date(2026, 3, 8), dt.time(9), zone)
    assert before.hour == 14 and after.hour == 13  # EST (-5) then EDT (-4)
    # A night shift across the jump lasts one hour less than its wall times say.
    start, end = clock.shift_interval(dt.date(2026, 3, 7), dt.time(22), dt.time(6), True, zone)
    assert end - start == dt.timedelta(hours=7)
    # 02:30 does not exist that night: read with the offset before the gap, i.e. 03:30 EDT.
    gap = clock.to_utc(dt.date(2026, 3, 8), dt.time(2, 30), zone)
    assert gap == dt.datetime(2026, 3, 8, 7, 30, tzinfo=dt.UTC)
    assert gap.astimezone(clock.zone(zone)).time() == dt.time(3, 30)


def test_daylight_saving_fall_back_uses_first_occurrence() -> None:
    # 2026-11-01 01:30 happens twice in New York; the first is EDT (-4).
    assert clock.to_utc(dt.date(2026, 11, 1), dt.time(1, 30), "America/New_York") == dt.datetime(
        2026, 11, 1, 5, 30, tzinfo=dt.UTC
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [("9:05", (dt.time(9, 5), False)), ("26:00", (dt.time(2, 0), True)), ("24:00", (dt.time(0), True)), ("１０：００".replace("１０", "10"), (dt.time(10), False))],
)
def test_parse_wall_time(text: str, expected: tuple[dt.time, bool]) -> None:
    assert clock.parse_wall_time(text, allow_next_day=True) == expected


@pytest.mark.parametrize("text", ["", "9", "25:00", "09:60", "9:5", "ab:cd", "-1:00", "009:00"])
def test_parse_wall_time_rejects(text: str) -> None:
    with pytest.raises(ValidationError):
        clock.parse_wall_time(text)


def test_unknown_zone() -> None:
    with pytest.raises(ValidationError, match="unknown time zone"):
        clock.zone("Mars/Olympus")
