"""The month's publication: the roster of a classroom's month, to its LINE group and by e-mail.

On LINE it is the roster's pictures when an image host is set up (core/publication/image_hosts.py:
the manager's bucket first, then the relay while one is attached), else the month itself as Flex
carousels, one bubble a week (core/messages/month_flex.py), which need no host. A host that is set up
but cannot work — its secret missing, the keyring unreadable, the bucket or the relay refusing the
credentials — does not keep the month from the group: the next host set up is asked, and with none
left that attempt is recorded with why (HOSTING_UNUSABLE, LINE not contacted, no retry spent) and
every later attempt of the delivery sends the Flex month, so a retry repeats its request byte for
byte. A refusal found on the send thread (the bucket's upload) is recorded so too, and the next
attempt passes over that host. A failure that can pass (a 5xx, a timeout) is retried as any other.

The LINE group receives an announcement and the month's pages for phones, one image message each (a
revision published before pages existed goes out as a Flex bubble with the wide grid): LINE's
override. The kind's message is the e-mail template's announcement with the wide grid as its
picture, which e-mail shows inline; e-mail's override adds the grid as a PDF to print.

Enqueued when the manager publishes a month (core/publication/publish.py), due at once, or, for a
month published before the classroom had its group, as soon as it has one (core/planning/group_waiting.py); its e-mail
copies go to the teachers who chose e-mail or whom LINE could not reach
(core/planning/mailed_publication.py). At send time it is canceled when the publication is gone or a
newer revision of the month replaces it, the classroom has no LINE group any more, or (by e-mail) the
teacher cannot get it. On LINE it counts once per member of the group against the monthly quota.
While the teachers' page is ready, the group's month also carries "See the month" to the classroom's
month on the page (a small bubble after the cards, a line of the announcement before the pages, or the
old revision's card itself opening it: core/pages/buttons.py). When the manager chose so (PAGES_MONTH_AS_BUTTON), the page ready, the group's month
is instead one message, the announcement with that button (core/pages/month_message.py), and no host is
asked: the month's pictures are not put online. While the page is ready its classroom view also replaces
the classroom's own LIFF link from before the page (Classroom.liff_id).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.channels import email_render
from core.channels import registry as channels
from core.channels.base import Outgoing, RefusedBeforeSend
from core.channels.email_draft import Part
from core.kinds.registry import MessageKind, shared_reasons
from core.messages import email_text, month_flex, texts
from core.messages.message import Action, Audience, Message, Picture
from core.outbox.policy import CancelReason, ErrorCode
from core.pages import buttons, month_message
from core.planning import mailed_publication
from core.publication import hosting, image_hosts, month_image
from core.publication.image_store import ImageStore
from core.sending import message_facts, send_checks, send_rules
from core.sending.outgoing import CancelDelivery, CannotBuild
from core.store.kinds import Channel, DeliveryKind
from core.store.models import Classroom, Delivery, DeliveryAttempt, Publication
from core.store.paths import DataPaths
from core.texts import Text, t

KEY = DeliveryKind.SHIFT_PUBLICATION.value


def build_line(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    publication = send_checks.checked_publication(session, delivery)
    room = session.get(Classroom, publication.classroom_id)
    if room is None or not room.line_group_id:
        raise CancelDelivery(CancelReason.NO_GROUP)
    refusals = hosting_refusals(session, delivery.id)
    # Each recorded refusal passed over one host (core/publication/image_hosts.py): the next is asked.
    hosts = image_hosts.set_up(session)[refusals:]
    page = _page(session, Channel.LINE.value, publication, room)
    button = month_message.for_group(
        session, classroom=room.name, classroom_id=room.id, language=message_facts.language_of(room.language),
        year=publication.year, month=publication.month, revision=publication.revision, changed=_changed(publication))
    if button is not None:  # the page shows the month: no picture of it is put on any host
        return Outgoing("push", room.line_group_id, (button,))
    if not hosts:
        return _flex_push(publication, room, page)
    month = _month_pictures(publication, room, ImageStore(paths.images), page)
    signed_at = delivery.retry_key_issued_at or now
    refused: Text | str | None = None
    for host in hosts:
        try:
            placed = host.place(session, month.images, signed_at=signed_at)
        except hosting.HostingError as exc:
            if not exc.refused:  # it can pass (a 5xx, a timeout): retried, LINE not contacted
                return Outgoing("push", room.line_group_id, (), before_send=_fail(exc))
            refused = refused if refused is not None else exc.text
            continue
        publication.original_key, publication.preview_key = month.images[0].key, month.images[1].key
        return Outgoing("push", room.line_group_id, month.messages(placed.urls),
                        before_send=_refusing(placed.before_send))
    flex = _flex_push(publication, room, page)
    # Recorded once, with why (HOSTING_UNUSABLE): every later attempt sends the Flex month as it is.
    return replace(flex, before_send=_refuse(refused)) if refused is not None and not refusals else flex


def hosting_refusals(session: Session, delivery_id: int) -> int:
    """How many attempts of this delivery found an image host unusable: as many hosts are passed over,
    and with none left the month goes as Flex."""
    return int(session.scalar(select(func.count()).where(
        DeliveryAttempt.delivery_id == delivery_id, DeliveryAttempt.error_code == ErrorCode.HOSTING_UNUSABLE.value))
        or 0)


def _refuse(why: Text | str) -> Callable[[], None]:
    def refuse() -> None:
        raise RefusedBeforeSend(why)
    return refuse


def _fail(exc: Exception) -> Callable[[], None]:
    def fail() -> None:
        raise exc
    return fail


def _refusing(upload: Callable[[], None] | None) -> Callable[[], None] | None:
    """A refusal that repeats until the manager acts (hosting.HostingError.refused) stops this host
    for this delivery; anything else is retried as an upload failure."""
    if upload is None:
        return None

    def guarded() -> None:
        try:
            upload()
        except hosting.HostingError as exc:
            if exc.refused:
                raise RefusedBeforeSend(exc.text) from exc
            raise
    return guarded


def _page(session: Session, channel: str, publication: Publication, room: Classroom) -> Action | None:
    """"See the month" on the teachers' page, for a LINE group while the page is ready."""
    return buttons.for_group(session, channel, message_facts.language_of(room.language), "classroom",
                             label=buttons.CLASSROOM, classroom=f"c{room.id}",
                             month=buttons.month_of(publication.year, publication.month))


