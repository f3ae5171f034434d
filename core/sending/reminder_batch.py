"""LINE reminders of a claimed batch, checked and built from one query instead of the ORM.

Reminders are nearly all of the sender's traffic, and loading each one's delivery, shift, teacher and
classroom as ORM objects cost the sender as much CPU as sending it. Here one query reads the few
columns the send-time rules and the message need, for the whole batch, runs the very rules the
reminder's checks run (core/sending/send_rules.py) on them, and makes the message as the kind does
(core/sending/kinds/shift_reminder.py `message`), rendered by LINE's renderer (core/channels/line_render.py).

This path only ever says "ready". A reminder that breaks a rule, has no shift or teacher row, or whose
retry key is too old is not returned; the sender hands it to the kind's builder
(core/sending/kinds/shift_reminder.py), which cancels or fails it with the reason and its side effects
(an e-mail copy instead, for a teacher with fallback).
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, bindparam, func, select
from sqlalchemy.orm import Session

from core.channels import line_render
from core.channels.base import Outgoing
from core.messages import ack, cover, texts
from core.outbox import policy
from core.pages import status
from core.roster import clock, contacts
from core.sending import message_facts, send_rules
from core.sending.kinds import shift_reminder
from core.store.models import (
    Channel,
    Classroom,
    ContactRule,
    Delivery,
    DeliveryAttempt,
    DeliveryKind,
    Shift,
    ShiftStatus,
    SubjectType,
    Teacher,
    TeacherContact,
)
from core.store.paths import DataPaths

D, S, T, C = Delivery.__table__, Shift.__table__, Teacher.__table__, Classroom.__table__
TC = TeacherContact.__table__
A = DeliveryAttempt.__table__
LEAN = Channel.LINE.value  # the channel of the reminders this path reads: nearly all of the traffic
RULES = shift_reminder.RULES + send_rules.for_channel(LEAN)  # what the kind's checks run on LINE, in order


@dataclass(frozen=True)
class Ready:
    """A reminder that passed every send-time check, with its message and the row's attempt columns."""

    delivery_id: int
    dedup_key: str  # what the message is, which its retry key names (core/store/identity.py)
    shift_uid: str  # the shift it is about, beyond this copy of the data folder; the key names it too
    attempt_number: int  # of the attempt about to start
    attempt_count: int  # before it
    retry_key: str | None
    retry_key_issued_at: dt.datetime | None
    first_attempt_at: dt.datetime | None
    due_at: dt.datetime | None
    late_seconds: int | None
    outgoing: Outgoing
    retry_key_generation: int = 0


_LAST_ATTEMPT = select(func.max(A.c.number)).where(A.c.delivery_id == D.c.id).correlate(D).scalar_subquery()

# Built once: the sender runs it every turn. Inner joins: a reminder without its shift, teacher or
# classroom row is not ready here (the builders name the reason).
_READY = (
    select(D.c.id, _LAST_ATTEMPT.label("last_attempt"), D.c.attempt_count, D.c.retry_key, D.c.retry_key_issued_at,
           D.c.first_attempt_at, D.c.due_at, D.c.late_seconds, D.c.subject_version, D.c.teacher_id, D.c.retry_key_generation,
           D.c.dedup_key, D.c.linked_delivery_id,
           S.c.uid.label("shift_uid"), S.c.version, S.c.status, S.c.teacher_id.label("shift_teacher_id"), S.c.local_date,
           S.c.start_time, S.c.end_time, S.c.ends_next_day, S.c.note,
           T.c.active, T.c.erased_at, T.c.contact_rule,
           C.c.name, C.c.language, C.c.timezone)
    .select_from(D.join(S, (S.c.id == D.c.subject_id) & (D.c.subject_type == SubjectType.SHIFT.value)).join(T, T.c.id == S.c.teacher_id)
                 .join(C, C.c.id == S.c.classroom_id))
    .where(
        D.c.id.in_(bindparam("ids", expanding=True)),
        D.c.kind == DeliveryKind.SHIFT_REMINDER.value,
        D.c.channel == LEAN,
    )
)


