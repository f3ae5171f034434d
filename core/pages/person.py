"""A paired teacher's document for the teachers' page: their classrooms and months, their shifts with what
changed since they were last told and their 了解, the availability requests still open to them, and the
cover calls they were called for. Paired: their LINE contact holds a LINE user ID (core/receiving/pairing.py
binds it; the manager may also have typed it in)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from core.calendar import feeds
from core.pages import classroom as classroom_page
from core.pages import jsontext, months, shift_facts
from core.pages.months import Month
from core.roster import availability, clock, cover, membership, rules
from core.roster.availability_text import HOURS
from core.store.models import (
    AvailabilityAnswer,
    AvailabilityAsked,
    AvailabilityRequest,
    Channel,
    Classroom,
    CoverRequest,
    CoverVolunteer,
    Delivery,
    DeliveryKind,
    Shift,
    ShiftStatus,
    SubjectType,
    Teacher,
    TeacherContact,
)


@dataclass(frozen=True)
class Shown:
    """What a person's document shows: each classroom with its months (published ones, this and next on
    its clock)."""

    rooms: list[Classroom]
    months: dict[int, list[Month]]


def paired(session: Session) -> list[tuple[Teacher, str]]:
    """Every active teacher whose LINE contact holds a LINE user ID, with that ID."""
    rows = session.execute(select(Teacher, TeacherContact.address).join(TeacherContact).where(
        TeacherContact.channel == Channel.LINE.value, TeacherContact.address.is_not(None),
        Teacher.active.is_(True), Teacher.erased_at.is_(None)).order_by(Teacher.id)).all()
    return [(teacher, address) for teacher, address in rows if address]


def user_teacher(session: Session, user_id: str) -> Teacher | None:
    return next((teacher for teacher, address in paired(session) if address == user_id), None)


def shown(session: Session, rooms: list[Classroom], published: dict[int, set[Month]], *, now: dt.datetime) -> Shown:
    chosen: dict[int, list[Month]] = {}
    for room in rooms:
        chosen[room.id] = [m for m in months.current_and_next(now, room.timezone) if m in published.get(room.id, set())]
    return Shown(sorted(rooms, key=lambda r: r.id), chosen)


def teacher_rooms(session: Session, teacher: Teacher, published: dict[int, set[Month]], *,
                  now: dt.datetime) -> list[Classroom]:
    """The classrooms the teacher belongs to, and those they have a shift in this month or the next."""
    ids = set(membership.classroom_ids(session, teacher.id))
    for room in session.scalars(select(Classroom)):
        first = months.current_and_next(now, room.timezone)[0]
        start = dt.date(*first, 1)
        end = rules.month_bounds(*months.following(first))[1]
        if session.scalar(select(Shift.id).where(Shift.classroom_id == room.id, Shift.teacher_id == teacher.id,
                                                 Shift.local_date >= start, Shift.local_date <= end,
                                                 Shift.status != ShiftStatus.DRAFT).limit(1)) is not None:
            ids.add(room.id)
    return [room for room in session.scalars(select(Classroom).where(Classroom.id.in_(ids)))]


def room_views(view: Shown) -> list[dict[str, Any]]:
    return [{"key": classroom_page.key_of(room.id), "name": room.name, "time_zone": room.timezone,
             "months": [months.text(m) for m in view.months[room.id]]} for room in view.rooms]


def shifts(session: Session, teacher: Teacher, view: Shown) -> list[dict[str, Any]]:
    """The teacher's confirmed shifts of the months shown, and those canceled after they were told of them."""
    found: list[Shift] = []
    for room in view.rooms:
        for month in view.months[room.id]:
            first, last = rules.month_bounds(*month)
            found += session.scalars(select(Shift).where(
                Shift.classroom_id == room.id, Shift.teacher_id == teacher.id, Shift.local_date >= first,
                Shift.local_date <= last, Shift.status != ShiftStatus.DRAFT))
    facts = shift_facts.facts(session, found)
    was = shift_facts.revisions(session, {(s.id, v) for s in found if (v := facts.told.get((s.id, teacher.id)))})
    listed = []
    for shift in sorted(found, key=lambda s: (s.local_date, s.start_time, s.id)):
        told_version = facts.told.get((shift.id, teacher.id))
        if shift.status == ShiftStatus.CANCELED and told_version is None:
            continue  # never told of it: nothing to take back
        pair = (shift.id, teacher.id)
        wall = shift_facts.wall(shift)
        listed.append({
            "id": shift.id, "classroom": classroom_page.key_of(shift.classroom_id), **wall, "note": shift.note,
            "change": shift_facts.change(shift, told_version, was.get((shift.id, told_version or 0))),
            "acked": pair in facts.acked, "ack": facts.ack_data.get(pair)})
    return listed


def _hhmm(value: dt.time | None) -> str | None:
    return None if value is None else clock.format_wall_time(value)


