"""What every message kind's `plan` is given (core/kinds/registry.py): one planning run's context.

A kind plans itself with this alone, built-in or not, and gets the rules every kind shares:
- when a message is due on the classroom's clock (`before_shift`: a reminder's lead before a shift,
  moved earlier out of quiet hours, still sent late while the shift has not started; `soon`: as soon
  as possible, but after quiet hours unless the shift starts first), with the dry run's words for it
  (core/planning/reminder_times.py holds the pure rules, the clock passed in);
- `enqueue_for_teacher`: one delivery per channel the teacher's contacts plan, each once (its dedup
  key: kind + subject + version, + channel when not LINE), addressed as that channel's driver takes
  it; a teacher who chose "the first that can reach them, then the next" and whom the first cannot
  reach gets it on the next, linked to a delivery on the first recorded as canceled with that
  channel's unreachable reason — and the report's row of each, with its words for the dry run;
- `cancel_superseded`: a waiting delivery planned for an older version of its subject goes no more.

What the outbox already holds about the shifts ahead is loaded once, in a few queries, the first time
a kind asks, so a run over a whole month costs a handful of statements, not several per shift.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.channels import registry
from core.kinds import registry as kinds
from core.outbox import queue
from core.outbox.policy import CancelReason
from core.planning import told
from core.planning.reminder_times import (
    QUIET_HOURS,
    STARTS_IN_QUIET_HOURS,
    QuietHours,
    late_send_time,
    outside_quiet_hours,
    reminder_due,
)
from core.roster import contacts, rules
from core.store.models import (
    Channel,
    Classroom,
    ContactRule,
    Delivery,
    DeliveryStatus,
    Shift,
    ShiftStatus,
    SubjectType,
    Teacher,
)
from core.texts import Text, t

HORIZON = dt.timedelta(days=45)
CHUNK = 500
WAITING = (DeliveryStatus.PENDING, DeliveryStatus.QUEUED)
T = TypeVar("T")


@dataclass(frozen=True)
class PlannedDelivery:
    """A delivery a run planned to a teacher (or found planned already), with the dry run's words."""

    delivery_id: int
    kind: str
    subject_id: int
    version: int
    teacher_id: int
    due_at: dt.datetime
    send_at: dt.datetime
    why: Text  # the dry run's reason column, in the manager's language when shown
    created: bool
    channel: str = Channel.LINE
    subject_type: str = SubjectType.SHIFT

    @property
    def shift_id(self) -> int | None:
        return self.subject_id if self.subject_type == SubjectType.SHIFT else None


@dataclass
class PlanReport:
    planned: list[PlannedDelivery] = field(default_factory=list)  # to teachers, through enqueue_for_teacher
    superseded: list[int] = field(default_factory=list)
    publication_emails: list[int] = field(default_factory=list)  # e-mail copies of recent publications
    by_kinds: list[int] = field(default_factory=list)  # created by the kinds and not listed above (a group's, the manager's)

    @property
    def created(self) -> list[PlannedDelivery]:
        return [p for p in self.planned if p.created]

    def made_by_kinds(self, made: Iterable[int]) -> None:
        """The deliveries the kinds' plans created: those the report does not list already go to `by_kinds`."""
        listed = {row.delivery_id for row in self.planned} | set(self.publication_emails)
        self.by_kinds.extend(i for i in made if i not in listed)


@dataclass(frozen=True)
class Subject:
    """What a delivery is about, as the outbox records it (subject type, id, version) and as its dedup
    key names it (`key`, e.g. "shift:12"; the version and channel are added to it)."""

    type: str
    id: int
    version: int
    classroom_id: int | None
    key: str

    @classmethod
    def shift(cls, shift: Shift, key: str | None = None) -> Subject:
        return cls(SubjectType.SHIFT, shift.id, shift.version, shift.classroom_id, key or f"shift:{shift.id}")

    def dedup(self, kind: str, channel: str) -> str:
        return queue.dedup_key(kind, self.key, self.version, channel=channel)


