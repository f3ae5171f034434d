"""Simulated LINE users and groups acting on the bot: each action is a webhook event, signed and
POSTed to the endpoint set (nothing is sent while no endpoint is set or "Use webhook" is off, as on
LINE), and the emulator's own state follows it (a follow makes a friend, a leave forgets the group).
"""

from __future__ import annotations

import dataclasses
import secrets
from dataclasses import dataclass
from typing import Any

from core.emulator import webhooks as wh
from core.emulator.state import EmulatorState, Group, User
from core.emulator.validation import GROUP_ID, USER_ID


@dataclass(frozen=True, slots=True)
class Delivered:
    """An event and what the endpoint answered (None: nothing was POSTed)."""

    event: dict[str, Any]
    result: wh.WebhookResult | None

    def to_json(self) -> dict[str, Any]:
        return {"webhookEventId": self.event["webhookEventId"], "event": self.event,
                "delivered": self.result is not None, **(self.result.to_json() if self.result else {})}


def _user(user_id: Any) -> str:
    if not isinstance(user_id, str) or USER_ID.fullmatch(user_id) is None:
        raise ValueError(f"malformed user ID {user_id!r}: U followed by 32 lowercase hex digits")
    return user_id


def _group_id(group_id: Any) -> str:
    if not isinstance(group_id, str) or GROUP_ID.fullmatch(group_id) is None:
        raise ValueError(f"malformed group ID {group_id!r}: C followed by 32 lowercase hex digits")
    return group_id


