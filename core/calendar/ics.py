"""A teacher's shifts as an iCalendar document (RFC 5545), for their phone's calendar.

One VEVENT per confirmed shift of a published month (a Publication of its classroom's month exists):
drafts and months not yet published are not the teacher's to plan around. Times are wall times on the
classroom's clock (DTSTART;TZID=Asia/Tokyo) with the zone's VTIMEZONE, so a phone elsewhere still
shows 16:00 as 16:00 in Tokyo. The UID stays the shift's for good and SEQUENCE is its version, so a
moved shift updates the event instead of adding a second one.

A canceled shift leaves the document. The address is a subscription, and every calendar app reads a
subscription whole and mirrors it: an event no longer there disappears from the phone. STATUS:CANCELLED
would be no better for a month already told, as apps show it differently (some strike it through, some
show it as if nothing happened); the teacher hears of the cancellation from the correction message.

DTSTAMP is when the shift last changed, not when the document was made: with no METHOD that is what
RFC 5545 asks for, and it keeps the text the same from one sync to the next until a shift changes, so the
relay is handed a calendar only when there is something new in it.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Sequence

from icalendar import Calendar, Event, vDuration
from sqlalchemy import select
from sqlalchemy.orm import Session

from core.roster import clock, rules
from core.store.models import Classroom, Publication, Shift, ShiftStatus
from core.texts import render, t
from core.texts.formats import Language

Month = tuple[int, int]
PRODID = "-//Shiftcast//Shiftcast//EN"
# How often a subscribed calendar should read the address again: the relay holds the calendar as the
# last sync left it, and a shift changed today should be on the phone within the hour.
REFRESH = dt.timedelta(hours=1)


def uid(shift_id: int) -> str:
    return f"shift-{shift_id}@shiftcast"


def shifted(month: Month, by: int) -> Month:
    index = month[0] * 12 + month[1] - 1 + by
    return index // 12, index % 12 + 1


def feed_months(now: dt.datetime, zones: Iterable[str]) -> list[Month]:
    """Last month, this month and next on each zone's clock: what the calendar address shows. Last month
    stays so that a teacher can look back at the hours just worked."""
    months: set[Month] = set()
    for zone in set(zones) or {"Asia/Tokyo"}:
        today = clock.local_now(now, zone).date()
        months.update(shifted((today.year, today.month), by) for by in (-1, 0, 1))
    return sorted(months)


def month_end(month: Month, zone: str) -> dt.datetime:
    """The instant the month ends on the zone's clock."""
    year, number = shifted(month, 1)
    return clock.to_utc(dt.date(year, number, 1), dt.time(0), zone)


def _language(value: str) -> Language:
    return "en" if value == "en" else "ja"


def published_shifts(session: Session, teacher_id: int, months: Sequence[Month]) -> list[Shift]:
    """The teacher's confirmed shifts of these months whose classroom's month was published."""
    wanted = set(months)
    if not wanted:
        return []
    first, last = min(wanted), max(wanted)
    shifts = [s for s in session.scalars(
        select(Shift).where(Shift.teacher_id == teacher_id, Shift.status == ShiftStatus.CONFIRMED,
                            Shift.local_date >= rules.month_bounds(*first)[0],
                            Shift.local_date <= rules.month_bounds(*last)[1])
        .order_by(Shift.local_date, Shift.start_time, Shift.id))
        if (s.local_date.year, s.local_date.month) in wanted]
    rooms = sorted({s.classroom_id for s in shifts})
    published = {(room, year, month) for room, year, month in session.execute(
        select(Publication.classroom_id, Publication.year, Publication.month).distinct()
        .where(Publication.classroom_id.in_(rooms), Publication.year.in_(sorted({y for y, _ in wanted}))))}
    return [s for s in shifts if (s.classroom_id, s.local_date.year, s.local_date.month) in published]


def _event(shift: Shift) -> Event:
    room = shift.classroom
    zone = clock.zone(room.timezone)
    end_day = shift.local_date + dt.timedelta(days=1) if shift.ends_next_day else shift.local_date
    event = Event()
    event.add("uid", uid(shift.id))
    event.add("dtstamp", shift.updated_at)
    event.add("last-modified", shift.updated_at)
    event.add("sequence", shift.version)
    event.add("dtstart", dt.datetime.combine(shift.local_date, shift.start_time, tzinfo=zone))
    event.add("dtend", dt.datetime.combine(end_day, shift.end_time, tzinfo=zone))
    event.add("summary", render(t("calendar.summary", classroom=room.name), _language(room.language)))
    event.add("location", room.name)
    if shift.note.strip():
        event.add("description", shift.note)
    event.add("status", "CONFIRMED")
    return event


def calendar_for(session: Session, teacher_id: int, *, months: list[Month] | None, now: dt.datetime,
                 source: str | None = None) -> bytes:
    """The teacher's calendar as iCalendar bytes (UTF-8, CRLF lines). `months`: the months to show, None for
    last month, this month and next (feed_months); `source`: the calendar's own address, written into it
    (RFC 7986 SOURCE) so an app knows where to read it again."""
    teacher = rules.get_teacher(session, teacher_id)
    if months is None:
        months = feed_months(now, session.scalars(select(Classroom.timezone).distinct()))
    shifts = published_shifts(session, teacher_id, months)
    spoken = Counter(_language(s.classroom.language) for s in shifts).most_common(1)
    name = render(t("calendar.name", teacher=teacher.display_name), spoken[0][0] if spoken else "ja")

    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("name", name)
    calendar.add("x-wr-calname", name)
    # Typed by hand: icalendar before 7 writes a bare timedelta in Python's own form (1:00:00).
    calendar.add("refresh-interval", vDuration(REFRESH), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH))
    if source is not None:
        calendar.add("source", source, parameters={"VALUE": "URI"})
    for shift in shifts:
        calendar.add_component(_event(shift))
    if shifts:
        # The zones' rules for the shown months only: a VTIMEZONE from 1970 on would be most of the text.
        first, last = min(months), max(months)
        calendar.add_missing_timezones(first_date=dt.date(first[0], first[1], 1) - dt.timedelta(days=1),
                                       last_date=rules.month_bounds(*last)[1] + dt.timedelta(days=2))
    made: bytes = calendar.to_ical()
    return made
