"""Roster rules: classrooms, teachers and shifts, with validation. No Qt, no I/O beyond the session.

Every function takes the caller's session, so a screen, the CLI or an import can group several
changes into one transaction; the caller commits.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from core.errors import NotFoundError, ValidationError
from core.roster import channel_choice, clock, contacts, ids, membership
from core.roster import reading as reading_rule
from core.roster import rooms as classroom_rooms
from core.roster.taken import Taken
from core.store import events
from core.store.models import (
    Channel,
    Classroom,
    Delivery,
    Shift,
    ShiftRevision,
    ShiftStatus,
    SubjectType,
    Teacher,
    TeacherContact,
    WeeklyPattern,
    utcnow,
)
from core.texts import t

MAX_SHIFT = dt.timedelta(hours=24)
# Changes to these fields matter to the teacher: they bump the version and may trigger a correction.
VERSIONED_FIELDS = ("classroom_id", "teacher_id", "local_date", "start_time", "end_time", "ends_next_day", "status")
# A roster is planned for the months around today, so a year outside these is a slip (2206 for 2026),
# and staying far from the ends of the calendar keeps the arithmetic around a shift (its time zone,
# the next day, the next month) in range.
FIRST_DAY, LAST_DAY = dt.date(2000, 1, 1), dt.date(2099, 12, 31)


# ----- classrooms -----------------------------------------------------------------------------


def create_classroom(
    session: Session,
    *,
    name: str,
    timezone: str = "Asia/Tokyo",
    line_group_id: str | None = None,
    reminder_lead_minutes: int = 120,
    quiet_hours: tuple[dt.time, dt.time] | None = (dt.time(22, 0), dt.time(7, 0)),
    language: str = "ja",
) -> Classroom:
    values = {"name": _unique_classroom_name(session, name, None)} | _classroom_values(
        timezone=timezone,
        line_group_id=line_group_id,
        reminder_lead_minutes=reminder_lead_minutes,
        quiet_hours=quiet_hours,
        language=language,
    )
    classroom = Classroom(**values)
    session.add(classroom)
    session.flush()
    return classroom


def update_classroom(session: Session, classroom_id: int, **settings: Any) -> Classroom:
    """Change any classroom setting (`rooms`: channel → its room there, core/roster/rooms.py); all are
    checked before any is applied."""
    classroom = get_classroom(session, classroom_id)
    values = {}
    if "name" in settings:
        values["name"] = _unique_classroom_name(session, settings.pop("name"), classroom.id)
    wanted_rooms: Mapping[str, str | None] = settings.pop("rooms", None) or {}  # channel → room ID; blank: none
    for room_id in wanted_rooms.values():
        classroom_rooms.check_room_id(room_id)
    values |= _classroom_values(**settings)
    new_group = values.get("line_group_id") not in (None, classroom.line_group_id)
    for key, value in values.items():
        setattr(classroom, key, value)
    for channel, room_id in wanted_rooms.items():
        classroom_rooms.set_room(session, classroom.id, channel, room_id)
    session.flush()
    session.refresh(classroom, ["rooms"])
    if new_group:  # a month published while it had none is owed to the group now: plan at once
        events.emit(session, events.ShiftsChanged(frozenset(), frozenset(), frozenset({classroom.id})))
    return classroom


_UNSET: Any = object()


def _unique_classroom_name(session: Session, name: str, classroom_id: int | None) -> str:
    name = _required_name(name, "classroom")
    clash = session.scalar(select(Classroom.id).where(Classroom.name == name))
    if clash is not None and clash != classroom_id:
        raise ValidationError(t("roster.classroom_exists", name=name))
    return name


def _classroom_values(
    *,
    timezone: str = _UNSET,
    line_group_id: str | None = _UNSET,
    reminder_lead_minutes: int = _UNSET,
    quiet_hours: tuple[dt.time, dt.time] | None = _UNSET,
    language: str = _UNSET,
    liff_id: str | None = _UNSET,
) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if timezone is not _UNSET:
        clock.zone(timezone)
        values["timezone"] = timezone
    if line_group_id is not _UNSET:
        values["line_group_id"] = ids.line_group_id(line_group_id)
    if reminder_lead_minutes is not _UNSET:
        if not 0 < reminder_lead_minutes <= 24 * 60:
            raise ValidationError(t("roster.lead_range"))
        values["reminder_lead_minutes"] = reminder_lead_minutes
    if quiet_hours is not _UNSET:
        if quiet_hours is None:
            values["quiet_hours_enabled"] = False
        else:
            start, end = quiet_hours
            if start == end:
                raise ValidationError(t("roster.quiet_same"))
            values |= {"quiet_hours_enabled": True, "quiet_start": start, "quiet_end": end}
    if language is not _UNSET:
        if language not in ("ja", "en"):
            raise ValidationError(t("roster.language_unsupported", language=language))
        values["language"] = language
    if liff_id is not _UNSET:
        values["liff_id"] = (liff_id or "").strip() or None
    return values


def get_classroom(session: Session, classroom_id: int) -> Classroom:
    classroom = session.get(Classroom, classroom_id)
    if classroom is None:
        raise NotFoundError(t("roster.no_classroom_id", id=classroom_id))
    return classroom


def classroom_by_name(session: Session, name: str) -> Classroom:
    classroom = session.scalar(select(Classroom).where(Classroom.name == name.strip()))
    if classroom is None:
        raise NotFoundError(t("roster.no_classroom_named", name=name.strip()))
    return classroom


def list_classrooms(session: Session) -> list[Classroom]:
    return list(session.scalars(select(Classroom).order_by(Classroom.name)))


# ----- teachers -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ContactChange:
    """What changes about a teacher's contact on one channel; a field left out stays as it is."""

    address: str | None = _UNSET  # as typed; checked by the channel's rule (core/roster/contacts.py)
    agreed: bool = _UNSET  # the manager's tick: the teacher agreed to be reached this way


