"""What the emulator hands back to tests: delivered messages and the request log."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal

Via = Literal["push", "multicast", "reply"]


@dataclass(frozen=True, slots=True)
class InboxMessage:
    """One message object as one recipient (a user or a group) received it.

    A multicast of 2 messages to 3 users makes 6 of these, so tests can count what each person saw.
    """

    recipient: str
    message: dict[str, Any]
    request_id: str
    retry_key: str | None
    accepted_at: dt.datetime
    via: Via
    # LINE's id of the sent message (the push answer's sentMessages[i].id), so a test can match them.
    message_id: str = ""
    notification_disabled: bool = False

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> InboxMessage:
        """What to_json wrote, back (the demo keeps its inbox across restarts this way)."""
        return cls(
            recipient=str(data["recipient"]),
            message=dict(data["message"]),
            request_id=str(data["requestId"]),
            retry_key=None if data.get("retryKey") is None else str(data["retryKey"]),
            accepted_at=dt.datetime.fromisoformat(str(data["acceptedAt"])),
            via=data["via"] if data.get("via") in ("push", "multicast", "reply") else "push",
            message_id=str(data.get("messageId", "")),
            notification_disabled=bool(data.get("notificationDisabled", False)),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "recipient": self.recipient,
            "message": self.message,
            "requestId": self.request_id,
            "retryKey": self.retry_key,
            "acceptedAt": self.accepted_at.isoformat(),
            "via": self.via,
            "messageId": self.message_id,
            "notificationDisabled": self.notification_disabled,
        }


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """One answered (or deliberately unanswered) LINE API request.

    status is None when a fault closed the connection without an answer; fault names the injected
    fault, so a test can tell a planned 500 from a bug. body_sha256 is the digest of a request that
    carried a retry key, so a test can see a retry repeat its request byte for byte, as LINE requires.
    """

    method: str
    path: str
    status: int | None
    request_id: str
    retry_key: str | None
    time: dt.datetime
    fault: str | None = None
    body_sha256: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "path": self.path,
            "status": self.status,
            "requestId": self.request_id,
            "retryKey": self.retry_key,
            "time": self.time.isoformat(),
            "fault": self.fault,
            "bodySha256": self.body_sha256,
        }
