"""Asking a teacher when they can work in a month (シフト希望), and reminding them.

Enqueued by `availability ask` (and the window's Ask…) for each asked teacher, due at once, about the
request (subject_version 1); a reminder is the same message again with a line saying so
(subject_version 2, 3 …), enqueued by `availability remind` or, N days before the deadline, by this
kind's own planning (`plan`, the pure rule in core/roster/availability.py). Its message is the
request as text (core/messages/availability_mail.py: the month's days listed, and how to answer by
reply), which every channel renders; LINE overrides it with the carousel of week bubbles and time
pickers, whose answers come back as postbacks and messages (core/receiving/availability.py). A
teacher on LINE is asked on LINE; a teacher reached by e-mail only is asked by e-mail, replies to
the manager, and the manager enters the reply
(core/roster/availability.py `enter`). At send time it is canceled when the request is gone or the
teacher cannot get it on its channel, and a reminder when the teacher answered (or their answer was
entered) meanwhile. One LINE message each against the monthly quota; e-mails cost none of it. While
the teachers' page is ready, a teacher paired on LINE also gets "Open my page" at the request's
calendar (on LINE a small bubble after the carousel: core/pages/buttons.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.channels import registry as channels
from core.channels.base import Outgoing
from core.kinds.registry import MessageKind, shared_reasons
from core.messages import availability_flex, availability_mail
from core.messages.message import ActionKind, Message
from core.pages import buttons
from core.planning.context import PlanningContext, Subject
from core.roster import availability, contacts, membership, reading, rules
from core.sending import send_checks, send_rules
from core.sending.outgoing import CancelDelivery, CannotBuild
from core.store import ack_key
from core.store.kinds import Channel, DeliveryKind, SubjectType
from core.store.models import AvailabilityAsked, AvailabilityRequest, Classroom, Delivery, Teacher
from core.store.paths import DataPaths
from core.store.secrets import SecretStoreError
from core.texts import t
from core.texts.formats import Language

KEY = DeliveryKind.AVAILABILITY_REQUEST.value
SUBJECT = SubjectType.AVAILABILITY_REQUEST.value
MISSING, ANSWERED = "AVAILABILITY_MISSING", "AVAILABILITY_ANSWERED"
FIRST = 1  # subject_version of the request itself; reminders count on from 2


def asked(session: Session, request: AvailabilityRequest, teacher_id: int, *, reminder: bool) -> availability_flex.Asked:
    """The request as this teacher's message shows it, with their current answers."""
    room = session.get(Classroom, request.classroom_id)
    if room is None:
        raise CancelDelivery(MISSING)
    mine = next((a for a in availability.answers(session, request.id) if a.teacher_id == teacher_id), None)
    language: Language = "en" if room.language == "en" else "ja"
    return availability_flex.Asked(request.id, teacher_id, room.name, request.year, request.month, request.deadline,
                                   language, reminder, mine.days if mine is not None else {})


def signer(session: Session) -> availability_flex.Sign:
    """Signs button data with the database's button key (made now if there is none)."""
    try:
        key = ack_key.signing_key(session)
    except SecretStoreError as exc:
        raise CannotBuild("BUTTONS_UNSIGNED", t("send_error.BUTTONS_UNSIGNED", detail=exc.text)) from exc
    return lambda payload: availability_flex.sign(key, payload)


def _request(session: Session, delivery: Delivery) -> AvailabilityRequest:
    request = session.get(AvailabilityRequest, delivery.subject_id) if delivery.subject_id else None
    if request is None or delivery.teacher_id is None:
        raise CancelDelivery(MISSING)
    return request


def _shown(session: Session, delivery: Delivery, request: AvailabilityRequest, teacher: Teacher) -> availability_flex.Asked:
    """The request as the teacher's message shows it; a reminder to a teacher who has answered meanwhile
    (or whose answer the manager entered) goes no more."""
    shown = asked(session, request, teacher.id, reminder=(delivery.subject_version or FIRST) > FIRST)
    if shown.reminder and shown.answers:
        raise CancelDelivery(ANSWERED)
    return shown


