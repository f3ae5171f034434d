"""A message kind written outside core that plans itself through the public planning context alone:
the lesson briefing.

Three hours before each confirmed shift the teacher on it is sent the day's briefing, on each channel
their contacts plan. Everything about when and to whom comes from core/planning/context.py: the lead
moved earlier out of the classroom's quiet hours, a late one held until they end unless the shift
starts first, the next contact when the first cannot reach the teacher (linked to the first's
delivery, recorded as canceled), one per shift version and channel however often planning runs, a
waiting one superseded by a change, and the dry run's words. tests/test_planning_context.py
registers it; no file of core names it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from core.kinds.registry import MessageKind
from core.planning.context import PlanningContext, Subject
from core.store.models import ShiftStatus, SubjectType
from core.texts import Text

KEY = "lesson_briefing"
LEAD = dt.timedelta(hours=3)
TEXTS = {
    "kind.lesson_briefing": ("Lesson briefing", "授業の連絡事項"),
    "plan.why.lesson_briefing": ("the day's briefing before a shift", "シフト前の連絡事項"),
    "plan.why.lesson_briefing_late": ("late briefing (its time had passed)", "遅れた連絡事項（送る時刻を過ぎていました）"),
}


def plan(context: PlanningContext) -> Sequence[int]:
    made = []
    for shift, start in context.upcoming_shifts():
        subject = Subject.shift(shift)
        context.cancel_superseded(KEY, subject)
        if shift.status != ShiftStatus.CONFIRMED:
            continue
        due = context.before_shift(start, shift.classroom, lead=LEAD)
        why = due.words(Text("plan.why.lesson_briefing"), late=Text("plan.why.lesson_briefing_late"))
        made += [row.delivery_id for row in context.enqueue_for_teacher(KEY, shift.teacher, subject, due, why)
                 if row.created]
    return made


# Text(...) rather than t(...): the codes enter the catalog when the kind is registered, not before.
KIND = MessageKind(
    key=KEY,
    label=Text("kind.lesson_briefing"),
    subject=SubjectType.SHIFT,
    why=Text("plan.why.lesson_briefing"),
    to_teacher=True,
    plan=plan,
    texts=TEXTS,
)