# Every contact of the batch's teachers, in one query: the rules read the teacher's other contacts too
# (is there a channel to fall back on).
_CONTACTS = (select(TC.c.teacher_id, TC.c.channel, TC.c.address, TC.c.agreed_at, TC.c.unreachable_since, TC.c.rank)
             .where(TC.c.teacher_id.in_(bindparam("teachers", expanding=True))).order_by(TC.c.id))


@dataclass(frozen=True)
class Found:
    """A reminder's row of the batch query and its teacher's contacts."""

    row: Row[Any]
    contacts: tuple[Row[Any], ...]


@functools.lru_cache(maxsize=4096)
def _starts_at(local_date: dt.date, start: dt.time, end: dt.time, next_day: bool, zone_name: str) -> dt.datetime:
    return clock.shift_interval(local_date, start, end, next_day, zone_name)[0]


def subject_of_row(found: Found, now: dt.datetime) -> send_rules.Subject:
    """The rules' Subject from one row of the batch query; equal to send_rules.subject_of on the ORM
    objects of the same delivery (tests/test_reminder_batch.py compares them field by field)."""
    row, theirs = found.row, found.contacts
    erased = row.erased_at is not None
    line = contacts.on(theirs, LEAN)
    return send_rules.Subject(
        now=now,
        delivery_shift_version=row.subject_version,
        delivery_teacher_id=row.teacher_id,
        shift_exists=True,
        shift_version=row.version,
        shift_status=ShiftStatus(row.status),
        shift_teacher_id=row.shift_teacher_id,
        shift_starts_at=_starts_at(row.local_date, row.start_time, row.end_time, row.ends_next_day, row.timezone),
        teacher_exists=True,
        teacher_active=bool(row.active),
        teacher_erased=erased,
        wants_channel=contacts.wants(theirs, LEAN),
        contact_usable=line is not None and contacts.usable(line),
        contact_unreachable=line is not None and line.unreachable_since is not None,
        has_fallback=contacts.fallback_after(ContactRule(row.contact_rule), theirs, LEAN) is not None
        and bool(row.active) and not erased,
        stands_in=row.linked_delivery_id is not None,
    )


def rows(session: Session, ids: list[int]) -> list[Found]:
    found: list[Any] = list(session.execute(_READY, {"ids": ids})) if ids else []
    theirs: dict[int, list[Any]] = {}
    if found:
        for contact in session.execute(_CONTACTS, {"teachers": sorted({r.shift_teacher_id for r in found})}):
            theirs.setdefault(contact.teacher_id, []).append(contact)
    return [Found(row, tuple(theirs.get(row.shift_teacher_id, ()))) for row in found]


def load(session: Session, ids: list[int], now: dt.datetime, paths: DataPaths) -> dict[int, Ready]:
    """The reminders among `ids` that are ready to send now, by delivery id."""
    ready: dict[int, Ready] = {}
    found = rows(session, ids)
    # Once per batch: the 了解 and "Ask for cover" buttons' settings and key.
    sign, ask = (ack.signer(session), cover.ask_signer(session)) if found else (None, None)
    liff_id = status.ready_liff_id(session) if found else None
    for one in found:
        row = one.row
        if row.retry_key is not None and not policy.retry_key_usable(row.retry_key_issued_at, now):
            continue
        if send_rules.first_broken(RULES, subject_of_row(one, now)) is not None:
            continue
        facts = texts.ShiftFacts(row.name, row.local_date, row.start_time, row.end_time, row.ends_next_day, row.note)
        line = contacts.on(one.contacts, LEAN)
        assert line is not None and line.address is not None  # the rules hold: a usable contact
        language = message_facts.language_of(row.language)
        message = shift_reminder.message(facts, language, message_facts.templates(language, paths),
                                         shift_reminder.actions(sign, ask, row.id, language,
                                                                shift_reminder.page_button(liff_id, row.local_date,
                                                                                           language)))
        push = line_render.push(line.address, message)
        ready[row.id] = Ready(row.id, row.dedup_key, row.shift_uid, (row.last_attempt or 0) + 1, row.attempt_count,
                              row.retry_key, row.retry_key_issued_at, row.first_attempt_at, row.due_at,
                              row.late_seconds, push, row.retry_key_generation)
    return ready
