"""What a message builder hands the sender besides its request (`Outgoing`, in core/channels/base.py):
why the request must not be made (CancelDelivery, CannotBuild: core/channels/build_errors.py, where
the channels' renderers raise them too).

Also the sender's unit of work (`Job`): one attempt of one delivery, with its retry key already on
disk; it is the `Request` a channel sends.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from core.channels.base import Outgoing
from core.channels.build_errors import CancelDelivery, CannotBuild

__all__ = ["CancelDelivery", "CannotBuild", "Job"]


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