def _changed(publication: Publication) -> int:
    return len(json.loads(publication.changes_json or "[]"))


def _flex_push(publication: Publication, room: Classroom, page: Action | None) -> Outgoing:
    try:
        messages = month_flex.group_messages(message_facts.month_facts(publication, room))
    except month_flex.MonthTooLarge as exc:
        raise CannotBuild("MONTH_TOO_LARGE", t("send_error.MONTH_TOO_LARGE", count=exc.messages)) from None
    assert room.line_group_id is not None  # checked before
    return Outgoing("push", room.line_group_id, buttons.with_bubble(messages, page))


@dataclass(frozen=True)
class _MonthPictures:
    images: tuple[image_hosts.Image, ...]  # each page's original, then its preview
    messages: Callable[[tuple[str, ...]], tuple[dict[str, Any], ...]]  # the push, given the images' addresses


def _month_pictures(publication: Publication, room: Classroom, store: ImageStore, page: Action | None) -> _MonthPictures:
    """The announcement and one image message per page for phones (core/publication/month_pages.py);
    a revision published before pages existed: its Flex bubble with the wide grid."""
    base = f"shiftcast/{publication.document_id}"
    changed = _changed(publication)
    images: tuple[image_hosts.Image, ...]
    if not publication.pages_json:
        images = (image_hosts.Image(f"{base}/roster-r{publication.revision}.png",
                                    store.path_for(publication.image_sha256, ".png"), "image/png"),
                  image_hosts.Image(f"{base}/preview-r{publication.revision}.jpg",
                                    store.path_for(publication.preview_sha256, ".jpg"), "image/jpeg"))
        _check_files(publication, images)

        def card(urls: tuple[str, ...]) -> tuple[dict[str, Any], ...]:
            open_url = page.data if page is not None else _liff_link(publication, room) or urls[0]
            # The card itself opens the page while it is ready: no second link after it.
            return (texts.publication_flex(
                classroom=room.name, year=publication.year, month=publication.month, revision=publication.revision,
                changed=changed, language=room.language, preview_url=urls[1], open_url=open_url,
                width=publication.image_width, height=publication.image_height),)
        return _MonthPictures(images, card)
    pages = json.loads(publication.pages_json)
    images = tuple(image for n, page in enumerate(pages, start=1) for image in (
        image_hosts.Image(f"{base}/page{n}-r{publication.revision}.png", store.path_for(page["image"], ".png"),
                          "image/png"),
        image_hosts.Image(f"{base}/page{n}-preview-r{publication.revision}.jpg",
                          store.path_for(page["preview"], ".jpg"), "image/jpeg")))
    _check_files(publication, images)
    words = texts.publication_text(room.name, publication.year, publication.month, publication.revision, changed,
                                   room.language)
    if page is not None:  # the pages follow the text: the address goes in it, which LINE shows as a link
        words += f"\n{page.label}: {page.data}"
    elif (old := _liff_link(publication, room)) is not None:
        words += f"\n{old}"

    def pages_push(urls: tuple[str, ...]) -> tuple[dict[str, Any], ...]:
        return ({"type": "text", "text": words}, *({"type": "image", "originalContentUrl": urls[i],
                                                   "previewImageUrl": urls[i + 1]} for i in range(0, len(urls), 2)))
    return _MonthPictures(images, pages_push)


