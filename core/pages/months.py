"""The months a page document shows, on a classroom's clock, and when the relay forgets it: 7 days after
the end of the latest month it shows (a person's document lives at least 7 days from now)."""

from __future__ import annotations

import datetime as dt

from core.roster import clock

KEEP = dt.timedelta(days=7)
Month = tuple[int, int]


def following(month: Month) -> Month:
    year, number = month
    return (year + 1, 1) if number == 12 else (year, number + 1)


def current_and_next(now: dt.datetime, zone_name: str) -> tuple[Month, Month]:
    today = clock.local_now(now, zone_name).date()
    return (today.year, today.month), following((today.year, today.month))


def text(month: Month) -> str:
    return f"{month[0]:04d}-{month[1]:02d}"


def ends(month: Month, zone_name: str) -> dt.datetime:
    """The first moment after the month on the classroom's clock."""
    year, number = following(month)
    return clock.to_utc(dt.date(year, number, 1), dt.time(0), zone_name)


def purge_after(shown: list[tuple[Month, str]], *, now: dt.datetime | None = None) -> dt.datetime:
    """7 days after the end of the latest of the (month, time zone) shown; with `now`, not before now + 7 days."""
    latest = max((ends(month, zone) for month, zone in shown), default=None)
    candidates = [moment + KEEP for moment in (latest,) if moment is not None]
    if now is not None:
        candidates.append(now + KEEP)
    return max(candidates)