@dataclass(frozen=True)
class Due:
    """When a message is due and when the sender may first try it (later than due when held until
    quiet hours end); `send_at` None: it is too late to send at all (the shift has started)."""

    due_at: dt.datetime
    send_at: dt.datetime | None
    held: str | None = None  # reminder_times' reason: QUIET_HOURS, STARTS_IN_QUIET_HOURS, SHIFT_STARTED
    late: bool = False  # its time passed before this run (the app was not running, or it came to be since)

    def words(self, why: Text, *, late: Text | None = None) -> Text:
        """The dry run's reason: the kind's words, with what quiet hours did to it, or its words for
        a late one (when it gives some)."""
        if self.held == QUIET_HOURS:
            return t("plan.why.correction_held", why=why)
        if self.held == STARTS_IN_QUIET_HOURS:
            return t("plan.why.correction_in_quiet_hours", why=why)
        return late if self.late and late is not None else why


def quiet_hours_of(classroom: Classroom) -> QuietHours | None:
    return QuietHours(classroom.quiet_start, classroom.quiet_end) if classroom.quiet_hours_enabled else None


def planned_channels(teacher: Teacher) -> list[str]:
    """The channels the teacher's contacts plan, those with a registered driver (one that was removed sends nothing)."""
    return [channel for channel in contacts.planned_for(teacher) if registry.registered(channel)]


def recipient(teacher: Teacher, channel: str) -> str | None:
    """Where the teacher's message on `channel` goes, as the channel's driver takes it from their contact."""
    contact = contacts.on(teacher.contacts, channel)
    return registry.driver(channel).recipient(contact) if contact is not None else None


def before_shift(start: dt.datetime, classroom: Classroom, *, lead: dt.timedelta, now: dt.datetime) -> Due:
    """A message `lead` before a shift starting at `start` (UTC): moved earlier out of quiet hours; once
    its time passed, still sent while the shift has not started — after quiet hours if they end first."""
    quiet = quiet_hours_of(classroom)
    due = reminder_due(start, lead=lead, zone_name=classroom.timezone, quiet=quiet)
    decision = late_send_time(now=now, due=due, shift_start=start, zone_name=classroom.timezone, quiet=quiet)
    return Due(due, decision.send_at, decision.reason, late=due < now)


def soon(start: dt.datetime, classroom: Classroom, *, now: dt.datetime) -> Due:
    """A message about a shift starting at `start` that goes as soon as it may: now, or when the
    classroom's quiet hours end — unless the shift starts first, then now all the same. Due when it
    may go: a message held through the night is on time, not late."""
    decision = outside_quiet_hours(now=now, shift_start=start, zone_name=classroom.timezone,
                                   quiet=quiet_hours_of(classroom))
    send_at = decision.send_at or now
    return Due(send_at, send_at, decision.reason)


@dataclass
class _Known:
    """What the outbox holds about the shifts ahead: every kind's keys and waiting deliveries, and who
    was told which version (by the kinds that tell, and by published months)."""

    shift_ids: set[int] = field(default_factory=set)
    keys: set[str] = field(default_factory=set)
    told: dict[int, dict[int, int]] = field(default_factory=dict)  # shift → teacher → newest version told
    waiting: dict[tuple[str, int], list[tuple[int, int]]] = field(default_factory=dict)  # (kind, shift) → [(id, version)]


def _load_known(session: Session, shift_ids: list[int]) -> _Known:
    known = _Known(shift_ids=set(shift_ids))
    telling = set(kinds.told_keys())
    for chunk in range(0, len(shift_ids), CHUNK):
        rows = session.execute(
            select(Delivery.id, Delivery.kind, Delivery.subject_id, Delivery.subject_version, Delivery.teacher_id,
                   Delivery.status, Delivery.dedup_key)
            .where(Delivery.about(SubjectType.SHIFT, shift_ids[chunk:chunk + CHUNK]))
        ).all()
        for delivery_id, kind, shift_id, version, teacher_id, status, key in rows:
            known.keys.add(key)
            assert shift_id is not None  # selected by shift id
            if status == DeliveryStatus.SENT and teacher_id is not None and kind in telling:
                versions = known.told.setdefault(shift_id, {})
                versions[teacher_id] = max(versions.get(teacher_id, 0), version or 0)
            elif status in WAITING:
                known.waiting.setdefault((kind, shift_id), []).append((delivery_id, version or 0))
    for shift_id, shown in told.told_by_publication(session, shift_ids).items():
        by_teacher = known.told.setdefault(shift_id, {})
        for teacher_id, version in shown.items():
            by_teacher[teacher_id] = max(by_teacher.get(teacher_id, 0), version)
    return known


