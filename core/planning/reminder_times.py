"""When a reminder or a correction goes out: lead time, quiet hours, lateness. Pure functions, the
clock passed in.

Quiet hours come from the push system Shiftcast learns from, with one difference: a reminder inside
quiet hours always moves EARLIER (30 minutes before the quiet period begins), never later, so it can
never slip past the shift it announces. What cannot move earlier — a late reminder, a correction made
in the night — waits for the end of quiet hours, unless the shift starts first.
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


# Why a message does not simply go when it is due (LateDecision.reason).
SHIFT_STARTED = "SHIFT_STARTED"  # too late: the shift it announces has begun
QUIET_HOURS = "QUIET_HOURS"  # held until quiet hours end
STARTS_IN_QUIET_HOURS = "STARTS_IN_QUIET_HOURS"  # sent inside quiet hours: the shift starts before they end


@dataclass(frozen=True)
class LateDecision:
    send_at: dt.datetime | None  # None: do not send at all
    reason: str | None = None


def outside_quiet_hours(
    *, now: dt.datetime, shift_start: dt.datetime, zone_name: str, quiet: QuietHours | None
) -> LateDecision:
    """When a message due now about a shift goes: now, or, if now is inside quiet hours, when they end
    — unless the shift starts first, then now all the same (the teacher must hear before it starts)."""
    if quiet is not None:
        period = quiet.period_around(now.astimezone(clock.zone(zone_name)), zone_name)
        if period is not None:
            if period[1] < shift_start:
                return LateDecision(period[1], QUIET_HOURS)
            return LateDecision(now, STARTS_IN_QUIET_HOURS)
    return LateDecision(now)


def late_send_time(
    *, now: dt.datetime, due: dt.datetime, shift_start: dt.datetime, zone_name: str, quiet: QuietHours | None
) -> LateDecision:
    """What to do with a reminder whose due time has passed (the app was not running then, or the
    shift was confirmed or changed only since).

    It is still sent while the shift has not started. If the app wakes inside quiet hours and the
    quiet period ends before the shift starts, it waits for the end of quiet hours instead of waking
    the teacher in the night; if the shift starts first, it goes now.
    """
    if now >= shift_start:
        return LateDecision(None, SHIFT_STARTED)
    if now <= due:
        return LateDecision(due)
    return outside_quiet_hours(now=now, shift_start=shift_start, zone_name=zone_name, quiet=quiet)
