"""What stops a delivery's request being built: the delivery is canceled instead (`CancelDelivery`,
with its reason), or the message cannot be built at all (`CannotBuild`, a permanent failure with a code).

They sit with the channels because a channel's driver raises them too, while it renders a kind's
message (a teacher with no usable address on it, a classroom without its group, a manager's address
not set); the kinds' checks above raise the same two.
"""

from __future__ import annotations

from collections import Counter

from core.outbox.policy import CHANNEL_CANCEL_WORDS, CancelReason
from core.texts import Text

# The cancel reasons the registered message kinds declare of their own, and how many kinds declare
# each (core/kinds/registry.py keeps it as kinds are registered and taken out again).
KIND_REASONS: Counter[str] = Counter()


class CancelDelivery(Exception):
    """Raised by a check: the delivery is canceled with `reason` instead of sent."""

    def __init__(self, reason: CancelReason | str) -> None:
        # A plain string must be one of CancelReason's values, a code a registered channel declared, or a
        # reason a registered kind declares with its words (ValueError otherwise), so a typo can never
        # reach the database as a reason nobody reads.
        known = reason in CancelReason.__members__.values()
        if not known and reason not in CHANNEL_CANCEL_WORDS and KIND_REASONS[str(reason)] <= 0:
            raise ValueError(f"{reason!r} is no cancel reason")
        self.reason: str = CancelReason(reason) if known else str(reason)
        super().__init__(str(self.reason))


class CannotBuild(Exception):
    """The message cannot be built at all (a permanent failure with a code)."""

    def __init__(self, code: str, message: Text | str) -> None:
        super().__init__(str(message))
        self.code = code
        self.text = message  # kept encoded in last_error_message, rendered in the manager's language
