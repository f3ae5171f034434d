"""Everything the emulator remembers, behind one lock.

The event loop handles requests on one thread while tests call the public methods from others; a
plain lock held for microseconds is simpler than marshalling every call onto the loop, and nothing
awaits while holding it. Methods named *_locked expect the caller to hold `lock`.
"""

from __future__ import annotations

import datetime as dt
import itertools
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.emulator.faults import FaultDice, FaultPlan
from core.emulator.id_tokens import IdTokens
from core.emulator.quota import MonthlyQuota
from core.emulator.ratelimit import RateLimits
from core.emulator.records import InboxMessage, RequestRecord, Via
from core.emulator.retrykeys import RetryKeyStore
from core.emulator.rich_menus import RichMenus
from core.emulator.tokens import StatelessTokens
from core.emulator.validation import GROUP_ID, USER_ID
from core.emulator.webhooks import WebhookSettings

Clock = Callable[[], dt.datetime]

# LINE returns a quote token only for messages that can be quoted later.
QUOTABLE_TYPES = frozenset({"text", "textV2", "sticker", "image", "video"})


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True, slots=True)
class User:
    user_id: str
    display_name: str
    friend: bool


@dataclass(frozen=True, slots=True)
class Group:
    group_id: str
    name: str
    members: tuple[str, ...]
    picture_url: str | None = None


@dataclass(slots=True)
class ReplyToken:
    """A webhook event's reply token: where a reply goes, and whether it was used (LINE: once)."""

    recipient: str  # the user, or the group the event came from
    issued_at: dt.datetime
    used: bool = False


# LINE: "the reply token can be used only once and must be used within one minute" of the event.
REPLY_TOKEN_LIFE = dt.timedelta(minutes=1)


