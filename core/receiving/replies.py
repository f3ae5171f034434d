"""Replies to a teacher's LINE event with its reply token: free of the monthly quota, once, after commit.

A reply goes out only after the transaction that handled the event commits (a reply saying "registered"
or "passed to the manager" must not precede a rollback). LINE's reply tokens are single-use and
short-lived, so a failed reply is logged, not retried; a redelivered event carries no usable token.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.orm import Session

from core.channels.line import LineApiError, LineClient
from core.store import events as store_events

log = logging.getLogger(__name__)
LineSource = Callable[[], LineClient | None]


def reply_after_commit(session: Session, line: LineSource, reply_token: str | None, text: str) -> None:
    """Send `text` as the event's reply once this transaction commits (nothing if it rolls back)."""
    messages_after_commit(session, line, reply_token, [{"type": "text", "text": text}])


def messages_after_commit(session: Session, line: LineSource, reply_token: str | None,
                          messages: Sequence[dict[str, Any]]) -> None:
    """Send these messages as the event's reply once this transaction commits."""
    if reply_token:
        store_events.after_commit(session, lambda: _reply(line, reply_token, list(messages)))


def _reply(line: LineSource, token: str, messages: list[dict[str, Any]]) -> None:
    try:
        client = line()
        if client is not None:
            client.reply(token, messages)
    except LineApiError as exc:
        log.warning("a reply to a LINE message could not be sent: %s", exc)
    except Exception:  # the event is committed as handled; a reply is a courtesy
        log.exception("replying to a LINE message failed")
