"""Every document the app hands the relay for the teachers' page, apart from the calendars
(core/calendar/feed.py): one per paired teacher (whose calendar address is made the first time, so it is
built in a write transaction), one for the manager's own LINE (the alerts' LINE user ID),
and one per published classroom month the relay may still keep. The JSON is written one way
(core/pages/jsontext.py), so an unchanged document has an unchanged fingerprint (core/relay/pages.py)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.pages import classroom as classroom_page
from core.pages import jsontext, manager, months, person
from core.pages.entry import PageEntry, PageKind
from core.store import setting_keys as keys
from core.store.models import Classroom, Teacher


def entries(session: Session, *, now: dt.datetime, relay_url: str) -> list[PageEntry]:
    """The person and classroom documents as they are now (`relay_url` is where the page and the calendar
    feeds are served)."""
    published = classroom_page.published_months(session, now=now)
    found = classroom_page.entries(session, now=now)
    manager_id = keys.ALERTS_LINE_USER_ID.read(session)
    manager_made = False
    for teacher, user_id in person.paired(session):
        is_manager = user_id == manager_id
        found.append(_person(session, teacher, user_id, published, now=now, relay_url=relay_url,
                             as_manager=is_manager))
        manager_made = manager_made or is_manager
    if manager_id and not manager_made:
        found.append(_person(session, None, manager_id, published, now=now, relay_url=relay_url, as_manager=True))
    return found


def _person(session: Session, teacher: Teacher | None, user_id: str, published: dict[int, set[months.Month]], *,
            now: dt.datetime, relay_url: str, as_manager: bool) -> PageEntry:
    """A teacher's document; the manager's is theirs with every classroom and the manager's part, or (a
    manager who is no teacher here) only those."""
    if as_manager:
        rooms = list(session.scalars(select(Classroom).order_by(Classroom.id)))
    else:
        assert teacher is not None
        rooms = person.teacher_rooms(session, teacher, published, now=now)
    view = person.shown(session, rooms, published, now=now)
    document: dict[str, Any]
    if teacher is not None:
        document = person.document(session, teacher, view, now=now, relay_url=relay_url)
    else:
        document = {"v": 1, "role": "manager", "name": "", "language": person.language_of(view.rooms),
                    jsontext.BUILT_AT: jsontext.iso(now), "classrooms": person.room_views(view), "shifts": [],
                    "availability": [], "covers": [], "calendar_url": None}
    if as_manager:
        document["role"] = "manager"
        document["manager"] = manager.part(session, now=now)
    return PageEntry(PageKind.PERSON, user_id, jsontext.dumps(document),
                     months.purge_after(person.shown_months(view, document), now=now))
