from __future__ import annotations

import datetime as dt

import pytest

from core.planning.reminder_times import (
    QUIET_HOURS,
    STARTS_IN_QUIET_HOURS,
    LateDecision,
    QuietHours,
    late_send_time,
    outside_quiet_hours,
    reminder_due,
)
from core.roster import clock

TOKYO = "Asia/Tokyo"
NIGHT = QuietHours(dt.time(22), dt.time(7))
LEAD = dt.timedelta(hours=2)


def at(day: str, wall: str, zone: str = TOKYO) -> dt.datetime:
    return clock.to_utc(dt.date.fromisoformat(day), dt.time.fromisoformat(wall), zone)


def local(instant: dt.datetime, zone: str = TOKYO) -> str:
    return instant.astimezone(clock.zone(zone)).strftime("%Y-%m-%d %H:%M")


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        (("2026-12-10", "16:00"), "2026-12-10 14:00"),  # plain lead time
        (("2026-12-10", "08:00"), "2026-12-09 21:30"),  # 06:00 is quiet → 21:30 the evening before
        (("2026-12-10", "09:00"), "2026-12-10 07:00"),  # 07:00 is the first non-quiet minute
        (("2026-12-10", "08:59"), "2026-12-09 21:30"),  # 06:59 is still quiet
        (("2026-12-10", "23:30"), "2026-12-10 21:30"),  # 21:30 is not quiet: unchanged
        (("2026-12-11", "00:30"), "2026-12-10 21:30"),  # 22:30 is quiet → 21:30 same evening
        (("2027-01-01", "08:00"), "2026-12-31 21:30"),  # across the year end
        (("2026-03-01", "06:00"), "2026-02-28 21:30"),  # across a month end
    ],
)
def test_due_times_with_quiet_hours(start: tuple[str, str], expected: str) -> None:
    due = reminder_due(at(*start), lead=LEAD, zone_name=TOKYO, quiet=NIGHT)
    assert local(due) == expected
    assert due <= at(*start)


def test_quiet_hours_off_and_daytime_quiet_period() -> None:
    assert local(reminder_due(at("2026-12-10", "08:00"), lead=LEAD, zone_name=TOKYO, quiet=None)) == "2026-12-10 06:00"
    lunch = QuietHours(dt.time(12), dt.time(13))
    assert local(reminder_due(at("2026-12-10", "14:30"), lead=LEAD, zone_name=TOKYO, quiet=lunch)) == "2026-12-10 11:30"
    assert local(reminder_due(at("2026-12-10", "15:00"), lead=LEAD, zone_name=TOKYO, quiet=lunch)) == "2026-12-10 13:00"


def test_daylight_saving_zone() -> None:
    ny = "America/New_York"
    # 2026-03-08: clocks jump 02:00 → 03:00. A 09:00 shift with a 2 h lead: 07:00 local, just outside quiet hours.
    due = reminder_due(at("2026-03-08", "09:00", ny), lead=LEAD, zone_name=ny, quiet=NIGHT)
    assert local(due, ny) == "2026-03-08 07:00"
    # 08:00 shift: 06:00 is quiet → 21:30 the evening before, on the old offset.
    due = reminder_due(at("2026-03-08", "08:00", ny), lead=LEAD, zone_name=ny, quiet=NIGHT)
    assert local(due, ny) == "2026-03-07 21:30" and due == dt.datetime(2026, 3, 8, 2, 30, tzinfo=dt.UTC)
    # Fall back (2026-11-01): lead time is real elapsed time, so 2 h before 02:00 EST is 01:00 EDT.
    due = reminder_due(at("2026-11-01", "12:00", ny), lead=LEAD, zone_name=ny, quiet=None)
    assert at("2026-11-01", "12:00", ny) - due == LEAD


def test_never_after_the_shift_start() -> None:
    # A 10-minute shift-start lead inside quiet hours moves earlier, never later.
    start = at("2026-12-10", "23:00")
    due = reminder_due(start, lead=dt.timedelta(minutes=10), zone_name=TOKYO, quiet=NIGHT)
    assert due < start and local(due) == "2026-12-10 21:30"


def test_late_rule() -> None:
    start = at("2026-12-10", "16:00")
    due = at("2026-12-10", "14:00")
    on_time = late_send_time(now=due - dt.timedelta(minutes=5), due=due, shift_start=start, zone_name=TOKYO, quiet=NIGHT)
    assert on_time.send_at == due
    late = late_send_time(now=due + dt.timedelta(minutes=30), due=due, shift_start=start, zone_name=TOKYO, quiet=NIGHT)
    assert late.send_at == due + dt.timedelta(minutes=30) and late.reason is None
    too_late = late_send_time(now=start, due=due, shift_start=start, zone_name=TOKYO, quiet=NIGHT)
    assert too_late.send_at is None and too_late.reason == "SHIFT_STARTED"


def test_late_inside_quiet_hours_waits_for_morning_if_the_shift_allows() -> None:
    # 10:00 shift; its reminder was due 21:30 the evening before, but the laptop slept until 01:15.
    start = at("2026-12-10", "10:00")
    due = at("2026-12-09", "21:30")
    woke = at("2026-12-10", "01:15")
    decision = late_send_time(now=woke, due=due, shift_start=start, zone_name=TOKYO, quiet=NIGHT)
    assert decision.send_at is not None
    assert local(decision.send_at) == "2026-12-10 07:00" and decision.reason == "QUIET_HOURS"
    early_shift = at("2026-12-10", "06:00")
    decision = late_send_time(now=woke, due=due, shift_start=early_shift, zone_name=TOKYO, quiet=NIGHT)
    assert decision.send_at == woke  # the shift starts before quiet hours end: send now


def test_a_change_made_in_quiet_hours_is_told_when_they_end() -> None:
    # A 10:00 shift changed at 04:55: the correction waits for 07:00.
    made = at("2026-12-10", "04:55")
    held = outside_quiet_hours(now=made, shift_start=at("2026-12-10", "10:00"), zone_name=TOKYO, quiet=NIGHT)
    assert held.send_at is not None and local(held.send_at) == "2026-12-10 07:00" and held.reason == QUIET_HOURS
    # A 06:30 shift starts before quiet hours end: the teacher is told now all the same.
    first = outside_quiet_hours(now=made, shift_start=at("2026-12-10", "06:30"), zone_name=TOKYO, quiet=NIGHT)
    assert first.send_at == made and first.reason == STARTS_IN_QUIET_HOURS


@pytest.mark.parametrize("wall", ["07:00", "12:00", "21:59"])
def test_a_change_made_outside_quiet_hours_is_told_at_once(wall: str) -> None:
    made = at("2026-12-10", wall)
    decision = outside_quiet_hours(now=made, shift_start=at("2026-12-11", "10:00"), zone_name=TOKYO, quiet=NIGHT)
    assert decision == LateDecision(made)
    assert outside_quiet_hours(now=at("2026-12-10", "23:00"), shift_start=at("2026-12-11", "10:00"), zone_name=TOKYO,
                               quiet=None) == LateDecision(at("2026-12-10", "23:00"))


def test_a_late_reminder_inside_quiet_hours_says_the_shift_starts_first() -> None:
    start = at("2026-12-10", "06:30")
    due = at("2026-12-09", "21:30")
    decision = late_send_time(now=at("2026-12-10", "04:57"), due=due, shift_start=start, zone_name=TOKYO, quiet=NIGHT)
    assert decision == LateDecision(at("2026-12-10", "04:57"), STARTS_IN_QUIET_HOURS)