# The names callers have long used for the built-in channels' fields: each is one field of one
# channel's contact, so they go through the same generic path as any channel's `contacts`.
CONTACT_FIELDS = {
    "line_user_id": (Channel.LINE, "address"),
    "email": (Channel.EMAIL, "address"),
    "line_opt_in": (Channel.LINE, "agreed"),
    "email_opt_in": (Channel.EMAIL, "agreed"),
}


def create_teacher(
    session: Session,
    *,
    name: str,
    classroom_ids: Iterable[int] = (),
    now: dt.datetime | None = None,
    **given: Any,
) -> Teacher:
    """A new teacher: `contacts_in` (channel key → ContactChange) or the built-in fields' names
    (line_user_id=…, email_opt_in=…), how they are reached (`channel`: a choice or its word) and how
    the name is read (`reading`, ふりがな) or their place in the manager's order (`position`): the order
    they are listed in (core/roster/reading.py); the classrooms they belong to (`classroom_ids`).
    What is stored is `new_teacher`'s rows."""
    now = now or utcnow()
    made = new_teacher(session, name=name, now=now, **given)
    teacher = Teacher(**made.values)
    teacher.contacts = [TeacherContact(**contact) for contact in made.contacts]
    session.add(teacher)
    session.flush()
    join_new(session, teacher.id, classroom_ids, now=now)
    return teacher


@dataclass(frozen=True, slots=True)
class NewTeacher:
    """A new teacher as rows: the `teachers` row and its `teacher_contacts` rows (without `teacher_id`)."""

    values: dict[str, Any]
    contacts: list[dict[str, Any]]


