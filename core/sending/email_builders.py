"""Send-time checks and the e-mail to send for reminders, corrections and publications.

The same checks as LINE's (core/sending/line_builders.py) with the teacher's e-mail consent instead of LINE's; the
same message text, wrapped by core/messages/email_text.py. The publication mail carries the month image
inline and the PDF attached, so e-mail needs no image hosting.
"""

from __future__ import annotations

import datetime as dt
import json
from functools import lru_cache
from pathlib import Path

from sqlalchemy.orm import Session

from core.channels.base import Outgoing
from core.channels.email_draft import MailDraft, Part, message_id
from core.messages import email_text, texts
from core.outbox.policy import CancelReason
from core.publication import month_image
from core.publication.image_store import ImageStore
from core.roster import contacts
from core.sending.line_builders import check_publication_is_newest, checked_shift, correction_for, facts_of
from core.sending.line_builders import templates as line_templates
from core.sending.outgoing import CancelDelivery, CannotBuild
from core.store import setting_keys as keys
from core.store.models import Channel, Classroom, Delivery, Teacher
from core.store.paths import DataPaths
from core.texts import t

ROSTER_CID = "roster@shiftcast"


def check_email_teacher(teacher: Teacher | None, delivery: Delivery) -> Teacher:
    if teacher is None or not teacher.active or teacher.erased_at is not None:
        raise CancelDelivery(CancelReason.TEACHER_INACTIVE)
    mail = contacts.on(teacher.contacts, Channel.EMAIL)
    if mail is None or not contacts.usable(mail):
        raise CancelDelivery(CancelReason.EMAIL_NOT_OPTED_IN)
    # A fallback copy stands in for a LINE delivery, so the teacher's LINE choice does not cancel it.
    if delivery.linked_delivery_id is None and not contacts.wants(teacher.contacts, Channel.EMAIL):
        raise CancelDelivery(CancelReason.CHANNEL_CHANGED)
    return teacher


def _templates(language: str, paths: DataPaths) -> email_text.EmailTemplates:
    return _load_templates(language, paths.templates)


@lru_cache(maxsize=8)
def _load_templates(language: str, folder: Path) -> email_text.EmailTemplates:
    # Loaded once per process and folder, like the LINE templates: an edited copy applies from the next start.
    return email_text.load_templates(language, folder)


def sender_address(session: Session) -> tuple[str, str | None]:
    from_address = (keys.SMTP_FROM.read(session) or "").strip()
    if not from_address:
        raise CannotBuild("SMTP_NOT_CONFIGURED", t("send_error.SMTP_NOT_CONFIGURED"))
    return from_address, (keys.SMTP_FROM_NAME.read(session) or "").strip() or None


def mail_to(session: Session, delivery: Delivery, teacher: Teacher, composed: email_text.Composed, *,
            inline: tuple[Part, ...] = (), attachments: tuple[Part, ...] = ()) -> Outgoing:
    from_address, from_name = sender_address(session)
    address = str(contacts.address_on(teacher, Channel.EMAIL))
    draft = MailDraft(to=address, to_name=teacher.name, from_address=from_address, from_name=from_name,
                      subject=composed.subject, text=composed.text, html=composed.html,
                      message_id=message_id(delivery.id, delivery.dedup_key, from_address),
                      inline=inline, attachments=attachments)
    return Outgoing("email", address, (), mail=draft)


def build_reminder(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    shift = checked_shift(session, delivery, now, reminder=True)
    teacher = check_email_teacher(shift.teacher, delivery)
    room = shift.classroom
    facts = facts_of(shift, room, shift.note)
    text = texts.reminder_text(facts, room.language, line_templates(room.language, paths))
    composed = email_text.compose(_templates(room.language, paths), subject_name="shift_reminder", message_text=text,
                                     fields=email_text.shift_fields(facts, room.language),
                                     name=teacher.display_name)
    return mail_to(session, delivery, teacher, composed)


def build_correction(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    shift = checked_shift(session, delivery, now, reminder=False)
    teacher = check_email_teacher(session.get(Teacher, delivery.teacher_id) if delivery.teacher_id else None,
                                  delivery)
    correction = correction_for(session, shift, teacher, paths)
    fields = email_text.shift_fields(correction.before, correction.language)
    composed = email_text.compose(_templates(correction.language, paths), subject_name=correction.template,
                                     message_text=correction.text, fields=fields, name=teacher.display_name,
                                     accent=email_text.CORRECTION_ACCENT)
    return mail_to(session, delivery, teacher, composed)


def build_publication(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    publication = check_publication_is_newest(session, delivery)
    teacher = check_email_teacher(session.get(Teacher, delivery.teacher_id) if delivery.teacher_id else None,
                                  delivery)
    room = session.get(Classroom, publication.classroom_id)
    if room is None:
        raise CancelDelivery(CancelReason.CLASSROOM_MISSING)
    original = ImageStore(paths.images).path_for(publication.image_sha256, ".png")
    if not original.is_file():
        raise CannotBuild("IMAGE_MISSING", t("send_error.IMAGE_MISSING", revision=publication.revision))
    templates = _templates(room.language, paths)
    fields = email_text.month_fields(room.name, publication.year, publication.month, publication.revision)
    changed = len(json.loads(publication.changes_json or "[]"))
    text = email_text.publication_text(templates, fields, revision=publication.revision, changed=changed)
    subject = "shift_publication_update" if publication.revision > 1 else "shift_publication"
    composed = email_text.compose(templates, subject_name=subject, message_text=text, fields=fields,
                                     name=teacher.display_name, image_cid=ROSTER_CID, image_alt=text.splitlines()[0])
    stem = f"shifts-{publication.year}-{publication.month:02d}-r{publication.revision}"
    image = Part(lambda: _read(original), "image", "png", f"{stem}.png", cid=ROSTER_CID,
                 shared=f"png:{publication.image_sha256}")
    pdf = Part(lambda: _pdf(original), "application", "pdf", f"{stem}.pdf", shared=f"pdf:{publication.image_sha256}")
    return mail_to(session, delivery, teacher, composed, inline=(image,), attachments=(pdf,))


# A publication to 200 teachers reads the image and makes the PDF once: the files are immutable
# (content-addressed), so the path names the content.
@lru_cache(maxsize=4)
def _read(path: Path) -> bytes:
    return path.read_bytes()


@lru_cache(maxsize=4)
def _pdf(path: Path) -> bytes:
    return month_image.pdf_of(_read(path))
