"""The cover assignment: the teacher the manager chose to cover a shift is told it is now theirs.

Planned by its own `plan` at each planning run, which the shift edit of an assignment sets off
(core/roster/cover.py `assign`): one per assigned request and channel the teacher plans, due at once,
about the cover request. The teacher who asked is told by the planner's correction ("no longer yours"),
and the new teacher's reminder follows as for any shift. At send time it is canceled when the shift
has since changed, started, or is no longer this teacher's, or they cannot get it on the channel.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.kinds.registry import MessageKind, shared_reasons
from core.messages import cover as cover_messages
from core.messages import email_text
from core.messages.message import Message
from core.outbox.policy import CancelReason
from core.planning.context import PlanningContext, Subject
from core.roster import rules
from core.sending import message_facts, send_checks, send_rules
from core.sending.outgoing import CancelDelivery
from core.store.kinds import Channel, CoverState, DeliveryKind, ShiftStatus, SubjectType
from core.store.models import CoverRequest, Delivery, Shift
from core.store.paths import DataPaths
from core.texts import t

KEY = DeliveryKind.COVER_ASSIGNED.value
# Assigned this long ago or more: planned no more (the message would come too late to matter).
RECENT = dt.timedelta(days=2)


def compose(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Message:
    row = session.get(CoverRequest, delivery.subject_id) if delivery.subject_type == SubjectType.COVER_REQUEST else None
    shift = session.get(Shift, row.shift_id) if row is not None else None
    if shift is None:
        raise CancelDelivery(CancelReason.SHIFT_MISSING)
    if shift.version != delivery.subject_version:
        raise CancelDelivery(CancelReason.SHIFT_CHANGED)
    if shift.teacher_id != delivery.teacher_id or shift.status != ShiftStatus.CONFIRMED:
        raise CancelDelivery(CancelReason.TEACHER_CHANGED)
    if rules.shift_instants(shift)[0] <= now:
        raise CancelDelivery(CancelReason.SHIFT_STARTED)
    teacher = send_checks.checked_contact(session, delivery, send_checks.teacher_of(session, delivery), now)
    room = shift.classroom
    facts = message_facts.facts_of(shift, room, shift.note)
    return Message.of_text(KEY, cover_messages.language_of(room.language),
                           cover_messages.assigned_text(facts, room.language),
                           facts=email_text.shift_fields(facts, room.language), to_name=teacher.display_name)


def plan(context: PlanningContext) -> Sequence[int]:
    """Tell each teacher recently assigned a shift by a cover request, once per request, on LINE."""
    session, now = context.session, context.now
    made = []
    for row in session.scalars(select(CoverRequest).where(CoverRequest.state == CoverState.ASSIGNED,
                                                          CoverRequest.updated_at >= now - RECENT)):
        shift = session.get(Shift, row.shift_id)
        if shift is None or shift.teacher_id != row.assigned_teacher_id or rules.shift_instants(shift)[0] <= now:
            continue
        subject = Subject(SubjectType.COVER_REQUEST, row.id, shift.version, shift.classroom_id, f"cover:{row.id}")
        on_line = [channel for channel in context.channels(shift.teacher) if channel == Channel.LINE]
        made += [planned.delivery_id for planned in context.enqueue_for_teacher(
            KIND.key, shift.teacher, subject, context.at_once(), KIND.why, channels=on_line) if planned.created]
    return made


KIND = MessageKind(
    key=KEY,
    label=t("kind.cover_assigned"),
    subject=SubjectType.COVER_REQUEST.value,
    why=t("plan.why.cover_assigned"),
    compose=compose,
    cancel_reasons=shared_reasons(*send_rules.teacher_reasons(), CancelReason.SHIFT_MISSING,
                                  CancelReason.SHIFT_CHANGED, CancelReason.TEACHER_CHANGED, CancelReason.SHIFT_STARTED),
    to_teacher=True,
    plan=plan,
)