def open_requests(session: Session, teacher_id: int, *, now: dt.datetime) -> list[AvailabilityRequest]:
    """The requests the teacher was asked whose month is not over on the classroom's clock."""
    asked = session.scalars(select(AvailabilityRequest).join(
        AvailabilityAsked, AvailabilityAsked.request_id == AvailabilityRequest.id).where(
        AvailabilityAsked.teacher_id == teacher_id).order_by(AvailabilityRequest.id))
    return [r for r in asked if not availability.is_over(session, r, now)]


def closed_in(session: Session, request: AvailabilityRequest) -> set[dt.date]:
    room = session.get(Classroom, request.classroom_id)
    if room is None:
        return set()
    first, last = rules.month_bounds(request.year, request.month)
    return set(classroom_page.days_off(room, first, last, session)[0])


def requests(session: Session, teacher_id: int, *, now: dt.datetime) -> list[dict[str, Any]]:
    found = []
    for request in open_requests(session, teacher_id, now=now):
        room = session.get(Classroom, request.classroom_id)
        zone = room.timezone if room is not None else "Asia/Tokyo"
        current = session.scalars(select(AvailabilityAnswer).where(
            AvailabilityAnswer.request_id == request.id, AvailabilityAnswer.teacher_id == teacher_id,
            AvailabilityAnswer.replaced_at.is_(None)).order_by(AvailabilityAnswer.local_date, AvailabilityAnswer.id))
        found.append({
            "request": request.id, "classroom": classroom_page.key_of(request.classroom_id),
            "month": months.text((request.year, request.month)), "deadline": request.deadline.isoformat(),
            "late": availability.is_late(now, request.deadline, zone),
            "closed_days": [d.isoformat() for d in sorted(closed_in(session, request))],
            "answers": [{"date": a.local_date.isoformat(), "answer": a.answer,
                         "from": _hhmm(a.start_time) if a.answer == HOURS else None,
                         "to": _hhmm(a.end_time) if a.answer == HOURS else None, "source": a.source}
                        for a in current]})
    return found


def called_for(session: Session, teacher_id: int) -> list[CoverRequest]:
    """The open cover requests whose call went to the teacher, or to the LINE group of a classroom they
    belong to; never their own request."""
    groups = [room.line_group_id for room in session.scalars(select(Classroom).where(
        Classroom.id.in_(membership.classroom_ids(session, teacher_id)))) if room.line_group_id]
    called = select(Delivery.subject_id).where(
        Delivery.kind == DeliveryKind.COVER_CALL.value, Delivery.subject_type == SubjectType.COVER_REQUEST.value,
        or_(Delivery.teacher_id == teacher_id, Delivery.teacher_id.is_(None) & Delivery.recipient.in_(groups)))
    return list(session.scalars(select(CoverRequest).where(
        CoverRequest.id.in_(called), CoverRequest.state.in_(cover.STILL_OPEN),
        CoverRequest.teacher_id != teacher_id).order_by(CoverRequest.id)))


def covers(session: Session, teacher_id: int) -> list[dict[str, Any]]:
    found = []
    for row in called_for(session, teacher_id):
        shift = session.get(Shift, row.shift_id)
        asker = session.get(Teacher, row.teacher_id)
        if shift is None:
            continue
        offered = session.scalar(select(CoverVolunteer.id).where(
            CoverVolunteer.request_id == row.id, CoverVolunteer.teacher_id == teacher_id)) is not None
        found.append({"call": row.id, "classroom": classroom_page.key_of(shift.classroom_id),
                      **shift_facts.wall(shift), "asked_by": asker.display_name if asker is not None else "",
                      "offered": offered})
    return found


def language_of(rooms: list[Classroom]) -> str:
    return next((room.language for room in rooms if room.language in ("ja", "en")), "ja")


def document(session: Session, teacher: Teacher, view: Shown, *, now: dt.datetime, relay_url: str) -> dict[str, Any]:
    """The teacher's document; their calendar address is made the first time (a write)."""
    return {"v": 1, "role": "teacher", "name": teacher.display_name, "language": language_of(view.rooms),
            jsontext.BUILT_AT: jsontext.iso(now), "classrooms": room_views(view),
            "shifts": shifts(session, teacher, view), "availability": requests(session, teacher.id, now=now),
            "covers": covers(session, teacher.id), "calendar_url": feeds.feed_url(session, teacher.id, relay_url),
            "manager": None}


def shown_months(view: Shown, document_: dict[str, Any]) -> list[tuple[Month, str]]:
    """Every month the document shows, with its classroom's time zone: what its purge_after follows."""
    zones = {classroom_page.key_of(room.id): room.timezone for room in view.rooms}
    found = [(m, room.timezone) for room in view.rooms for m in view.months[room.id]]
    for request in document_["availability"]:
        year, number = request["month"].split("-")
        found.append(((int(year), int(number)), zones.get(request["classroom"], "Asia/Tokyo")))
    return found