def new_teacher(
    session: Session,
    *,
    name: str,
    reading: str | None = None,
    position: int | None = None,
    active: bool = True,
    channel: channel_choice.Choice | str = channel_choice.LINE,
    contacts_in: Mapping[str, ContactChange] | None = None,
    now: dt.datetime,
    taken: Taken | None = None,
    **fields_by_name: Any,
) -> NewTeacher:
    """A new teacher checked in full, as the rows `create_teacher` stores: a contact for each channel
    given or chosen, its address checked, agreed now when ticked, ranked in the order they are reached.
    With `taken` (an import making many), the name and addresses are checked against it instead of the
    database, and it learns them; the session is not touched either way."""
    name = _unique_teacher_name(session, name, None) if taken is None else _untaken_name(taken, name)
    values = {"name": name, "reading": reading_rule.check(reading), "position": reading_rule.check_position(position),
              "active": bool(active)}
    changes = _contact_changes(contacts_in, fields_by_name)
    _check_contacts(session, None, changes, taken)
    choice = channel_choice.parse(channel)
    values["contact_rule"] = choice.rule
    if taken is not None:
        taken.take(name, {c: change.address for c, change in changes.items() if isinstance(change.address, str)})
    rows: dict[str, dict[str, Any]] = {}
    for channel_key, change in changes.items():
        address = change.address if change.address is not _UNSET else None
        agreed = change.agreed is not _UNSET and bool(change.agreed)
        rows[channel_key] = _contact_row(channel_key, address, now if agreed else None)
    for rank, channel_key in enumerate(choice.channels):
        rows.setdefault(channel_key, _contact_row(channel_key, None, None))["rank"] = rank
    return NewTeacher(values, list(rows.values()))


def _contact_row(channel: str, address: str | None, agreed_at: dt.datetime | None) -> dict[str, Any]:
    return {"channel": channel, "address": address, "agreed_at": agreed_at, "agreed_by_teacher": False,
            "unreachable_since": None, "rank": None}


def join_new(session: Session, teacher_id: int, classroom_ids: Iterable[int], *, now: dt.datetime) -> None:
    """A teacher just made joins their classrooms."""
    for classroom_id in sorted(set(classroom_ids)):
        membership.join(session, get_classroom(session, classroom_id).id, teacher_id, now=now)


def update_teacher(session: Session, teacher_id: int, *, contacts_in: Mapping[str, ContactChange] | None = None,
                   classroom_ids: Iterable[int] | None = None, now: dt.datetime | None = None,
                   **changes: Any) -> Teacher:
    """Change any teacher field or contact, or the classrooms they belong to (`classroom_ids`, None: as
    they are); all are checked before any is applied, a classroom left with shifts to come included."""
    teacher = get_teacher(session, teacher_id)
    if teacher.erased_at is not None:
        raise ValidationError(t("roster.teacher_deleted"))
    name = _unique_teacher_name(session, changes.pop("name"), teacher.id) if "name" in changes else None
    choice = channel_choice.parse(changes.pop("channel")) if "channel" in changes else None
    reading = reading_rule.check(changes.pop("reading")) if "reading" in changes else _UNSET
    position = reading_rule.check_position(changes.pop("position")) if "position" in changes else _UNSET
    active = changes.pop("active", _UNSET)
    by_channel = _contact_changes(contacts_in, changes)
    _check_contacts(session, teacher.id, by_channel)
    if classroom_ids is not None:
        membership.set_classrooms(session, teacher.id, [get_classroom(session, c).id for c in classroom_ids],
                                  now=now or utcnow())
    if name is not None:
        teacher.name = name
    if reading is not _UNSET:
        teacher.reading = reading
    if position is not _UNSET:
        teacher.position = position
    if active is not _UNSET:
        teacher.active = bool(active)
    _apply_contacts(teacher, by_channel, now=now or utcnow())
    if choice is not None:
        contacts.set_choice(teacher, choice.rule, choice.channels)
    teacher.updated_at = utcnow()  # a contact's change is the teacher's change too
    session.flush()
    return teacher


def contact_fields(teacher: Teacher) -> dict[str, str | bool | None]:
    """The built-in fields by their names (line_user_id, email_opt_in, …), read from the teacher's contacts:
    what the CSV files and the command line show."""
    out: dict[str, str | bool | None] = {}
    for name, (channel, field_name) in CONTACT_FIELDS.items():
        found = contacts.on(teacher.contacts, channel)
        if field_name == "address":
            out[name] = found.address if found is not None else None
        else:
            out[name] = found is not None and found.agreed_at is not None
    return out


