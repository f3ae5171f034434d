"""Checks at send time and the message to send, both read from the database, never from enqueue time.

A delivery carries only its kind, channel and what it is about; here the sender reloads the shift,
teacher, classroom or publication as they are now. If the delivery no longer makes sense it is
canceled with a reason; otherwise the recipient and message are built. This module holds the checks
every channel shares and builds LINE messages; core.sending.builders lists every builder.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.channels import registry
from core.channels.base import Outgoing
from core.messages import ack, texts
from core.outbox.policy import CancelReason
from core.planning import fallback, told
from core.publication import hosting
from core.publication.image_store import ImageStore
from core.roster import rules
from core.sending import send_rules
from core.sending.outgoing import CancelDelivery, CannotBuild
from core.store.models import (
    Classroom,
    Delivery,
    Publication,
    Shift,
    ShiftRevision,
    ShiftStatus,
    Teacher,
)
from core.store.paths import DataPaths
from core.texts import t


def _shift_of(session: Session, delivery: Delivery) -> Shift | None:
    return session.get(Shift, delivery.shift_id) if delivery.shift_id is not None else None


def _enforce(session: Session, delivery: Delivery, rules_: tuple[send_rules.Rule, ...], shift: Shift | None,
             teacher: Teacher | None, now: dt.datetime) -> None:
    """Raise CancelDelivery with the first rule that does not hold; a rule marked `then_fallback`
    enqueues the copy on the teacher's next channel (in this transaction) first, if their rule falls back."""
    starts_at = rules.shift_instants(shift)[0] if shift is not None else None
    broken = send_rules.first_broken(rules_, send_rules.subject_of(delivery, shift, teacher, starts_at, now))
    if broken is None:
        return
    if broken.then_fallback and teacher is not None:
        fallback.send_instead(session, delivery, teacher, now=now)
    raise CancelDelivery(broken.reason)


def checked_shift(session: Session, delivery: Delivery, now: dt.datetime, *, reminder: bool) -> Shift:
    """The delivery's shift, still what it is about (and for a reminder: confirmed, still this teacher's)."""
    shift = _shift_of(session, delivery)
    _enforce(session, delivery, send_rules.SHIFT + (send_rules.REMINDER if reminder else ()), shift, None, now)
    assert shift is not None  # SHIFT_MISSING comes first
    return shift


def checked_teacher(session: Session, delivery: Delivery, teacher: Teacher | None, now: dt.datetime) -> Teacher:
    """The teacher can and wants to get this on the delivery's channel (its driver's cancel reasons)."""
    _enforce(session, delivery, send_rules.for_channel(delivery.channel), None, teacher, now)
    assert teacher is not None  # TEACHER_INACTIVE comes first
    return teacher


def recipient(teacher: Teacher, delivery: Delivery) -> str:
    """Where the delivery goes now: the teacher's contact on its channel, as the channel's driver takes it."""
    found = fallback.recipient(teacher, delivery.channel)
    if found is None:  # checked_teacher found the contact usable
        raise CancelDelivery(registry.driver(delivery.channel).cancel_reasons.not_agreed  # type: ignore[union-attr]
                             if registry.registered(delivery.channel) else CancelReason.CHANNEL_CHANGED)
    return found


def facts_of(shift: Shift | ShiftRevision, classroom: Classroom, note: str = "") -> texts.ShiftFacts:
    return texts.ShiftFacts(classroom.name, shift.local_date, shift.start_time, shift.end_time,
                               shift.ends_next_day, note)


