"""The domain as SQLAlchemy 2.0 typed ORM tables.

Instants are stored as UTC and come back timezone-aware. Wall times of shifts stay in the classroom's
zone (local date + times); core/roster/clock.py turns them into instants for scheduling.
"""

from __future__ import annotations

import datetime as dt
import uuid
from enum import StrEnum
from typing import ClassVar

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Enum,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    Time,
    TypeDecorator,
    UniqueConstraint,
    and_,
    false,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.sql.elements import ColumnElement, SQLColumnExpression

# The enums the columns store live in kinds (importable without SQLAlchemy); they belong to the model.
from core.store.kinds import AlertKind as AlertKind
from core.store.kinds import Channel as Channel
from core.store.kinds import ContactRule as ContactRule
from core.store.kinds import CoverState as CoverState
from core.store.kinds import CoverStep as CoverStep
from core.store.kinds import DeliveryKind as DeliveryKind
from core.store.kinds import DeliveryStatus as DeliveryStatus
from core.store.kinds import ShiftStatus as ShiftStatus
from core.store.kinds import SubjectType as SubjectType

# Stable constraint names so Alembic batch migrations on SQLite can find them again.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def new_uid() -> str:
    """A random identity for a new row, which no other database (nor another copy of this one) makes."""
    return str(uuid.uuid4())


class UTCDateTime(TypeDecorator[dt.datetime]):
    """Stores aware datetimes as naive UTC (sortable text in SQLite), returns them aware."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given where a UTC instant is required")
        return value.astimezone(dt.UTC).replace(tzinfo=None)

    def process_result_value(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        return None if value is None else value.replace(tzinfo=dt.UTC)


def _enum(enum_cls: type[StrEnum]) -> Enum:
    # Stored as plain strings without CHECK constraints: new kinds and statuses need no migration.
    return Enum(
        enum_cls,
        native_enum=False,
        create_constraint=False,
        length=32,
        values_callable=lambda e: [m.value for m in e],
        validate_strings=True,
    )


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Setting(Base):
    """Application settings that are not secrets (secrets live in the OS keyring)."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Classroom(Base):
    __tablename__ = "classrooms"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    timezone: Mapped[str] = mapped_column(String(64), default="Asia/Tokyo")
    line_group_id: Mapped[str | None] = mapped_column(String(33))
    reminder_lead_minutes: Mapped[int] = mapped_column(Integer, default=120)
    quiet_hours_enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    quiet_start: Mapped[dt.time] = mapped_column(Time, default=dt.time(22, 0))
    quiet_end: Mapped[dt.time] = mapped_column(Time, default=dt.time(7, 0))
    language: Mapped[str] = mapped_column(String(8), default="ja")
    liff_id: Mapped[str | None] = mapped_column(String(100))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    # Its rooms on channels other than LINE (core/roster/rooms.py), read with its settings.
    rooms: Mapped[list[ClassroomRoom]] = relationship(order_by="ClassroomRoom.channel", viewonly=True)


class ClassroomRoom(Base):
    """Where a classroom's month is posted on a channel other than LINE (whose group is the classroom's
    `line_group_id`): its talk room on LINE WORKS. The channel is any registered key, so a new channel's
    room needs no migration."""

    __tablename__ = "classroom_rooms"

    classroom_id: Mapped[int] = mapped_column(ForeignKey("classrooms.id", ondelete="CASCADE"), primary_key=True)
    channel: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(String(200))


