"""Cover requests (代講): a teacher who cannot take a confirmed shift asks for cover; the manager decides.

A request is about one shift as it was when asked (its version). It is `open` until the manager acts:
either they assign the shift to another teacher directly, or they call for volunteers (`calling`; the
call itself is a message, core/sending/kinds/cover_call.py) and then assign one of them. Either way
the roster changes only through the normal shift edit (core/roster/edits.py), so the released
teacher's correction and the new teacher's reminder follow from the planner as after any edit. The
manager may also decline (the shift stays with the teacher who asked, who is told, with the manager's
reason if one was given: core/sending/kinds/cover_declined.py). A request whose shift changed,
was canceled or started meanwhile is `withdrawn` at the next planning run. Every step is kept
(`cover_request_steps`), with whom it concerned.

A teacher can take a shift when they are active and no other shift of theirs overlaps it (the same
rule as every shift edit, `rules.clash`): a volunteer who cannot is refused and recorded as refused.

The parser of a teacher's own words (「12/5 代講お願いします」) is pure: `asked_day`.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.roster import edits, membership, rules
from core.store import events
from core.store.kinds import CoverState, CoverStep, ShiftStatus
from core.store.models import CoverRequest, CoverRequestStep, CoverVolunteer, Shift, Teacher
from core.texts import t

STILL_OPEN = (CoverState.OPEN, CoverState.CALLING)
REASON_LIMIT = 500  # characters of a teacher's or the manager's reason kept (a LINE text holds 5,000)
# Words that ask for cover (after NFKC, lower case): 代講, 代わり/代わって/かわり, 休み/休ませて, "cover".
_WORDS = re.compile(r"代講|代わ|かわり|かわって|休み|休ま|cover|substitute")
# Words of a wish for next month's roster (シフト希望, availability), not a request for cover of a shift.
_WISHES = re.compile(r"希望|availability|available")
_MONTH_DAY = re.compile(r"(\d{1,2})\s*(?:/|月)\s*(\d{1,2})")
_DAY = re.compile(r"(\d{1,2})\s*日")
# A month/day this long before today means next year's (a December teacher asking for 1/5).
_PAST_LIMIT = dt.timedelta(days=60)


def asked_day(text: str, today: dt.date) -> dt.date | None:
    """The day a teacher's message asks cover for, or None when it does not ask for cover with a date.
    `12/5`, `12月5日` (this year, or next year's when that is long past) and `5日` (today's month)."""
    words = unicodedata.normalize("NFKC", text).lower()
    if len(words) > 200 or not _WORDS.search(words) or _WISHES.search(words):
        return None
    try:
        if found := _MONTH_DAY.search(words):
            day = dt.date(today.year, int(found.group(1)), int(found.group(2)))
            return day.replace(year=day.year + 1) if day < today - _PAST_LIMIT else day
        if found := _DAY.search(words):
            return today.replace(day=int(found.group(1)))
    except ValueError:  # 2/30, 0日
        return None
    return None


# ----- what the screens and the command line show -----


@dataclass(frozen=True, slots=True)
class Volunteer:
    teacher_id: int
    teacher_name: str
    at: dt.datetime
    free: bool  # can still take the shift (no overlapping shift of their own since they offered)


@dataclass(frozen=True, slots=True)
class Step:
    step: CoverStep
    teacher_name: str | None
    at: dt.datetime


@dataclass(frozen=True, slots=True)
class CoverRequestView:
    id: int
    state: CoverState
    shift_id: int
    classroom_id: int
    classroom: str
    local_date: dt.date
    start_time: dt.time
    end_time: dt.time
    ends_next_day: bool
    teacher_id: int
    teacher_name: str
    reason: str
    created_at: dt.datetime
    assigned_teacher_name: str | None
    volunteers: tuple[Volunteer, ...]
    steps: tuple[Step, ...]
    decline_reason: str | None = None


def _name(session: Session, teacher_id: int | None) -> str | None:
    teacher = session.get(Teacher, teacher_id) if teacher_id is not None else None
    return teacher.display_name if teacher is not None else None


def _view(session: Session, row: CoverRequest) -> CoverRequestView:
    shift = rules.get_shift(session, row.shift_id)
    volunteers = session.scalars(select(CoverVolunteer).where(CoverVolunteer.request_id == row.id)
                                 .order_by(CoverVolunteer.at, CoverVolunteer.id))
    steps = session.scalars(select(CoverRequestStep).where(CoverRequestStep.request_id == row.id)
                            .order_by(CoverRequestStep.at, CoverRequestStep.id))
    return CoverRequestView(
        row.id, CoverState(row.state), shift.id, shift.classroom_id, shift.classroom.name, shift.local_date,
        shift.start_time, shift.end_time, shift.ends_next_day, row.teacher_id, _name(session, row.teacher_id) or "",
        row.reason, row.created_at, _name(session, row.assigned_teacher_id),
        tuple(Volunteer(v.teacher_id, _name(session, v.teacher_id) or "", v.at,
                        can_take(session, shift, rules.get_teacher(session, v.teacher_id))) for v in volunteers),
        tuple(Step(CoverStep(s.step), _name(session, s.teacher_id), s.at) for s in steps), row.decline_reason)


def requests(session: Session, *, still_open: bool = True) -> list[CoverRequestView]:
    """The cover requests, oldest first: those still waiting for the manager, or every one."""
    query = select(CoverRequest).order_by(CoverRequest.created_at, CoverRequest.id)
    if still_open:
        query = query.where(CoverRequest.state.in_(STILL_OPEN))
    return [_view(session, row) for row in session.scalars(query)]


def request(session: Session, request_id: int) -> CoverRequestView:
    return _view(session, _get(session, request_id))


def open_count(session: Session) -> int:
    """How many requests wait for the manager (the status area's count)."""
    return session.scalar(select(func.count()).select_from(CoverRequest)
                          .where(CoverRequest.state.in_(STILL_OPEN))) or 0


# ----- who can take a shift -----


def can_take(session: Session, shift: Shift, teacher: Teacher) -> bool:
    """The teacher is active, not the shift's own, and has no shift that overlaps it."""
    if teacher.id == shift.teacher_id or not teacher.active or teacher.erased_at is not None:
        return False
    draft = rules.ShiftDraft(shift.classroom_id, teacher.id, shift.local_date, shift.start_time, shift.end_time,
                             shift.ends_next_day, status=shift.status)
    return rules.clash(session, draft, shift.classroom.timezone, shift_id=shift.id) is None


def free_teachers(session: Session, shift_id: int) -> list[Teacher]:
    """Every teacher who could take the shift, in the roster's order: the classroom's own teachers (and
    those of no classroom) first, then the chain's others, who are asked only after them."""
    shift = rules.get_shift(session, shift_id)
    free = [teacher for teacher in rules.list_teachers(session) if can_take(session, shift, teacher)]
    return membership.members_first(free, membership.listed_in(session, shift.classroom_id))


# ----- the steps -----


def _get(session: Session, request_id: int) -> CoverRequest:
    row = session.get(CoverRequest, request_id)
    if row is None:
        raise ValidationError(t("cover.no_request", id=request_id))
    return row


def _still_open(row: CoverRequest) -> CoverRequest:
    if row.state not in STILL_OPEN:
        raise ValidationError(t("cover.closed", id=row.id, state=t(f"cover.state.{CoverState(row.state).value}")))
    return row


def _record(session: Session, row: CoverRequest, step: CoverStep, teacher_id: int | None, now: dt.datetime) -> None:
    session.add(CoverRequestStep(request_id=row.id, step=step, teacher_id=teacher_id, at=now))
    row.updated_at = now
    session.flush()
    events.emit(session, events.CoverRequestsChanged(frozenset({row.id})))


def ask(session: Session, shift_id: int, teacher_id: int, *, now: dt.datetime, reason: str = "") -> CoverRequest:
    """The teacher on a confirmed shift that has not started asks for cover; asked again while a request
    for the shift is still open, that request is the answer (a second tap adds nothing)."""
    shift = rules.get_shift(session, shift_id)
    if shift.teacher_id != teacher_id or shift.status != ShiftStatus.CONFIRMED:
        raise ValidationError(t("cover.not_theirs"))
    if rules.shift_instants(shift)[0] <= now:
        raise ValidationError(t("cover.started"))
    existing = session.scalar(select(CoverRequest).where(
        CoverRequest.shift_id == shift.id, CoverRequest.shift_version == shift.version,
        CoverRequest.teacher_id == teacher_id, CoverRequest.state.in_(STILL_OPEN)))
    if existing is not None:
        return existing
    row = CoverRequest(shift_id=shift.id, shift_version=shift.version, teacher_id=teacher_id, reason=reason[:REASON_LIMIT],
                       state=CoverState.OPEN, created_at=now, updated_at=now)
    session.add(row)
    session.flush()
    _record(session, row, CoverStep.ASKED, teacher_id, now)
    return row


def called(session: Session, request_id: int, *, now: dt.datetime) -> CoverRequest:
    """The manager called for volunteers (the call's messages are enqueued by the caller)."""
    row = _still_open(_get(session, request_id))
    row.state = CoverState.CALLING
    _record(session, row, CoverStep.CALLED, None, now)
    return row


def volunteer(session: Session, request_id: int, teacher_id: int, *, now: dt.datetime) -> bool:
    """A teacher offers to take the shift. True: recorded (or had been); ValidationError when the request
    is closed or they cannot take it (recorded as refused)."""
    row = _get(session, request_id)
    teacher = rules.get_teacher(session, teacher_id)
    shift = rules.get_shift(session, row.shift_id)
    if row.state not in STILL_OPEN or not can_take(session, shift, teacher):
        _record(session, row, CoverStep.REFUSED, teacher_id, now)
        _still_open(row)
        raise ValidationError(t("cover.not_free", teacher=teacher.display_name))
    if session.scalar(select(CoverVolunteer.id).where(CoverVolunteer.request_id == row.id,
                                                      CoverVolunteer.teacher_id == teacher_id)) is None:
        session.add(CoverVolunteer(request_id=row.id, teacher_id=teacher_id, at=now))
        _record(session, row, CoverStep.VOLUNTEERED, teacher_id, now)
    return True


def assign(session: Session, request_id: int, teacher_id: int, *, now: dt.datetime) -> CoverRequest:
    """The manager gives the shift to `teacher_id` (a volunteer or any teacher who can take it), through
    the normal shift edit: its overlap rule refuses a teacher who is not free."""
    row = _still_open(_get(session, request_id))
    shift = rules.get_shift(session, row.shift_id)
    if shift.version != row.shift_version:
        raise ValidationError(t("cover.shift_changed"))
    edits.RosterEdits(session, now).edit_shift(shift.id, rules.ShiftChange(teacher_id=teacher_id))
    row.state, row.assigned_teacher_id = CoverState.ASSIGNED, teacher_id
    _record(session, row, CoverStep.ASSIGNED, teacher_id, now)
    return row


def decline(session: Session, request_id: int, *, now: dt.datetime, reason: str = "") -> CoverRequest:
    """The manager says no: the shift stays with the teacher who asked. `reason`, if the manager gave
    one, is kept for the message that tells them (core/sending/kinds/cover_declined.py enqueues it)."""
    row = _still_open(_get(session, request_id))
    row.state = CoverState.DECLINED
    row.decline_reason = " ".join(reason.split())[:REASON_LIMIT] or None
    _record(session, row, CoverStep.DECLINED, None, now)
    return row


def withdraw_stale(session: Session, *, now: dt.datetime) -> list[int]:
    """Requests still open whose shift changed, was canceled, moved to someone else or started: withdrawn."""
    stale = []
    for row in session.scalars(select(CoverRequest).where(CoverRequest.state.in_(STILL_OPEN))):
        shift = session.get(Shift, row.shift_id)
        if (shift is None or shift.version != row.shift_version or shift.status != ShiftStatus.CONFIRMED
                or rules.shift_instants(shift)[0] <= now):
            row.state = CoverState.WITHDRAWN
            _record(session, row, CoverStep.WITHDRAWN, None, now)
            stale.append(row.id)
    return stale


def shift_of(session: Session, request_id: int) -> Shift:
    return rules.get_shift(session, _get(session, request_id).shift_id)

