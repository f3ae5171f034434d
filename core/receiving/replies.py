"""Answering a LINE event with its reply token, once its transaction commits.

A reply saying "registered" must not precede a rollback, so it goes after commit; LINE's reply tokens
are single-use and short-lived, and replies are free of the monthly quota, so a failed reply is
logged, not retried or queued. A redelivered event's token has expired: it gets no reply.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.orm import Session

from core.channels.line import LineApiError, LineClient
from core.receiving.events import ReceivedEvent
from core.store import events as store_events

log = logging.getLogger(__name__)
LineSource = Callable[[], LineClient | None]
MESSAGES_PER_REPLY = 5


def token_of(event: ReceivedEvent) -> str | None:
    token = event.body.get("replyToken")
    return token if isinstance(token, str) and token and not event.is_redelivery else None


def after_commit(session: Session, line: LineSource, reply_token: str | None, messages: Sequence[dict[str, Any]]) -> None:
    """Send `messages` (at most five) as the event's reply once this transaction commits (nothing if it rolls back)."""
    if reply_token and messages:
        chosen = list(messages[:MESSAGES_PER_REPLY])
        store_events.after_commit(session, lambda: _reply(line, reply_token, chosen))


def text_after_commit(session: Session, line: LineSource, reply_token: str | None, text: str) -> None:
    after_commit(session, line, reply_token, [{"type": "text", "text": text}])


def _reply(line: LineSource, token: str, messages: list[dict[str, Any]]) -> None:
    try:
        client = line()
        if client is not None:
            client.reply(token, messages)
    except LineApiError as exc:
        log.warning("a reply to a LINE message could not be sent: %s", exc)
    except Exception:  # the event is committed as handled; a reply is a courtesy
        log.exception("replying to a LINE message failed")
