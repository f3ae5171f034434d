"""A kind's message (core/messages/message.py) in LINE's form, and where it goes on LINE.

A teacher or a group reads it as a small Flex bubble: the heading as a title bar in the message's
accent, the lines below, the whole text as the alt text (core/messages/texts.py `flex_message`), and
the actions as the footer's buttons, the first filled in the accent (a postback: the signed data
LINE hands back, core/messages/ack.py; a link: opens its address). A picture with a public address
follows as an image message. A note to the manager is plain text. Pure but for `render`, which finds
the address: the teacher's LINE user ID, the classroom's LINE group, or the manager's (Settings → Alerts).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from core.channels import addressing
from core.channels.base import ChannelDriver, Outgoing
from core.channels.build_errors import CancelDelivery
from core.messages import ack, texts
from core.messages.message import Action, ActionKind, Audience, Message
from core.outbox.policy import CancelReason
from core.store import setting_keys as keys
from core.store.models import Delivery
from core.store.paths import DataPaths

# The nudge's own reason (core/sending/kinds/unacknowledged_nudge.py declares its words).
MANAGER_LINE_NOT_CONFIGURED = "MANAGER_LINE_NOT_CONFIGURED"


def messages(message: Message) -> tuple[dict[str, Any], ...]:
    """The message as LINE's message objects."""
    if message.audience is Audience.MANAGER:
        return (texts.text_message(message.text),)
    bubble = texts.flex_message(message.text, accent=message.accent)
    if message.actions:
        bubble = {**bubble, "contents": {**bubble["contents"],
                                         "footer": ack.footer_of([_action(a) for a in message.actions],
                                                                 message.accent)}}
    pictures = tuple({"type": "image", "originalContentUrl": p.url, "previewImageUrl": p.url}
                     for p in message.pictures if p.url)
    return (bubble, *pictures)


def _action(action: Action) -> dict[str, Any]:
    if action.kind is ActionKind.LINK:
        return {"type": "uri", "label": action.label, "uri": action.data}
    return ack.postback(action.label, action.data)


def push(to: str, message: Message) -> Outgoing:
    """The push of the message to one LINE user or group (the lean reminder path builds it too)."""
    return Outgoing("push", to, messages(message))


def address(session: Session, delivery: Delivery, message: Message, driver: ChannelDriver) -> str:
    """Where the message goes on LINE now."""
    if message.audience is Audience.MANAGER:
        return addressing.setting_address(session, keys.ALERTS_LINE_USER_ID, MANAGER_LINE_NOT_CONFIGURED)
    if message.audience is Audience.GROUP:
        group = addressing.classroom_of(session, delivery).line_group_id
        if not group:
            raise CancelDelivery(CancelReason.NO_GROUP)
        return group
    return addressing.teacher_address(session, delivery, driver)[1]


def render(session: Session, delivery: Delivery, message: Message, paths: DataPaths,
           driver: ChannelDriver) -> Outgoing:
    return push(address(session, delivery, message, driver), message)
