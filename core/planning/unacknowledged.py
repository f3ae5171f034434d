"""Reminders not acknowledged: a shift starting soon whose teacher was reminded on a channel with
buttons that answer back (LINE, LINE WORKS: a driver's `postbacks`) but has not tapped 了解
(core/receiving/acknowledge.py). A reminder by e-mail has no 了解 to wait for.

A classroom says how soon counts (`NUDGE_HOURS`, 3 hours unless set). The rule is pure, with the clock
passed in: `not_acknowledged` (what the readiness check lists) and `nudge_at` (when the manager is told,
core/sending/kinds/unacknowledged_nudge.py). `read` gathers the facts it needs: the confirmed shifts
starting within a day, and for each the reminders and corrections about its current version that went
on such a channel with the button.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.channels import registry as channels
from core.kinds import registry as kinds
from core.outbox import queue
from core.outbox.policy import CancelReason
from core.roster import clock, rules
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.kinds import DeliveryKind, DeliveryStatus, ShiftStatus, SubjectType
from core.store.models import Delivery, Shift

DEFAULT_HOURS = 3
# The teacher's time to read the reminder and tap before the manager hears of it.
GRACE = dt.timedelta(minutes=30)
ACKNOWLEDGED = "ACKNOWLEDGED"  # a nudge's cancel reason: the teacher tapped 了解 before it went
_WAITING = (DeliveryStatus.PENDING, DeliveryStatus.QUEUED)
# How far ahead `read` looks: the longest window a classroom may set (NUDGE_HOURS' maximum).
LOOK_AHEAD = dt.timedelta(hours=24)


@dataclass(frozen=True)
class Reminded:
    """One shift and what its teacher was sent about its current version, read at one moment."""

    shift_id: int
    version: int
    teacher_id: int
    teacher: str
    classroom_id: int
    classroom: str
    starts_at: dt.datetime  # UTC
    local_start: dt.datetime  # on the classroom's clock
    canceled: bool
    sent_at: dt.datetime | None  # the latest reminder or correction of this version sent on LINE; None: none yet
    acknowledged_at: dt.datetime | None  # the first 了解 on any of them; None: none
    window: dt.timedelta  # how soon before the start its reminder should be acknowledged


def waiting(r: Reminded, *, now: dt.datetime, button_on: bool) -> bool:
    """Sent, not acknowledged, starting within its window and not yet started, with the buttons on."""
    return (button_on and not r.canceled and r.sent_at is not None and r.acknowledged_at is None
            and now < r.starts_at <= now + r.window)


def not_acknowledged(reminded: Iterable[Reminded], *, now: dt.datetime, button_on: bool) -> list[Reminded]:
    """The shifts whose reminder waits for its 了解, the soonest first."""
    return sorted((r for r in reminded if waiting(r, now=now, button_on=button_on)),
                  key=lambda r: (r.starts_at, r.classroom, r.teacher))


def nudge_at(r: Reminded) -> dt.datetime | None:
    """When the manager is told about this shift: once its window opened and the teacher had GRACE to
    tap; None when that moment would not come before the shift starts (or nothing was sent)."""
    if r.sent_at is None:
        return None
    moment = max(r.sent_at + GRACE, r.starts_at - r.window)
    return moment if moment < r.starts_at else None


@dataclass(frozen=True)
class NudgeSettings:
    """A classroom's say: whether the manager is told, and how soon before a shift counts."""

    tell_manager: bool
    hours: int


def window_of(session: Session, classroom_id: int) -> dt.timedelta:
    return dt.timedelta(hours=settings_of(session, classroom_id).hours)


def settings_of(session: Session, classroom_id: int) -> NudgeSettings:
    return NudgeSettings(bool(keys.NUDGE_UNACKNOWLEDGED.of(classroom_id).read(session)),
                         keys.NUDGE_HOURS.of(classroom_id).read(session) or DEFAULT_HOURS)


def save_settings(session: Session, classroom_id: int, chosen: NudgeSettings) -> NudgeSettings:
    """Both or neither: a refused value (ValidationError) leaves the other unwritten too."""
    keys.NUDGE_HOURS.of(classroom_id).write(session, chosen.hours)
    keys.NUDGE_UNACKNOWLEDGED.of(classroom_id).write(session, chosen.tell_manager)
    return settings_of(session, classroom_id)


def soonest(db: Database, *, now: dt.datetime) -> Reminded | None:
    """The first shift whose reminder waits for its 了解 (what the readiness panel's button opens)."""
    with db.read() as session:
        button = bool(keys.LINE_ACK_BUTTON.read(session))
        found = not_acknowledged(read(session, now=now), now=now, button_on=button)
    return found[0] if found else None


