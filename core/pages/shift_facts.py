"""What the teachers' page says about a teacher's shifts beyond the roster: what changed since they were
last told (core/planning/told.py's rule, read for many shifts at once), whether they acknowledged it on
any channel, the 了解 data the page posts back, and why the latest reminder failed."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.kinds import registry as kinds
from core.messages import ack
from core.outbox import policy
from core.planning import told
from core.roster import clock
from core.store import ack_key
from core.store import setting_keys as keys
from core.store.models import (
    Channel,
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    Shift,
    ShiftRevision,
    ShiftStatus,
    SubjectType,
)
from core.store.secrets import SecretStoreError
from core.texts import render
from core.texts.formats import Language

log = logging.getLogger(__name__)
CHUNK = 500


@dataclass(frozen=True)
class Facts:
    told: dict[tuple[int, int], int]  # (shift, teacher) → the newest version they were told, up to the current one
    acked: set[tuple[int, int]]  # (shift, teacher) acknowledged at the shift's current version, on any channel
    ack_data: dict[tuple[int, int], str]  # (shift, teacher) → the 了解 data of the latest LINE reminder or correction


def _chunks(ids: list[int]) -> Iterable[list[int]]:
    for start in range(0, len(ids), CHUNK):
        yield ids[start:start + CHUNK]


def button_key(session: Session) -> str | None:
    """The key the 了解 buttons are signed with, while the buttons are on; else None (no data offered)."""
    if not keys.LINE_ACK_BUTTON.read(session):
        return None
    try:
        return ack_key.held_key(session)
    except SecretStoreError:
        log.info("the teachers' page offers no 了解 while the button key cannot be read")
        return None


def facts(session: Session, shifts: list[Shift]) -> Facts:
    ids = sorted({s.id for s in shifts})
    version = {s.id: s.version for s in shifts}
    told_at: dict[tuple[int, int], int] = {}
    by_publication: dict[int, dict[int, int]] = told.told_by_publication(session, ids) if ids else {}
    for shift_id, teachers in by_publication.items():
        for teacher_id, shown in teachers.items():
            told_at[(shift_id, teacher_id)] = min(shown, version[shift_id])
    acked: set[tuple[int, int]] = set()
    latest: dict[tuple[int, int], int] = {}
    acknowledged = kinds.acknowledged_keys()
    for part in _chunks(ids):
        for subject_id, sent_to, newest in session.execute(
                select(Delivery.subject_id, Delivery.teacher_id, func.max(Delivery.subject_version)).where(
                    Delivery.about(SubjectType.SHIFT, part), Delivery.kind.in_(kinds.told_keys()),
                    Delivery.status == DeliveryStatus.SENT, Delivery.teacher_id.is_not(None))
                .group_by(Delivery.subject_id, Delivery.teacher_id)):
            if subject_id is None or sent_to is None or newest is None:
                continue
            pair = (subject_id, sent_to)
            told_at[pair] = max(told_at.get(pair, 0), min(newest, version[subject_id]))
        for row in session.execute(
                select(Delivery.id, Delivery.subject_id, Delivery.teacher_id, Delivery.subject_version, Delivery.channel,
                       Delivery.status, Delivery.acknowledged_at)
                .where(Delivery.about(SubjectType.SHIFT, part), Delivery.kind.in_(acknowledged),
                       Delivery.teacher_id.is_not(None))):
            if row.subject_id is None or row.teacher_id is None or row.subject_version != version[row.subject_id]:
                continue  # an older version's message acknowledges nothing of the shift as it is now
            pair = (row.subject_id, row.teacher_id)
            if row.acknowledged_at is not None:
                acked.add(pair)
            if row.channel == Channel.LINE.value and row.status == DeliveryStatus.SENT and row.id > latest.get(pair, 0):
                latest[pair] = row.id
    key = button_key(session) if latest else None
    data = {pair: ack.postback_data(key, delivery_id) for pair, delivery_id in latest.items()} if key else {}
    return Facts(told_at, acked, data)


def revisions(session: Session, wanted: set[tuple[int, int]]) -> dict[tuple[int, int], ShiftRevision]:
    """(shift, version) → that revision."""
    found: dict[tuple[int, int], ShiftRevision] = {}
    for part in _chunks(sorted({shift_id for shift_id, _ in wanted})):
        for row in session.scalars(select(ShiftRevision).where(ShiftRevision.shift_id.in_(part))):
            if (row.shift_id, row.version) in wanted:
                found[(row.shift_id, row.version)] = row
    return found


def wall(row: Shift | ShiftRevision) -> dict[str, str]:
    return {"date": row.local_date.isoformat(), "start": clock.format_wall_time(row.start_time),
            "end": clock.format_wall_time(row.end_time, next_day=row.ends_next_day)}


def change(shift: Shift, told_version: int | None, was: ShiftRevision | None) -> dict[str, Any] | None:
    """What changed since the teacher was last told: new (never told), moved (told other times or another
    day), canceled (told, and canceled since); None when what they were told still holds."""
    if shift.status == ShiftStatus.CANCELED:
        return {"kind": "canceled", "was": wall(was) if was is not None else None}
    if told_version is None:
        return {"kind": "new", "was": None}
    if told_version >= shift.version or was is None:
        return None
    if was.status == ShiftStatus.CANCELED:
        return {"kind": "new", "was": None}
    if wall(was) != wall(shift) or was.classroom_id != shift.classroom_id:
        return {"kind": "moved", "was": wall(was)}
    return None


def failed(session: Session, shift_ids: list[int], language: Language) -> dict[tuple[int, int], str]:
    """(shift, teacher) → why the latest reminder failed, in the classroom's language, where it did."""
    found: dict[tuple[int, int], str] = {}
    for part in _chunks(sorted(set(shift_ids))):
        for row in session.execute(
                select(Delivery.id, Delivery.subject_id, Delivery.teacher_id, Delivery.status, Delivery.last_error_code,
                       Delivery.last_error_message)
                .where(Delivery.about(SubjectType.SHIFT, part), Delivery.kind == DeliveryKind.SHIFT_REMINDER.value,
                       Delivery.teacher_id.is_not(None)).order_by(Delivery.id)):
            pair = (row.subject_id, row.teacher_id)
            if row.status == DeliveryStatus.FAILED:
                words = render(policy.shown_error(row.last_error_message), language) or (row.last_error_code or "")
                found[pair] = words or "?"
            else:
                found.pop(pair, None)
    return found

