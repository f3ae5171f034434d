"""What a message builder hands the sender besides its request (`Outgoing`, in core/channels/base.py):
why the request must not be made.

Also the sender's unit of work (`Job`): one attempt of one delivery, with its retry key already on
disk; it is the `Request` a channel sends.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from core.channels.base import Outgoing
from core.kinds import registry as kinds
from core.outbox.policy import CHANNEL_CANCEL_WORDS, CancelReason
from core.texts import Text


class CancelDelivery(Exception):
    """Raised by a check: the delivery is canceled with `reason` instead of sent."""

    def __init__(self, reason: CancelReason | str) -> None:
        # A plain string must be one of CancelReason's values, a code a registered channel declared, or a
        # reason a registered kind declares with its words (ValueError otherwise), so a typo can never
        # reach the database as a reason nobody reads.
        known = reason in CancelReason.__members__.values()
        if not known and reason not in CHANNEL_CANCEL_WORDS and kinds.cancel_words(reason) is None:
            raise ValueError(f"{reason!r} is no cancel reason")
        self.reason: str = CancelReason(reason) if known else str(reason)
        super().__init__(str(self.reason))


class CannotBuild(Exception):
    """The message cannot be built at all (a permanent failure with a code)."""

    def __init__(self, code: str, message: Text | str) -> None:
        super().__init__(str(message))
        self.code = code
        self.text = message  # kept encoded in last_error_message, rendered in the manager's language


@dataclass(frozen=True)
class Job:
    delivery_id: int
    attempt_number: int
    retry_key: str | None  # only for a channel whose driver has retry keys (LINE)
    outgoing: Outgoing
    started_at: dt.datetime
    # The row's attempt_count with this attempt included, written when its result is recorded (not
    # at claim: a killed sender spends no budget). The lease keeps the row ours until then, so
    # recording needs no second look at it.
    attempt_count: int = 1
    channel: str = field(kw_only=True)  # whose driver sends it and reads its answer
