"""What e-mails to teachers are made of, shared by the kinds that send by e-mail (core/sending/kinds/):
the sender's address from the settings, the e-mail templates read from the data folder, and the
draft to one teacher. The message text is the same as on LINE, wrapped by core/messages/email_text.py.
"""

from __future__ import annotations

import html
from functools import lru_cache
from pathlib import Path

from sqlalchemy.orm import Session

from core.channels.base import Outgoing
from core.channels.email_draft import MailDraft, Part, message_id
from core.messages import email_text
from core.roster import contacts
from core.sending.outgoing import CannotBuild
from core.store import setting_keys as keys
from core.store.models import Channel, Delivery, Teacher
from core.store.paths import DataPaths
from core.texts import t


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


def mail_to(session: Session, delivery: Delivery, teacher: Teacher, composed: email_text.Composed, *,
            inline: tuple[Part, ...] = (), attachments: tuple[Part, ...] = ()) -> Outgoing:
    from_address, from_name = sender_address(session)
    address = str(contacts.address_on(teacher, Channel.EMAIL))
    draft = MailDraft(to=address, to_name=teacher.name, from_address=from_address, from_name=from_name,
                      subject=composed.subject, text=composed.text, html=composed.html,
                      message_id=message_id(delivery.id, delivery.dedup_key, from_address),
                      inline=inline, attachments=attachments)
    return Outgoing("email", address, (), mail=draft)


def mail_to_manager(session: Session, delivery: Delivery, to: str, subject: str, text: str) -> Outgoing:
    """A plain note to the manager (an alert, a nudge): the text as it is, and as HTML line by line."""
    from_address, from_name = sender_address(session)
    body = "<br>\n".join(html.escape(line) for line in text.splitlines())
    draft = MailDraft(to=to, from_address=from_address, from_name=from_name, subject=subject, text=text + "\n",
                      html=f"<!DOCTYPE html><html><body><p>{body}</p></body></html>",
                      message_id=message_id(delivery.id, delivery.dedup_key, from_address))
    return Outgoing("email", to, (), mail=draft)