class Simulator:
    def __init__(self, state: EmulatorState, destination: str) -> None:
        self.state = state
        self.destination = destination  # the bot's user ID, as every webhook body names it
        self._events: dict[str, dict[str, Any]] = {}
        self._left: dict[str, Group] = {}

    # ----- the endpoint -----

    def send(self, events: list[dict[str, Any]]) -> wh.WebhookResult | None:
        state = self.state
        with state.lock:
            settings = state.webhooks
            url = settings.endpoint if settings.active else None
            now = state.clock()
            for event in events:
                self._events[event["webhookEventId"]] = event
        if url is None:
            return None
        return settings.post(url, self.destination, events, now)

    def test_endpoint(self, url: str) -> wh.WebhookResult:
        """LINE's webhook test: a signed POST with no events, whatever "Use webhook" says."""
        with self.state.lock:
            now = self.state.clock()
        return self.state.webhooks.post(url, self.destination, [], now)

    def _one(self, event: dict[str, Any]) -> Delivered:
        return Delivered(event, self.send([event]))

    def _now_event(self, kind: str, source: dict[str, Any], *, reply: bool) -> dict[str, Any]:
        with self.state.lock:
            now = self.state.clock()
            event = wh.base_event(kind, source, now, reply=reply)
            if reply:  # POST /v2/bot/message/reply takes it once, within a minute, to where it came from
                recipient = source.get("groupId") or source["userId"]
                self.state.add_reply_token_locked(event["replyToken"], recipient, now)
        return event

    # ----- users -----

    def follow(self, user_id: str, display_name: str | None = None) -> Delivered:
        """The user adds the account as a friend, or unblocks it."""
        user_id = _user(user_id)
        state = self.state
        with state.lock:
            known = state.users.get(user_id)
            unblocked = known is not None
            name = display_name or (known.display_name if known else f"User {user_id[1:7]}")
            state.users[user_id] = User(user_id, name, True)
        event = self._now_event("follow", wh.user_source(user_id), reply=True)
        event["follow"] = {"isUnblocked": unblocked}
        return self._one(event)

    def unfollow(self, user_id: str) -> Delivered:
        """The user blocks the account: no more messages reach them (profile 404)."""
        user_id = _user(user_id)
        state = self.state
        with state.lock:
            known = state.users.get(user_id)
            if known is not None:
                state.users[user_id] = User(user_id, known.display_name, False)
        return self._one(self._now_event("unfollow", wh.user_source(user_id), reply=False))

    def message(self, user_id: str, text: str, *, group_id: str | None = None) -> Delivered:
        user_id = _user(user_id)
        if not isinstance(text, str) or not text:
            raise ValueError("a text message needs text")
        source = wh.group_source(_group_id(group_id), user_id) if group_id is not None else wh.user_source(user_id)
        event = self._now_event("message", source, reply=True)
        with self.state.lock:
            message_id = self.state.new_message_id_locked()
        event["message"] = {"type": "text", "id": message_id, "text": text, "quoteToken": secrets.token_urlsafe(48)}
        return self._one(event)

    def postback(self, user_id: str, data: str, *, group_id: str | None = None,
                 params: dict[str, str] | None = None) -> Delivered:
        """A postback event, as a tapped button sends; `params` what a datetime picker adds (the
        chosen {"time": "17:00"}, {"date": …} or {"datetime": …})."""
        user_id = _user(user_id)
        if not isinstance(data, str) or not data or len(data) > 300:
            raise ValueError("postback data is 1 to 300 characters")
        source = wh.group_source(_group_id(group_id), user_id) if group_id is not None else wh.user_source(user_id)
        event = self._now_event("postback", source, reply=True)
        event["postback"] = {"data": data} if params is None else {"data": data, "params": dict(params)}
        return self._one(event)

    def pick(self, user_id: str, action: dict[str, Any], value: str) -> Delivered:
        """The user chooses `value` in a datetime picker they were sent: the postback carries the
        picker's data and the value under its mode's name, as LINE's does."""
        if action.get("type") != "datetimepicker" or action.get("mode") not in ("date", "time", "datetime"):
            raise ValueError("not a datetime picker action")
        return self.postback(user_id, action["data"], params={action["mode"]: value})

    def tap(self, user_id: str, *, message_id: str | None = None, label: str | None = None) -> Delivered:
        """The user taps a postback button of a message they received (the newest one that has one,
        or `message_id`): the event carries that button's own data, as LINE's would."""
        user_id = _user(user_id)
        for item in reversed(self.state.inbox(user_id)):
            if message_id is not None and item.message_id != message_id:
                continue
            actions = [a for a in postback_actions(item.message) if label is None or a.get("label") == label]
            if actions:
                return self.postback(user_id, actions[0]["data"])
            if message_id is not None:
                break
        raise ValueError(f"{user_id} received no message with a postback button to tap")

    # ----- groups -----

    def join(self, group_id: str) -> Delivered:
        """The account is invited into a group it was added to with add_group (or left before)."""
        group_id = _group_id(group_id)
        state = self.state
        with state.lock:
            if group_id in self._left:
                state.groups[group_id] = self._left.pop(group_id)
            elif group_id not in state.groups:
                raise ValueError(f"add_group({group_id!r}, …) first: the group's name and members come from there")
        return self._one(self._now_event("join", wh.group_source(group_id), reply=True))

    def leave(self, group_id: str) -> Delivered:
        """The account is removed from the group: pushes to it fail from now on."""
        group_id = _group_id(group_id)
        state = self.state
        with state.lock:
            group = state.groups.pop(group_id, None)
            if group is not None:
                self._left[group_id] = group
        return self._one(self._now_event("leave", wh.group_source(group_id), reply=False))

    def member_joined(self, group_id: str, user_ids: list[str]) -> Delivered:
        group_id = _group_id(group_id)
        users = [_user(u) for u in user_ids]
        if not users:
            raise ValueError("name at least one member who joined")
        state = self.state
        with state.lock:
            group = state.groups.get(group_id)
            if group is None:
                raise ValueError(f"the account is not in group {group_id!r}")
            state.groups[group_id] = dataclasses.replace(group, members=tuple(dict.fromkeys([*group.members, *users])))
        event = self._now_event("memberJoined", wh.group_source(group_id), reply=True)
        event["joined"] = {"members": [wh.user_source(u) for u in users]}
        return self._one(event)

    def member_left(self, group_id: str, user_ids: list[str]) -> Delivered:
        group_id = _group_id(group_id)
        users = [_user(u) for u in user_ids]
        if not users:
            raise ValueError("name at least one member who left")
        state = self.state
        with state.lock:
            group = state.groups.get(group_id)
            if group is None:
                raise ValueError(f"the account is not in group {group_id!r}")
            state.groups[group_id] = dataclasses.replace(group, members=tuple(m for m in group.members if m not in users))
        event = self._now_event("memberLeft", wh.group_source(group_id), reply=False)
        event["left"] = {"members": [wh.user_source(u) for u in users]}
        return self._one(event)

    def redeliver(self, event_id: str) -> Delivered:
        """An event sent before, again, marked as a redelivery (LINE's "Webhook redelivery")."""
        with self.state.lock:
            event = self._events.get(event_id)
        if event is None:
            raise ValueError(f"no event {event_id!r} was sent")
        return self._one(wh.redelivered(event))


def postback_actions(message: dict[str, Any], kind: str = "postback") -> list[dict[str, Any]]:
    """Every postback action in a message (or with `kind` "datetimepicker", every datetime picker), in
    document order (buttons, quick replies, templates)."""
    found: list[dict[str, Any]] = []
    stack: list[Any] = [message]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("type") == kind and isinstance(node.get("data"), str):
                found.append(node)
            stack.extend(reversed([v for v in node.values() if isinstance(v, dict | list)]))
        elif isinstance(node, list):
            stack.extend(reversed([v for v in node if isinstance(v, dict | list)]))
    return found
