"""LINE reminders of a claimed batch, checked and built from one query instead of the ORM.

Reminders are nearly all of the sender's traffic, and loading each one's delivery, shift, teacher and
classroom as ORM objects cost the sender as much CPU as sending it. Here one query reads the few
columns the send-time checks and the message need, for the whole batch.

This path only ever says "ready". A reminder with any reason not to go exactly as planned (its shift
changed, was canceled or started, its teacher left LINE or cannot be reached there, its retry key is
too old) is not returned, and the sender hands it to line_builders.build_reminder, which cancels or fails
it with the reason and its side effects (an e-mail copy instead, for a teacher with fallback). The
conditions below may therefore only ever be stricter than presend's checks, never looser; the
tests run every cancel reason through the sender to hold that.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass

from sqlalchemy import and_, bindparam, func, or_, select
from sqlalchemy.orm import Session

from core.messages import texts
from core.outbox import policy
from core.roster import clock
from core.sending import line_builders
from core.sending.outgoing import Outgoing
from core.store.models import (
    Channel,
    ChannelChoice,
    Classroom,
    Delivery,
    DeliveryAttempt,
    DeliveryKind,
    Shift,
    ShiftStatus,
    Teacher,
)

D, S, T, C = Delivery.__table__, Shift.__table__, Teacher.__table__, Classroom.__table__
A = DeliveryAttempt.__table__


@dataclass(frozen=True)
class Ready:
    """A reminder that passed every send-time check, with its message and the row's attempt columns."""

    delivery_id: int
    attempt_number: int  # of the attempt about to start
    attempt_count: int  # before it
    retry_key: str | None
    retry_key_issued_at: dt.datetime | None
    first_attempt_at: dt.datetime | None
    due_at: dt.datetime | None
    late_seconds: int | None
    outgoing: Outgoing


_LAST_ATTEMPT = select(func.max(A.c.number)).where(A.c.delivery_id == D.c.id).correlate(D).scalar_subquery()

# Built once: the sender runs it every turn. The WHERE clause is presend's reminder checks that need
# no clock (the start time needs the classroom's zone and is checked in Python).
_READY = (
    select(D.c.id, _LAST_ATTEMPT, D.c.attempt_count, D.c.retry_key, D.c.retry_key_issued_at,
           D.c.first_attempt_at, D.c.due_at, D.c.late_seconds, S.c.local_date, S.c.start_time, S.c.end_time, S.c.ends_next_day,
           S.c.note, T.c.line_user_id, C.c.name, C.c.language, C.c.timezone)
    .select_from(D.join(S, S.c.id == D.c.shift_id).join(T, T.c.id == S.c.teacher_id)
                 .join(C, C.c.id == S.c.classroom_id))
    .where(
        D.c.id.in_(bindparam("ids", expanding=True)),
        D.c.kind == DeliveryKind.SHIFT_REMINDER.value,
        D.c.channel == Channel.LINE.value,
        # check_shift_reminder: the same version, confirmed, still this teacher's
        S.c.version == D.c.shift_version,
        S.c.status == ShiftStatus.CONFIRMED.value,
        or_(D.c.teacher_id.is_(None), D.c.teacher_id == S.c.teacher_id),
        # _check_teacher: active, wants LINE, opted in with a LINE ID, not known to be unreachable
        T.c.active.is_(True),
        T.c.erased_at.is_(None),
        T.c.channel != ChannelChoice.EMAIL.value,
        T.c.line_opt_in.is_(True),
        and_(T.c.line_user_id.is_not(None), T.c.line_user_id != ""),
        T.c.line_unreachable_at.is_(None),
    )
)


@functools.lru_cache(maxsize=4096)
def _starts_at(local_date: dt.date, start: dt.time, zone_name: str) -> dt.datetime:
    return clock.to_utc(local_date, start, zone_name)


def load(session: Session, ids: list[int], now: dt.datetime) -> dict[int, Ready]:
    """The reminders among `ids` that are ready to send now, by delivery id."""
    if not ids:
        return {}
    ready: dict[int, Ready] = {}
    for (delivery_id, last, attempt_count, retry_key, issued_at, first_at, due_at, late, local_date, start, end,
         next_day, note, line_user_id, classroom, language, zone_name) in session.execute(_READY, {"ids": ids}):
        if retry_key is not None and not policy.retry_key_usable(issued_at, now):
            continue
        if _starts_at(local_date, start, zone_name) <= now:
            continue
        facts = texts.ShiftFacts(classroom, local_date, start, end, next_day, note)
        ready[delivery_id] = Ready(delivery_id, (last or 0) + 1, attempt_count, retry_key, issued_at, first_at,
                                   due_at, late, line_builders.reminder_push(facts, language, line_user_id))
    return ready
