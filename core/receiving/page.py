"""What a teacher or the manager did on the teachers' page, brought back by the relay as an event of type
"page" (docs/teachers_page.md): each answer does what its chat counterpart does.

- ack: the 了解 of the shift's reminder or correction, with the button's own data (core/receiving/acknowledge.py);
- availability: each day recorded as a chat answer is, with the source "page": late after the deadline,
  refused when the month is over, a day the teacher was not asked (another month's) or the classroom is
  closed ignored;
- cover_offer: "I can cover" for a call that went to them (core/roster/cover.py);
- remind (the manager only): the availability request sent again to that one teacher, if they have not
  answered, as the window's "remind who has not answered" does for everyone.

Only a paired teacher (their LINE contact holds the event's user ID) or the manager (the alerts' LINE user
ID) is heard; anyone else's event does nothing. A page event carries no reply token, so nothing is replied.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.pages import person
from core.receiving import acknowledge
from core.receiving.events import ReceivedEvent
from core.roster import availability, cover
from core.roster.availability_text import ANSWERS, HOURS, DayAnswer
from core.sending.kinds import availability_request as requests
from core.store import setting_keys as keys
from core.store.models import AvailabilityRequest, Channel, Teacher

log = logging.getLogger(__name__)
TYPES = frozenset({"page"})


class PageHandler:
    types = TYPES

    def handle(self, session: Session, event: ReceivedEvent, *, now: dt.datetime) -> None:
        answer = event.body.get("page")
        if event.source_type != "user" or not event.user_id or not isinstance(answer, dict):
            return
        teacher = person.user_teacher(session, event.user_id)
        is_manager = event.user_id == keys.ALERTS_LINE_USER_ID.read(session)
        at = min(event.occurred_at or now, now)
        action = answer.get("action")
        if action == "remind" and is_manager:
            _remind(session, answer, now=now)
        elif teacher is None:
            log.info("a page answer from a LINE user who is not a paired teacher was ignored")
        elif action == "ack" and isinstance(answer.get("ack"), str):
            acknowledge.acknowledge(session, answer["ack"], channel=Channel.LINE,
                                    tapped_by=lambda address: address == event.user_id, tapped_at=at, now=now)
        elif action == "availability":
            _availability(session, teacher, answer, at=at, now=now)
        elif action == "cover_offer":
            _offer(session, teacher, answer.get("call"), at=at)


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _time(value: Any) -> dt.time | None:
    if not isinstance(value, str) or len(value) != 5:
        return None
    try:
        return dt.time.fromisoformat(value)
    except ValueError:
        return None


def days_of(given: Any, request: AvailabilityRequest, closed: set[dt.date]) -> list[DayAnswer]:
    """The page's days as answers: those of the request's month the classroom is open, each a known answer
    (hours with a sensible from–to); anything else is left out."""
    found: dict[dt.date, DayAnswer] = {}
    for item in given if isinstance(given, list) else []:
        if not isinstance(item, dict) or item.get("answer") not in ANSWERS or not isinstance(item.get("date"), str):
            continue
        try:
            day = dt.date.fromisoformat(item["date"])
        except ValueError:
            continue
        if (day.year, day.month) != (request.year, request.month) or day in closed:
            continue
        if item["answer"] != HOURS:
            found[day] = DayAnswer(day, item["answer"])
            continue
        start, end = _time(item.get("from")), _time(item.get("to"))
        if (item.get("from") is not None and start is None) or (item.get("to") is not None and end is None):
            continue
        if start is not None and end is not None and end <= start:
            continue
        found[day] = DayAnswer(day, HOURS, start, end)
    return [found[day] for day in sorted(found)]


def _availability(session: Session, teacher: Teacher, answer: dict[str, Any], *, at: dt.datetime,
                  now: dt.datetime) -> None:
    number = _number(answer.get("request"))
    request = session.get(AvailabilityRequest, number) if number is not None else None
    if request is None or not availability.was_asked(session, request.id, teacher.id):
        log.warning("a page answer for availability request %s from a teacher it was not sent to was ignored", number)
        return
    if availability.is_over(session, request, now):
        log.info("teacher %s answered request %s on the page after its month was over; it was refused",
                 teacher.id, request.id)
        return
    given = days_of(answer.get("days"), request, person.closed_in(session, request))
    if given:
        availability.record(session, request, teacher.id, given, source=availability.PAGE, at=at)
        log.info("teacher %s answered request %s on the page (days: %d)", teacher.id, request.id, len(given))


def _offer(session: Session, teacher: Teacher, call: Any, *, at: dt.datetime) -> None:
    number = _number(call)
    if number is None or number not in {row.id for row in person.called_for(session, teacher.id)}:
        log.warning("a page offer to cover request %s from a teacher it was not called to was ignored", number)
        return
    try:
        cover.volunteer(session, number, teacher.id, now=at)
    except ValidationError:
        log.info("teacher %s offered on the page to cover request %s and was refused", teacher.id, number)
        return
    log.info("teacher %s offered on the page to cover request %s", teacher.id, number)


def _remind(session: Session, answer: dict[str, Any], *, now: dt.datetime) -> None:
    number, teacher_id = _number(answer.get("request")), _number(answer.get("teacher"))
    request = session.get(AvailabilityRequest, number) if number is not None else None
    if request is None or teacher_id is None or availability.is_over(session, request, now):
        return
    silent = [a.teacher_id for a in availability.answers(session, request.id) if not a.answered]
    teacher = session.get(Teacher, teacher_id)
    if teacher_id not in silent or teacher is None or not requests.reachable([teacher]):
        log.info("the manager's reminder on the page to teacher %s for request %s went nowhere: answered or unreachable",
                 teacher_id, request.id)
        return
    requests.enqueue(session, request, [teacher_id], round_=requests.next_round(session, request.id), now=now)
    availability.mark_reminded(session, request.id, [teacher_id], now)
    log.info("the manager reminded teacher %s of request %s from the page", teacher_id, request.id)