def _liff_link(publication: Publication, room: Classroom) -> str | None:
    """The classroom's own LIFF app from before the teachers' page, kept for a manager who set one; while
    the page is ready its classroom view takes this place."""
    return f"https://liff.line.me/{room.liff_id}?document={publication.document_id}" if room.liff_id else None


def _check_files(publication: Publication, images: tuple[image_hosts.Image, ...]) -> None:
    if not all(image.path.is_file() for image in images):
        raise CannotBuild("IMAGE_MISSING", t("send_error.IMAGE_MISSING", revision=publication.revision))


def compose(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Message:
    """The month's news and its wide grid as the picture: to each teacher (e-mail), or to a group."""
    publication = send_checks.checked_publication(session, delivery)
    teacher = None
    if delivery.teacher_id is not None:
        teacher = send_checks.checked_contact(session, delivery, send_checks.teacher_of(session, delivery), now)
    room = session.get(Classroom, publication.classroom_id)
    if room is None:
        raise CancelDelivery(CancelReason.CLASSROOM_MISSING)
    original = ImageStore(paths.images).path_for(publication.image_sha256, ".png")
    if not original.is_file():
        raise CannotBuild("IMAGE_MISSING", t("send_error.IMAGE_MISSING", revision=publication.revision))
    templates = email_render.templates(room.language, paths)
    fields = email_text.month_fields(room.name, publication.year, publication.month, publication.revision)
    changed = _changed(publication)
    text = email_text.publication_text(templates, fields, revision=publication.revision, changed=changed)
    picture = Picture(original.relative_to(paths.images).as_posix(), text.split("\n")[0], file_name=_stem(publication))
    page = _page(session, delivery.channel, publication, room) if teacher is None else None
    return Message.of_text(KEY, message_facts.language_of(room.language), text, facts=fields, pictures=(picture,),
                           actions=(page,) if page is not None else (),
                           to_name=teacher.display_name if teacher is not None else "",
                           variant="shift_publication_update" if publication.revision > 1 else "",
                           audience=Audience.TEACHER if teacher is not None else Audience.GROUP)


def build_email(session: Session, delivery: Delivery, now: dt.datetime, paths: DataPaths) -> Outgoing:
    """The month image inline and as a PDF attachment to print, so e-mail needs no image hosting."""
    message = compose(session, delivery, now, paths)
    original = paths.images / message.pictures[0].key
    sha = original.stem
    pdf = Part(lambda: _pdf(original), "application", "pdf", f"{message.pictures[0].file_name}.pdf", shared=f"pdf:{sha}")
    return email_render.render(session, delivery, message, paths, channels.driver(Channel.EMAIL.value),
                               attachments=(pdf,))


def _stem(publication: Publication) -> str:
    return f"shifts-{publication.year}-{publication.month:02d}-r{publication.revision}"


# A publication to 200 teachers makes the PDF once: the files are immutable (content-addressed), so the
# path names the content.
@lru_cache(maxsize=4)
def _pdf(path: Path) -> bytes:
    return month_image.pdf_of(email_render.read(path))


KIND = MessageKind(
    key=KEY,
    label=t("kind.shift_publication"),
    subject="publication",
    why=t("plan.why.publication"),
    compose=compose,
    overrides={Channel.LINE.value: build_line, Channel.EMAIL.value: build_email},
    cancel_reasons=shared_reasons(
        CancelReason.PUBLICATION_MISSING, CancelReason.SUPERSEDED, CancelReason.NO_GROUP,
        CancelReason.CLASSROOM_MISSING, *send_rules.teacher_reasons()),
    to_group=True,
    plan=mailed_publication.plan,  # e-mail copies; a month published before its group was chosen goes once it is
)
