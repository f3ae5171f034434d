"""Planning the shift correction: a teacher who was told an older version of a shift (a reminder or a
correction on any channel, or a published month: core/planning/told.py) gets a correction (old → new),
a cancellation notice, or — when the shift went to someone else — a notice that it is no longer theirs.

Planned at once when a shift changes, on each channel the teacher's contacts plan; a change made in
the night is told when quiet hours end, unless the shift starts first. A correction still waiting for
an older version goes no more. Uses only the planning context (core/planning/context.py).
"""

from __future__ import annotations

from core.planning.context import PlanningContext, Subject
from core.store.models import DeliveryKind, ShiftStatus
from core.texts import t

KIND = DeliveryKind.SHIFT_CORRECTION.value
# (shift, teacher, channel) that a correction tells the current version: planned now or before.
Covered = frozenset[tuple[int, int, str]]


def plan(context: PlanningContext) -> list[int]:
    """The corrections owed on the shifts ahead; the ids of those created."""
    covered(context)
    return [row.delivery_id for row in context.report.planned if row.kind == KIND and row.created]


def covered(context: PlanningContext) -> Covered:
    """Who hears of the current version of a shift by a correction on which channel. Planned once per
    run, whichever asks first (the reminder asks, to keep quiet where a correction says it all)."""
    return context.once(KIND, lambda: _plan(context))


def _plan(context: PlanningContext) -> Covered:
    found: set[tuple[int, int, str]] = set()
    for shift, start in context.upcoming_shifts():
        context.cancel_superseded(KIND, Subject.shift(shift))
        owed = [(teacher_id, version) for teacher_id, version in context.told_versions(shift.id).items()
                if version < shift.version]
        if not owed:
            continue
        # Due when quiet hours allow it: a held correction is on time, not late.
        due = context.soon(start, shift.classroom)
        for teacher_id, _ in owed:
            teacher = context.teacher(teacher_id)
            if teacher is None:
                continue
            if teacher_id != shift.teacher_id:
                why = t("plan.why.other_teacher")
            elif shift.status == ShiftStatus.CANCELED:
                why = t("plan.why.canceled")
            else:
                why = t("plan.why.changed")
            subject = Subject.shift(shift, key=f"shift:{shift.id}:teacher:{teacher_id}")
            for channel in context.channels(teacher):
                # Already planned (or sent): it still covers this teacher for this version.
                if context.known(KIND, subject, channel) or context.enqueue_for_teacher(
                        KIND, teacher, subject, due, due.words(why), channels=[channel]):
                    found.add((shift.id, teacher_id, channel))
    return frozenset(found)
