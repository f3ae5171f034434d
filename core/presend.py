"""Checks at send time and the message to send, both read from the database, never from enqueue time.

A delivery carries only its kind and what it is about; here the sender reloads the shift, teacher,
classroom or publication as they are now. If the delivery no longer makes sense it is canceled with
a reason; otherwise the LINE recipient and messages are built.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core import clock, roster
from core.models import Delivery, DeliveryKind, Publication, ShiftStatus


class CancelDelivery(Exception):
    """Raised by a check: the delivery is canceled with `reason` (a code) instead of sent."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CannotBuild(Exception):
    """The message cannot be built at all (a permanent failure with a code)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Outgoing:
    endpoint: str  # "push" or "multicast"
    to: str | tuple[str, ...]
    messages: tuple[dict[str, Any], ...]


Builder = Callable[[Session, Delivery, dt.datetime], Outgoing]
_builders: dict[DeliveryKind, Builder] = {}


def register(kind: DeliveryKind) -> Callable[[Builder], Builder]:
    def wrap(builder: Builder) -> Builder:
        _builders[kind] = builder
        return builder

    return wrap


def prepare(session: Session, delivery: Delivery, now: dt.datetime) -> Outgoing:
    builder = _builders.get(delivery.kind)
    if builder is None:
        raise CannotBuild("UNSUPPORTED_KIND", f"no message is defined for {delivery.kind.value} deliveries")
    return builder(session, delivery, now)


def _shift_for_teacher(session: Session, delivery: Delivery, now: dt.datetime, *, allow_canceled: bool):  # type: ignore[no-untyped-def]
    if delivery.shift_id is None:
        raise CancelDelivery("SHIFT_MISSING")
    shift = session.get(roster.Shift, delivery.shift_id)
    if shift is None:
        raise CancelDelivery("SHIFT_MISSING")
    if shift.version != delivery.shift_version:
        raise CancelDelivery("SHIFT_CHANGED")
    if shift.status != ShiftStatus.CONFIRMED and not (allow_canceled and shift.status == ShiftStatus.CANCELED):
        raise CancelDelivery("SHIFT_NOT_CONFIRMED")
    start, _ = roster.shift_instants(shift)
    if start <= now:
        raise CancelDelivery("SHIFT_STARTED")
    teacher = shift.teacher
    if delivery.teacher_id is not None and teacher.id != delivery.teacher_id:
        raise CancelDelivery("TEACHER_CHANGED")
    if not teacher.active or teacher.erased_at is not None:
        raise CancelDelivery("TEACHER_INACTIVE")
    if not teacher.line_opt_in or not teacher.line_user_id:
        raise CancelDelivery("LINE_NOT_OPTED_IN")
    return shift


WEEKDAYS = {"ja": "月火水木金土日", "en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")}


def _when(shift: Any, language: str) -> str:
    day = shift.local_date
    end = clock.format_wall_time(shift.end_time, next_day=shift.ends_next_day)
    start = clock.format_wall_time(shift.start_time)
    if language == "en":
        return f"{WEEKDAYS['en'][day.weekday()]} {day:%d %b %Y} {start}–{end}"
    return f"{day.month}月{day.day}日({WEEKDAYS['ja'][day.weekday()]}) {start}〜{end}"


@register(DeliveryKind.SHIFT_REMINDER)
def build_reminder(session: Session, delivery: Delivery, now: dt.datetime) -> Outgoing:
    shift = _shift_for_teacher(session, delivery, now, allow_canceled=False)
    room = shift.classroom
    if room.language == "en":
        text = f"Reminder: your shift at {room.name}\n{_when(shift, 'en')}"
    else:
        text = f"【シフトのお知らせ】{room.name}\n{_when(shift, 'ja')}"
    if shift.note:
        text += f"\n{shift.note}"
    return Outgoing("push", shift.teacher.line_user_id, ({"type": "text", "text": text[:5000]},))


@register(DeliveryKind.SHIFT_CORRECTION)
def build_correction(session: Session, delivery: Delivery, now: dt.datetime) -> Outgoing:
    shift = _shift_for_teacher(session, delivery, now, allow_canceled=True)
    room = shift.classroom
    canceled = shift.status == ShiftStatus.CANCELED
    if room.language == "en":
        head = "Your shift was canceled" if canceled else "Your shift was changed"
        text = f"{head}: {room.name}\n{_when(shift, 'en')}"
    else:
        head = "【シフト取消】" if canceled else "【シフト変更】"
        text = f"{head}{room.name}\n{_when(shift, 'ja')}"
    return Outgoing("push", shift.teacher.line_user_id, ({"type": "text", "text": text[:5000]},))


def check_publication_is_newest(session: Session, delivery: Delivery) -> Publication:
    publication = session.get(Publication, delivery.publication_id) if delivery.publication_id else None
    if publication is None:
        raise CancelDelivery("PUBLICATION_MISSING")
    newest = session.scalar(
        select(func.max(Publication.revision)).where(
            Publication.classroom_id == publication.classroom_id,
            Publication.year == publication.year,
            Publication.month == publication.month,
        )
    )
    if newest != publication.revision:
        raise CancelDelivery("SUPERSEDED")
    return publication
