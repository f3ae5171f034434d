"""Wall time of a classroom ↔ UTC instants. Pure functions; the zone database is the only input.

Rules at daylight-saving edges (documented in docs/architecture.md):
- a wall time that does not exist (the spring-forward gap) is read with the offset in force before
  the gap, so 02:30 on a 02:00→03:00 day becomes 03:30 local — never earlier than the time written;
- a wall time that happens twice (fall back) means its first occurrence.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.errors import ValidationError
from core.roster import time_of_day
from core.texts import t

LAST_MONTH_DAY_BEFORE_NEXT = 20  # after the 20th, managers are planning next month's roster


@lru_cache(maxsize=64)
def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationError(t("roster.bad_zone", name=name)) from exc


def to_utc(local_date: dt.date, wall: dt.time, zone_name: str, *, next_day: bool = False) -> dt.datetime:
    """The UTC instant of a wall time on a local date in a zone."""
    day = local_date + dt.timedelta(days=1) if next_day else local_date
    naive = dt.datetime.combine(day, wall.replace(tzinfo=None))
    return naive.replace(tzinfo=zone(zone_name), fold=0).astimezone(dt.UTC)


def shift_interval(
    local_date: dt.date, start: dt.time, end: dt.time, ends_next_day: bool, zone_name: str
) -> tuple[dt.datetime, dt.datetime]:
    """Start and end of a shift as UTC instants."""
    return (
        to_utc(local_date, start, zone_name),
        to_utc(local_date, end, zone_name, next_day=ends_next_day),
    )


def local_now(now: dt.datetime, zone_name: str) -> dt.datetime:
    return now.astimezone(zone(zone_name))


def parse_wall_time(text: str, *, allow_next_day: bool = False) -> tuple[dt.time, bool]:
    """A typed time of day (17:00, 1700, 17時30分, full width too); see core/roster/time_of_day.py.
    With allow_next_day, 24:00–47:59 means that time on the next day (26:00 = 02:00 next day)."""
    return time_of_day.parse(text, allow_next_day=allow_next_day)


def format_wall_time(value: dt.time, *, next_day: bool = False) -> str:
    hours = value.hour + (24 if next_day else 0)
    return f"{hours:02d}:{value.minute:02d}"


def planning_month(today: dt.date) -> tuple[int, int]:
    """The month a manager is working on: after the 20th they are preparing next month's roster; before, this month's."""
    if today.day > LAST_MONTH_DAY_BEFORE_NEXT:
        return (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
    return today.year, today.month
