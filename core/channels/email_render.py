"""A kind's message (core/messages/message.py) as an e-mail, and where it goes.

To a teacher: the subject from the e-mail templates by the message's form (its kind, or its variant:
`email_subjects.txt`), the message's facts filling the subject and the layout, the text in the
layout with the teacher's name, and the same as HTML with the title bar in the message's accent
(core/messages/email_text.py); its pictures inline, so e-mail needs no image hosting. A link action
is written out with its address; a postback cannot be answered by e-mail and is left out. To the
manager: the text as it is, and as HTML line by line, under its subject (or its heading). The
sender's address is read from the settings when the message is built.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path, PurePosixPath

from sqlalchemy.orm import Session

from core.channels import addressing
from core.channels.base import ChannelDriver, Outgoing
from core.channels.build_errors import CannotBuild
from core.channels.email_draft import MailDraft, Part, message_id
from core.messages import email_text
from core.messages.message import ActionKind, Audience, Message, Picture
from core.store import setting_keys as keys
from core.store.models import Delivery
from core.store.paths import DataPaths
from core.texts import t

# Canceled: no e-mail address is set up for the manager (the alerts' address); its words are the driver's.
MANAGER_NOT_SET = "MANAGER_EMAIL_NOT_CONFIGURED"


def templates(language: str, paths: DataPaths) -> email_text.EmailTemplates:
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


def render(session: Session, delivery: Delivery, message: Message, paths: DataPaths, driver: ChannelDriver, *,
           attachments: Sequence[Part] = ()) -> Outgoing:
    """The e-mail of the message; `attachments` go with it as they are (the month's PDF)."""
    if message.audience is Audience.MANAGER:
        to = addressing.setting_address(session, keys.ALERTS_EMAIL, MANAGER_NOT_SET)
        return to_manager(session, delivery, to, message)
    if message.audience is not Audience.TEACHER:
        raise addressing.unsupported(delivery)  # e-mail has no groups: each teacher gets their own copy
    teacher, to = addressing.teacher_address(session, delivery, driver)
    from_address, from_name = sender_address(session)
    inline = tuple(_part(paths, picture, n) for n, picture in enumerate(message.pictures))
    links = [f"{a.label}: {a.data}" for a in message.actions if a.kind is ActionKind.LINK]
    composed = email_text.compose(
        templates(message.language, paths), subject_name=message.form, message_text="\n".join([message.text, *links]),
        fields=message.facts, name=message.to_name, accent=message.accent,
        images=[(str(part.cid), picture.alt) for part, picture in zip(inline, message.pictures, strict=True)])
    draft = MailDraft(to=to, to_name=teacher.name, from_address=from_address, from_name=from_name,
                      subject=composed.subject, text=composed.text, html=composed.html,
                      message_id=message_id(delivery.id, delivery.dedup_key, from_address),
                      inline=inline, attachments=tuple(attachments))
    return Outgoing("email", to, (), mail=draft)


def to_manager(session: Session, delivery: Delivery, to: str, message: Message) -> Outgoing:
    """A plain note to the manager (an alert, a nudge): the text as it is, and as HTML line by line."""
    from_address, from_name = sender_address(session)
    text = message.text
    body = "<br>\n".join(html.escape(line) for line in text.splitlines())
    draft = MailDraft(to=to, from_address=from_address, from_name=from_name, subject=message.subject or message.heading,
                      text=text + "\n", html=f"<!DOCTYPE html><html><body><p>{body}</p></body></html>",
                      message_id=message_id(delivery.id, delivery.dedup_key, from_address))
    return Outgoing("email", to, (), mail=draft)


def cid(n: int) -> str:
    """The content ID of the message's n-th picture (from 0); the first keeps the name the month's
    roster has always gone under, so a message sent again is the same byte for byte."""
    return "roster@shiftcast" if n == 0 else f"roster{n + 1}@shiftcast"


def _part(paths: DataPaths, picture: Picture, n: int) -> Part:
    """The picture as an inline part, read from the data folder's image store once however many
    messages carry it (the store's files are immutable: the name names the content)."""
    key = PurePosixPath(picture.key)
    subtype = key.suffix.removeprefix(".")
    return Part(lambda: read(paths.images / key), "image", subtype, f"{picture.file_name or key.stem}{key.suffix}",
                cid=cid(n), shared=f"{subtype}:{key.stem}")


@lru_cache(maxsize=4)
def read(path: Path) -> bytes:
    return path.read_bytes()
