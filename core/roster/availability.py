"""Availability requests (シフト希望): the manager asks a classroom's teachers which days of a month
they can work, before building it, and each teacher answers day by day.

A request names its classroom, month, deadline (a date on the classroom's clock) and who was asked.
An answer is per teacher per day: available, not, or hours (from–to, either end open), with when it
was given, whether after the deadline (late: kept, and shown as late), and how (the message's buttons,
typed text, core/roster/availability_text.py, the teachers' page, or entered by the manager: a teacher asked by e-mail
replies to the manager, who enters the reply in the same words, `enter`). A teacher may correct an
answer as often as they like: the newest is the current one, and each earlier one stays with the
time it was replaced.

The rules that decide — late or not, whether the automatic reminder is due — are pure functions with
the clock passed in; the rest reads and writes the tables in the caller's transaction.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.roster import clock, reading
from core.roster.availability_text import ANSWERS, HOURS, DayAnswer, month_days
from core.store import events as store_events
from core.store.models import AvailabilityAnswer, AvailabilityAsked, AvailabilityRequest, Classroom, Teacher
from core.texts import t

BUTTONS, TEXT = "buttons", "text"
MANAGER = "manager"  # entered by the manager from the teacher's reply to the e-mailed request (or a call)
PAGE = "page"  # given on the teachers' page (core/receiving/page.py)


# ----- pure rules -----


def is_late(at: dt.datetime, deadline: dt.date, zone_name: str) -> bool:
    """Given after the deadline's day ended on the classroom's clock."""
    return clock.local_now(at, zone_name).date() > deadline


def reminder_due(deadline: dt.date, days_before: int | None, zone_name: str, *, asked_at: dt.datetime,
                 reminded_at: dt.datetime | None, now: dt.datetime) -> bool:
    """The automatic reminder to a teacher who has not answered: from the start of the day
    `days_before` the deadline (the classroom's clock) until the deadline ends, once, and not to
    someone asked on or after that day (they were just asked)."""
    if days_before is None:
        return False
    remind_on = deadline - dt.timedelta(days=days_before)
    today = clock.local_now(now, zone_name).date()
    if not remind_on <= today <= deadline:
        return False
    if clock.local_now(asked_at, zone_name).date() >= remind_on:
        return False
    return reminded_at is None or clock.local_now(reminded_at, zone_name).date() < remind_on


# ----- reading -----


@dataclass(frozen=True, slots=True)
class RequestView:
    id: int
    classroom_id: int
    classroom: str
    language: str
    timezone: str
    year: int
    month: int
    deadline: dt.date
    remind_days_before: int | None
    created_at: dt.datetime


@dataclass(frozen=True, slots=True)
class TeacherAnswers:
    """Where one asked teacher stands: their current answers by day, when they last answered, whether
    any current answer came after the deadline, how many times they corrected earlier answers (each
    message or tap that replaced some counts once), and the last reminder."""

    teacher_id: int
    name: str
    days: dict[dt.date, DayAnswer]
    answered_at: dt.datetime | None
    late: bool
    corrections: int
    reminded_at: dt.datetime | None
    entered_by_manager: bool = False  # some current answer was entered by the manager
    from_page: bool = False  # some current answer was given on the teachers' page

    @property
    def answered(self) -> bool:
        return bool(self.days)


def view(session: Session, request: AvailabilityRequest) -> RequestView:
    room = session.get(Classroom, request.classroom_id)
    if room is None:
        raise ValidationError(t("availability.no_request"))
    return RequestView(request.id, room.id, room.name, room.language, room.timezone, request.year, request.month,
                       request.deadline, request.remind_days_before, request.created_at)


def latest(session: Session, classroom_id: int, year: int, month: int) -> AvailabilityRequest | None:
    return session.scalar(select(AvailabilityRequest).where(
        AvailabilityRequest.classroom_id == classroom_id, AvailabilityRequest.year == year,
        AvailabilityRequest.month == month).order_by(AvailabilityRequest.id.desc()).limit(1))


def month_over(year: int, month: int, today: dt.date) -> bool:
    """Whether a request's month has ended by `today` (the classroom's date): its answers are then
    refused, tapped or typed alike, since the roster they were for is already worked."""
    return today > month_days(year, month)[-1]


def is_over(session: Session, request: AvailabilityRequest, now: dt.datetime) -> bool:
    """`month_over` on the request's classroom's clock."""
    room = session.get(Classroom, request.classroom_id)
    return room is None or month_over(request.year, request.month, clock.local_now(now, room.timezone).date())


def newest_asked(session: Session, teacher_id: int) -> AvailabilityRequest | None:
    """The newest request the teacher was asked, its month over or not."""
    return session.scalar(select(AvailabilityRequest).join(
        AvailabilityAsked, AvailabilityAsked.request_id == AvailabilityRequest.id).where(
        AvailabilityAsked.teacher_id == teacher_id).order_by(AvailabilityRequest.id.desc()).limit(1))


def open_for(session: Session, teacher_id: int, now: dt.datetime) -> AvailabilityRequest | None:
    """The newest request the teacher was asked, while its month has not ended on its classroom's
    clock: what their typed answer is for."""
    request = newest_asked(session, teacher_id)
    return request if request is not None and not is_over(session, request, now) else None


def answers(session: Session, request_id: int) -> list[TeacherAnswers]:
    """Every teacher asked, in the one order teachers are listed in, with their current answers."""
    asked = {row.teacher_id: row for row in session.scalars(
        select(AvailabilityAsked).where(AvailabilityAsked.request_id == request_id))}
    rows = session.scalars(select(AvailabilityAnswer).where(AvailabilityAnswer.request_id == request_id)
                           .order_by(AvailabilityAnswer.id)).all()
    teachers = [t for t in session.scalars(select(Teacher).where(Teacher.id.in_(list(asked))))]
    found: list[TeacherAnswers] = []
    for teacher in reading.in_order(teachers):
        mine = [r for r in rows if r.teacher_id == teacher.id]
        current = [r for r in mine if r.replaced_at is None]
        found.append(TeacherAnswers(
            teacher.id, teacher.display_name,
            {r.local_date: DayAnswer(r.local_date, r.answer, r.start_time, r.end_time) for r in current},
            max((r.answered_at for r in current), default=None), any(r.late for r in current),
            len({r.replaced_at for r in mine if r.replaced_at is not None}), asked[teacher.id].reminded_at,
            any(r.source == MANAGER for r in current), any(r.source == PAGE for r in current)))
    return found


@dataclass(frozen=True, slots=True)
class MonthAvailability:
    """The month's latest request and where each asked teacher stands: what the screens and `status` show."""

    request: RequestView
    teachers: tuple[TeacherAnswers, ...]

    @property
    def silent(self) -> tuple[TeacherAnswers, ...]:
        return tuple(t for t in self.teachers if not t.answered)


