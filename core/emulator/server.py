"""LineEmulator: the emulator served by uvicorn on a daemon thread, and the methods tests call."""

from __future__ import annotations

import asyncio
import datetime as dt
import ipaddress
import socket
import threading
import time
from types import TracebackType
from typing import Any

from core.emulator.app import EmulatorApp
from core.emulator.asgi import AsgiEmulator, Connections
from core.emulator.faults import FaultPlan
from core.emulator.records import InboxMessage, RequestRecord
from core.emulator.simulate import Delivered
from core.emulator.state import Clock, EmulatorState
from core.emulator.webhooks import SentWebhook, endpoint_problem

_STOP_TIMEOUT = 10.0
# A client's idle keep-alive connection stays open this long: a pool reusing a connection the server
# has just closed would see a failure that is the emulator's, not LINE's.
_KEEP_ALIVE_SECONDS = 300
_MAX_HEAD_BYTES = 64 * 1024
_HALT_WAIT = 1.0


def _require_loopback(host: str) -> None:
    # The control API has no authentication, so the emulator must never be reachable from elsewhere.
    if host == "localhost":
        return
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ValueError(f"the LINE emulator only listens on loopback, not {host!r}")


def _protocol_class(connections: Connections) -> Any:
    """uvicorn's h11 protocol, keeping each connection's transport where the ASGI app can hang it up."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            # Nagle off: uvicorn writes the head and the body apart, and the second would wait ~40 ms
            # for a delayed ACK (asyncio turns it off only for a listening socket made with IPPROTO_TCP).
            sock = transport.get_extra_info("socket")
            if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                except OSError:
                    pass
            super().connection_made(transport)
            self._emulator_key = _client_key(transport)
            if self._emulator_key is not None:
                connections[self._emulator_key] = transport

        def connection_lost(self, exc: Exception | None) -> None:
            if self._emulator_key is not None and connections.get(self._emulator_key) is self.transport:
                del connections[self._emulator_key]
            super().connection_lost(exc)

    return Protocol


def _client_key(transport: asyncio.Transport) -> tuple[str, int] | None:
    # The same form as the ASGI scope's "client", which uvicorn takes from the peer address too.
    peer = transport.get_extra_info("peername")
    return (str(peer[0]), int(peer[1])) if isinstance(peer, tuple) and len(peer) >= 2 else None


class LineEmulator:
    """A local LINE Messaging API server. token None accepts any non-empty bearer token."""

    def __init__(
        self,
        token: str | None = "test-token",
        host: str = "127.0.0.1",
        port: int = 0,
        clock: Clock | None = None,
        allow_loopback_media: bool = False,
        *,
        channel_id: str | None = None,
        channel_secret: str | None = None,
        loopback_webhooks: bool = False,
    ) -> None:
        _require_loopback(host)
        if token is not None and not token:
            raise ValueError("the token must be non-empty (or None to accept any token)")
        self.token = token
        self.host = host
        self._requested_port = port
        self._state = EmulatorState(clock)
        self._state.loopback_media = allow_loopback_media
        # Webhooks go to https endpoints only, unless tests or the demo point them at a loopback receiver.
        self._state.webhooks.loopback = loopback_webhooks
        if channel_secret is not None:
            if not channel_secret:
                raise ValueError("the channel secret must be non-empty")
            self._state.webhooks.channel_secret = channel_secret
        # /oauth2/v3/token issues stateless tokens for this channel ID and the channel secret.
        self._state.tokens.channel_id = channel_id
        self._state.tokens.channel_secret = self._state.webhooks.channel_secret
        self._app = EmulatorApp(self._state, token)
        self._connections: Connections = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: Any = None  # uvicorn.Server, imported when the emulator starts
        self._serving: asyncio.Task[None] | None = None
        self._port: int | None = None

    # ----- life cycle -----

    def start(self) -> LineEmulator:
        import uvicorn

        if self._thread is not None:
            raise RuntimeError("the emulator is already started")
        # Bound here, on the caller's thread, so a port in use fails start() itself.
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.create_server((self.host, self._requested_port), family=family, backlog=1024)
        self._port = sock.getsockname()[1]
        # log_config=None: uvicorn must not replace the host application's logging with its own.
        # proxy_headers off: the client address is how a hang-up finds its connection.
        config = uvicorn.Config(AsgiEmulator(self._app, self._connections), http=_protocol_class(self._connections),
                                ws="none", interface="asgi3", lifespan="off", log_config=None, log_level="warning",
                                access_log=False, server_header=False, proxy_headers=False,
                                timeout_keep_alive=_KEEP_ALIVE_SECONDS,
                                h11_max_incomplete_event_size=_MAX_HEAD_BYTES)
        self._server = server = uvicorn.Server(config)
        loop = asyncio.new_event_loop()
        self._loop = loop
        self._thread = threading.Thread(target=self._run, args=(loop, server, sock), name="line-emulator", daemon=True)
        self._thread.start()
        # uvicorn says it listens only through this flag; the socket is bound already, so this is short.
        waited = threading.Event()
        deadline = time.monotonic() + _STOP_TIMEOUT
        while not (server.started or server.should_exit) and self._thread.is_alive() and time.monotonic() < deadline:
            waited.wait(0.002)
        if not server.started:
            sock.close()
            self.stop()
            raise RuntimeError(f"the LINE emulator did not start on {self.host}:{self._port}")
        return self

    def _run(self, loop: asyncio.AbstractEventLoop, server: Any, sock: socket.socket) -> None:
        asyncio.set_event_loop(loop)
        self._serving = serving = loop.create_task(server.serve(sockets=[sock]))
        try:
            loop.run_until_complete(serving)
        except asyncio.CancelledError:
            pass  # stop() ends serving this way
        finally:
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            sock.close()
            loop.close()

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        if thread.is_alive() and not loop.is_closed():
            try:
                asyncio.run_coroutine_threadsafe(self._halt(), loop).result(_STOP_TIMEOUT)
            except (RuntimeError, TimeoutError):
                pass  # the loop died already; joining below is all that is left
        thread.join(_STOP_TIMEOUT)
        self._loop = self._thread = self._server = self._serving = None

    async def _halt(self) -> None:
        # uvicorn's own shutdown polls every 100 ms, which every test starting an emulator would pay.
        # Every connection is dropped at once instead, so answers still waiting (a hang, latency) give
        # up now; what is still running gets a moment to finish before serving is cancelled.
        for transport in list(self._connections.values()):
            transport.close()
        others = asyncio.all_tasks() - {asyncio.current_task(), self._serving}
        if others:
            await asyncio.wait(others, timeout=_HALT_WAIT)
        if self._serving is not None:
            self._serving.cancel()

    def __enter__(self) -> LineEmulator:
        return self if self._thread is not None else self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("start() the emulator first")
        return self._port

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    # ----- arranging -----

    def add_user(self, user_id: str, display_name: str, *, friend: bool = True) -> None:
        self._state.add_user(user_id, display_name, friend=friend)

    def add_group(self, group_id: str, name: str, members: list[str], picture_url: str | None = None) -> None:
        self._state.add_group(group_id, name, members, picture_url)

    def set_quota(self, limit: int | None) -> None:
        self._state.set_quota(limit)

    def set_rate_limit(self, endpoint: str, per_second: float | None) -> None:
        self._state.set_rate_limit(endpoint, per_second)

    def set_faults(self, plan: FaultPlan) -> None:
        self._state.set_faults(plan)

    def reset(self) -> None:
        self._state.reset()

    # ----- the other direction: the channel's webhook and simulated users -----

    @property
    def channel_secret(self) -> str:
        """The secret webhooks are signed with (random unless one was given)."""
        return self._state.webhooks.channel_secret

    @property
    def bot_user_id(self) -> str:
        return self._app.line.simulator.destination

    def set_webhook_endpoint(self, url: str | None) -> None:
        """As PUT /v2/bot/channel/webhook/endpoint does, checked the same way; None unsets it."""
        with self._state.lock:
            if url is not None and (problem := endpoint_problem(url, loopback=self._state.webhooks.loopback)):
                raise ValueError(f"webhook endpoint {url!r}: {problem}")
            self._state.webhooks.endpoint = url

    @property
    def webhook_endpoint(self) -> str | None:
        with self._state.lock:
            return self._state.webhooks.endpoint

    def set_webhook_active(self, active: bool) -> None:
        """The console's "Use webhook" switch; off, events are not sent."""
        with self._state.lock:
            self._state.webhooks.active = bool(active)

    def webhooks_sent(self) -> list[SentWebhook]:
        return self._state.webhooks.history()

    def follow(self, user_id: str, display_name: str | None = None) -> Delivered:
        return self._app.line.simulator.follow(user_id, display_name)

    def unfollow(self, user_id: str) -> Delivered:
        return self._app.line.simulator.unfollow(user_id)

    def send_text(self, user_id: str, text: str, *, group_id: str | None = None) -> Delivered:
        return self._app.line.simulator.message(user_id, text, group_id=group_id)

    def postback(self, user_id: str, data: str, *, group_id: str | None = None,
                 params: dict[str, str] | None = None) -> Delivered:
        return self._app.line.simulator.postback(user_id, data, group_id=group_id, params=params)

    def pick(self, user_id: str, action: dict[str, Any], value: str) -> Delivered:
        """The user chooses `value` ("17:00") in a datetime picker action of a message they received."""
        return self._app.line.simulator.pick(user_id, action, value)

    def tap(self, user_id: str, *, message_id: str | None = None, label: str | None = None) -> Delivered:
        """The user taps a postback button in a message they received (the newest with one)."""
        return self._app.line.simulator.tap(user_id, message_id=message_id, label=label)

    def join(self, group_id: str) -> Delivered:
        return self._app.line.simulator.join(group_id)

    def leave(self, group_id: str) -> Delivered:
        return self._app.line.simulator.leave(group_id)

    def member_joined(self, group_id: str, user_ids: list[str]) -> Delivered:
        return self._app.line.simulator.member_joined(group_id, user_ids)

    def member_left(self, group_id: str, user_ids: list[str]) -> Delivered:
        return self._app.line.simulator.member_left(group_id, user_ids)

    def redeliver(self, event_id: str) -> Delivered:
        return self._app.line.simulator.redeliver(event_id)

    def reissue_token(self, token: str) -> None:
        """As the console's "Reissue" of the long-lived channel access token: the new one is accepted and
        the one before refused from now on (stateless tokens live on: LINE cannot revoke them)."""
        if not token or self.token is None:
            raise ValueError("reissue a non-empty token, on an emulator started with one")
        self.token = token
        with self._state.lock:
            self._app.line.reissue_token(token)

    def reissue_channel_secret(self, secret: str) -> None:
        """As the console's "Issue" of a new channel secret: webhooks are signed with it, and stateless
        tokens are issued for it only."""
        if not secret:
            raise ValueError("the channel secret must be non-empty")
        with self._state.lock:
            self._state.webhooks.channel_secret = secret
            self._state.tokens.channel_secret = secret

    def revoke_stateless_tokens(self) -> None:
        """Refuse every stateless token issued so far (LINE cannot; a test of the 401 path can)."""
        with self._state.lock:
            self._state.tokens.revoke_all()

    def issue_id_token(self, user_id: str, channel_id: str, *, expires_in: int = 3600, name: str | None = None) -> str:
        """A LIFF ID token (ES256, signed by this emulator) for `user_id`, audience `channel_id` (the LINE
        Login channel ID), as `liff.getIDToken()` would give it; `POST /oauth2/v2.1/verify` here accepts it.
        expires_in zero or less makes one that is already expired."""
        return self._state.issue_id_token(user_id, channel_id, expires_in=expires_in, name=name)

    @property
    def stateless_tokens_issued(self) -> int:
        with self._state.lock:
            return self._state.tokens.issued

    # ----- inspecting -----

    def inbox(self, recipient_id: str) -> list[InboxMessage]:
        return self._state.inbox(recipient_id)

    def all_inbox(self) -> list[InboxMessage]:
        return self._state.all_inbox()

    def wait_inbox(self, recipient_id: str, count: int, timeout: float) -> list[InboxMessage]:
        """The recipient's inbox once more than `count` messages reached it, or as it stands at `timeout`."""
        return self._state.wait_inbox(recipient_id, count, timeout)

    def group_names(self) -> dict[str, str]:
        """Each group's name, by its ID, as LINE's group summary gives it."""
        return self._state.group_names()

    def rich_menus(self) -> dict[str, Any]:
        """`{"default": ID or None, "richmenus": [...]}`: every rich menu the channel has, as
        GET /_emulator/rich-menus answers."""
        return self._state.rich_menus_json()

    def rich_menu_image(self, rich_menu_id: str) -> bytes | None:
        """The image uploaded for the menu (None: no such menu, or no image yet)."""
        with self._state.lock:
            menu = self._state.rich_menus.menus.get(rich_menu_id)
            return None if menu is None else menu.image

    def restore_inbox(self, items: list[InboxMessage]) -> None:
        """Messages an earlier run received, back in the inboxes (the demo's history across restarts)."""
        self._state.restore_inbox(items)

    def accepted_retry_keys(self) -> dict[str, str]:
        return self._state.accepted_retry_keys()

    def request_log(self) -> list[RequestRecord]:
        return self._state.request_log()

    @property
    def consumption(self) -> int:
        return self._state.consumption()

    @property
    def now(self) -> dt.datetime:
        """The emulator's clock, as the 24-hour retry-key window and the monthly quota see it."""
        return self._state.clock()
