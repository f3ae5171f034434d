"""Planning reminders and corrections from the roster into the outbox. Idempotent: run it any number
of times and it creates nothing new, because every delivery has a dedup key (kind + shift + version,
+ channel for e-mail).

Each run:
- a confirmed shift gets one reminder per version on each channel the teacher's contacts plan
  (core/roster/contacts.py), due `lead` before the start (moved earlier out of quiet hours), created
  ahead of time as a pending delivery, addressed as each channel's driver takes it from the contact;
  with fallback and a first channel that cannot reach them, the reminder goes on the next, linked to
  a delivery on the first recorded as canceled (that channel's unreachable reason, LINE_UNREACHABLE);
- a reminder or correction still waiting for an older version is canceled as SUPERSEDED;
- a teacher who was told about an older version (by a reminder or correction on any channel, or by a
  published month: core/planning/told.py) gets a correction (old → new), a cancellation notice, or —
  when the shift went to someone else — a notice that it is no longer theirs;
- a recent publication gets its e-mail copies (core/planning/mailed_publication.py);
- every registered kind that plans itself (`plan` in core/kinds/registry.py) enqueues what is due.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.channels import registry
from core.kinds import registry as kinds
from core.outbox import queue
from core.outbox.policy import CancelReason
from core.planning import fallback, mailed_publication, told
from core.planning.reminder_times import (
    QUIET_HOURS,
    STARTS_IN_QUIET_HOURS,
    LateDecision,
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
    DeliveryKind,
    DeliveryStatus,
    Shift,
    ShiftRevision,
    ShiftStatus,
    SubjectType,
    Teacher,
)
from core.texts import Text, t

HORIZON = dt.timedelta(days=45)


@dataclass(frozen=True)
class PlannedDelivery:
    delivery_id: int
    kind: DeliveryKind
    shift_id: int
    version: int
    teacher_id: int
    due_at: dt.datetime
    send_at: dt.datetime
    why: Text  # the dry run's reason column, in the manager's language when shown
    created: bool
    channel: str = Channel.LINE


@dataclass
class PlanReport:
    planned: list[PlannedDelivery] = field(default_factory=list)
    superseded: list[int] = field(default_factory=list)
    publication_emails: list[int] = field(default_factory=list)  # e-mail copies of recent publications
    by_kinds: list[int] = field(default_factory=list)  # created by the kinds that plan themselves (`plan`)

    @property
    def created(self) -> list[PlannedDelivery]:
        return [p for p in self.planned if p.created]


def quiet_hours_of(classroom: Classroom) -> QuietHours | None:
    return QuietHours(classroom.quiet_start, classroom.quiet_end) if classroom.quiet_hours_enabled else None


def eligible_for_line(teacher: Teacher) -> bool:
    return contacts.eligible(teacher, Channel.LINE)


def planned_channels(teacher: Teacher) -> list[str]:
    """The channels the teacher's contacts plan, those with a registered driver (one that was removed sends nothing)."""
    return [channel for channel in contacts.planned_for(teacher) if registry.registered(channel)]


@dataclass
class _Known:
    """What the outbox already holds about the planned shifts, loaded in a few queries up front so
    a planning run over a whole month costs a handful of statements, not several per shift."""

    keys: set[str] = field(default_factory=set)
    told: dict[int, dict[int, int]] = field(default_factory=dict)  # shift → teacher → newest version told
    waiting: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # shift → [(delivery, version)]


def _load_known(session: Session, shift_ids: list[int]) -> _Known:
    known = _Known()
    for chunk in range(0, len(shift_ids), 500):
        rows = session.execute(
            select(Delivery.id, Delivery.subject_id, Delivery.subject_version, Delivery.teacher_id, Delivery.status,
                   Delivery.dedup_key)
            .where(Delivery.about(SubjectType.SHIFT, shift_ids[chunk:chunk + 500]),
                   Delivery.kind.in_(kinds.told_keys()))
        ).all()
        for delivery_id, shift_id, version, teacher_id, status, key in rows:
            known.keys.add(key)
            assert shift_id is not None  # selected by shift id
            if status == DeliveryStatus.SENT and teacher_id is not None:
                versions = known.told.setdefault(shift_id, {})
                versions[teacher_id] = max(versions.get(teacher_id, 0), version or 0)
            elif status in (DeliveryStatus.PENDING, DeliveryStatus.QUEUED):
                known.waiting.setdefault(shift_id, []).append((delivery_id, version or 0))
    for shift_id, shown in told.told_by_publication(session, shift_ids).items():
        by_teacher = known.told.setdefault(shift_id, {})
        for teacher_id, version in shown.items():
            by_teacher[teacher_id] = max(by_teacher.get(teacher_id, 0), version)
    return known


