"""The month for a teacher: a published month's shifts of one teacher, sent to that teacher.

Enqueued when the manager publishes a month and asks for it (core/planning/teacher_months.py): one
delivery per teacher with shifts that month (on a revision: whose shifts changed) and channel they
chose, due at once, about the publication. On LINE it is one bubble, a row a day, the changed ones
marked (core/messages/month_flex.py); by e-mail the same as a text list. It shows the month as the
publication has it. At send time it is canceled when the publication is gone or a newer revision of
the month replaces it, or the teacher cannot get it on the channel. One LINE message each against the
monthly quota.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core.channels.base import Outgoing
from core.kinds.registry import MessageKind, shared_reasons
from core.messages import email_text, month_flex
from core.outbox.policy import CancelReason
from core.sending import email_builders, line_builders, send_checks, send_rules
from core.sending.outgoing import CancelDelivery
from core.store.kinds import Channel, DeliveryKind
from core.store.models import Classroom, Delivery, Publication
from core.store.paths import DataPaths
from core.texts import t


def _facts(session: Session, publication: Publication) -> tuple[Classroom, month_flex.MonthFacts]:
    room = session.get(Classroom, publication.classroom_id)
    if room is None:
        raise CancelDelivery(CancelReason.CLASSROOM_MISSING)
    return room, line_builders.month_facts(publication, room)


def build_line(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    publication = send_checks.checked_publication(session, delivery)
    teacher = send_checks.checked_teacher(session, delivery, send_checks.teacher_of(session, delivery), now)
    _, facts = _facts(session, publication)
    message = month_flex.teacher_message(facts, teacher.display_name)
    return Outgoing("push", send_checks.recipient(teacher, delivery), (message,))


def build_email(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    publication = send_checks.checked_publication(session, delivery)
    teacher = send_checks.checked_email_teacher(send_checks.teacher_of(session, delivery), delivery)
    room, facts = _facts(session, publication)
    composed = email_text.compose(
        email_builders.templates(room.language, paths), subject_name="teacher_month",
        message_text=month_flex.teacher_text(facts, teacher.display_name),
        fields=email_text.month_fields(room.name, publication.year, publication.month, publication.revision),
        name=teacher.display_name)
    return email_builders.mail_to(session, delivery, teacher, composed)


KIND = MessageKind(
    key=DeliveryKind.TEACHER_MONTH.value,
    label=t("kind.teacher_month"),
    subject="publication",
    why=t("plan.why.teacher_month"),
    builders={Channel.LINE.value: build_line, Channel.EMAIL.value: build_email},
    cancel_reasons=shared_reasons(*(rule.reason for rule in send_rules.LINE_TEACHER), CancelReason.PUBLICATION_MISSING,
                                  CancelReason.SUPERSEDED, CancelReason.CLASSROOM_MISSING,
                                  "EMAIL_NOT_OPTED_IN"),
    to_teacher=True,
)