class ClosedDay(Base):
    """The manager's word on one day of a classroom: closed (with a note), or open on a national holiday,
    which is otherwise closed. Days without a row follow the holidays (core/roster/closed_days.py)."""

    __tablename__ = "classroom_closed_days"
    __table_args__ = (UniqueConstraint("classroom_id", "local_date"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classrooms.id"), index=True)
    local_date: Mapped[dt.date] = mapped_column(Date)
    closed: Mapped[bool] = mapped_column(Boolean, default=True)  # False: a holiday the classroom opens
    note: Mapped[str] = mapped_column(String(200), default="")


class LessonSlot(Base):
    """One of a classroom's lesson periods (コマ): 1限 16:50–18:10. A shift can be entered by its slot
    (core/roster/lesson_slots.py); the shift keeps the times, not the slot."""

    __tablename__ = "lesson_slots"
    __table_args__ = (UniqueConstraint("classroom_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classrooms.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    start_time: Mapped[dt.time] = mapped_column(Time)
    end_time: Mapped[dt.time] = mapped_column(Time)


class Teacher(Base):
    """A teacher. How they are reached is their contacts (`TeacherContact`) and the rule for using them;
    erasing one deletes the contacts; shifts and delivery history stay, anonymised."""

    __tablename__ = "teachers"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str | None] = mapped_column(String(200), unique=True)
    # How the name is read (ふりがな), which teachers are listed by: core/roster/reading.py.
    reading: Mapped[str | None] = mapped_column(String(200))
    # The place the manager gave them in the list (1 first); None: listed by reading after those placed.
    position: Mapped[int | None] = mapped_column(Integer)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    erased_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)
    contact_rule: Mapped[ContactRule] = mapped_column(_enum(ContactRule), default=ContactRule.EVERY,
                                                      server_default=ContactRule.EVERY.value)
    # Selected with the teacher: every rule that decides who is reached reads them.
    contacts: Mapped[list[TeacherContact]] = relationship(lazy="selectin", cascade="all, delete-orphan",
                                                          order_by="TeacherContact.id")

    @property
    def display_name(self) -> str:
        return self.name if self.name is not None else f"(deleted #{self.id})"


class TeacherContact(Base):
    """One way of reaching a teacher: a channel (any registered key) and their address on it.

    `rank` orders the ways they chose (0 first); a contact without one is kept (a LINE ID that paired,
    say) but not used. `agreed_at`: when they agreed to be reached this way; None, not agreed. `agreed_by_teacher`:
    they agreed themselves on the channel (a LINE pairing code), not by the manager's tick. `unreachable_since`:
    the channel said it cannot reach the address; cleared when it answers again or the address changes.
    """

    __tablename__ = "teacher_contacts"
    # One teacher per address on a channel: a LINE user ID names one teacher, whoever pairs.
    __table_args__ = (UniqueConstraint("channel", "address"), UniqueConstraint("teacher_id", "channel"))

    id: Mapped[int] = mapped_column(primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"))
    channel: Mapped[str] = mapped_column(String(32))
    address: Mapped[str | None] = mapped_column(String(320))
    agreed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    agreed_by_teacher: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    unreachable_since: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    rank: Mapped[int | None] = mapped_column(Integer)


class Shift(Base):
    """One shift in wall time of its classroom. `version` grows on every change that matters to the teacher."""

    __tablename__ = "shifts"
    __table_args__ = (
        Index("ix_shifts_classroom_date", "classroom_id", "local_date"),
        Index("ix_shifts_teacher_date", "teacher_id", "local_date"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # What the shift's messages are about, beyond this database: its id is only its place in one copy
    # of the data folder, and two copies that went apart can each give another shift the same id. The
    # retry keys of its reminders and corrections name this (core/store/identity.py).
    uid: Mapped[str] = mapped_column(String(36), default=new_uid)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classrooms.id"))
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"))
    local_date: Mapped[dt.date] = mapped_column(Date)
    start_time: Mapped[dt.time] = mapped_column(Time)
    end_time: Mapped[dt.time] = mapped_column(Time)
    ends_next_day: Mapped[bool] = mapped_column(Boolean, default=False)
    note: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[ShiftStatus] = mapped_column(_enum(ShiftStatus), default=ShiftStatus.DRAFT)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    classroom: Mapped[Classroom] = relationship(lazy="joined")
    teacher: Mapped[Teacher] = relationship(lazy="joined")


class WeeklyPattern(Base):
    """A teacher's fixed weekly slot at a classroom (every Tuesday 17:00–21:00), from one day and until
    another or for good: what "Fill month from patterns" makes draft shifts of (core/roster/patterns.py)."""

    __tablename__ = "weekly_patterns"

    id: Mapped[int] = mapped_column(primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"), index=True)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classrooms.id"), index=True)
    weekday: Mapped[int] = mapped_column(Integer)  # 0 Monday … 6 Sunday, as date.weekday()
    start_time: Mapped[dt.time] = mapped_column(Time)
    end_time: Mapped[dt.time] = mapped_column(Time)
    valid_from: Mapped[dt.date] = mapped_column(Date)
    valid_until: Mapped[dt.date | None] = mapped_column(Date)


class ClassroomTeacher(Base):
    """A teacher belongs to a classroom (one 塾 of a chain) since a day: its Shifts grid lists its own
    teachers (core/roster/membership.py)."""

    __tablename__ = "classroom_teachers"
    __table_args__ = (UniqueConstraint("classroom_id", "teacher_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classrooms.id"), index=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"), index=True)
    since: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)



class StaffingNeed(Base):
    """How many teachers a classroom needs in one lesson slot (必要人数): on every `weekday` (0 Monday … 6
    Sunday), or on one `local_date`, which overrides the weekday's number for that day. A closed day needs
    nobody whatever its rows say (core/roster/needs.py)."""

    __tablename__ = "staffing_needs"
    __table_args__ = (
        UniqueConstraint("slot_id", "weekday"),
        UniqueConstraint("slot_id", "local_date"),
        CheckConstraint("(weekday IS NULL) <> (local_date IS NULL)", name="weekday_or_date"),
        CheckConstraint("count >= 0", name="count_not_negative"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classrooms.id"), index=True)
    slot_id: Mapped[int] = mapped_column(ForeignKey("lesson_slots.id", ondelete="CASCADE"), index=True)
    weekday: Mapped[int | None] = mapped_column(Integer)
    local_date: Mapped[dt.date | None] = mapped_column(Date)
    count: Mapped[int] = mapped_column(Integer)


class TeacherLimits(Base):
    """What a teacher may be given in a month, and their share of the work: every limit is optional (None:
    no limit). A draft never breaks one (core/drafting); the manager, entering shifts by hand, is warned."""

    __tablename__ = "teacher_limits"

    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"), primary_key=True)
    max_shifts: Mapped[int | None] = mapped_column(Integer)  # shifts a month
    max_minutes: Mapped[int | None] = mapped_column(Integer)  # a month: an income ceiling (扶養) in time
    min_minutes: Mapped[int | None] = mapped_column(Integer)  # a month: a promised minimum
    max_days_in_a_row: Mapped[int | None] = mapped_column(Integer)
    max_weekend_days: Mapped[int | None] = mapped_column(Integer)  # Saturdays and Sundays a month
    target_share: Mapped[int | None] = mapped_column(Integer)  # a relative weight (None: 1, everyone alike)


class TeacherSlot(Base):
    """A lesson slot a teacher can teach. A teacher with no row for a classroom's slots can teach all of
    them; with rows, only those (core/roster/limits.py)."""

    __tablename__ = "teacher_slots"
    __table_args__ = (UniqueConstraint("teacher_id", "slot_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"), index=True)
    slot_id: Mapped[int] = mapped_column(ForeignKey("lesson_slots.id", ondelete="CASCADE"), index=True)


class ShiftRevision(Base):
    """What a shift looked like at each version, so a correction can say old → new."""

    __tablename__ = "shift_revisions"
    __table_args__ = (UniqueConstraint("shift_id", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    shift_id: Mapped[int] = mapped_column(ForeignKey("shifts.id"))
    version: Mapped[int] = mapped_column(Integer)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classrooms.id"))
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"))
    local_date: Mapped[dt.date] = mapped_column(Date)
    start_time: Mapped[dt.time] = mapped_column(Time)
    end_time: Mapped[dt.time] = mapped_column(Time)
    ends_next_day: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[ShiftStatus] = mapped_column(_enum(ShiftStatus))
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class Publication(Base):
    """One immutable published revision of a classroom's month."""

    __tablename__ = "publications"
    __table_args__ = (UniqueConstraint("classroom_id", "year", "month", "revision"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # Its identity beyond this database, as a shift's: what the retry key of its LINE message names.
    uid: Mapped[str] = mapped_column(String(36), default=new_uid)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classrooms.id"))
    year: Mapped[int] = mapped_column(Integer)
    month: Mapped[int] = mapped_column(Integer)
    revision: Mapped[int] = mapped_column(Integer)
    document_id: Mapped[str] = mapped_column(String(64), unique=True)
    is_update: Mapped[bool] = mapped_column(Boolean, default=False)
    image_sha256: Mapped[str] = mapped_column(String(64))
    image_bytes: Mapped[int] = mapped_column(Integer)
    image_width: Mapped[int] = mapped_column(Integer)
    image_height: Mapped[int] = mapped_column(Integer)
    preview_sha256: Mapped[str] = mapped_column(String(64))
    preview_bytes: Mapped[int] = mapped_column(Integer)
    # The month for phones (core/publication/month_pages.py), what the LINE group receives: a JSON list
    # of {"image", "preview" (sha256), "width", "height"}. None for a revision published before it existed.
    pages_json: Mapped[str | None] = mapped_column(Text)
    snapshot_json: Mapped[str] = mapped_column(Text)
    changes_json: Mapped[str] = mapped_column(Text, default="[]")
    original_key: Mapped[str | None] = mapped_column(String(300))
    preview_key: Mapped[str | None] = mapped_column(String(300))
    uploaded_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


_CLAIMABLE_SQL = "status IN ('pending', 'queued', 'processing')"


class Delivery(Base):
    """The outbox row. The queue is this table: the sender claims due rows and reloads the rest by id."""

    __tablename__ = "deliveries"
    __table_args__ = (
        Index("ix_deliveries_status_next_attempt", "status", "next_attempt_at"),
        # The planner and the cancel paths look deliveries up by what they are about.
        Index("ix_deliveries_subject", "subject_type", "subject_id", "subject_version"),
        Index("ix_deliveries_created", "created_at"),
        # Only the rows a claim can take, in the order it takes them: the claim's cost follows the live
        # queue, not the history (docs/postgresql.md). Migration 0008 gives PostgreSQL the same condition;
        # it is not repeated here as postgresql_where because validating that keyword imports SQLAlchemy's
        # PostgreSQL dialect (30-50 ms) at every SQLite start. Alembic does not compare index conditions,
        # so tests/test_migrations.py checks that both backends' index is partial.
        Index("ix_deliveries_claimable", "next_attempt_at", "id", sqlite_where=text(_CLAIMABLE_SQL)),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # Any registered message kind's key (core/kinds/registry.py), built-in or not: plain text.
    kind: Mapped[str] = mapped_column(String(32))
    # Any registered channel's key (core/channels/registry.py): plain text, so a new channel needs no migration.
    channel: Mapped[str] = mapped_column(String(32), default=Channel.LINE.value)
    dedup_key: Mapped[str] = mapped_column(String(200), unique=True)
    recipient: Mapped[str | None] = mapped_column(String(320))
    teacher_id: Mapped[int | None] = mapped_column(ForeignKey("teachers.id"))
    classroom_id: Mapped[int | None] = mapped_column(ForeignKey("classrooms.id"))
    # What it is about, whatever the kind: a subject type ("shift", "publication", "alert", or one a
    # registered kind declares: core/kinds/registry.py), the row's id and, where the subject has
    # versions (a shift), the version it was planned for. No foreign key: the type says which table.
    subject_type: Mapped[str | None] = mapped_column(String(32))
    subject_id: Mapped[int | None] = mapped_column(Integer)
    subject_version: Mapped[int | None] = mapped_column(Integer)
    linked_delivery_id: Mapped[int | None] = mapped_column(ForeignKey("deliveries.id"))
    status: Mapped[DeliveryStatus] = mapped_column(_enum(DeliveryStatus), default=DeliveryStatus.PENDING)
    cancel_reason: Mapped[str | None] = mapped_column(String(64))
    dead_lettered_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    attempt_count: Mapped[int] = mapped_column(Integer, default=0)
    due_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    next_attempt_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    lease_owner: Mapped[str | None] = mapped_column(String(64))
    lease_expires_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    retry_key: Mapped[str | None] = mapped_column(String(36))
    retry_key_issued_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    # How many retry keys this delivery had before its current one: a key is derived from the
    # database's identity, what is sent and this counter (core/store/identity.py), so a copy of the
    # data folder presents the same key for the same message and LINE refuses the second send.
    retry_key_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    last_error_code: Mapped[str | None] = mapped_column(String(64))
    last_error_message: Mapped[str | None] = mapped_column(Text)
    # The last error is about the recipient (LINE 404, or a 400 naming "to"), not the message: what
    # the e-mail fallback decides on, kept typed so nothing reads it back out of the message text.
    last_error_at_recipient: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    line_request_id: Mapped[str | None] = mapped_column(String(64))
    accepted_request_id: Mapped[str | None] = mapped_column(String(64))
    late_seconds: Mapped[int | None] = mapped_column(Integer)
    # When the teacher tapped the 了解 button of this message (core/receiving/acknowledge.py); set once.
    acknowledged_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    first_attempt_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    sent_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    @classmethod
    def about(cls, subject_type: str, subject: int | SQLColumnExpression[int] | list[int]) -> ColumnElement[bool]:
        """The condition "about this subject": one row's id, a column to join on, or a list of ids."""
        which = cls.subject_id.in_(subject) if isinstance(subject, list) else cls.subject_id == subject
        return and_(cls.subject_type == subject_type, which)


class DeliveryAttempt(Base):
    """One try at sending one delivery, kept for the manager to inspect."""

    __tablename__ = "delivery_attempts"

    id: Mapped[int] = mapped_column(primary_key=True)
    delivery_id: Mapped[int] = mapped_column(ForeignKey("deliveries.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    duration_ms: Mapped[int | None] = mapped_column(Integer)
    http_status: Mapped[int | None] = mapped_column(Integer)
    request_id: Mapped[str | None] = mapped_column(String(64))
    accepted_request_id: Mapped[str | None] = mapped_column(String(64))
    retry_key: Mapped[str | None] = mapped_column(String(36))
    outcome: Mapped[str] = mapped_column(String(32))
    error_code: Mapped[str | None] = mapped_column(String(64))
    error_message: Mapped[str | None] = mapped_column(Text)
    # Who made it: None is this app's sender, "relay" the relay (an outcome pulled from it, core/relay/sync.py).
    via: Mapped[str | None] = mapped_column(String(16))


class RelayUpload(Base):
    """A delivery the app handed to the relay, under which subject version, and when its cancel followed.

    Written before the upload (`uploaded_at` is when it was picked), so a cancel always follows even when
    the relay's answer was lost; `confirmed_at` is when the relay answered (NULL: uploaded again at the
    next sync, which the relay ignores if it already holds that version)."""

    __tablename__ = "relay_uploads"

    delivery_id: Mapped[int] = mapped_column(ForeignKey("deliveries.id"), primary_key=True)
    subject_version: Mapped[int] = mapped_column(Integer)
    uploaded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    confirmed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    canceled_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)


class Alert(Base):
    """One incident for the manager: opened once when a condition starts, cleared when it ends.

    `open_key` is the condition (kind and scope) while the incident is open and NULL afterwards; being
    unique, it lets at most one incident per condition be open, whoever notices the condition first.
    """

    __tablename__ = "alerts"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[AlertKind] = mapped_column(_enum(AlertKind))
    scope: Mapped[str] = mapped_column(String(32), default="")
    open_key: Mapped[str | None] = mapped_column(String(100), unique=True)
    title: Mapped[str] = mapped_column(String(300))
    detail: Mapped[str] = mapped_column(Text, default="")
    opened_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    last_seen_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    cleared_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)


class DatabaseIdentity(Base):
    """The database's own random identity, made once when it is created (one row). A copied data
    folder carries it along, which is what lets two copies derive the same retry keys."""

    __tablename__ = "database_identity"

    id: Mapped[int] = mapped_column(primary_key=True)
    identity: Mapped[str] = mapped_column(String(36))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)


class SendingMachine(Base):
    """A computer that sent from this database, and when it last did (core/store/identity.py)."""

    __tablename__ = "sending_machines"

    machine_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    first_sent_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    last_sent_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)


class SenderRecord(Base):
    """A sender that sends, or sent, from this database: who, where, since when, and its last heartbeat
    (core/sending/presence.py). Its id is its lease owner, so the rows it has claimed name it."""

    __tablename__ = "senders"

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    home: Mapped[str] = mapped_column(Text)  # the data folder it was started with
    app: Mapped[str] = mapped_column(String(32))  # which part of Shiftcast sends: sender, window, tray
    started_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    heartbeat_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    stopped_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)


class WebhookEvent(Base):
    """One event LINE posted to the webhook receiver, stored once by LINE's `webhookEventId`.

    Kept raw as well as in columns: the handlers of a later version may want what this one ignored.
    `handled_at` is set once the handlers ran, so events received while a handler failed stand out.
    A failed event is tried again at `retry_at` (core/receiving/handlers.py) until its tries run out
    (`given_up_at`), which keeps an alert open while it stays unhandled.
    """

    __tablename__ = "webhook_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[str] = mapped_column(String(64), unique=True)
    type: Mapped[str] = mapped_column(String(32))
    source_type: Mapped[str | None] = mapped_column(String(16))
    source_user_id: Mapped[str | None] = mapped_column(String(33))
    source_group_id: Mapped[str | None] = mapped_column(String(33))
    source_room_id: Mapped[str | None] = mapped_column(String(33))
    is_redelivery: Mapped[bool] = mapped_column(Boolean, default=False)
    # LINE's `timestamp` (when it happened, kept on redelivery): orders a late redelivery after newer news.
    occurred_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    received_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    raw_json: Mapped[str] = mapped_column(Text)
    handled_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    handle_failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    retry_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    handle_error: Mapped[str | None] = mapped_column(String(200))
    given_up_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)


class ProposedGroup(Base):
    """A LINE group the account was invited into (a join event), offered to the manager as a classroom's
    group. Its name and member count are LINE's group summary at the time of the join. `left_at`: the
    account was removed from it (a leave event, also for a group pasted by hand); cleared by a new join."""

    __tablename__ = "line_group_proposals"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[str] = mapped_column(String(33), unique=True)
    name: Mapped[str | None] = mapped_column(String(200))
    member_count: Mapped[int | None] = mapped_column(Integer)
    picture_url: Mapped[str | None] = mapped_column(Text)
    joined_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    left_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    accepted_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    classroom_id: Mapped[int | None] = mapped_column(ForeignKey("classrooms.id"))


class PairingCode(Base):
    """A one-time code a teacher sends the LINE account so their LINE user ID can be stored.

    Codes are unique for all time (not only among live ones): a short table, and a repeated code can
    never pair the wrong teacher with an old printout."""

    __tablename__ = "pairing_codes"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)  # without its hyphens (core/receiving/pairing.py)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"), index=True)
    classroom_id: Mapped[int | None] = mapped_column(ForeignKey("classrooms.id"))
    issued_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    used_by: Mapped[str | None] = mapped_column(String(33))


class PairingFailure(Base):
    """A pairing code that bound nobody (wrong, used, expired or another teacher's account), with the LINE
    user who sent it and when: what the guessing limits count (core/receiving/pairing_limits.py)."""

    __tablename__ = "pairing_failures"
    __table_args__ = (Index("ix_pairing_failures_user_at", "line_user_id", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    line_user_id: Mapped[str] = mapped_column(String(33))
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime, index=True)


class PairingLockout(Base):
    """Whose pairing codes are ignored until when: one LINE user after too many wrong codes, or everyone
    (`scope` EVERYONE) after too many from all users together. Kept in the database so a restart of the
    receiver does not lift it."""

    __tablename__ = "pairing_lockouts"
    EVERYONE: ClassVar[str] = "*"

    id: Mapped[int] = mapped_column(primary_key=True)
    scope: Mapped[str] = mapped_column(String(33), unique=True)  # a LINE user ID, or EVERYONE
    locked_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    locked_until: Mapped[dt.datetime] = mapped_column(UTCDateTime)


class CoverRequest(Base):
    """A teacher who cannot take a confirmed shift asked for cover (core/roster/cover.py). Nothing on the
    roster changes until the manager assigns the shift to another teacher through the normal shift edit."""

    __tablename__ = "cover_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    shift_id: Mapped[int] = mapped_column(ForeignKey("shifts.id"), index=True)
    # The shift's version when asked: a shift changed since (moved, canceled) withdraws the request.
    shift_version: Mapped[int] = mapped_column(Integer)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"))  # who asked
    reason: Mapped[str] = mapped_column(Text, default="")
    state: Mapped[CoverState] = mapped_column(_enum(CoverState), default=CoverState.OPEN)
    assigned_teacher_id: Mapped[int | None] = mapped_column(ForeignKey("teachers.id"))
    # What the manager said when declining, told to the teacher who asked; None: no reason given.
    decline_reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)


class CoverRequestStep(Base):
    """One step of a cover request, kept as its history: asked, called, a volunteer, the manager's choice."""

    __tablename__ = "cover_request_steps"

    id: Mapped[int] = mapped_column(primary_key=True)
    request_id: Mapped[int] = mapped_column(ForeignKey("cover_requests.id"), index=True)
    step: Mapped[CoverStep] = mapped_column(_enum(CoverStep))
    teacher_id: Mapped[int | None] = mapped_column(ForeignKey("teachers.id"))  # who it concerns, if anyone
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime)


class CoverVolunteer(Base):
    """A teacher who offered to take a cover request's shift (the "I can cover" button), once each."""

    __tablename__ = "cover_volunteers"
    __table_args__ = (UniqueConstraint("request_id", "teacher_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    request_id: Mapped[int] = mapped_column(ForeignKey("cover_requests.id"), index=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"))
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime)


class ChangeCounter(Base):
    """How often each kind of change was committed (one row per topic of core/store/events.py): what
    another process compares with what it saw last to hear a change it did not make (core/store/changes.py)."""

    __tablename__ = "changes"

    topic: Mapped[str] = mapped_column(String(40), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)


class AvailabilityRequest(Base):
    """The manager asking the teachers of a classroom when they can work in a month, before building it
    (シフト希望): answers after `deadline` (the classroom's date) are kept and marked late."""

    __tablename__ = "availability_requests"
    __table_args__ = (Index("ix_availability_requests_month", "classroom_id", "year", "month"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    classroom_id: Mapped[int] = mapped_column(ForeignKey("classrooms.id"))
    year: Mapped[int] = mapped_column(Integer)
    month: Mapped[int] = mapped_column(Integer)
    deadline: Mapped[dt.date] = mapped_column(Date)
    # Remind who has not answered this many days before the deadline (the planner); None: only when asked.
    remind_days_before: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class AvailabilityAsked(Base):
    """A teacher a request was sent to, and when they were last reminded."""

    __tablename__ = "availability_asked"
    __table_args__ = (UniqueConstraint("request_id", "teacher_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    request_id: Mapped[int] = mapped_column(ForeignKey("availability_requests.id"))
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"))
    asked_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    reminded_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)


class AvailabilityAnswer(Base):
    """A teacher's answer for one day of a request: available (`yes`), not (`no`), or `hours` from
    `start_time` to `end_time` (either may be open). A correction replaces the current answer, which
    stays as history with `replaced_at` set; the current one has none."""

    __tablename__ = "availability_answers"
    __table_args__ = (Index("ix_availability_answers_request", "request_id", "teacher_id", "local_date"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    request_id: Mapped[int] = mapped_column(ForeignKey("availability_requests.id"))
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"))
    local_date: Mapped[dt.date] = mapped_column(Date)
    answer: Mapped[str] = mapped_column(String(16))
    start_time: Mapped[dt.time | None] = mapped_column(Time)
    end_time: Mapped[dt.time | None] = mapped_column(Time)
    answered_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    late: Mapped[bool] = mapped_column(Boolean, default=False)
    source: Mapped[str] = mapped_column(String(16))  # buttons, text, or manager (entered by the manager)
    replaced_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)


class CalendarFeed(Base):
    """A teacher's private calendar address (core/calendar/feeds.py): the relay serves their shifts at
    `<relay>/ics/<token>.ics`, knowing only the token's SHA-256. A new token is a new address; the old one
    stops at the next sync."""

    __tablename__ = "calendar_feeds"

    id: Mapped[int] = mapped_column(primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"), unique=True)
    token: Mapped[str] = mapped_column(String(43), unique=True)  # secrets.token_urlsafe(32)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