def plan(session: Session, *, now: dt.datetime, horizon: dt.timedelta = HORIZON) -> PlanReport:
    report = PlanReport()
    shifts = session.scalars(
        select(Shift).where(
            Shift.status.in_([ShiftStatus.CONFIRMED, ShiftStatus.CANCELED]),
            Shift.local_date >= (now - dt.timedelta(days=2)).date(),
            Shift.local_date <= (now + horizon).date(),
        ).order_by(Shift.local_date, Shift.start_time)
    ).all()
    upcoming = [(shift, start) for shift in shifts
                if now < (start := rules.shift_instants(shift)[0]) <= now + horizon]
    known = _load_known(session, [shift.id for shift, _ in upcoming])
    teachers = {t.id: t for t in session.scalars(select(Teacher))}
    for shift, start in upcoming:
        report.superseded.extend(_cancel_superseded(session, shift, known, now))
        corrections = _plan_corrections(session, shift, start, known, teachers, now)
        report.planned.extend(corrections)
        if shift.status != ShiftStatus.CONFIRMED:
            continue
        for channel in planned_channels(shift.teacher):
            covered = any(c.teacher_id == shift.teacher_id and c.channel == channel for c in corrections)
            reminder = _plan_reminder(session, shift, start, known, now, channel=channel, covered_by_correction=covered)
            if reminder is not None:
                report.planned.append(reminder)
    report.publication_emails = mailed_publication.fan_out_recent(session, now=now)
    for kind in kinds.kinds():
        if kind.plan is not None:
            report.by_kinds.extend(kind.plan(session, now))
    return report


def _plan_reminder(session: Session, shift: Shift, start: dt.datetime, known: _Known, now: dt.datetime, *,
                   channel: str, covered_by_correction: bool) -> PlannedDelivery | None:
    room = shift.classroom
    quiet = quiet_hours_of(room)
    due = reminder_due(start, lead=dt.timedelta(minutes=room.reminder_lead_minutes), zone_name=room.timezone, quiet=quiet)
    decision = late_send_time(now=now, due=due, shift_start=start, zone_name=room.timezone, quiet=quiet)
    if decision.send_at is None:
        return None
    subject = f"shift:{shift.id}"
    key = queue.dedup_key(DeliveryKind.SHIFT_REMINDER, subject, shift.version, channel=channel)
    if covered_by_correction and due <= now:
        # The correction going out now already tells the teacher the new time; a second message
        # at the same moment would only be noise. Recorded as canceled so planning stays idempotent.
        if key not in known.keys:
            delivery_id, created = _enqueue(session, DeliveryKind.SHIFT_REMINDER, key, shift, shift.teacher, due, now,
                                            now, channel=channel)
            known.keys.add(key)
            if created:
                queue.transition(session, delivery_id, expected=[DeliveryStatus.QUEUED, DeliveryStatus.PENDING],
                                  now=now, status=DeliveryStatus.CANCELED, cancel_reason=CancelReason.COVERED_BY_CORRECTION.value)
        return None
    if key in known.keys:
        return None
    linked = _unreachable_twin(session, DeliveryKind.SHIFT_REMINDER, subject, shift, shift.teacher, due,
                               decision.send_at, now, known, channel=channel)
    if linked is False:
        return None
    why = _reminder_why(session, shift, due, now, decision)
    if linked is not None:
        why = t("plan.why.by_email", why=why)
    delivery_id, created = _enqueue(session, DeliveryKind.SHIFT_REMINDER, key, shift, shift.teacher, due,
                                    decision.send_at, now, channel=channel, linked=linked or None)
    known.keys.add(key)
    return PlannedDelivery(delivery_id, DeliveryKind.SHIFT_REMINDER, shift.id, shift.version, shift.teacher_id,
                           due, decision.send_at, why, created, channel)


def _reminder_why(session: Session, shift: Shift, due: dt.datetime, now: dt.datetime, decision: LateDecision) -> Text:
    """The dry run's reason for a reminder, late ones with their true cause: a version of the shift that
    came to be only after the reminder's time, or else an app that was not running at that time."""
    if decision.reason == QUIET_HOURS:
        return t("plan.why.reminder_held")
    if due >= now:
        return t("plan.why.reminder")
    since = session.scalar(select(ShiftRevision.recorded_at)
                           .where(ShiftRevision.shift_id == shift.id, ShiftRevision.version == shift.version))
    if since is not None and since > due:
        return t("plan.why.reminder_after_its_time")
    return t("plan.why.reminder_late")