def _checked(session: Session, delivery: Delivery, now: dt.datetime) -> tuple[Message, availability_flex.Asked]:
    request = _request(session, delivery)
    teacher = send_checks.checked_contact(session, delivery, send_checks.teacher_of(session, delivery), now)
    shown = _shown(session, delivery, request, teacher)
    page = buttons.for_teacher(session, teacher, shown.language, "availability", request=request.id)
    message = Message.of_text(KEY, shown.language, availability_mail.text(shown), facts=availability_mail.fields(shown),
                              actions=(page,) if page is not None else (),
                              accent=availability_flex.ACCENT, to_name=teacher.display_name,
                              variant=availability_mail.subject_name(shown))
    return message, shown


def compose(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Message:
    """The request as text: what is asked and by when, how to answer by reply, the month's days a line each."""
    return _checked(session, delivery, now)[0]


def build_line(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    """On LINE the request is a carousel of week bubbles, ○ × and a time picker a day, whose taps come
    back as answers (what only LINE's pickers can ask); it goes where LINE's driver sends the message."""
    message, shown = _checked(session, delivery, now)
    rendered = channels.driver(Channel.LINE.value).render(session, delivery, message, paths)
    page = next((a for a in message.actions if a.kind is ActionKind.LINK), None)
    return replace(rendered, messages=buttons.with_bubble(availability_flex.messages(shown, signer(session)), page,
                                                          availability_flex.ACCENT))


def channel_for(teacher: Teacher) -> str | None:
    """Where a teacher is asked: on LINE when it can reach them (their answers come back by themselves),
    else by e-mail; None when neither can (or they are inactive)."""
    if not teacher.active or teacher.erased_at is not None:
        return None
    return next((channel for channel in (Channel.LINE, Channel.EMAIL) if contacts.eligible(teacher, channel)), None)


def reachable(teachers: Iterable[Teacher]) -> list[Teacher]:
    """The teachers who can be asked: active, with a LINE or e-mail contact that can carry the request."""
    return [teacher for teacher in teachers if channel_for(teacher) is not None]


def enqueue(session: Session, request: AvailabilityRequest, teacher_ids: Sequence[int], *, round_: int,
            now: dt.datetime) -> list[int]:
    """Queue the request (round 1) or a reminder (round 2 …) to these teachers, each on their channel;
    returns the new deliveries."""
    context = PlanningContext(session, now=now)
    made: list[int] = []
    for teacher in session.scalars(select(Teacher).where(Teacher.id.in_(list(teacher_ids)))):
        channel = channel_for(teacher)
        if channel is None:
            continue
        subject = Subject(SUBJECT, request.id, round_, request.classroom_id, f"{request.id}:{teacher.id}")
        made += [row.delivery_id for row in context.enqueue_for_teacher(
            KEY, teacher, subject, context.at_once(), KIND.why, channels=[channel], fallback=False) if row.created]
    return made


def next_round(session: Session, request_id: int) -> int:
    last = session.scalar(select(Delivery.subject_version).where(Delivery.about(SUBJECT, request_id), Delivery.kind == KEY)
                          .order_by(Delivery.subject_version.desc()).limit(1))
    return (last or FIRST) + 1


def remind(session: Session, request: AvailabilityRequest, *, now: dt.datetime) -> tuple[str, ...]:
    """Remind every asked teacher who has not answered, and only them (those LINE or e-mail can still
    reach, each on their channel); returns their names."""
    teachers = _silent(session, request)
    if not teachers:
        return ()
    chosen = [t.id for t in teachers]
    enqueue(session, request, chosen, round_=next_round(session, request.id), now=now)
    availability.mark_reminded(session, request.id, chosen, now)
    return tuple(t.display_name for t in teachers)


def _silent(session: Session, request: AvailabilityRequest) -> list[Teacher]:
    silent = [a.teacher_id for a in availability.answers(session, request.id) if not a.answered]
    return reachable(reading.in_order(session.scalars(select(Teacher).where(Teacher.id.in_(silent)))))


def reminding(session: Session, request: AvailabilityRequest) -> Asking:
    """Who a reminder would go to now (and of them, who by e-mail): the dry run of `remind`."""
    teachers = _silent(session, request)
    return Asking(tuple(t.display_name for t in teachers), (), request.id,
                  by_email=tuple(t.display_name for t in teachers if channel_for(t) == Channel.EMAIL))


def remind_month(session: Session, classroom_id: int, year: int, month: int, *, now: dt.datetime) -> tuple[str, ...]:
    """Remind who has not answered the classroom's latest request for the month; their names."""
    request = availability.latest(session, classroom_id, year, month)
    return () if request is None else remind(session, request, now=now)


def plan(context: PlanningContext) -> Sequence[int]:
    """The automatic reminders that are due: N days before a request's deadline, to who has not answered."""
    session, now = context.session, context.now
    made: list[int] = []
    recent = (now - dt.timedelta(days=1)).date()  # a deadline that ended everywhere needs no reminder
    for request in session.scalars(select(AvailabilityRequest).where(
            AvailabilityRequest.remind_days_before.is_not(None), AvailabilityRequest.deadline >= recent)):
        room = session.get(Classroom, request.classroom_id)
        if room is None:
            continue
        rows = {row.teacher_id: row for row in session.scalars(
            select(AvailabilityAsked).where(AvailabilityAsked.request_id == request.id))}
        due = [a.teacher_id for a in availability.answers(session, request.id) if not a.answered and availability.reminder_due(
            request.deadline, request.remind_days_before, room.timezone, asked_at=rows[a.teacher_id].asked_at,
            reminded_at=rows[a.teacher_id].reminded_at, now=now)]
        if due:
            made += enqueue(session, request, due, round_=next_round(session, request.id), now=now)
            availability.mark_reminded(session, request.id, due, now)
    return made


KIND = MessageKind(
    key=KEY,
    label=t("kind.availability_request"),
    subject=SUBJECT,
    why=t("plan.why.availability_request"),
    compose=compose,
    overrides={Channel.LINE.value: build_line},
    cancel_reasons={**shared_reasons(*send_rules.teacher_reasons()),
                    MISSING: t(f"cancel.{MISSING}"), ANSWERED: t(f"cancel.{ANSWERED}")},
    to_teacher=True,
    plan=plan,
)


@dataclass(frozen=True, slots=True)
class Asking:
    """Who a request goes to (and of them, who by e-mail) and who it cannot reach, and what it costs:
    one LINE message each of those on LINE."""

    asked: tuple[str, ...]
    unreachable: tuple[str, ...]
    request_id: int | None = None
    deliveries: tuple[int, ...] = ()
    by_email: tuple[str, ...] = ()

    @property
    def messages(self) -> int:
        return len(self.asked) - len(self.by_email)


def chosen_teachers(session: Session, classroom_id: int, names: Sequence[str] | None) -> list[Teacher]:
    """The named teachers, or every active one the classroom lists (its own, and teachers of no
    classroom: core/roster/membership.py); in the one order teachers are listed in."""
    if names:
        return reading.in_order([rules.teacher_by_name(session, name) for name in dict.fromkeys(names)])
    listed = membership.listed_in(session, classroom_id)
    return [t for t in rules.list_teachers(session) if t.active and t.erased_at is None and t.id in listed]


def ask(session: Session, classroom_id: int, year: int, month: int, deadline: dt.date, names: Sequence[str] | None, *,
        now: dt.datetime, remind_days_before: int | None = None, dry_run: bool = False) -> Asking:
    """Ask the teachers (named, or all active ones) who can be reached on LINE or by e-mail; with
    `dry_run` only say who it would go to."""
    teachers = chosen_teachers(session, classroom_id, names)
    ok = reachable(teachers)
    skipped = tuple(t.display_name for t in teachers if t not in ok)
    names_ok = tuple(t.display_name for t in ok)
    by_email = tuple(t.display_name for t in ok if channel_for(t) == Channel.EMAIL)
    if dry_run:
        return Asking(names_ok, skipped, by_email=by_email)
    request = availability.ask(session, classroom_id, year, month, deadline, [t.id for t in ok], now=now,
                               remind_days_before=remind_days_before)
    made = enqueue(session, request, [t.id for t in ok], round_=FIRST, now=now)
    return Asking(names_ok, skipped, request.id, tuple(made), by_email)