def month_status(session: Session, classroom_id: int, year: int, month: int) -> MonthAvailability | None:
    """The classroom's month as asked, or None while nobody was asked about it."""
    request = latest(session, classroom_id, year, month)
    if request is None:
        return None
    return MonthAvailability(view(session, request), tuple(answers(session, request.id)))


def history(session: Session, request_id: int, teacher_id: int) -> list[AvailabilityAnswer]:
    """Every answer the teacher gave, replaced ones too, oldest first."""
    return list(session.scalars(select(AvailabilityAnswer).where(
        AvailabilityAnswer.request_id == request_id, AvailabilityAnswer.teacher_id == teacher_id)
        .order_by(AvailabilityAnswer.id)))


# ----- writing -----


def ask(session: Session, classroom_id: int, year: int, month: int, deadline: dt.date,
        teacher_ids: Iterable[int], *, now: dt.datetime, remind_days_before: int | None = None) -> AvailabilityRequest:
    """A new request to these teachers (answers to an earlier request of the month stay with it)."""
    if not 1 <= month <= 12:
        raise ValidationError(t("availability.bad_month"))
    if remind_days_before is not None and remind_days_before < 0:
        raise ValidationError(t("availability.bad_remind_days"))
    chosen = sorted(set(teacher_ids))
    if not chosen:
        raise ValidationError(t("availability.nobody"))
    request = AvailabilityRequest(classroom_id=classroom_id, year=year, month=month, deadline=deadline,
                                  remind_days_before=remind_days_before, created_at=now)
    session.add(request)
    session.flush()
    session.add_all(AvailabilityAsked(request_id=request.id, teacher_id=i, asked_at=now) for i in chosen)
    session.flush()
    return request


def was_asked(session: Session, request_id: int, teacher_id: int) -> bool:
    return session.scalar(select(AvailabilityAsked.id).where(AvailabilityAsked.request_id == request_id,
                                                             AvailabilityAsked.teacher_id == teacher_id)) is not None


def record(session: Session, request: AvailabilityRequest, teacher_id: int, given: Sequence[DayAnswer], *,
           source: str, at: dt.datetime) -> int:
    """Store the teacher's answers for these days at `at`, replacing their current ones for the same
    days (kept as history); the days of another month are not the request's and are left out. Returns
    how many days were recorded."""
    room = session.get(Classroom, request.classroom_id)
    zone_name = room.timezone if room is not None else "Asia/Tokyo"
    late = is_late(at, request.deadline, zone_name)
    days = set(month_days(request.year, request.month))
    wanted = [a for a in given if a.day in days and a.answer in ANSWERS]
    if not wanted:
        return 0
    for row in session.scalars(select(AvailabilityAnswer).where(
            AvailabilityAnswer.request_id == request.id, AvailabilityAnswer.teacher_id == teacher_id,
            AvailabilityAnswer.replaced_at.is_(None),
            AvailabilityAnswer.local_date.in_([a.day for a in wanted]))):
        row.replaced_at = at
    session.add_all(AvailabilityAnswer(
        request_id=request.id, teacher_id=teacher_id, local_date=a.day, answer=a.answer,
        start_time=a.start if a.answer == HOURS else None, end_time=a.end if a.answer == HOURS else None,
        answered_at=at, late=late, source=source) for a in wanted)
    session.flush()
    store_events.emit(session, store_events.AvailabilityAnswered(frozenset({request.id})))
    return len(wanted)


def mark_reminded(session: Session, request_id: int, teacher_ids: Iterable[int], at: dt.datetime) -> None:
    for row in session.scalars(select(AvailabilityAsked).where(AvailabilityAsked.request_id == request_id,
                                                               AvailabilityAsked.teacher_id.in_(list(teacher_ids)))):
        row.reminded_at = at


def enter(session: Session, request: AvailabilityRequest, teacher_id: int, given: Sequence[DayAnswer], *,
          at: dt.datetime) -> int:
    """The manager enters a teacher's answers (their reply to the e-mailed request, or what they said
    in person), recorded as the teacher's own would be — late after the deadline, the earlier answers
    kept as history — with the manager as their source. A teacher the request was not sent to is
    added to it, so they are counted. Returns how many days were recorded."""
    if not given:
        raise ValidationError(t("availability.nothing_entered"))
    if not was_asked(session, request.id, teacher_id):
        session.add(AvailabilityAsked(request_id=request.id, teacher_id=teacher_id, asked_at=at))
        session.flush()
    return record(session, request, teacher_id, given, source=MANAGER, at=at)