def build_reminder(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    shift = checked_shift(session, delivery, now, reminder=True)
    teacher = checked_teacher(session, delivery, shift.teacher, now)
    room = shift.classroom
    push = reminder_push(facts_of(shift, room, shift.note), room.language, recipient(teacher, delivery), paths)
    return with_ack(push, ack_data(session, delivery), room.language)


def ack_data(session: Session, delivery: Delivery) -> str | None:
    """The 了解 button's data for this delivery, or None while the buttons are off (the setting is read
    at every build: a retry after the manager switched it carries what the setting says now)."""
    sign = ack.signer(session)
    return None if sign is None else sign(delivery.id)


def with_ack(outgoing: Outgoing, data: str | None, language: str) -> Outgoing:
    """The push with the 了解 button in its message (as it is, without data)."""
    if data is None:
        return outgoing
    return dataclasses.replace(outgoing, messages=tuple(ack.with_button(m, data, language) for m in outgoing.messages))


def reminder_push(facts: texts.ShiftFacts, language: str, line_user_id: str, paths: DataPaths) -> Outgoing:
    """The LINE push of a reminder (also built by core/sending/reminder_batch.py, from the same facts)."""
    text = texts.reminder_text(facts, language, templates(language, paths))
    return Outgoing("push", line_user_id, (texts.flex_message(text),))


@dataclass(frozen=True)
class Correction:
    """What a correction tells a teacher, whatever the channel."""

    template: str  # shift_correction, shift_cancellation or shift_reassigned
    text: str
    before: texts.ShiftFacts
    language: str
    classroom: Classroom


def correction_for(session: Session, shift: Shift, teacher: Teacher, paths: DataPaths) -> Correction:
    """Old → new for the teacher who was told an older version (or a cancellation / hand-over notice)."""
    told = planner_told_version(session, shift.id, teacher.id, below=shift.version)
    if told is None:
        raise CancelDelivery(CancelReason.NOTHING_TOLD)
    before_rev = session.scalar(select(ShiftRevision).where(ShiftRevision.shift_id == shift.id,
                                                            ShiftRevision.version == told))
    if before_rev is None:
        raise CancelDelivery(CancelReason.NO_HISTORY)
    room = shift.classroom
    before = facts_of(before_rev, session.get(Classroom, before_rev.classroom_id) or room)
    reassigned = shift.teacher_id != teacher.id
    after = None if reassigned or shift.status == ShiftStatus.CANCELED else facts_of(shift, room, shift.note)
    text = texts.correction_text(before, after, room.language, templates(room.language, paths), reassigned=reassigned)
    template = "shift_reassigned" if reassigned else "shift_cancellation" if after is None else "shift_correction"
    return Correction(template, text, before, room.language, room)


def build_correction(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    shift = checked_shift(session, delivery, now, reminder=False)
    teacher = session.get(Teacher, delivery.teacher_id) if delivery.teacher_id else None
    teacher = checked_teacher(session, delivery, teacher, now)
    correction = correction_for(session, shift, teacher, paths)
    push = Outgoing("push", recipient(teacher, delivery), (texts.flex_message(correction.text, accent="#C0392B"),))
    return with_ack(push, ack_data(session, delivery), correction.language)


def planner_told_version(session: Session, shift_id: int, teacher_id: int, *, below: int) -> int | None:
    """The newest version of a shift this teacher was told about: by a reminder or correction, or a
    published month (the planner's own rule, core/planning/told.py)."""
    return told.told_version(session, shift_id, teacher_id, below=below)


def templates(language: str, paths: DataPaths) -> dict[str, str]:
    return _templates(language, paths.templates)


@lru_cache(maxsize=8)
def _templates(language: str, folder: Path) -> dict[str, str]:
    # Loaded once per process and folder: a template edited in the data folder applies from the next start.
    return texts.load_templates(language, folder)


def build_publication(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    publication = check_publication_is_newest(session, delivery)
    room = session.get(Classroom, publication.classroom_id)
    if room is None or not room.line_group_id:
        raise CancelDelivery(CancelReason.NO_GROUP)
    try:
        host = hosting.from_settings(session)
    except hosting.HostingError as exc:
        raise CannotBuild("HOSTING_CREDENTIALS", exc.text) from None
    if host is None:
        raise CannotBuild("HOSTING_NOT_CONFIGURED", t("send_error.HOSTING_NOT_CONFIGURED"))
    store = ImageStore(paths.images)
    original = store.path_for(publication.image_sha256, ".png")
    preview = store.path_for(publication.preview_sha256, ".jpg")
    if not original.is_file() or not preview.is_file():
        raise CannotBuild("IMAGE_MISSING", t("send_error.IMAGE_MISSING", revision=publication.revision))
    base = f"shiftcast/{publication.document_id}"
    original_key, preview_key = f"{base}/roster-r{publication.revision}.png", f"{base}/preview-r{publication.revision}.jpg"
    signed_at = delivery.retry_key_issued_at or now
    original_url = host.url_for(original_key, signed_at=signed_at)
    open_url = (f"https://liff.line.me/{room.liff_id}?document={publication.document_id}" if room.liff_id
                else original_url)
    changed = len(json.loads(publication.changes_json or "[]"))
    message = texts.publication_flex(
        classroom=room.name, year=publication.year, month=publication.month, revision=publication.revision,
        changed=changed, language=room.language, preview_url=host.url_for(preview_key, signed_at=signed_at),
        open_url=open_url, width=publication.image_width, height=publication.image_height,
    )

    def upload() -> None:
        host.ensure_uploaded(original_key, original, "image/png")
        host.ensure_uploaded(preview_key, preview, "image/jpeg")

    publication.original_key, publication.preview_key = original_key, preview_key
    return Outgoing("push", room.line_group_id, (message,), before_send=upload)


def check_publication_is_newest(session: Session, delivery: Delivery) -> Publication:
    publication = session.get(Publication, delivery.publication_id) if delivery.publication_id else None
    if publication is None:
        raise CancelDelivery(CancelReason.PUBLICATION_MISSING)
    newest = session.scalar(
        select(func.max(Publication.revision)).where(
            Publication.classroom_id == publication.classroom_id,
            Publication.year == publication.year,
            Publication.month == publication.month,
        )
    )
    if newest != publication.revision:
        raise CancelDelivery(CancelReason.SUPERSEDED)
    return publication

