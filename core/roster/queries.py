"""Classrooms and teachers as the screens list them: frozen plain values read inside the caller's scope.

The window reads on a pool thread and shows on its own; ORM rows would cross between them and could
lazy-load or expire behind a widget's back, so every function here copies what a screen shows into a
dataclass before the scope ends. Changes go through core.roster.rules, which says what is allowed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.roster import channel_choice, contacts, membership, patterns, rules
from core.roster.patterns import Pattern
from core.store.models import Channel, Classroom, Teacher, TeacherContact


@dataclass(frozen=True)
class ClassroomSettings:
    """A classroom and every setting the Settings screen edits."""

    id: int
    name: str
    line_group_id: str  # empty: no LINE group yet
    lead_minutes: int
    quiet_enabled: bool
    quiet_start: dt.time
    quiet_end: dt.time
    language: str
    liff_id: str
    timezone: str
    rooms: tuple[tuple[str, str], ...] = ()  # (channel, room ID) on channels other than LINE (core/roster/rooms.py)

    @classmethod
    def of(cls, room: Classroom) -> ClassroomSettings:
        return cls(room.id, room.name, room.line_group_id or "", room.reminder_lead_minutes, room.quiet_hours_enabled,
                   room.quiet_start, room.quiet_end, room.language, room.liff_id or "", room.timezone,
                   tuple((r.channel, r.room_id) for r in room.rooms))

    def room_on(self, channel: str) -> str:
        """Its room on `channel` (not LINE: `line_group_id`); empty: none."""
        return dict(self.rooms).get(channel, "")


@dataclass(frozen=True)
class TeacherRecord:
    """A teacher as the teachers' table shows them and the editor starts from."""

    id: int
    name: str  # the display name; erased teachers read "(deleted #id)"
    email: str
    line_user_id: str
    line_opt_in: bool
    email_opt_in: bool
    active: bool
    channel: str = channel_choice.LINE.word
    line_unreachable: bool = False  # LINE said this user ID cannot be reached (core.channels.line_reach)
    # Every other channel's contact: key → (address, agreed).
    others: Mapping[str, tuple[str, bool]] = field(default_factory=dict)
    reading: str = ""  # how the name is read (ふりがな); the order of the list
    position: int | None = None  # their place in the manager's own order; None: listed by reading
    patterns: tuple[Pattern, ...] = ()  # their fixed weekly slots (core/roster/patterns.py)
    classroom_ids: frozenset[int] = frozenset()  # the classrooms they belong to (core/roster/membership.py)

    @classmethod
    def of(cls, teacher: Teacher, weekly: Sequence[Pattern] = (), classroom_ids: frozenset[int] = frozenset()
           ) -> TeacherRecord:
        fields = rules.contact_fields(teacher)
        line = contacts.on(teacher.contacts, Channel.LINE)
        others = {c.channel: (c.address or "", c.agreed_at is not None) for c in teacher.contacts
                  if c.channel not in (Channel.LINE, Channel.EMAIL)}
        return cls(teacher.id, teacher.display_name, str(fields["email"] or ""), str(fields["line_user_id"] or ""),
                   bool(fields["line_opt_in"]), bool(fields["email_opt_in"]), teacher.active,
                   channel_choice.of(teacher).word, line is not None and line.unreachable_since is not None, others,
                   teacher.reading or "", teacher.position, tuple(weekly), classroom_ids)


def classrooms(session: Session) -> list[ClassroomSettings]:
    """Every classroom, by name."""
    return [ClassroomSettings.of(room) for room in rules.list_classrooms(session)]


def classroom(session: Session, classroom_id: int) -> ClassroomSettings:
    """One classroom; NotFoundError if it is gone."""
    return ClassroomSettings.of(rules.get_classroom(session, classroom_id))


def update_classroom(session: Session, classroom_id: int, **settings: object) -> ClassroomSettings:
    """rules.update_classroom, answered with the classroom as saved."""
    return ClassroomSettings.of(rules.update_classroom(session, classroom_id, **settings))


def teachers(session: Session) -> list[TeacherRecord]:
    """Every teacher not erased, in the listing order (core/roster/reading.py)."""
    weekly = patterns.by_teacher(session)
    rooms = membership.ids_by_teacher(session)
    return [TeacherRecord.of(t, weekly.get(t.id, ()), rooms.get(t.id, frozenset())) for t in rules.list_teachers(session)]


def line_recipient_names(session: Session, recipients: Collection[str]) -> dict[str, str]:
    """LINE user and group IDs → the teacher's or the classroom's name; IDs nobody has are left out."""
    if not recipients:
        return {}
    found = {str(line.address): teacher.display_name for teacher, line in session.execute(
        select(Teacher, TeacherContact).join(TeacherContact).where(
            TeacherContact.channel == Channel.LINE, TeacherContact.address.in_(recipients)))}
    found.update({c.line_group_id: c.name
                  for c in session.scalars(select(Classroom).where(Classroom.line_group_id.in_(recipients)))
                  if c.line_group_id is not None})
    return found
