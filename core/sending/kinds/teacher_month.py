"""The month for a teacher: a published month's shifts of one teacher, sent to that teacher.

Enqueued when the manager publishes a month and asks for it (core/planning/teacher_months.py): one
delivery per teacher with shifts that month (on a revision: whose shifts changed) and channel they
chose, due at once, about the publication. Its message is the month as a text list, a line a day,
the changed ones marked, which every channel renders (e-mail with the teacher's name); LINE overrides
it with one bubble, a row a day, the changed ones in colour (core/messages/month_flex.py). It shows the month as the
publication has it. At send time it is canceled when the publication is gone or a newer revision of
the month replaces it, or the teacher cannot get it on the channel. One LINE message each against the
monthly quota.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from sqlalchemy.orm import Session

from core.channels import registry as channels
from core.channels.base import Outgoing
from core.kinds.registry import MessageKind, shared_reasons
from core.messages import email_text, month_flex
from core.messages.message import Message
from core.outbox.policy import CancelReason
from core.sending import message_facts, send_checks, send_rules
from core.sending.outgoing import CancelDelivery
from core.store.kinds import Channel, DeliveryKind
from core.store.models import Classroom, Delivery, Publication
from core.store.paths import DataPaths
from core.texts import t

KEY = DeliveryKind.TEACHER_MONTH.value


def _facts(session: Session, publication: Publication) -> tuple[Classroom, month_flex.MonthFacts]:
    room = session.get(Classroom, publication.classroom_id)
    if room is None:
        raise CancelDelivery(CancelReason.CLASSROOM_MISSING)
    return room, message_facts.month_facts(publication, room)


def _checked(session: Session, delivery: Delivery, now: dt.datetime) -> tuple[Message, month_flex.MonthFacts]:
    publication = send_checks.checked_publication(session, delivery)
    teacher = send_checks.checked_contact(session, delivery, send_checks.teacher_of(session, delivery), now)
    room, facts = _facts(session, publication)
    name = teacher.display_name
    message = Message.of_text(KEY, facts.language, month_flex.teacher_text(facts, name), to_name=name,
                              facts=email_text.month_fields(room.name, publication.year, publication.month,
                                                            publication.revision))
    return message, facts


def compose(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Message:
    """The month as text: the title, the classroom, then a line a day, the changed ones marked."""
    return _checked(session, delivery, now)[0]


def build_line(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    """On LINE the month is one bubble with a row a day, the changed rows in colour (what only Flex
    can show); it goes where LINE's driver sends the message."""
    message, facts = _checked(session, delivery, now)
    rendered = channels.driver(Channel.LINE.value).render(session, delivery, message, paths)
    return replace(rendered, messages=(month_flex.teacher_message(facts, message.to_name),))


KIND = MessageKind(
    key=KEY,
    label=t("kind.teacher_month"),
    subject="publication",
    why=t("plan.why.teacher_month"),
    compose=compose,
    overrides={Channel.LINE.value: build_line},
    cancel_reasons=shared_reasons(*send_rules.teacher_reasons(), CancelReason.PUBLICATION_MISSING,
                                  CancelReason.SUPERSEDED, CancelReason.CLASSROOM_MISSING),
    to_teacher=True,
)
