"""The call for cover: a shift a teacher asked cover for, offered with an "I can cover" (引き受けます) button.

The manager sends it (core/roster/cover.py has the request's states; `call` here marks the request and
enqueues the messages) to the classroom's LINE group or to chosen teachers who could take the shift,
due at once, about the cover request. A teacher's tap comes back as a signed postback
(core/receiving/cover.py) and makes them a volunteer; nothing on the roster changes until the manager
picks one. At send time a call is canceled when the request is no longer waiting for the manager
(assigned, declined, withdrawn), the shift has started, the classroom has no group any more, or a
teacher cannot get it on the channel. It is called on LINE (`call`): a channel without buttons, such
as e-mail, could show the call but not take the answer, so a copy that reaches one (a fallback) asks
the teacher to tell the manager and carries no action. While the teachers' page is ready, a call on
LINE (or to a teacher paired on LINE) also carries "Open my page" to the page's calls
(core/pages/buttons.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.channels import registry as channels
from core.errors import ValidationError
from core.kinds.registry import MessageKind, shared_reasons
from core.messages import cover as cover_messages
from core.messages import email_text
from core.messages.message import Action, Audience, Message
from core.outbox import queue
from core.outbox.policy import CancelReason
from core.pages import buttons
from core.planning.context import PlanningContext
from core.roster import contacts, cover, rules
from core.sending import message_facts, send_checks, send_rules
from core.sending.outgoing import CancelDelivery
from core.store.kinds import Channel, CoverStep, DeliveryKind, SubjectType
from core.store.models import CoverRequest, CoverRequestStep, Delivery, Shift, Teacher
from core.store.paths import DataPaths
from core.texts import t

KEY = DeliveryKind.COVER_CALL.value
CLOSED = "COVER_CLOSED"  # the request no longer waits for volunteers


def checked_request(session: Session, delivery: Delivery, now: dt.datetime) -> tuple[CoverRequest, Shift]:
    """The delivery's cover request, still waiting for the manager, and its shift, not started."""
    row = session.get(CoverRequest, delivery.subject_id) if delivery.subject_type == SubjectType.COVER_REQUEST else None
    shift = session.get(Shift, row.shift_id) if row is not None else None
    if row is None or shift is None or row.state not in cover.STILL_OPEN or shift.version != row.shift_version:
        raise CancelDelivery(CLOSED)
    if rules.shift_instants(shift)[0] <= now:
        raise CancelDelivery(CancelReason.SHIFT_STARTED)
    return row, shift


def compose(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Message:
    """The shift, who asked and why, and the "I can cover" action bound to this call's delivery; to the
    classroom's group, or to one teacher."""
    row, shift = checked_request(session, delivery, now)
    room = shift.classroom
    teacher = None
    if delivery.teacher_id is not None:
        teacher = send_checks.checked_contact(session, delivery, send_checks.teacher_of(session, delivery), now)
    to_name = teacher.display_name if teacher is not None else ""
    sign = cover_messages.signer(session)
    if sign is None:  # no keyring: a call without its button would ask for an answer nobody can give
        raise CancelDelivery(CLOSED)
    asker = rules.get_teacher(session, row.teacher_id).display_name
    facts = message_facts.facts_of(shift, room, shift.note)
    button = channels.registered(delivery.channel) and channels.driver(delivery.channel).postbacks
    text, take = cover_messages.call(facts, asker, row.reason, sign, delivery.id, room.language, button=button)
    return Message.of_text(KEY, cover_messages.language_of(room.language), text,
                           facts=email_text.shift_fields(facts, room.language),
                           actions=((Action(take.label, take.data),) if button else ()) + _page(
                               session, delivery, teacher, room.language),
                           accent=cover_messages.CALL_ACCENT, to_name=to_name,
                           audience=Audience.GROUP if delivery.teacher_id is None else Audience.TEACHER)


def _page(session: Session, delivery: Delivery, teacher: Teacher | None, language: str) -> tuple[Action, ...]:
    """The teachers' page's cover calls, while it is ready (core/pages/buttons.py)."""
    lang = cover_messages.language_of(language)
    found = (buttons.for_teacher(session, teacher, lang, "covers") if teacher is not None
             else buttons.for_group(session, delivery.channel, lang, "covers"))
    return (found,) if found is not None else ()


def call(session: Session, request_id: int, *, now: dt.datetime, to_group: bool = False,
         teacher_ids: Sequence[int] = ()) -> list[int]:
    """Call for cover: to the classroom's group, or to these teachers (each must be able to take the
    shift and be on LINE). Neither given: the group if the classroom has one, else every teacher who
    could take the shift and is on LINE. The ids of the deliveries it enqueued."""
    shift = cover.shift_of(session, request_id)
    room = shift.classroom
    if not to_group and not teacher_ids:
        to_group = bool(room.line_group_id)
        teacher_ids = [] if to_group else [
            teacher.id for teacher in cover.free_teachers(session, shift.id) if contacts.eligible(teacher, Channel.LINE)]
        if not to_group and not teacher_ids:
            raise ValidationError(t("cover.nobody_to_call"))
    if to_group and not room.line_group_id:
        raise ValidationError(t("cover.no_group", classroom=room.name))
    chosen = [rules.get_teacher(session, teacher_id) for teacher_id in dict.fromkeys(teacher_ids)]
    for teacher in chosen:
        if not cover.can_take(session, shift, teacher):
            raise ValidationError(t("cover.not_free", teacher=teacher.display_name))
        if not contacts.eligible(teacher, Channel.LINE):
            raise ValidationError(t("cover.not_on_line", teacher=teacher.display_name))
    cover.called(session, request_id, now=now)
    round_ = session.scalar(select(func.count()).select_from(CoverRequestStep).where(
        CoverRequestStep.request_id == request_id, CoverRequestStep.step == CoverStep.CALLED)) or 1
    kind = DeliveryKind.COVER_CALL.value
    made = []
    targets: list[tuple[str, int | None, str | None]] = [("group", None, room.line_group_id)] if to_group else []
    targets += [(f"teacher:{teacher.id}", teacher.id, contacts.address_on(teacher, Channel.LINE)) for teacher in chosen]
    for name, teacher_id, recipient in targets:
        delivery_id, _ = queue.enqueue(
            session, kind=kind, dedup=queue.dedup_key(kind, f"cover:{request_id}:{name}", round_), due_at=now,
            now=now, recipient=recipient, teacher_id=teacher_id, classroom_id=room.id,
            subject_type=SubjectType.COVER_REQUEST, subject_id=request_id)
        made.append(delivery_id)
    return made


def plan(context: PlanningContext) -> Sequence[int]:
    """At each planning run: requests whose shift changed or started are withdrawn (nothing to enqueue)."""
    cover.withdraw_stale(context.session, now=context.now)
    return ()


KIND = MessageKind(
    key=KEY,
    label=t("kind.cover_call"),
    subject=SubjectType.COVER_REQUEST.value,
    why=t("plan.why.cover_call"),
    compose=compose,
    cancel_reasons={**shared_reasons(*send_rules.teacher_reasons(), CancelReason.SHIFT_STARTED,
                                     CancelReason.NO_GROUP),
                    CLOSED: t("cancel.COVER_CLOSED")},
    plan=plan,
)
