"""When a reminder goes out: lead time, quiet hours, lateness. Pure functions, the clock passed in.

Quiet hours come from the push system Shiftcast learns from, with one difference: a reminder inside
quiet hours always moves EARLIER (30 minutes before the quiet period begins), never later, so it can
never slip past the shift it announces.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from core.roster import clock

QUIET_MARGIN = dt.timedelta(minutes=30)


@dataclass(frozen=True)
class QuietHours:
    start: dt.time  # e.g. 22:00
    end: dt.time  # e.g. 07:00; earlier than start means the period crosses midnight

    def contains(self, wall: dt.time) -> bool:
        if self.start < self.end:
            return self.start <= wall < self.end
        return wall >= self.start or wall < self.end

    def period_around(self, local: dt.datetime, zone_name: str) -> tuple[dt.datetime, dt.datetime] | None:
        """The quiet period (UTC start, UTC end) that contains the local instant, or None."""
        wall = local.time().replace(tzinfo=None)
        if not self.contains(wall):
            return None
        day = local.date()
        if self.start < self.end or wall >= self.start:
            start_day = day
        else:
            start_day = day - dt.timedelta(days=1)
        end_day = start_day if self.start < self.end else start_day + dt.timedelta(days=1)
        return clock.to_utc(start_day, self.start, zone_name), clock.to_utc(end_day, self.end, zone_name)


def reminder_due(
    shift_start: dt.datetime, *, lead: dt.timedelta, zone_name: str, quiet: QuietHours | None
) -> dt.datetime:
    """When the reminder for a shift starting at `shift_start` (UTC) is due."""
    due = shift_start - lead
    if quiet is None:
        return due
    period = quiet.period_around(due.astimezone(clock.zone(zone_name)), zone_name)
    if period is not None:
        due = period[0] - QUIET_MARGIN
    return min(due, shift_start)


@dataclass(frozen=True)
class LateDecision:
    send_at: dt.datetime | None  # None: do not send at all
    reason: str | None = None


def late_send_time(
    *, now: dt.datetime, due: dt.datetime, shift_start: dt.datetime, zone_name: str, quiet: QuietHours | None
) -> LateDecision:
    """What to do with a reminder whose due time passed while the app was not running.

    It is still sent while the shift has not started. If the app wakes inside quiet hours and the
    quiet period ends before the shift starts, it waits for the end of quiet hours instead of waking
    the teacher in the night; if the shift starts first, it goes now.
    """
    if now >= shift_start:
        return LateDecision(None, "SHIFT_STARTED")
    if now <= due:
        return LateDecision(due)
    if quiet is not None:
        period = quiet.period_around(now.astimezone(clock.zone(zone_name)), zone_name)
        if period is not None and period[1] < shift_start:
            return LateDecision(period[1], "QUIET_HOURS")
    return LateDecision(now)