def _contact_changes(given: Mapping[str, ContactChange] | None, by_name: Mapping[str, Any]) -> dict[str, ContactChange]:
    """Every contact change by channel: those given, and those named by a built-in field's name."""
    unknown = set(by_name) - set(CONTACT_FIELDS)
    if unknown:
        raise TypeError(f"unknown teacher fields: {sorted(unknown)}")
    out = dict(given or {})
    for name, value in by_name.items():
        channel, field_name = CONTACT_FIELDS[name]
        out[channel] = replace(out.get(channel, ContactChange()), **{field_name: value})
    return out


def _check_contacts(session: Session, teacher_id: int | None, changes: dict[str, ContactChange],
                    taken: Taken | None = None) -> None:
    """Each address through its channel's rule, stored back checked; one teacher per address (asked of
    `taken` instead of the database when given, for a new teacher)."""
    for channel, change in changes.items():
        if change.address is _UNSET:
            continue
        address = contacts.check_address(channel, change.address)
        if address is not None:
            if taken is not None:
                holder = taken.owner(channel, address)
            else:
                owner = contacts.owner(session, channel, address)
                holder = owner.display_name if owner is not None and owner.id != teacher_id else None
            if holder is not None:
                raise ValidationError(t("roster.address_taken", channel=contacts.label(channel), address=address,
                                        teacher=holder))
        changes[channel] = replace(change, address=address)


def _apply_contacts(teacher: Teacher, changes: Mapping[str, ContactChange], *, now: dt.datetime) -> None:
    for channel, change in changes.items():
        contact = contacts.contact(teacher, channel)
        if change.address is not _UNSET and change.address != contact.address:
            contact.address = change.address
            contact.unreachable_since = None  # what the channel said was about the old address
        if change.agreed is not _UNSET and bool(change.agreed) != (contact.agreed_at is not None):
            contact.agreed_at = now if change.agreed else None
            contact.agreed_by_teacher = False


def erase_teacher(session: Session, teacher_id: int, *, now: dt.datetime) -> Teacher:
    """Delete a teacher: contact data is erased, future shifts are canceled, history stays anonymised."""
    teacher = get_teacher(session, teacher_id)
    future = session.scalars(
        select(Shift).where(
            Shift.teacher_id == teacher.id,
            Shift.status != ShiftStatus.CANCELED,
            Shift.local_date >= (now - dt.timedelta(days=1)).date(),
        )
    )
    for shift in future:
        start, _ = shift_instants(shift)
        if start > now:
            _change_shift(session, shift, {"status": ShiftStatus.CANCELED}, now=now)
    teacher.name = None
    teacher.contacts.clear()  # every address and consent, whatever the channel
    teacher.active = False
    teacher.erased_at = now
    # A deleted teacher's weekly slots would only fill months with shifts the roster then refuses.
    session.execute(delete(WeeklyPattern).where(WeeklyPattern.teacher_id == teacher.id))
    membership.forget(session, teacher.id)  # listed nowhere now; their past shifts still show in those months
    # The outbox keeps what happened, not to whom: recipients of this teacher's deliveries go too.
    session.execute(update(Delivery).where(Delivery.teacher_id == teacher.id).values(recipient=None))
    session.flush()
    return teacher


def get_teacher(session: Session, teacher_id: int) -> Teacher:
    teacher = session.get(Teacher, teacher_id)
    if teacher is None:
        raise NotFoundError(t("roster.no_teacher_id", id=teacher_id))
    return teacher


def teacher_by_name(session: Session, name: str) -> Teacher:
    teacher = session.scalar(select(Teacher).where(Teacher.name == name.strip()))
    if teacher is None:
        raise NotFoundError(t("roster.unknown_teacher", name=name.strip()))
    return teacher


