"""The teachers' page's buttons in messages: one more link, to the page's view that goes with what the
message is about (core/pages/addresses.py), while the page is ready (core/pages/status.py). Without the
page a message is exactly what it was.

Where a kind's message is its own LINE form (the month's carousel or pages, the availability
request's calendar), the link goes as one small bubble after it, while the push has room for one more
message (LINE takes five a push); the month's announcement text, followed by its pages, names the
address itself.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from core.messages import ack, texts
from core.messages.message import DEFAULT_ACCENT, Action, ActionKind
from core.pages import status
from core.pages.addresses import page_url
from core.roster import contacts
from core.store.models import Channel, Teacher
from core.texts import render, t

MESSAGES_PER_PUSH = 5  # LINE's limit of messages in one push
MINE, CLASSROOM = "page.button.mine", "page.button.classroom"


def link(liff_id: str | None, language: str, view: str, *, label: str = MINE, **params: str | int) -> Action | None:
    """The button to the page's view (None without the page: `liff_id` as status.ready_liff_id gives it)."""
    if liff_id is None:
        return None
    return Action(render(t(label), "en" if language == "en" else "ja"), page_url(liff_id, view, **params), ActionKind.LINK)


def link_of(session: Session, language: str, view: str, *, label: str = MINE, **params: str | int) -> Action | None:
    return link(status.ready_liff_id(session), language, view, label=label, **params)


def for_teacher(session: Session, teacher: Teacher, language: str, view: str, *, label: str = MINE,
                **params: str | int) -> Action | None:
    """The link for a teacher paired on LINE (the page knows a person by their LINE user ID), whichever
    channel carries the message; None for one who is not, or without the page."""
    if not contacts.address_on(teacher, Channel.LINE.value):
        return None
    return link_of(session, language, view, label=label, **params)


def for_group(session: Session, channel: str, language: str, view: str, *, label: str = MINE,
              **params: str | int) -> Action | None:
    """The link for a classroom's group on LINE (a group elsewhere is not of LINE users)."""
    return link_of(session, language, view, label=label, **params) if channel == Channel.LINE.value else None


def month_of(year: int, month: int) -> str:
    return f"{year:04d}-{month:02d}"


def with_bubble(messages: tuple[dict[str, Any], ...] | list[dict[str, Any]], action: Action | None,
                accent: str = DEFAULT_ACCENT) -> tuple[dict[str, Any], ...]:
    """LINE's messages with the link as one small bubble after them, while the push has room for it."""
    if action is None or len(messages) >= MESSAGES_PER_PUSH:
        return tuple(messages)
    bubble = {"type": "flex", "altText": f"{action.label} {action.data}"[:texts.ALT_TEXT_LIMIT],
              "contents": {"type": "bubble", "size": "kilo",
                           "body": ack.footer_of([{"type": "uri", "label": action.label, "uri": action.data}], accent)}}
    return (*messages, bubble)
