"""Which part of the emulator answers a request: the control API, LINE's API, or a framing error."""

from __future__ import annotations

from core.emulator import responses as r
from core.emulator.control_api import PREFIX, ControlApi
from core.emulator.exchange import Outcome, Request, Response
from core.emulator.id_tokens import PATH as VERIFY_PATH
from core.emulator.liff import SDK_PATH, sdk_response
from core.emulator.line_api import LineApi
from core.emulator.records import RequestRecord
from core.emulator.state import EmulatorState
from core.emulator.tokens import PATH as TOKEN_PATH

# Answered only after a signed POST to the bot's endpoint, which may take its full timeout.
_WEBHOOK_TEST = "/v2/bot/channel/webhook/test"


class EmulatorApp:
    def __init__(self, state: EmulatorState, token: str | None) -> None:
        self.state = state
        self.line = LineApi(state, token)
        self.control = ControlApi(state, self.line.simulator)

    def handle(self, request: Request) -> Outcome:
        if request.error is not None:
            return self._framing_error(request, *request.error)
        if request.path.startswith(PREFIX):
            return self.control.handle(request)
        if request.path == TOKEN_PATH:
            return self._issue_token(request)
        if request.path == VERIFY_PATH:
            return self._verify_id_token(request)
        if request.path == SDK_PATH:
            return sdk_response(request)  # LINE's CDN, not its API: not in the request log
        return self.line.handle(request)

    def blocks(self, request: Request) -> bool:
        # The control API posts simulated events to the bot; the rest only takes the state lock briefly.
        return request.path.startswith(PREFIX) or request.path == _WEBHOOK_TEST

    def _issue_token(self, request: Request) -> Outcome:
        state = self.state
        with state.lock:
            response = state.tokens.answer(request, state.clock())
            state.record_locked(RequestRecord(request.method, request.path, response.status,
                                              dict(response.headers)["X-Line-Request-Id"], None, state.clock()))
        return response

    def _verify_id_token(self, request: Request) -> Outcome:
        state = self.state
        response = state.id_tokens.answer(request, state.clock())  # no shared state: outside the lock
        with state.lock:
            state.record_locked(RequestRecord(request.method, request.path, response.status,
                                              dict(response.headers)["X-Line-Request-Id"], None, state.clock()))
        return response

    def crashed(self) -> Response:
        response = r.error(500, r.INTERNAL, r.new_request_id())
        response.close = True  # the connection's state is unknown after a bug
        return response

    def _framing_error(self, request: Request, status: int, message: str) -> Outcome:
        rid = r.new_request_id()
        state = self.state
        with state.lock:
            state.record_locked(
                RequestRecord(request.method, request.path, status, rid,
                              request.headers.get("x-line-retry-key"), state.clock())
            )
        return r.error(status, message, rid)