def list_teachers(session: Session, *, include_erased: bool = False) -> list[Teacher]:
    """Every teacher in the listing order: the manager's, then by reading, then name (core/roster/reading.py)."""
    query = select(Teacher)
    if not include_erased:
        query = query.where(Teacher.erased_at.is_(None))
    return reading_rule.in_order(session.scalars(query))


def _unique_teacher_name(session: Session, name: str, teacher_id: int | None) -> str:
    name = _required_name(name, "teacher")
    clash = session.scalar(select(Teacher.id).where(Teacher.name == name))
    if clash is not None and clash != teacher_id:
        raise ValidationError(t("roster.teacher_exists", name=name))
    return name


def _untaken_name(taken: Taken, name: str) -> str:
    name = _required_name(name, "teacher")
    if name in taken.names:
        raise ValidationError(t("roster.teacher_exists", name=name))
    return name


def _required_name(name: str, what: str) -> str:
    name = (name or "").strip()
    if not name:
        raise ValidationError(t("roster.name_missing", what=t(f"word.{what}")))
    if len(name) > 200:
        raise ValidationError(t("roster.name_too_long", what=t(f"word.{what}")))
    return name


# ----- shifts ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShiftDraft:
    """What a shift should look like; validated as a whole before it touches a row."""

    classroom_id: int
    teacher_id: int
    local_date: dt.date
    start_time: dt.time
    end_time: dt.time
    ends_next_day: bool = False
    note: str = ""
    status: ShiftStatus = ShiftStatus.DRAFT


def shift_instants(shift: Shift | ShiftDraft, zone_name: str | None = None) -> tuple[dt.datetime, dt.datetime]:
    """Start and end of a shift as UTC instants (the classroom's zone unless given)."""
    if zone_name is None:
        assert isinstance(shift, Shift)
        zone_name = shift.classroom.timezone
    return clock.shift_interval(shift.local_date, shift.start_time, shift.end_time, shift.ends_next_day, zone_name)


def add_shift(session: Session, draft: ShiftDraft, *, now: dt.datetime) -> Shift:
    _validate(session, draft, shift_id=None)
    shift = Shift(**{f.name: getattr(draft, f.name) for f in fields(draft)}, version=1)
    session.add(shift)
    session.flush()
    _place_teacher(session, draft, now=now)
    _record_revision(session, shift, now=now)
    _announce(session, shift)
    return shift


@dataclass(frozen=True)
class ShiftChange:
    """One edit of a shift: each field given replaces the shift's, each left None stays as it is (none of a
    shift's fields can be None, so None always means "unchanged")."""

    classroom_id: int | None = None
    teacher_id: int | None = None
    local_date: dt.date | None = None
    start_time: dt.time | None = None
    end_time: dt.time | None = None
    ends_next_day: bool | None = None
    note: str | None = None
    status: ShiftStatus | None = None

    def given(self) -> dict[str, Any]:
        """The fields this change sets, by name."""
        return {f.name: value for f in fields(self) if (value := getattr(self, f.name)) is not None}


def edit_shift(session: Session, shift_id: int, change: ShiftChange, *, now: dt.datetime) -> Shift:
    """Apply `change` to the shift. Versioned fields bump the version once per call."""
    shift = get_shift(session, shift_id)
    if shift.status == ShiftStatus.CONFIRMED and change.status == ShiftStatus.DRAFT:
        raise ValidationError(t("roster.confirmed_to_draft"))
    return _change_shift(session, shift, change.given(), now=now)


def cancel_shift(session: Session, shift_id: int, *, now: dt.datetime) -> Shift:
    """Cancel a shift: the row stays (teachers may have been told about it) and its version grows."""
    shift = get_shift(session, shift_id)
    if shift.status == ShiftStatus.CANCELED:
        return shift
    return _change_shift(session, shift, {"status": ShiftStatus.CANCELED}, now=now)