class EmulatorState:
    def __init__(self, clock: Clock | None = None) -> None:
        self.lock = threading.Lock()
        self.arrived = threading.Condition(self.lock)  # notified whenever a message reaches an inbox
        self.clock: Clock = clock or utc_now
        # LINE only loads images over HTTPS; tests and the demo host images on plain-http loopback.
        self.loopback_media = False
        self.users: dict[str, User] = {}
        self.groups: dict[str, Group] = {}
        self.quota = MonthlyQuota()
        self.limits = RateLimits()
        self.keys = RetryKeyStore()
        self.dice = FaultDice()
        self.inboxes: dict[str, list[InboxMessage]] = {}
        self.delivered: list[InboxMessage] = []
        self.log: list[RequestRecord] = []
        self.status_counts: Counter[str] = Counter()
        self.accepted_requests = 0
        # The other direction (webhooks) and the stateless tokens: arranged once, kept by reset().
        self.webhooks = WebhookSettings()
        self.tokens = StatelessTokens()
        self.rich_menus = RichMenus()  # configuration, like the webhook: kept by reset()
        self.id_tokens = IdTokens()  # LIFF ID tokens: this emulator's own signing key, kept by reset()
        self.reply_tokens: dict[str, ReplyToken] = {}
        # LINE message ids are numeric strings of about 18 digits; a counter keeps them unique.
        self._message_ids = itertools.count(500_000_000_000_000_001)

    # ----- setup, from any thread -----

    def add_user(self, user_id: str, display_name: str, *, friend: bool = True) -> None:
        if not isinstance(user_id, str) or USER_ID.fullmatch(user_id) is None:
            raise ValueError(f"malformed user ID {user_id!r}: U followed by 32 lowercase hex digits")
        if not isinstance(display_name, str) or not display_name:
            raise ValueError("a user needs a display name")
        with self.lock:
            self.users[user_id] = User(user_id, display_name, bool(friend))

    def add_group(self, group_id: str, name: str, members: list[str], picture_url: str | None = None) -> None:
        if not isinstance(group_id, str) or GROUP_ID.fullmatch(group_id) is None:
            raise ValueError(f"malformed group ID {group_id!r}: C followed by 32 lowercase hex digits")
        if not isinstance(name, str) or not name:
            raise ValueError("a group needs a name")
        if not isinstance(members, list | tuple) or any(
            not isinstance(m, str) or USER_ID.fullmatch(m) is None for m in members
        ):
            raise ValueError("group members must be a list of user IDs")
        if picture_url is not None and (not isinstance(picture_url, str) or not picture_url.startswith("https://")):
            raise ValueError("a group's picture URL is an https:// URL")
        with self.lock:
            self.groups[group_id] = Group(group_id, name, tuple(dict.fromkeys(members)), picture_url)

    def set_quota(self, limit: int | None) -> None:
        with self.lock:
            self.quota.set_limit(limit)

    def set_rate_limit(self, endpoint: str, per_second: float | None) -> None:
        with self.lock:
            self.limits.set(endpoint, per_second)

    def set_faults(self, plan: FaultPlan) -> None:
        if not isinstance(plan, FaultPlan):
            raise TypeError("set_faults takes a FaultPlan")
        with self.lock:
            self.dice = FaultDice(plan)

    def reset(self) -> None:
        """Forget traffic (inboxes, log, keys, consumption, faults, bucket levels); keep the users,
        groups, quota limit and rate settings a test arranged."""
        with self.lock:
            self.inboxes.clear()
            self.delivered.clear()
            self.log.clear()
            self.status_counts.clear()
            self.accepted_requests = 0
            self.keys.clear()
            self.quota.clear()
            self.limits.refill()
            self.dice = FaultDice()

    def rich_menus_json(self) -> dict[str, Any]:
        with self.lock:
            return self.rich_menus.to_json()

    def issue_id_token(self, user_id: str, channel_id: str, *, expires_in: int = 3600, name: str | None = None,
                       nonce: str | None = None) -> str:
        """A LIFF ID token for the user; the name defaults to the user's display name when known."""
        with self.lock:
            now = self.clock()
            user = self.users.get(user_id)
        if name is None and user is not None:
            name = user.display_name
        return self.id_tokens.issue(user_id, channel_id, now=now, expires_in=expires_in, name=name, nonce=nonce)

    def restore_inbox(self, items: list[InboxMessage]) -> None:
        """Put back messages an earlier run received, as received then: no quota, no request log.
        New message IDs continue above theirs, so a restored message can still be tapped by its ID."""
        with self.lock:
            for item in items:
                self.inboxes.setdefault(item.recipient, []).append(item)
                self.delivered.append(item)
            numbers = [int(item.message_id) for item in items if item.message_id.isdigit()]
            if numbers:
                following = next(self._message_ids)
                self._message_ids = itertools.count(max(following, max(numbers) + 1))

    # ----- reading, from any thread -----

    def inbox(self, recipient_id: str) -> list[InboxMessage]:
        with self.lock:
            return list(self.inboxes.get(recipient_id, ()))

    def all_inbox(self) -> list[InboxMessage]:
        with self.lock:
            return list(self.delivered)

    def wait_inbox(self, recipient_id: str, count: int, timeout: float) -> list[InboxMessage]:
        """The recipient's inbox once it holds more than `count` messages, or as it stands at `timeout`."""
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.inboxes.get(recipient_id, ())) > count, timeout)
            return list(self.inboxes.get(recipient_id, ()))

    def group_names(self) -> dict[str, str]:
        with self.lock:
            return {group_id: group.name for group_id, group in self.groups.items()}

    def accepted_retry_keys(self) -> dict[str, str]:
        with self.lock:
            return self.keys.live(self.clock())

    def request_log(self) -> list[RequestRecord]:
        with self.lock:
            return list(self.log)

    def consumption(self) -> int:
        with self.lock:
            return self.quota.used(self.clock())

    def stats(self) -> dict[str, Any]:
        with self.lock:
            now = self.clock()
            return {
                "requests": len(self.log),
                "byStatus": dict(sorted(self.status_counts.items())),
                "accepted": self.accepted_requests,
                "delivered": len(self.delivered),
                "consumption": self.quota.used(now),
                "quota": self.quota.to_json(),
                "faults": self.dice.plan.to_json(),
                "rateLimits": self.limits.rates(),
                # CPU of the whole process: in a child process, exactly the emulator's cost (loadcheck).
                "cpuSeconds": time.process_time(),
            }

    # ----- used by the request handlers, lock held -----

    def record_locked(self, record: RequestRecord) -> None:
        self.log.append(record)
        self.status_counts["noAnswer" if record.status is None else str(record.status)] += 1

    def new_message_id_locked(self) -> str:
        return str(next(self._message_ids))

    def sent_message_locked(self, message: dict[str, Any]) -> dict[str, str]:
        sent = {"id": str(next(self._message_ids))}
        if message.get("type") in QUOTABLE_TYPES:
            sent["quoteToken"] = secrets.token_urlsafe(48)
        return sent

    def deliver_locked(
        self,
        recipient: str,
        messages: list[dict[str, Any]],
        message_ids: list[str],
        *,
        request_id: str,
        retry_key: str | None,
        now: dt.datetime,
        via: Via,
        notification_disabled: bool,
    ) -> None:
        box = self.inboxes.setdefault(recipient, [])
        for message, message_id in zip(messages, message_ids, strict=True):
            item = InboxMessage(
                recipient, message, request_id, retry_key, now, via, message_id, notification_disabled
            )
            box.append(item)
            self.delivered.append(item)
        self.arrived.notify_all()

    def add_reply_token_locked(self, token: str, recipient: str, now: dt.datetime) -> None:
        if len(self.reply_tokens) >= 10_000:  # a long demo run: forget the tokens no reply can use any more
            self.reply_tokens = {k: v for k, v in self.reply_tokens.items()
                                 if not v.used and now - v.issued_at <= REPLY_TOKEN_LIFE}
        self.reply_tokens[token] = ReplyToken(recipient, now)

    def take_reply_token_locked(self, token: str, now: dt.datetime) -> str | None:
        """The recipient of a reply with this token, spending it; None if unknown, used or too old."""
        found = self.reply_tokens.get(token)
        if found is None or found.used or now - found.issued_at > REPLY_TOKEN_LIFE:
            return None
        found.used = True
        return found.recipient

    def is_friend_locked(self, user_id: str) -> bool:
        user = self.users.get(user_id)
        return user is not None and user.friend

    def friends_locked(self) -> list[str]:
        return [u.user_id for u in self.users.values() if u.friend]
