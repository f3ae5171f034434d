"""The month's publication: the roster of a classroom's month, to its LINE group and by e-mail.

On LINE it is the roster image when image hosting is set up, else the month itself as Flex carousels,
one bubble a week (core/messages/month_flex.py), which need no hosting. Hosting that is set up but
cannot work — its secret missing, the keyring unreadable, the bucket refusing the credentials — does
not keep the month from the group: that attempt is recorded with why (HOSTING_UNUSABLE, LINE not
contacted, no retry spent) and every later attempt of the delivery sends the Flex month, so a retry
repeats its request byte for byte. A failure that can pass (a 5xx, a timeout) is retried as any other.

The LINE group receives an announcement and the month's pages for phones, one image message each (a
revision published before pages existed goes out as a Flex bubble with the wide grid); e-mail carries
the wide grid and its PDF.

Enqueued when the manager publishes a month (core/publication/publish.py), due at once; its e-mail
copies go to the teachers who chose e-mail or whom LINE could not reach
(core/planning/mailed_publication.py). At send time it is canceled when the publication is gone or a
newer revision of the month replaces it, the classroom has no LINE group any more, or (by e-mail) the
teacher cannot get it. On LINE it counts once per member of the group against the monthly quota.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from core.channels.base import Outgoing, RefusedBeforeSend
from core.channels.email_draft import Part
from core.kinds.registry import MessageKind, shared_reasons
from core.messages import email_text, month_flex, texts
from core.outbox.policy import CancelReason, ErrorCode
from core.publication import hosting, month_image
from core.publication.image_store import ImageStore
from core.sending import email_builders, line_builders, send_checks
from core.sending.outgoing import CancelDelivery, CannotBuild
from core.store.kinds import Channel, DeliveryKind
from core.store.models import Classroom, Delivery, DeliveryAttempt, Publication
from core.store.paths import DataPaths
from core.texts import Text, t

ROSTER_CID = "roster@shiftcast"


def build_line(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    publication = send_checks.checked_publication(session, delivery)
    room = session.get(Classroom, publication.classroom_id)
    if room is None or not room.line_group_id:
        raise CancelDelivery(CancelReason.NO_GROUP)
    if host_failed(session, delivery.id):
        return _flex_push(publication, room)
    try:
        host = hosting.from_settings(session)
    except hosting.HostingError as exc:
        return replace(_flex_push(publication, room), before_send=_refuse(exc.text))
    if host is None:
        return _flex_push(publication, room)
    store = ImageStore(paths.images)
    if publication.pages_json:
        return _pages_push(publication, room, host, store, delivery.retry_key_issued_at or now)
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
        with _refusals():
            host.ensure_uploaded(original_key, original, "image/png")
            host.ensure_uploaded(preview_key, preview, "image/jpeg")

    publication.original_key, publication.preview_key = original_key, preview_key
    return Outgoing("push", room.line_group_id, (message,), before_send=upload)


def host_failed(session: Session, delivery_id: int) -> bool:
    """Has an attempt of this delivery found image hosting unusable? Then it goes as the Flex month."""
    return bool(session.scalar(select(exists().where(
        DeliveryAttempt.delivery_id == delivery_id, DeliveryAttempt.error_code == ErrorCode.HOSTING_UNUSABLE.value))))


def _refuse(why: Text | str) -> Callable[[], None]:
    def refuse() -> None:
        raise RefusedBeforeSend(why)
    return refuse


@contextmanager
def _refusals() -> Iterator[None]:
    """A refusal that repeats until the manager acts (hosting.HostingError.refused) stops the images
    for this delivery; anything else is retried as an upload failure."""
    try:
        yield
    except hosting.HostingError as exc:
        if exc.refused:
            raise RefusedBeforeSend(exc.text) from exc
        raise


def _flex_push(publication: Publication, room: Classroom) -> Outgoing:
    try:
        messages = month_flex.group_messages(line_builders.month_facts(publication, room))
    except month_flex.MonthTooLarge as exc:
        raise CannotBuild("MONTH_TOO_LARGE", t("send_error.MONTH_TOO_LARGE", count=exc.messages)) from None
    assert room.line_group_id is not None  # checked before
    return Outgoing("push", room.line_group_id, tuple(messages))


def _pages_push(publication: Publication, room: Classroom, host: hosting.Hosting | hosting.LocalHosting,
                store: ImageStore, signed_at: dt.datetime) -> Outgoing:
    """The announcement, then one image message per page for phones (core/publication/month_pages.py)."""
    pages = json.loads(publication.pages_json or "[]")
    files = [(store.path_for(p["image"], ".png"), store.path_for(p["preview"], ".jpg")) for p in pages]
    if not all(original.is_file() and preview.is_file() for original, preview in files):
        raise CannotBuild("IMAGE_MISSING", t("send_error.IMAGE_MISSING", revision=publication.revision))
    base = f"shiftcast/{publication.document_id}"
    keys = [(f"{base}/page{n}-r{publication.revision}.png", f"{base}/page{n}-preview-r{publication.revision}.jpg")
            for n in range(1, len(pages) + 1)]
    changed = len(json.loads(publication.changes_json or "[]"))
    words = texts.publication_text(room.name, publication.year, publication.month, publication.revision, changed,
                                   room.language)
    if room.liff_id:
        words += f"\nhttps://liff.line.me/{room.liff_id}?document={publication.document_id}"
    messages: list[dict[str, str]] = [{"type": "text", "text": words}]
    messages += [{"type": "image", "originalContentUrl": host.url_for(original, signed_at=signed_at),
                  "previewImageUrl": host.url_for(preview, signed_at=signed_at)} for original, preview in keys]

    def upload() -> None:
        with _refusals():
            for (original_key, preview_key), (original, preview) in zip(keys, files, strict=True):
                host.ensure_uploaded(original_key, original, "image/png")
                host.ensure_uploaded(preview_key, preview, "image/jpeg")

    publication.original_key, publication.preview_key = keys[0]
    return Outgoing("push", str(room.line_group_id), tuple(messages), before_send=upload)


def build_email(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    """The month image inline and as a PDF attachment, so e-mail needs no image hosting."""
    publication = send_checks.checked_publication(session, delivery)
    teacher = send_checks.checked_email_teacher(send_checks.teacher_of(session, delivery), delivery)
    room = session.get(Classroom, publication.classroom_id)
    if room is None:
        raise CancelDelivery(CancelReason.CLASSROOM_MISSING)
    original = ImageStore(paths.images).path_for(publication.image_sha256, ".png")
    if not original.is_file():
        raise CannotBuild("IMAGE_MISSING", t("send_error.IMAGE_MISSING", revision=publication.revision))
    templates = email_builders.templates(room.language, paths)
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
    return email_builders.mail_to(session, delivery, teacher, composed, inline=(image,), attachments=(pdf,))


# A publication to 200 teachers reads the image and makes the PDF once: the files are immutable
# (content-addressed), so the path names the content.
@lru_cache(maxsize=4)
def _read(path: Path) -> bytes:
    return path.read_bytes()


@lru_cache(maxsize=4)
def _pdf(path: Path) -> bytes:
    return month_image.pdf_of(_read(path))


KIND = MessageKind(
    key=DeliveryKind.SHIFT_PUBLICATION.value,
    label=t("kind.shift_publication"),
    subject="publication",
    why=t("plan.why.publication"),
    builders={Channel.LINE.value: build_line, Channel.EMAIL.value: build_email},
    cancel_reasons=shared_reasons(
        CancelReason.PUBLICATION_MISSING, CancelReason.SUPERSEDED, CancelReason.NO_GROUP,
        CancelReason.CLASSROOM_MISSING, CancelReason.TEACHER_INACTIVE, CancelReason.EMAIL_NOT_OPTED_IN,
        CancelReason.CHANNEL_CHANGED),
    to_group=True,
)
