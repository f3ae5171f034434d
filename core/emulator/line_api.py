"""LINE's endpoints. LINE does not document the order of its checks, so this one is fixed and tested:

for push and multicast: route (404/405) → auth (401) → Content-Type (415) → size (413) → retry
key allowed and a UUID (400) → JSON (400) → body rules (400) → retry key already accepted (409) → rate
limit (429) → injected fault → recipient exists (400) → monthly quota (429) → accept: remember the key,
deliver, count the quota → answer. Read endpoints stop after the retry-key check, then the "other" rate
limit, then answer.

A request whose retry key was accepted answers 409 before faults are drawn, so no fault of any kind
(and no fail_next) is spent on it; only latency and slowness apply, as to every request.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from core.emulator import responses as r
from core.emulator.exchange import Hangup, Later, Outcome, Request, Response
from core.emulator.faults import Fault
from core.emulator.records import RequestRecord
from core.emulator.retrykeys import Accepted, is_uuid
from core.emulator.rich_menus import IMAGE_TYPES, UNSUPPORTED_IMAGE, RichMenuApi
from core.emulator.simulate import Simulator
from core.emulator.state import EmulatorState
from core.emulator.validation import (
    GROUP_ID,
    USER_ID,
    check_multicast,
    check_push,
    check_reply,
    check_validate,
)
from core.emulator.webhooks import endpoint_problem

FOLLOWERS_DEFAULT_LIMIT = 300  # the OpenAPI spec's default for GET /v2/bot/followers/ids
FOLLOWERS_MAX_LIMIT = 1000


@dataclass(slots=True)
class _Context:
    request_id: str
    retry_key: str | None
    fault: Fault | None = None
    # For an answer that comes Later: the status it will carry (None: the connection is closed instead).
    final_status: int | None = None


Handler = Callable[[Request, _Context, dict[str, Any] | None, str], Outcome]


@dataclass(frozen=True, slots=True)
class _Route:
    method: str
    handler: Handler
    sends: bool = False  # push/multicast: the retry key is allowed, faults apply
    body_optional: bool = False  # an empty body stands for {} (no Content-Type needed)
    image_body: bool = False  # the body is an image (PNG or JPEG), handed over unparsed


class LineApi:
    def __init__(self, state: EmulatorState, token: str | None) -> None:
        self.state = state
        self._token = None if token is None else token.encode("utf-8")
        digest = hashlib.sha256((token or "any token").encode("utf-8")).hexdigest()
        self.bot_info = {
            "userId": "U" + digest[:32],
            "basicId": "@" + digest[32:40],
            "displayName": "Shiftcast Emulator",
            "chatMode": "chat",
            "markAsReadMode": "auto",
        }
        self._exact: dict[str, _Route] = {
            "/v2/bot/message/push": _Route("POST", self._push, sends=True),
            "/v2/bot/message/multicast": _Route("POST", self._multicast, sends=True),
            "/v2/bot/message/validate/push": _Route("POST", self._validate_push),
            "/v2/bot/message/reply": _Route("POST", self._reply),
            "/v2/bot/info": _Route("GET", self._info),
            "/v2/bot/message/quota": _Route("GET", self._quota),
            "/v2/bot/message/quota/consumption": _Route("GET", self._consumption),
            "/v2/bot/followers/ids": _Route("GET", self._followers),
        }
        self.simulator = Simulator(state, self.bot_info["userId"])
        # Paths with more than one method: method → route.
        self._methods: dict[str, dict[str, _Route]] = {
            "/v2/bot/channel/webhook/endpoint": {"GET": _Route("GET", self._get_endpoint),
                                                 "PUT": _Route("PUT", self._set_endpoint)},
        }
        self._exact["/v2/bot/channel/webhook/test"] = _Route("POST", self._test_endpoint, body_optional=True)
        rich = RichMenuApi(state.lock, state.clock, state.rich_menus)
        self._exact["/v2/bot/richmenu"] = _Route("POST", lambda q, c, b, p: rich.create(b, c.request_id))
        self._exact["/v2/bot/richmenu/list"] = _Route("GET", lambda q, c, b, p: rich.list(c.request_id))
        self._methods["/v2/bot/user/all/richmenu"] = {
            "GET": _Route("GET", lambda q, c, b, p: rich.get_default(c.request_id)),
            "DELETE": _Route("DELETE", lambda q, c, b, p: rich.cancel_default(c.request_id))}
        # Paths ending in a rich menu ID: (prefix, suffix) → method → route.
        self._rich_paths: dict[tuple[str, str], dict[str, _Route]] = {
            ("/v2/bot/richmenu/", ""): {"GET": _Route("GET", lambda q, c, b, p: rich.get(p, c.request_id)),
                                        "DELETE": _Route("DELETE", lambda q, c, b, p: rich.delete(p, c.request_id))},
            ("/v2/bot/richmenu/", "/content"): {
                "POST": _Route("POST", lambda q, c, b, p: rich.upload(p, q, c.request_id), image_body=True),
                "GET": _Route("GET", lambda q, c, b, p: rich.download(p, c.request_id))},
            ("/v2/bot/user/all/richmenu/", ""): {
                "POST": _Route("POST", lambda q, c, b, p: rich.set_default(p, c.request_id), body_optional=True)},
        }
        self._profile = _Route("GET", self._get_profile)
        self._summary = _Route("GET", self._group_summary)
        self._count = _Route("GET", self._group_count)

    def handle(self, request: Request) -> Outcome:
        plan = self.state.dice.plan  # one attribute read; the lock is only needed to draw
        if plan.latency_ms or plan.slow_rate:
            with self.state.lock:
                delay = self.state.dice.extra_delay()
            if delay > 0:
                # Nothing is looked at before the delay ends, as if the request were still on its way.
                return Later(delay, lambda: self._handle_now(request))
        return self._handle_now(request)

    def _handle_now(self, request: Request) -> Outcome:
        ctx = _Context(r.new_request_id(), request.headers.get("x-line-retry-key"))
        outcome = self._dispatch(request, ctx)
        if isinstance(outcome, Response):
            status: int | None = outcome.status
        elif isinstance(outcome, Later):
            status = ctx.final_status
        else:
            status = None
        # Only a send with a retry key: the other requests are not hashed, as load checks count every cycle.
        digest = hashlib.sha256(request.body).hexdigest() if ctx.retry_key is not None else None
        state = self.state
        with state.lock:
            state.record_locked(
                RequestRecord(request.method, request.path, status, ctx.request_id, ctx.retry_key,
                              state.clock(), ctx.fault, digest)
            )
        return outcome

    # ----- generic checks -----

    def _dispatch(self, request: Request, ctx: _Context) -> Outcome:
        rid = ctx.request_id
        route, param = self._route(request.path)
        by_method = self._methods.get(request.path)
        if route is None and by_method is None:
            by_method, param = self._rich_menu_route(request.path)
        if by_method is not None:
            route = by_method.get(request.method)
            if route is None:
                response = r.error(405, r.METHOD_NOT_ALLOWED, rid)
                response.headers.append(("Allow", ", ".join(by_method)))
                return response
        if route is None:
            return r.error(404, r.NOT_FOUND, rid)
        if request.method != route.method:
            response = r.error(405, r.METHOD_NOT_ALLOWED, rid)
            response.headers.append(("Allow", route.method))
            return response
        denied = self._check_auth(request.headers.get("authorization"), rid)
        if denied is not None:
            return denied
        has_body = route.method in ("POST", "PUT") and not (route.body_optional and not request.body.strip())
        if route.image_body:
            has_body = False  # handed to the handler as it came, after these checks
            media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
            if media_type not in IMAGE_TYPES:
                return r.error(415, UNSUPPORTED_IMAGE, rid)
            if request.too_large:
                return r.error(413, r.TOO_LARGE, rid)
        if has_body:
            media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
            if media_type != "application/json":
                return r.error(415, r.UNSUPPORTED_MEDIA, rid)
            if request.too_large:
                return r.error(413, r.TOO_LARGE, rid)
        if ctx.retry_key is not None:
            if not route.sends:
                return r.error(400, r.RETRY_KEY_NOT_SUPPORTED, rid)
            if not is_uuid(ctx.retry_key):
                return r.error(400, r.RETRY_KEY_INVALID, rid)
        body: dict[str, Any] | None = {} if route.body_optional else None
        if has_body:
            parsed = _parse_json(request.body)
            if isinstance(parsed, str):
                return r.body_errors([("", parsed)], rid)
            body = parsed
        if not route.sends:
            with self.state.lock:
                allowed = self.state.limits.take("other")
            if not allowed:
                return r.error(429, r.RATE_LIMITED, rid)
        return route.handler(request, ctx, body, param)

    def _route(self, path: str) -> tuple[_Route | None, str]:
        route = self._exact.get(path)
        if route is not None:
            return route, ""
        parts = path.split("/")
        # ['', 'v2', 'bot', 'profile', ID] and ['', 'v2', 'bot', 'group', ID, 'summary' | 'members', 'count']
        if len(parts) == 5 and parts[1:4] == ["v2", "bot", "profile"] and parts[4]:
            return self._profile, parts[4]
        if len(parts) >= 6 and parts[1:4] == ["v2", "bot", "group"] and parts[4]:
            if len(parts) == 6 and parts[5] == "summary":
                return self._summary, parts[4]
            if len(parts) == 7 and parts[5:] == ["members", "count"]:
                return self._count, parts[4]
        return None, ""

    def _rich_menu_route(self, path: str) -> tuple[dict[str, _Route] | None, str]:
        for (prefix, suffix), routes in self._rich_paths.items():
            if path.startswith(prefix) and path.endswith(suffix):
                menu_id = path[len(prefix) : len(path) - len(suffix)]
                if menu_id and "/" not in menu_id:
                    return routes, menu_id
        return None, ""

    def reissue_token(self, token: str) -> None:
        """The channel's long-lived token from now on; the one before is refused."""
        self._token = token.encode("utf-8")

    def _check_auth(self, header: str | None, rid: str) -> Response | None:
        if header is None:
            return r.error(401, r.AUTH_REQUIRED, rid)
        scheme, _, token = header.strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            return r.error(401, r.AUTH_REQUIRED, rid)
        if self._token is not None and not hmac.compare_digest(token.encode("utf-8"), self._token):
            with self.state.lock:
                stateless = self.state.tokens.valid(token, self.state.clock())
            if not stateless:
                return r.error(401, r.AUTH_INVALID, rid)
        return None

    # ----- sending -----

    def _push(self, request: Request, ctx: _Context, body: dict[str, Any] | None, _: str) -> Outcome:
        assert body is not None
        rid = ctx.request_id
        problems = check_push(body, loopback_media=self.state.loopback_media)
        if problems:
            return r.body_errors(problems, rid)
        to: str = body["to"]
        messages: list[dict[str, Any]] = body["messages"]
        state = self.state
        with state.lock:
            now = state.clock()
            early = self._before_accept(ctx, "push", now)
            if early is not None:
                return early
            if to[0] == "U":
                # A user who is not a friend still costs the request and gets nothing (LINE answers 200).
                recipients, cost = ([to] if state.is_friend_locked(to) else []), 1
            else:
                group = state.groups.get(to)
                if group is None:  # a group the bot is not in, or a room (rooms are not emulated)
                    return self._refused(ctx, 400, r.FAILED_TO_SEND)
                recipients, cost = [to], len(group.members)
            if not state.quota.allows(cost, now):
                return self._refused(ctx, 429, r.MONTHLY_LIMIT)
            sent = [state.sent_message_locked(m) for m in messages]
            ids = [s["id"] for s in sent]
            for recipient in recipients:
                state.deliver_locked(recipient, messages, ids, request_id=rid, retry_key=ctx.retry_key,
                                     now=now, via="push", notification_disabled=bool(body.get("notificationDisabled")))
            self._accept_locked(ctx, cost, now, sent)
        return self._answer_accepted(ctx, r.json_response(200, {"sentMessages": sent}, rid))

    def _multicast(self, request: Request, ctx: _Context, body: dict[str, Any] | None, _: str) -> Outcome:
        assert body is not None
        rid = ctx.request_id
        problems = check_multicast(body, loopback_media=self.state.loopback_media)
        if problems:
            return r.body_errors(problems, rid)
        recipients: list[str] = list(dict.fromkeys(body["to"]))  # a repeated ID is one recipient
        messages: list[dict[str, Any]] = body["messages"]
        silent = bool(body.get("notificationDisabled"))
        state = self.state
        with state.lock:
            now = state.clock()
            early = self._before_accept(ctx, "multicast", now)
            if early is not None:
                return early
            cost = len(recipients)
            if not state.quota.allows(cost, now):
                return self._refused(ctx, 429, r.MONTHLY_LIMIT)
            for recipient in recipients:
                if state.is_friend_locked(recipient):
                    ids = [state.sent_message_locked(m)["id"] for m in messages]
                    state.deliver_locked(recipient, messages, ids, request_id=rid, retry_key=ctx.retry_key,
                                         now=now, via="multicast", notification_disabled=silent)
            self._accept_locked(ctx, cost, now, None)
        return self._answer_accepted(ctx, r.json_response(200, {}, rid))

    def _before_accept(self, ctx: _Context, endpoint: str, now: dt.datetime) -> Outcome | None:
        """409, rate limit and the faults that do not accept. Lock held."""
        state = self.state
        rid = ctx.request_id
        if ctx.retry_key is not None:
            prior = state.keys.find(ctx.retry_key, now)
            if prior is not None:
                extra: dict[str, Any] = {}
                if endpoint == "push" and prior.sent_messages is not None:
                    extra["sentMessages"] = prior.sent_messages
                response = r.error(409, r.RETRY_KEY_ACCEPTED, rid, **extra)
                response.headers.append(("X-Line-Accepted-Request-Id", prior.request_id))
                return response
        if not state.limits.take("push" if endpoint == "push" else "multicast"):
            return r.error(429, r.RATE_LIMITED, rid)
        fault = ctx.fault = state.dice.draw()
        if fault == "error":
            return r.error(500, r.INTERNAL, rid)
        if fault == "reset":
            return Hangup(reset=True)
        if fault == "timeout_before_accept":
            ctx.final_status = None
            return Later(state.dice.plan.hang_seconds, lambda: Hangup(reset=False))
        return None

    def _refused(self, ctx: _Context, status: int, message: str) -> Response:
        # A fault that would have come after acceptance never happened: keep the log truthful.
        ctx.fault = None
        return r.error(status, message, ctx.request_id)

    def _accept_locked(self, ctx: _Context, cost: int, now: dt.datetime, sent: list[dict[str, str]] | None) -> None:
        state = self.state
        state.quota.charge(cost, now)
        state.accepted_requests += 1
        if ctx.retry_key is not None:
            state.keys.remember(ctx.retry_key, Accepted(ctx.request_id, now, sent))

    def _answer_accepted(self, ctx: _Context, answer: Response) -> Outcome:
        if ctx.fault == "accept_then_error":
            return r.error(500, r.INTERNAL, ctx.request_id)
        if ctx.fault == "timeout_after_accept":
            ctx.final_status = answer.status
            return Later(self.state.dice.plan.hang_seconds, lambda: answer)
        return answer

    def _reply(self, request: Request, ctx: _Context, body: dict[str, Any] | None, _: str) -> Outcome:
        """A reply: free (no quota), once per reply token, within its minute, to where the event came from."""
        assert body is not None
        rid = ctx.request_id
        problems = check_reply(body, loopback_media=self.state.loopback_media)
        if problems:
            return r.body_errors(problems, rid)
        messages: list[dict[str, Any]] = body["messages"]
        state = self.state
        with state.lock:
            now = state.clock()
            recipient = state.take_reply_token_locked(body["replyToken"], now)
            if recipient is None:
                return r.error(400, r.INVALID_REPLY_TOKEN, rid)
            sent = [state.sent_message_locked(m) for m in messages]
            if recipient in state.groups or state.is_friend_locked(recipient):
                state.deliver_locked(recipient, messages, [s["id"] for s in sent], request_id=rid, retry_key=None,
                                     now=now, via="reply", notification_disabled=bool(body.get("notificationDisabled")))
        return r.json_response(200, {"sentMessages": sent}, rid)

    def _validate_push(self, request: Request, ctx: _Context, body: dict[str, Any] | None, _: str) -> Outcome:
        assert body is not None
        problems = check_validate(body, loopback_media=self.state.loopback_media)
        if problems:
            return r.body_errors(problems, ctx.request_id)
        return r.json_response(200, {}, ctx.request_id)

    # ----- the webhook endpoint -----

    def _get_endpoint(self, request: Request, ctx: _Context, body: dict[str, Any] | None, _: str) -> Outcome:
        with self.state.lock:
            settings = self.state.webhooks
            answer = {"endpoint": settings.endpoint or "", "active": settings.active and settings.endpoint is not None}
        return r.json_response(200, answer, ctx.request_id)

    def _set_endpoint(self, request: Request, ctx: _Context, body: dict[str, Any] | None, _: str) -> Outcome:
        assert body is not None
        with self.state.lock:
            settings = self.state.webhooks
            problem = endpoint_problem(body.get("endpoint"), loopback=settings.loopback)
            if problem is None:
                settings.endpoint = body["endpoint"]
        if problem is not None:
            return r.body_errors([("endpoint", problem)], ctx.request_id)
        return r.json_response(200, {}, ctx.request_id)

    def _test_endpoint(self, request: Request, ctx: _Context, body: dict[str, Any] | None, _: str) -> Outcome:
        assert body is not None
        with self.state.lock:
            settings = self.state.webhooks
            url = body.get("endpoint") or settings.endpoint
            problem = None if url is None else endpoint_problem(url, loopback=settings.loopback)
        if url is None:
            return r.error(400, "The webhook endpoint URL is not set", ctx.request_id)
        if problem is not None:
            return r.body_errors([("endpoint", problem)], ctx.request_id)
        result = self.simulator.test_endpoint(url)
        return r.json_response(200, result.to_json(), ctx.request_id)

    # ----- reading -----

    def _info(self, request: Request, ctx: _Context, body: dict[str, Any] | None, _: str) -> Outcome:
        return r.json_response(200, self.bot_info, ctx.request_id)

    def _quota(self, request: Request, ctx: _Context, body: dict[str, Any] | None, _: str) -> Outcome:
        with self.state.lock:
            value = self.state.quota.to_json()
        return r.json_response(200, value, ctx.request_id)

    def _consumption(self, request: Request, ctx: _Context, body: dict[str, Any] | None, _: str) -> Outcome:
        with self.state.lock:
            used = self.state.quota.used(self.state.clock())
        return r.json_response(200, {"totalUsage": used}, ctx.request_id)

    def _get_profile(self, request: Request, ctx: _Context, body: dict[str, Any] | None, user_id: str) -> Outcome:
        if USER_ID.fullmatch(user_id) is None:
            return r.error(400, "The value for the 'userId' parameter is invalid", ctx.request_id)
        with self.state.lock:
            user = self.state.users.get(user_id)
        if user is None or not user.friend:
            return r.error(404, r.NOT_FOUND, ctx.request_id)
        profile = {"displayName": user.display_name, "userId": user.user_id, "language": "ja"}
        return r.json_response(200, profile, ctx.request_id)

    def _group(self, group_id: str, rid: str) -> tuple[Any, Response | None]:
        if GROUP_ID.fullmatch(group_id) is None:
            return None, r.error(400, "The value for the 'groupId' parameter is invalid", rid)
        with self.state.lock:
            group = self.state.groups.get(group_id)
        return group, (None if group is not None else r.error(404, r.NOT_FOUND, rid))

    def _group_summary(self, request: Request, ctx: _Context, body: dict[str, Any] | None, group_id: str) -> Outcome:
        group, problem = self._group(group_id, ctx.request_id)
        if problem is not None:
            return problem
        summary = {"groupId": group.group_id, "groupName": group.name}
        if group.picture_url is not None:  # LINE leaves it out for a group without an icon
            summary["pictureUrl"] = group.picture_url
        return r.json_response(200, summary, ctx.request_id)

    def _group_count(self, request: Request, ctx: _Context, body: dict[str, Any] | None, group_id: str) -> Outcome:
        group, problem = self._group(group_id, ctx.request_id)
        if problem is not None:
            return problem
        return r.json_response(200, {"count": len(group.members)}, ctx.request_id)

    def _followers(self, request: Request, ctx: _Context, body: dict[str, Any] | None, _: str) -> Outcome:
        rid = ctx.request_id
        query = parse_qs(request.query, keep_blank_values=True)
        limit_text = query.get("limit", [str(FOLLOWERS_DEFAULT_LIMIT)])[-1]
        if not limit_text.isdigit() or not 1 <= int(limit_text) <= FOLLOWERS_MAX_LIMIT:
            return r.error(400, "The value for the 'limit' parameter is invalid", rid)
        limit = int(limit_text)
        start = 0
        if "start" in query:
            decoded = _read_continuation(query["start"][-1])
            if decoded is None:
                return r.error(400, "The value for the 'start' parameter is invalid", rid)
            start = decoded
        with self.state.lock:
            friends = self.state.friends_locked()
        page: dict[str, Any] = {"userIds": friends[start : start + limit]}
        if start + limit < len(friends):
            page["next"] = _continuation(start + limit)
        return r.json_response(200, page, rid)


def _parse_json(raw: bytes) -> dict[str, Any] | str:
    """The body as an object, or the detail message explaining why it is not one."""
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        return f"Malformed JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    except (ValueError, RecursionError):
        return "Malformed JSON: the body is not UTF-8 JSON"
    if not isinstance(value, dict):
        return "The request body must be a JSON object"
    return value


# The continuation token is opaque to clients, as LINE's is; it carries an offset into the friend list.
_TOKEN_PREFIX = b"followers:"


def _continuation(offset: int) -> str:
    return base64.urlsafe_b64encode(_TOKEN_PREFIX + str(offset).encode()).decode().rstrip("=")


def _read_continuation(token: str) -> int | None:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None
    if not raw.startswith(_TOKEN_PREFIX) or not raw[len(_TOKEN_PREFIX) :].isdigit():
        return None
    return int(raw[len(_TOKEN_PREFIX) :])
