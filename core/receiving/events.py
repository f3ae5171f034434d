"""A webhook POST's events as rows of webhook_event, each stored once by LINE's webhookEventId.

LINE redelivers an event it thinks we did not take, with the same webhookEventId: the second copy
is ignored here (INSERT … ON CONFLICT DO NOTHING), so no handler sees an event twice.

LINE redelivers a whole batch, so one event that cannot be stored must not cost the others: each is
stored in its own savepoint. Text JSON allows and databases refuse (a lone surrogate such as
"\\ud800", a NUL) is stored escaped in the raw body and replaced by U+FFFD in the columns; an event
that still cannot be stored is logged by its webhookEventId and skipped.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import DataError
from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.store import events as store_events
from core.store.db import insert_unless_exists
from core.store.models import WebhookEvent
from core.texts import t

log = logging.getLogger(__name__)
EVENT_ID_MAX = 64
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")  # valid in a JSON string, refused by UTF-8 or PostgreSQL


@dataclass(frozen=True, slots=True)
class ReceivedEvent:
    """One event as LINE sent it, with the fields the handlers look at taken out."""

    event_id: str
    type: str
    source_type: str | None
    user_id: str | None
    group_id: str | None
    room_id: str | None
    is_redelivery: bool
    occurred_at: dt.datetime | None
    body: dict[str, Any]

    @classmethod
    def from_row(cls, row: WebhookEvent) -> ReceivedEvent:
        body = json.loads(row.raw_json)
        return cls(row.event_id, row.type, row.source_type, row.source_user_id, row.source_group_id,
                   row.source_room_id, row.is_redelivery, row.occurred_at, body if isinstance(body, dict) else {})


def parse_body(raw: bytes) -> list[dict[str, Any]]:
    """The events of a webhook POST (a signed one: the signature is checked before this is called)."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        raise ValidationError(t("receiving.not_json")) from None
    if not isinstance(value, dict) or not isinstance(value.get("events"), list):
        raise ValidationError(t("receiving.no_events"))
    return [e for e in value["events"] if isinstance(e, dict)]


def storable(text: str) -> str:
    """`text` as every database stores it: a lone surrogate or a NUL becomes U+FFFD."""
    return _UNSTORABLE.sub("\ufffd", text)


def raw_json(event: dict[str, Any]) -> str:
    """The event as stored: readable UTF-8, or escaped (lossless) where it holds unstorable text."""
    text = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(event, separators=(",", ":")) if _UNSTORABLE.search(text) else text


def _text(value: Any, limit: int) -> str | None:
    return storable(value) if isinstance(value, str) and 0 < len(value) <= limit else None


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def read_event(event: dict[str, Any]) -> ReceivedEvent | None:
    """The event's fields, or None for one that cannot be stored once (no usable webhookEventId)."""
    event_id = _text(event.get("webhookEventId"), EVENT_ID_MAX)
    kind = _text(event.get("type"), 32)
    if event_id is None or kind is None:
        return None
    source = _object(event.get("source"))
    context = _object(event.get("deliveryContext"))
    stamp = event.get("timestamp")
    occurred = (dt.datetime.fromtimestamp(stamp / 1000, dt.UTC)
                if isinstance(stamp, int) and not isinstance(stamp, bool) and 0 < stamp < 10**14 else None)
    return ReceivedEvent(
        event_id=event_id, type=kind, source_type=_text(source.get("type"), 16),
        user_id=_text(source.get("userId"), 33), group_id=_text(source.get("groupId"), 33),
        room_id=_text(source.get("roomId"), 33), is_redelivery=context.get("isRedelivery") is True,
        occurred_at=occurred, body=event,
    )


def record(session: Session, raw_events: list[dict[str, Any]], *, now: dt.datetime) -> int:
    """Store the events not seen before; returns how many were new. Their handlers run after commit."""
    new = 0
    for raw in raw_events:
        event = read_event(raw)
        if event is None:
            log.warning("a webhook event without a usable webhookEventId was ignored")
            continue
        values = dict(event_id=event.event_id, type=event.type, source_type=event.source_type,
                      source_user_id=event.user_id, source_group_id=event.group_id, source_room_id=event.room_id,
                      is_redelivery=event.is_redelivery, occurred_at=event.occurred_at, received_at=now,
                      raw_json=raw_json(raw))
        try:
            with session.begin_nested():
                stored = insert_unless_exists(session, WebhookEvent.__table__, values, unique=["event_id"])
        except (UnicodeError, DataError) as exc:  # about this event; a full disk or a lost server fails the POST
            log.error("webhook event %s (%s) cannot be stored and was skipped: %s", event.event_id, event.type,
                      type(exc).__name__)
            continue
        if stored is not None:
            new += 1
    if new:
        store_events.emit(session, store_events.WebhookEventsRecorded(new))
    return new