class PlanningContext:
    """One planning run: the session, the clock, what the outbox already holds, and the report."""

    def __init__(self, session: Session, *, now: dt.datetime, horizon: dt.timedelta = HORIZON) -> None:
        self.session, self.now, self.horizon = session, now, horizon
        self.report = PlanReport()
        self._upcoming: list[tuple[Shift, dt.datetime]] | None = None
        self._known: _Known | None = None
        self._teachers: dict[int, Teacher] | None = None
        self._keys: set[str] = set()  # keys this run enqueued or found, outside what was loaded up front
        self._once: dict[str, Any] = {}

    # --- what the kinds read -------------------------------------------------------------------------

    def upcoming_shifts(self) -> list[tuple[Shift, dt.datetime]]:
        """Confirmed and canceled shifts starting within the horizon, each with its start (UTC), in order."""
        if self._upcoming is None:
            now = self.now
            shifts = self.session.scalars(select(Shift).where(
                Shift.status.in_([ShiftStatus.CONFIRMED, ShiftStatus.CANCELED]),
                Shift.local_date >= (now - dt.timedelta(days=2)).date(),
                Shift.local_date <= (now + self.horizon).date(),
            ).order_by(Shift.local_date, Shift.start_time)).all()
            self._upcoming = [(shift, start) for shift in shifts
                              if now < (start := rules.shift_instants(shift)[0]) <= now + self.horizon]
        return self._upcoming

    def teacher(self, teacher_id: int) -> Teacher | None:
        if self._teachers is None:
            self._teachers = {teacher.id: teacher for teacher in self.session.scalars(select(Teacher))}
        return self._teachers.get(teacher_id)

    def told_versions(self, shift_id: int) -> dict[int, int]:
        """For each teacher told about this shift (a message of a kind that tells, or a published month):
        the newest version they were told."""
        known = self._loaded()
        if shift_id not in known.shift_ids:
            return _load_known(self.session, [shift_id]).told.get(shift_id, {})
        return known.told.get(shift_id, {})

    def channels(self, teacher: Teacher) -> list[str]:
        return planned_channels(teacher)

    def before_shift(self, start: dt.datetime, classroom: Classroom, *, lead: dt.timedelta) -> Due:
        return before_shift(start, classroom, lead=lead, now=self.now)

    def soon(self, start: dt.datetime, classroom: Classroom) -> Due:
        return soon(start, classroom, now=self.now)

    def at_once(self) -> Due:
        """A message due now."""
        return Due(self.now, self.now)

    def once(self, name: str, make: Callable[[], T]) -> T:
        """What `make` gives, made once in this run whichever kind asks first (kinds that depend on
        each other's plan, e.g. a reminder that a correction going out now makes needless)."""
        if name not in self._once:
            self._once[name] = make()
        return cast(T, self._once[name])

    def known(self, kind: str, subject: Subject, channel: str) -> bool:
        """Is this message (this kind, subject, version and channel) in the outbox already?"""
        key = subject.dedup(kind, channel)
        if key in self._keys:
            return True
        if self._preloaded(subject):
            return key in self._loaded().keys
        found = self.session.scalar(select(Delivery.id).where(Delivery.dedup_key == key).limit(1)) is not None
        if found:
            self._keys.add(key)
        return found

    # --- what the kinds do ---------------------------------------------------------------------------

    def enqueue_for_teacher(self, kind: str, teacher: Teacher, subject: Subject, due: Due, why: Text, *,
                            channels: Sequence[str] | None = None, fallback: bool = True) -> list[PlannedDelivery]:
        """The message to the teacher on each channel their contacts plan (or these `channels`), each
        once however often planning runs; nothing when `due` says it is too late. The rows it planned
        now (those planned before are not repeated), as the report lists them. `fallback=False`: the
        kind chose the channel by a rule of its own, so it stands in for no other channel."""
        if due.send_at is None:
            return []
        rows = []
        for channel in planned_channels(teacher) if channels is None else channels:
            row = self._enqueue_on(kind, teacher, channel, subject, due, why, fallback=fallback)
            if row is not None:
                rows.append(row)
        return rows

    def record_canceled(self, kind: str, teacher: Teacher, channel: str, subject: Subject, due: Due,
                        reason: str) -> int | None:
        """Record the message as canceled for `reason` rather than send it, so later runs plan it no
        more; None if it is in the outbox already."""
        if self.known(kind, subject, channel):
            return None
        return self._canceled(kind, teacher, channel, subject, due.due_at, self.now, reason)

    def cancel_superseded(self, kind: str, subject: Subject) -> list[int]:
        """Cancel (SUPERSEDED) the waiting deliveries of this kind about `subject` planned for an older version."""
        if self._preloaded(subject):
            waiting = self._loaded().waiting.get((kind, subject.id), [])
        else:
            waiting = [(i, v or 0) for i, v in self.session.execute(
                select(Delivery.id, Delivery.subject_version).where(
                    Delivery.about(subject.type, [subject.id]), Delivery.kind == kind,
                    Delivery.status.in_(WAITING)))]
        stale = [i for i, version in waiting if version < subject.version]
        done = [i for i in stale if queue.transition(
            self.session, i, expected=WAITING, now=self.now, status=DeliveryStatus.CANCELED,
            cancel_reason=CancelReason.SUPERSEDED.value)]
        self.report.superseded.extend(done)
        return done

    # --- inside ----------------------------------------------------------------------------------------

    def _loaded(self) -> _Known:
        if self._known is None:
            self._known = _load_known(self.session, [shift.id for shift, _ in self.upcoming_shifts()])
        return self._known

    def _preloaded(self, subject: Subject) -> bool:
        """Is what the outbox holds about `subject` loaded up front (a shift ahead)?"""
        return subject.type == SubjectType.SHIFT and subject.id in self._loaded().shift_ids

    def _enqueue_on(self, kind: str, teacher: Teacher, channel: str, subject: Subject, due: Due,
                    why: Text, *, fallback: bool) -> PlannedDelivery | None:
        assert due.send_at is not None  # enqueue_for_teacher checked
        if self.known(kind, subject, channel):
            return None
        linked = self._unreachable_twin(kind, teacher, channel, subject, due) if fallback else None
        if linked is False:
            return None
        if linked is not None:
            why = t("plan.why.by_email", why=why)
        delivery_id, created = self._enqueue(kind, teacher, channel, subject, due.due_at, due.send_at,
                                             linked=linked or None)
        row = PlannedDelivery(delivery_id, kind, subject.id, subject.version, teacher.id, due.due_at, due.send_at,
                              why, created, channel, subject.type)
        self.report.planned.append(row)
        return row

    def _unreachable_twin(self, kind: str, teacher: Teacher, channel: str, subject: Subject,
                          due: Due) -> int | bool | None:
        """For a message that stands in for an earlier channel (fallback, and that channel cannot reach
        the teacher): the delivery on that channel it replaces, recorded as canceled so this one can
        link to it.

        None: no twin needed. False: the earlier delivery was planned before the teacher became
        unreachable; its send-time check sends this one then, so nothing is planned here."""
        if teacher.contact_rule != ContactRule.FIRST:
            return None
        usable = [c.channel for c in contacts.ranked(teacher.contacts) if contacts.usable(c)]
        if channel not in usable or usable.index(channel) == 0:
            return None  # nothing before it they can use: this is simply their channel
        replaced = usable[usable.index(channel) - 1]
        if self.known(kind, subject, replaced):
            return False
        reasons = registry.driver(replaced).cancel_reasons if registry.registered(replaced) else None
        assert due.send_at is not None
        return self._canceled(kind, teacher, replaced, subject, due.due_at, due.send_at,
                              reasons.unreachable if reasons is not None else CancelReason.UNREACHABLE.value)

    def _canceled(self, kind: str, teacher: Teacher, channel: str, subject: Subject, due_at: dt.datetime,
                  send_at: dt.datetime, reason: str) -> int:
        delivery_id, created = self._enqueue(kind, teacher, channel, subject, due_at, send_at)
        if created:
            queue.transition(self.session, delivery_id, expected=WAITING, now=self.now,
                             status=DeliveryStatus.CANCELED, cancel_reason=reason)
        return delivery_id

    def _enqueue(self, kind: str, teacher: Teacher, channel: str, subject: Subject, due_at: dt.datetime,
                 send_at: dt.datetime, *, linked: int | None = None) -> tuple[int, bool]:
        key = subject.dedup(kind, channel)
        self._keys.add(key)
        return queue.enqueue(
            self.session, kind=kind, dedup=key, due_at=due_at, send_at=send_at, now=self.now, channel=channel,
            recipient=recipient(teacher, channel), teacher_id=teacher.id,
            classroom_id=subject.classroom_id, subject_type=subject.type, subject_id=subject.id,
            subject_version=subject.version, linked_delivery_id=linked)