def _unreachable_twin(session: Session, kind: DeliveryKind, subject: str, shift: Shift, teacher: Teacher,
                      due: dt.datetime, send_at: dt.datetime, now: dt.datetime, known: _Known, *,
                      channel: str) -> int | bool | None:
    """For a message that stands in for an earlier channel (fallback, and that channel cannot reach the
    teacher): the delivery on that channel it replaces, recorded as canceled so this one can link to it.

    None: no twin needed. False: the earlier delivery was planned before the teacher became unreachable;
    its send-time check sends this one then, so nothing is planned here."""
    if teacher.contact_rule != ContactRule.FIRST:
        return None
    usable = [c.channel for c in contacts.ranked(teacher.contacts) if contacts.usable(c)]
    if channel not in usable or usable.index(channel) == 0:
        return None  # nothing before it they can use: this is simply their channel
    replaced = usable[usable.index(channel) - 1]
    twin_key = queue.dedup_key(kind, subject, shift.version, channel=replaced)
    if twin_key in known.keys:
        return False
    twin_id, created = _enqueue(session, kind, twin_key, shift, teacher, due, send_at, now, channel=replaced)
    known.keys.add(twin_key)
    reasons = registry.driver(replaced).cancel_reasons if registry.registered(replaced) else None
    if created:
        queue.transition(session, twin_id, expected=[DeliveryStatus.QUEUED, DeliveryStatus.PENDING], now=now,
                          status=DeliveryStatus.CANCELED,
                          cancel_reason=reasons.unreachable if reasons is not None else fallback.UNREACHABLE.value)
    return twin_id


def _plan_corrections(session: Session, shift: Shift, start: dt.datetime, known: _Known,
                      teachers: dict[int, Teacher], now: dt.datetime) -> list[PlannedDelivery]:
    out = []
    # A change made in the night is told when quiet hours end, unless the shift starts first.
    room = shift.classroom
    decision = outside_quiet_hours(now=now, shift_start=start, zone_name=room.timezone, quiet=quiet_hours_of(room))
    send_at = decision.send_at or now
    for teacher_id, version in known.told.get(shift.id, {}).items():
        if version >= shift.version:
            continue
        teacher = teachers.get(teacher_id)
        if teacher is None:
            continue
        if teacher_id != shift.teacher_id:
            why = t("plan.why.other_teacher")
        elif shift.status == ShiftStatus.CANCELED:
            why = t("plan.why.canceled")
        else:
            why = t("plan.why.changed")
        if decision.reason == QUIET_HOURS:
            why = t("plan.why.correction_held", why=why)
        elif decision.reason == STARTS_IN_QUIET_HOURS:
            why = t("plan.why.correction_in_quiet_hours", why=why)
        for channel in planned_channels(teacher):
            subject = f"shift:{shift.id}:teacher:{teacher_id}"
            key = queue.dedup_key(DeliveryKind.SHIFT_CORRECTION, subject, shift.version, channel=channel)
            if key in known.keys:
                # Already planned (or sent): it still covers this teacher for this version.
                out.append(PlannedDelivery(0, DeliveryKind.SHIFT_CORRECTION, shift.id, shift.version, teacher_id,
                                           send_at, send_at, why, False, channel))
                continue
            linked = _unreachable_twin(session, DeliveryKind.SHIFT_CORRECTION, subject, shift, teacher, send_at,
                                       send_at, now, known, channel=channel)
            if linked is False:
                continue
            # Due when quiet hours allow it: a held correction is on time, not late.
            delivery_id, created = _enqueue(session, DeliveryKind.SHIFT_CORRECTION, key, shift, teacher, send_at,
                                            send_at, now, channel=channel, linked=linked or None)
            known.keys.add(key)
            out.append(PlannedDelivery(delivery_id, DeliveryKind.SHIFT_CORRECTION, shift.id, shift.version,
                                       teacher_id, send_at, send_at, why, created, channel))
    return out


def told_versions(session: Session, shift_id: int) -> dict[int, int]:
    """For each teacher told about this shift (a message or a publication): the newest version they were told."""
    return _load_known(session, [shift_id]).told.get(shift_id, {})


def _cancel_superseded(session: Session, shift: Shift, known: _Known, now: dt.datetime) -> list[int]:
    stale = [i for i, version in known.waiting.get(shift.id, []) if version < shift.version]
    return [i for i in stale if queue.transition(
        session, i, expected=[DeliveryStatus.PENDING, DeliveryStatus.QUEUED], now=now,
        status=DeliveryStatus.CANCELED, cancel_reason=CancelReason.SUPERSEDED.value)]


def _enqueue(session: Session, kind: DeliveryKind, key: str, shift: Shift, teacher: Teacher, due: dt.datetime,
             send_at: dt.datetime, now: dt.datetime, *, channel: str = Channel.LINE,
             linked: int | None = None) -> tuple[int, bool]:
    return queue.enqueue(
        session, kind=kind, dedup=key, due_at=due, send_at=send_at, now=now, channel=channel,
        recipient=fallback.recipient(teacher, channel),
        teacher_id=teacher.id, classroom_id=shift.classroom_id, subject_type=SubjectType.SHIFT, subject_id=shift.id,
        subject_version=shift.version,
        linked_delivery_id=linked,
    )
