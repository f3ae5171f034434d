"""/_emulator/…: arrange and inspect the emulator over HTTP, for tests in other processes and the demo.

No authentication (the server only listens on loopback), no latency and no request log: these calls
are about the emulator, not traffic to LINE, and must not disturb what a test counts.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from core.emulator import responses as r
from core.emulator.exchange import Request, Response
from core.emulator.faults import FaultPlan
from core.emulator.simulate import Delivered, Simulator
from core.emulator.state import EmulatorState

PREFIX = "/_emulator/"


class _BadInput(Exception):
    pass


class ControlApi:
    def __init__(self, state: EmulatorState, simulator: Simulator) -> None:
        self.state = state
        self.simulator = simulator
        self._routes: dict[tuple[str, str], Callable[[Request], Any]] = {
            ("GET", "inbox"): self._inbox,
            ("GET", "stats"): lambda _: self.state.stats(),
            ("GET", "requests"): lambda _: [rec.to_json() for rec in self.state.request_log()],
            ("GET", "retry-keys"): lambda _: self.state.accepted_retry_keys(),
            ("GET", "faults"): lambda _: self.state.dice.plan.to_json(),
            ("POST", "faults"): self._faults,
            ("POST", "reset"): self._reset,
            ("POST", "users"): self._users,
            ("POST", "groups"): self._groups,
            ("POST", "quota"): self._quota,
            ("POST", "rate-limit"): self._rate_limit,
            ("GET", "webhook"): self._webhook_state,
            ("POST", "webhook"): self._webhook_switch,
            ("POST", "tokens/revoke"): self._revoke_tokens,
            ("POST", "liff/id-token"): self._id_token,
            ("GET", "rich-menus"): lambda _: self.state.rich_menus_json(),
            ("POST", "events/follow"): lambda q: self._event(q, lambda b: self.simulator.follow(
                _field(b, "userId"), b.get("displayName"))),
            ("POST", "events/unfollow"): lambda q: self._event(q, lambda b: self.simulator.unfollow(_field(b, "userId"))),
            ("POST", "events/message"): lambda q: self._event(q, lambda b: self.simulator.message(
                _field(b, "userId"), _field(b, "text"), group_id=b.get("groupId"))),
            ("POST", "events/postback"): lambda q: self._event(q, lambda b: self.simulator.postback(
                _field(b, "userId"), _field(b, "data"), group_id=b.get("groupId"))),
            ("POST", "events/tap"): lambda q: self._event(q, lambda b: self.simulator.tap(
                _field(b, "userId"), message_id=b.get("messageId"), label=b.get("label"))),
            ("POST", "events/join"): lambda q: self._event(q, lambda b: self.simulator.join(_field(b, "groupId"))),
            ("POST", "events/leave"): lambda q: self._event(q, lambda b: self.simulator.leave(_field(b, "groupId"))),
            ("POST", "events/member-joined"): lambda q: self._event(q, lambda b: self.simulator.member_joined(
                _field(b, "groupId"), _list(b, "userIds"))),
            ("POST", "events/member-left"): lambda q: self._event(q, lambda b: self.simulator.member_left(
                _field(b, "groupId"), _list(b, "userIds"))),
            ("POST", "events/redeliver"): lambda q: self._event(q, lambda b: self.simulator.redeliver(
                _field(b, "webhookEventId"))),
        }

    def handle(self, request: Request) -> Response:
        rid = r.new_request_id()
        name = request.path[len(PREFIX) :] if request.path.startswith(PREFIX) else ""
        handler = self._routes.get((request.method, name))
        if handler is None:
            allowed = sorted(m for m, n in self._routes if n == name)
            if not allowed:
                return r.error(404, r.NOT_FOUND, rid)
            response = r.error(405, r.METHOD_NOT_ALLOWED, rid)
            response.headers.append(("Allow", ", ".join(allowed)))
            return response
        if request.too_large:
            return r.error(413, r.TOO_LARGE, rid)
        try:
            result = handler(request)
        except (_BadInput, ValueError, TypeError) as exc:
            return r.error(400, str(exc), rid)
        return r.json_response(200, result, rid)

    def _inbox(self, request: Request) -> list[dict[str, Any]]:
        recipient = parse_qs(request.query).get("recipient")
        items = self.state.inbox(recipient[-1]) if recipient else self.state.all_inbox()
        return [item.to_json() for item in items]

    def _faults(self, request: Request) -> dict[str, Any]:
        plan = FaultPlan.from_json(_object(request))
        self.state.set_faults(plan)
        return plan.to_json()

    def _reset(self, request: Request) -> dict[str, Any]:
        self.state.reset()
        return {}

    def _users(self, request: Request) -> dict[str, Any]:
        body = _object(request)
        friend = body.get("friend", True)
        if not isinstance(friend, bool):
            raise _BadInput("friend must be true or false")
        self.state.add_user(_field(body, "userId"), _field(body, "displayName"), friend=friend)
        return {}

    def _groups(self, request: Request) -> dict[str, Any]:
        body = _object(request)
        self.state.add_group(_field(body, "groupId"), _field(body, "groupName"), body.get("members", []),
                             body.get("pictureUrl"))
        return {}

    def _quota(self, request: Request) -> dict[str, Any]:
        body = _object(request)
        if "limit" not in body:
            raise _BadInput('send {"limit": N} or {"limit": null}')
        self.state.set_quota(body["limit"])
        return {}

    def _rate_limit(self, request: Request) -> dict[str, Any]:
        body = _object(request)
        if "perSecond" not in body:
            raise _BadInput('send {"endpoint": "push"|"multicast"|"other", "perSecond": N or null}')
        self.state.set_rate_limit(_field(body, "endpoint"), body["perSecond"])
        return {}

    def _event(self, request: Request, act: Callable[[dict[str, Any]], Delivered]) -> dict[str, Any]:
        return act(_object(request)).to_json()

    def _webhook_state(self, request: Request) -> dict[str, Any]:
        with self.state.lock:
            settings = self.state.webhooks
            value: dict[str, Any] = {"endpoint": settings.endpoint, "active": settings.active,
                                     "channelSecret": settings.channel_secret}
        value["sent"] = [{"url": s.url, "body": s.body, **s.result.to_json()} for s in settings.history()]
        return value

    def _webhook_switch(self, request: Request) -> dict[str, Any]:
        body = _object(request)
        active = body.get("active")
        if not isinstance(active, bool):
            raise _BadInput('send {"active": true} or {"active": false} (the console\'s "Use webhook")')
        with self.state.lock:
            self.state.webhooks.active = active
        return {}

    def _id_token(self, request: Request) -> dict[str, Any]:
        body = _object(request)
        expires_in = body.get("expires_in", 3600)
        name = body.get("name")
        token = self.state.issue_id_token(_field(body, "user_id"), _field(body, "channel_id"),
                                          expires_in=expires_in, name=name, nonce=body.get("nonce"))
        return {"id_token": token}

    def _revoke_tokens(self, request: Request) -> dict[str, Any]:
        with self.state.lock:
            self.state.tokens.revoke_all()
        return {}


def _list(body: dict[str, Any], name: str) -> list[str]:
    value = body.get(name)
    if not isinstance(value, list) or not value:
        raise _BadInput(f"{name} is required (a non-empty list)")
    return value


def _object(request: Request) -> dict[str, Any]:
    if not request.body.strip():
        return {}
    try:
        value = json.loads(request.body)
    except (ValueError, RecursionError) as exc:
        raise _BadInput(f"the body is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise _BadInput("the body must be a JSON object")
    return value


def _field(body: dict[str, Any], name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value:
        raise _BadInput(f"{name} is required (a non-empty string)")
    return value