def delete_shift(session: Session, shift_id: int) -> None:
    """Delete a draft that nobody was told about. Confirmed shifts are canceled instead."""
    shift = get_shift(session, shift_id)
    if shift.status != ShiftStatus.DRAFT:
        raise ValidationError(t("roster.delete_not_draft", status=t(f"status.{shift.status.value}")))
    if session.scalar(select(Delivery.id).where(Delivery.about(SubjectType.SHIFT, shift.id)).limit(1)) is not None:
        raise ValidationError(t("roster.delete_has_history"))
    session.execute(delete(ShiftRevision).where(ShiftRevision.shift_id == shift.id))
    session.delete(shift)
    session.flush()


def confirm_month(session: Session, classroom_id: int, year: int, month: int, *, now: dt.datetime) -> list[Shift]:
    """Confirm every draft of the classroom's month at once, or none if any cannot be confirmed."""
    get_classroom(session, classroom_id)
    drafts = [s for s in month_shifts(session, classroom_id, year, month) if s.status == ShiftStatus.DRAFT]
    problems = [
        t("roster.confirm_inactive", day=s.local_date, teacher=s.teacher.display_name)
        for s in drafts
        if not s.teacher.active
    ]
    if problems:
        raise ValidationError(t("roster.confirm_month_failed", problems=tuple(problems)))
    for shift in drafts:
        _change_shift(session, shift, {"status": ShiftStatus.CONFIRMED}, now=now)
    return drafts


def get_shift(session: Session, shift_id: int) -> Shift:
    shift = session.get(Shift, shift_id)
    if shift is None:
        raise NotFoundError(t("roster.no_shift_id", id=shift_id))
    return shift


def month_shifts(session: Session, classroom_id: int, year: int, month: int) -> list[Shift]:
    first, last = month_bounds(year, month)
    return list(
        session.scalars(
            select(Shift)
            .where(Shift.classroom_id == classroom_id, Shift.local_date >= first, Shift.local_date <= last)
            .order_by(Shift.local_date, Shift.start_time, Shift.id)
        )
    )


def check_day(day: dt.date) -> dt.date:
    """The day itself if a shift may fall on it; ValidationError otherwise."""
    if not FIRST_DAY <= day <= LAST_DAY:
        raise ValidationError(t("roster.day_range", day=day.isoformat(), first=FIRST_DAY.isoformat(),
                                  last=LAST_DAY.isoformat()))
    return day


def month_bounds(year: int, month: int) -> tuple[dt.date, dt.date]:
    if not (1 <= month <= 12 and FIRST_DAY.year <= year <= LAST_DAY.year):
        raise ValidationError(t("roster.month_range", month=f"{year:04d}-{month:02d}", first=f"{FIRST_DAY:%Y-%m}",
                                  last=f"{LAST_DAY:%Y-%m}"))
    first = dt.date(year, month, 1)
    following = dt.date(year + (month == 12), month % 12 + 1, 1)
    return first, following - dt.timedelta(days=1)


def parse_month(text: str) -> tuple[int, int]:
    try:
        year_text, month_text = text.strip().split("-")
        year, month = int(year_text), int(month_text)
    except ValueError:
        raise ValidationError(t("roster.bad_month", text=text)) from None
    month_bounds(year, month)
    return year, month


def _change_shift(session: Session, shift: Shift, changes: dict[str, Any], *, now: dt.datetime) -> Shift:
    current = ShiftDraft(**{f.name: getattr(shift, f.name) for f in fields(ShiftDraft)})
    wanted = replace(current, **changes)
    if wanted == current:
        return shift
    _validate(session, wanted, shift_id=shift.id)
    bump = any(getattr(wanted, name) != getattr(current, name) for name in VERSIONED_FIELDS)
    for f in fields(ShiftDraft):
        setattr(shift, f.name, getattr(wanted, f.name))
    if bump:
        shift.version += 1
    session.flush()
    if (wanted.teacher_id, wanted.classroom_id) != (current.teacher_id, current.classroom_id):
        _place_teacher(session, wanted, now=now)
    if bump:
        _record_revision(session, shift, now=now)
        _announce(session, shift, was=current)
    return shift


