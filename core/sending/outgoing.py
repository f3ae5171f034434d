"""What a message builder hands the sender: the request to make, or why it must not be made.

Also the sender's unit of work (`Job`): one attempt of one delivery, with its retry key already on disk.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.channels.email_draft import MailDraft
from core.outbox.policy import CancelReason


class CancelDelivery(Exception):
    """Raised by a check: the delivery is canceled with `reason` instead of sent."""

    def __init__(self, reason: CancelReason | str) -> None:
        # A plain string must be one of CancelReason's values (ValueError otherwise), so a typo can
        # never reach the database as a reason nobody reads.
        self.reason = CancelReason(reason)
        super().__init__(self.reason.value)


class CannotBuild(Exception):
    """The message cannot be built at all (a permanent failure with a code)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Outgoing:
    endpoint: str  # "push" or "multicast" (LINE), "email", "webhook"
    to: str | tuple[str, ...]
    messages: tuple[dict[str, Any], ...]
    # Work that must succeed before the request leaves (image uploads); run on a send thread.
    before_send: Callable[[], None] | None = None
    mail: MailDraft | None = None  # the e-mail, when endpoint is "email"



@dataclass(frozen=True)
class Job:
    delivery_id: int
    attempt_number: int
    retry_key: str | None  # LINE only; SMTP and webhooks have no such thing
    outgoing: Outgoing
    started_at: dt.datetime
    # The row's attempt_count with this attempt included. The lease keeps the row ours until the
    # result is recorded, so recording needs no second look at it.
    attempt_count: int = 1
