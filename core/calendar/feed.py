"""The calendars handed to the relay for the teachers' page: one entry per paired teacher with a calendar
address, under the hex SHA-256 of its token (relay/migrations/0004_pages.sql, kind 'calendar')."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.calendar import feeds
from core.calendar.ics import calendar_for, feed_months, month_end
from core.pages.entry import PageEntry, PageKind
from core.store.models import CalendarFeed, Channel, Classroom, Teacher, TeacherContact

KEPT = dt.timedelta(days=7)  # the relay forgets a calendar this long after the last month it shows ends


def calendar_entries(session: Session, *, now: dt.datetime, relay_url: str) -> list[PageEntry]:
    """Each paired teacher's calendar (a LINE user ID on their contact; not erased) whose address was made."""
    zones = sorted(set(session.scalars(select(Classroom.timezone))))
    months = feed_months(now, zones)
    purge_after = max([month_end(months[-1], zone) + KEPT for zone in zones or ["Asia/Tokyo"]] + [now + KEPT])
    rows = session.execute(
        select(CalendarFeed.teacher_id, CalendarFeed.token)
        .join(Teacher, Teacher.id == CalendarFeed.teacher_id)
        .join(TeacherContact, (TeacherContact.teacher_id == Teacher.id) & (TeacherContact.channel == Channel.LINE.value))
        .where(Teacher.erased_at.is_(None), TeacherContact.address.is_not(None))
        .order_by(CalendarFeed.teacher_id)).all()
    return [PageEntry(PageKind.CALENDAR, feeds.token_key(token),
                      calendar_for(session, teacher_id, months=months, now=now,
                                   source=feeds.address(relay_url, token)).decode("utf-8"),
                      purge_after)
            for teacher_id, token in rows]