def _place_teacher(session: Session, draft: ShiftDraft, *, now: dt.datetime) -> None:
    """A shift placed for a teacher makes them one of the classroom's own (rather than being refused)."""
    if draft.status != ShiftStatus.CANCELED:
        membership.join(session, draft.classroom_id, draft.teacher_id, now=now)


def _announce(session: Session, shift: Shift, *, was: ShiftDraft | None = None) -> None:
    """Tell listeners after commit which shift changed, and whose and where it was and is (planning and
    the screens; a shift moved to another teacher concerns both)."""
    teachers, rooms = {shift.teacher_id}, {shift.classroom_id}
    if was is not None:
        teachers.add(was.teacher_id)
        rooms.add(was.classroom_id)
    events.emit(session, events.ShiftsChanged(frozenset({shift.id}), frozenset(teachers), frozenset(rooms)))


def _record_revision(session: Session, shift: Shift, *, now: dt.datetime) -> None:
    session.add(
        ShiftRevision(
            shift_id=shift.id,
            version=shift.version,
            classroom_id=shift.classroom_id,
            teacher_id=shift.teacher_id,
            local_date=shift.local_date,
            start_time=shift.start_time,
            end_time=shift.end_time,
            ends_next_day=shift.ends_next_day,
            status=shift.status,
            recorded_at=now,
        )
    )
    session.flush()


def _validate(session: Session, draft: ShiftDraft, *, shift_id: int | None) -> None:
    check_day(draft.local_date)
    classroom = get_classroom(session, draft.classroom_id)
    teacher = get_teacher(session, draft.teacher_id)
    if teacher.erased_at is not None or not teacher.active:
        if draft.status != ShiftStatus.CANCELED:
            raise ValidationError(t("roster.teacher_inactive", teacher=teacher.display_name))
    if len(draft.note) > 1000:
        raise ValidationError(t("roster.note_too_long"))
    start_minutes = draft.start_time.hour * 60 + draft.start_time.minute
    end_minutes = draft.end_time.hour * 60 + draft.end_time.minute + (24 * 60 if draft.ends_next_day else 0)
    if end_minutes <= start_minutes:
        raise ValidationError(t("roster.end_before_start", start=clock.format_wall_time(draft.start_time),
                                end=clock.format_wall_time(draft.end_time, next_day=draft.ends_next_day)))
    if end_minutes - start_minutes > MAX_SHIFT.total_seconds() // 60:
        raise ValidationError(t("roster.too_long"))
    if draft.status == ShiftStatus.CANCELED:
        return
    other = clash(session, draft, classroom.timezone, shift_id=shift_id)
    if other is not None:
        raise ValidationError(t(
            "roster.overlaps", teacher=teacher.display_name, day=other.local_date,
            start=clock.format_wall_time(other.start_time),
            end=clock.format_wall_time(other.end_time, next_day=other.ends_next_day), classroom=other.classroom.name,
        ))


def clash(session: Session, draft: ShiftDraft, zone_name: str, *, shift_id: int | None) -> Shift | None:
    """Another shift of the draft's teacher (not canceled, not `shift_id`) that overlaps it, if any."""
    start, end = shift_instants(draft, zone_name)
    # Classrooms may sit in different zones, so compare instants; two days either side covers any offset.
    nearby = session.scalars(
        select(Shift).where(
            Shift.teacher_id == draft.teacher_id,
            Shift.status != ShiftStatus.CANCELED,
            Shift.local_date >= draft.local_date - dt.timedelta(days=2),
            Shift.local_date <= draft.local_date + dt.timedelta(days=2),
        ).order_by(Shift.local_date, Shift.start_time, Shift.id)
    )
    for other in nearby:
        if other.id == shift_id:
            continue
        other_start, other_end = shift_instants(other)
        if start < other_end and other_start < end:
            return other
    return None