def answering_channels() -> list[str]:
    """The channels whose messages carry the 了解 button and bring its tap back (`postbacks`)."""
    return [driver.key for driver in channels.with_addresses() if driver.postbacks]


def read(session: Session, *, now: dt.datetime, shift_ids: Sequence[int] | None = None) -> list[Reminded]:
    """The confirmed shifts starting within LOOK_AHEAD of `now` (or these shifts), with what was sent."""
    today = (now - dt.timedelta(days=1)).date()  # a day's slack either side for the classrooms' zones
    query = select(Shift)
    if shift_ids is None:
        query = query.where(Shift.status == ShiftStatus.CONFIRMED, Shift.local_date >= today,
                            Shift.local_date <= (now + LOOK_AHEAD + dt.timedelta(days=1)).date())
    else:
        query = query.where(Shift.id.in_(list(shift_ids)))
    shifts = [s for s in session.scalars(query)
              if shift_ids is not None or now < rules.shift_instants(s)[0] <= now + LOOK_AHEAD]
    if not shifts:
        return []
    sent = session.execute(select(Delivery.subject_id, Delivery.subject_version, Delivery.sent_at,
                                  Delivery.acknowledged_at).where(
        Delivery.kind.in_(kinds.acknowledged_keys()), Delivery.channel.in_(answering_channels()),
        Delivery.status == DeliveryStatus.SENT, Delivery.subject_type == SubjectType.SHIFT,
        Delivery.subject_id.in_([s.id for s in shifts]))).all()
    # (shift, version) → when each delivery about it was sent and acknowledged
    by_version: dict[tuple[int | None, int | None], list[tuple[dt.datetime | None, dt.datetime | None]]] = {}
    for row in sent:
        by_version.setdefault((row.subject_id, row.subject_version), []).append((row.sent_at, row.acknowledged_at))
    windows = {room: window_of(session, room) for room in {shift.classroom_id for shift in shifts}}
    found = []
    for shift in shifts:
        mine = by_version.get((shift.id, shift.version), [])
        starts_at = rules.shift_instants(shift)[0]
        found.append(Reminded(
            shift.id, shift.version, shift.teacher_id, shift.teacher.display_name, shift.classroom_id,
            shift.classroom.name, starts_at,
            starts_at.astimezone(clock.zone(shift.classroom.timezone)), shift.status == ShiftStatus.CANCELED,
            max((sent_at for sent_at, _ in mine if sent_at is not None), default=None),
            min((acked for _, acked in mine if acked is not None), default=None),
            windows[shift.classroom_id]))
    return found


def withdraw_nudges(session: Session, shift_id: int, version: int, *, now: dt.datetime) -> list[int]:
    """The teacher tapped 了解: cancel the manager's nudges about this version of the shift that wait to
    go (so a relay holding one drops it too); one the sender holds right now is canceled at send time."""
    waiting = session.scalars(select(Delivery.id).where(
        Delivery.kind == DeliveryKind.UNACKNOWLEDGED_NUDGE, Delivery.about(SubjectType.SHIFT, shift_id),
        Delivery.subject_version == version, Delivery.status.in_([s.value for s in _WAITING]))).all()
    return [delivery_id for delivery_id in waiting
            if queue.transition(session, delivery_id, expected=_WAITING, now=now, status=DeliveryStatus.CANCELED,
                                cancel_reason=ACKNOWLEDGED)]


def withdraw_stale(session: Session, *, now: dt.datetime) -> list[int]:
    """Cancel waiting nudges whose shift changed, was canceled or is gone (run at each planning, which a
    shift's edit sets off), so none waits in the Deliveries view or at a relay until it falls due."""
    rows = session.execute(select(Delivery.id, Delivery.subject_version, Shift.version, Shift.status).outerjoin(
        Shift, Delivery.about(SubjectType.SHIFT, Shift.id)).where(
        Delivery.kind == DeliveryKind.UNACKNOWLEDGED_NUDGE, Delivery.status.in_([s.value for s in _WAITING]))).all()
    withdrawn = []
    for delivery_id, told_version, version, status in rows:
        reason = (CancelReason.SHIFT_MISSING if version is None
                  else CancelReason.SHIFT_NOT_CONFIRMED if status != ShiftStatus.CONFIRMED
                  else CancelReason.SHIFT_CHANGED if version != told_version else None)
        if reason is not None and queue.transition(session, delivery_id, expected=_WAITING, now=now,
                                                   status=DeliveryStatus.CANCELED, cancel_reason=reason.value):
            withdrawn.append(delivery_id)
    return withdrawn
