"""Planning the shift reminder: a confirmed shift gets one reminder per version on each channel the
teacher's contacts plan, due `lead` before the start (moved earlier out of quiet hours), created ahead
of time as a pending delivery; a late one still goes before the shift starts. With fallback and a
first channel that cannot reach the teacher it goes on the next, linked to a delivery on the first
recorded as canceled. A reminder still waiting for an older version goes no more, and one due now
where a correction going out now tells the new time is recorded as canceled instead (noise).
Uses only the planning context (core/planning/context.py).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from core.outbox.policy import CancelReason
from core.planning import corrections
from core.planning.context import Due, PlanningContext, Subject
from core.planning.reminder_times import QUIET_HOURS
from core.store.models import DeliveryKind, Shift, ShiftRevision, ShiftStatus
from core.texts import Text, t

KIND = DeliveryKind.SHIFT_REMINDER.value


def plan(context: PlanningContext) -> list[int]:
    """The reminders of the shifts ahead; the ids of those created."""
    covered = corrections.covered(context)
    made = []
    for shift, start in context.upcoming_shifts():
        subject = Subject.shift(shift)
        context.cancel_superseded(KIND, subject)
        if shift.status != ShiftStatus.CONFIRMED:
            continue
        room = shift.classroom
        due = context.before_shift(start, room, lead=dt.timedelta(minutes=room.reminder_lead_minutes))
        if due.send_at is None:
            continue
        for channel in context.channels(shift.teacher):
            if context.known(KIND, subject, channel):
                continue
            if (shift.id, shift.teacher_id, channel) in covered and due.due_at <= context.now:
                # The correction going out now already tells the teacher the new time; a second message
                # at the same moment would only be noise. Recorded as canceled so planning stays idempotent.
                context.record_canceled(KIND, shift.teacher, channel, subject, due,
                                        CancelReason.COVERED_BY_CORRECTION.value)
                continue
            made += [row.delivery_id for row in context.enqueue_for_teacher(
                KIND, shift.teacher, subject, due, _why(context, shift, due), channels=[channel]) if row.created]
    return made


def _why(context: PlanningContext, shift: Shift, due: Due) -> Text:
    """The dry run's reason for a reminder, late ones with their true cause: a version of the shift that
    came to be only after the reminder's time, or else an app that was not running at that time."""
    if due.held == QUIET_HOURS:
        return t("plan.why.reminder_held")
    if not due.late:
        return t("plan.why.reminder")
    since = context.session.scalar(select(ShiftRevision.recorded_at)
                                   .where(ShiftRevision.shift_id == shift.id, ShiftRevision.version == shift.version))
    if since is not None and since > due.due_at:
        return t("plan.why.reminder_after_its_time")
    return t("plan.why.reminder_late")
