"""The manager's part of their document on the teachers' page: today and tomorrow in each classroom (on its
clock) — who works, whether they acknowledged, why a reminder failed —, the open cover requests, and who
has not answered an availability request yet."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.pages import classroom as classroom_page
from core.pages import months, shift_facts
from core.roster import availability, clock, cover, reading
from core.store.models import (
    AvailabilityRequest,
    Classroom,
    CoverRequest,
    CoverVolunteer,
    Shift,
    ShiftStatus,
    Teacher,
)
from core.texts.formats import Language


def _covers(session: Session, room: Classroom) -> list[dict[str, Any]]:
    found = []
    for row in session.scalars(select(CoverRequest).join(Shift, Shift.id == CoverRequest.shift_id).where(
            Shift.classroom_id == room.id, CoverRequest.state.in_(cover.STILL_OPEN)).order_by(CoverRequest.id)):
        shift = session.get(Shift, row.shift_id)
        asker = session.get(Teacher, row.teacher_id)
        if shift is None:
            continue
        offers = session.scalar(select(func.count()).select_from(CoverVolunteer)
                                .where(CoverVolunteer.request_id == row.id)) or 0
        found.append({"call": row.id, **shift_facts.wall(shift),
                      "asked_by": asker.display_name if asker is not None else "", "offers": offers})
    return found


def _unanswered(session: Session, room: Classroom, *, now: dt.datetime) -> list[dict[str, Any]]:
    found = []
    wanted = session.execute(select(AvailabilityRequest.year, AvailabilityRequest.month).where(
        AvailabilityRequest.classroom_id == room.id).distinct().order_by(
        AvailabilityRequest.year, AvailabilityRequest.month)).all()
    for year, number in wanted:
        request = availability.latest(session, room.id, year, number)
        if request is None or availability.is_over(session, request, now):
            continue
        for teacher in availability.answers(session, request.id):
            if not teacher.answered:
                found.append({"request": request.id, "month": months.text((year, number)), "teacher": teacher.teacher_id,
                              "name": teacher.name, "reminded": teacher.reminded_at is not None})
    return found


def _day_shifts(session: Session, room: Classroom, day: dt.date) -> list[dict[str, Any]]:
    shifts = list(session.scalars(select(Shift).where(
        Shift.classroom_id == room.id, Shift.local_date == day, Shift.status == ShiftStatus.CONFIRMED)))
    order = {t.id: n for n, t in enumerate(reading.in_order({s.teacher.id: s.teacher for s in shifts}.values()))}
    shifts.sort(key=lambda s: (s.start_time, order[s.teacher_id], s.id))
    facts = shift_facts.facts(session, shifts)
    language: Language = "en" if room.language == "en" else "ja"
    failed = shift_facts.failed(session, [s.id for s in shifts], language)
    return [{"teacher": s.teacher.display_name, "start": shift_facts.wall(s)["start"], "end": shift_facts.wall(s)["end"],
             "acked": (s.id, s.teacher_id) in facts.acked, "failed": failed.get((s.id, s.teacher_id))}
            for s in shifts]


def part(session: Session, *, now: dt.datetime) -> dict[str, Any]:
    rooms = list(session.scalars(select(Classroom).order_by(Classroom.id)))
    per_day: dict[dt.date, list[dict[str, Any]]] = {}
    for room in rooms:
        today = clock.local_now(now, room.timezone).date()
        covers, unanswered = _covers(session, room), _unanswered(session, room, now=now)
        for day in (today, today + dt.timedelta(days=1)):
            per_day.setdefault(day, []).append({
                "key": classroom_page.key_of(room.id), "name": room.name,
                "shifts": _day_shifts(session, room, day), "covers": covers, "unanswered": unanswered})
    return {"days": [{"date": day.isoformat(), "classrooms": found} for day, found in sorted(per_day.items())]}
