"""Receiving that lives with the app: the webhook receiver and its public address, started with the
window or the tray once LINE is connected (or LINE WORKS is set up), and stopped with it.

Connect LINE, finished with "keep receiving", stores where LINE reaches Shiftcast (a Cloudflare quick
tunnel, the owner's own address, or loopback for tests and the demo; core/store/setting_keys.py).
`Receiving.start()` then, on its own thread: puts back an endpoint a crashed connect flow left
pending (core/setup/line_connect.py), starts the receiver on 127.0.0.1 and the address for it;
sets LINE's webhook endpoint when LINE calls another address (a quick tunnel's address is new at every
start); and, while "Use webhook" is on, has LINE test it. `state` says whether LINE can reach Shiftcast
now, for the status line, and every change is told to the listeners (on the service's thread) and
written to the settings (`line.receive.status`), where `shiftcast doctor`, which does not receive,
reads it (`recorded`).

Decisions:
- While LINE's webhook points at the relay this app deployed or attached, nothing is started and LINE
  is left as it is: the relay receives day and night and the app pulls the events from it. Only that
  exact address counts: a relay that does not take LINE's webhooks (the demo's) leaves receiving here.
- Re-pointed whenever LINE's endpoint differs from ours, not only when the tunnel's address changed:
  the owner chose to keep receiving here, and a stale endpoint loses every event.
- LINE's test runs only while "Use webhook" is on: switched off, LINE sends nothing, and its test
  would say nothing about whether events arrive.
- Stopping leaves LINE's endpoint as it is: LINE cannot remove one, and its "Webhook redelivery"
  sends what it could not deliver again once the app runs.
- The state is kept in a settings row rather than a table of its own: one value, overwritten at each
  change, read by one verb; a table would keep a history nobody reads. A process that ended without
  stopping (killed, a power cut) leaves its last state there, so the row carries its time.
- Without a LINE channel secret the receiver still starts when another channel whose taps come back
  (a driver's `postbacks`: LINE WORKS) is set up: that channel's callback checks its own signature, and
  LINE's route refuses every request. LINE is then neither pointed nor tested, and the state's address
  is the receiver's; each channel's callback address is the public address with its path
  (`callback_address`: LINE WORKS' is entered by hand in its Developer Console).
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import httpx

from core.channels import registry
from core.errors import ShiftcastError
from core.receiving.address import LoopbackAddress, OwnAddress, PublicAddress, QuickTunnel, endpoint
from core.receiving.handlers import EventHandler
from core.receiving.server import PATH, WebhookReceiver
from core.setup import relay_state
from core.setup.line_connect import (
    TestOutcome,
    client_from_settings,
    explain,
    remember_address,
    restore_if_pending,
    stop_receiving,
)
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.kinds import Channel
from core.store.settings import ReceivingRecord
from core.texts import Text, t
from core.texts.message import dumps, loads

log = logging.getLogger(__name__)
_STOP_TIMEOUT = 30.0


@dataclass(frozen=True)
class ReceivingState:
    """Whether LINE can reach Shiftcast now: the webhook address it calls, or why not."""

    endpoint: str | None  # None: not receiving
    why: Text | None = None

    @property
    def receiving(self) -> bool:
        return self.endpoint is not None

    @property
    def words(self) -> Text:
        if self.endpoint is not None:
            return t("receiving.status.at", address=self.endpoint)
        return t("receiving.status.not", why=self.why or t("receiving.why.stopped"))


STARTING = ReceivingState(None, t("receiving.why.starting"))
NOT_CONNECTED = ReceivingState(None, t("receiving.why.not_connected"))


def _not(message: str, /, **params: str | int | Text) -> ReceivingState:
    return ReceivingState(None, t(message, **params))


def address_from_settings(db: Database) -> tuple[PublicAddress, int] | None:
    """The address chosen when Connect LINE finished, and the receiver's port; None: not chosen."""
    with db.read() as session:
        mode = keys.LINE_RECEIVE_ADDRESS.read(session)
        own_url = keys.LINE_RECEIVE_OWN_URL.read(session)
        port = keys.LINE_RECEIVE_PORT.read(session) or 0
    if mode == QuickTunnel.name:
        return QuickTunnel(), 0
    if mode == OwnAddress.name and own_url:
        return OwnAddress(own_url), port
    if mode == LoopbackAddress.name:
        return LoopbackAddress(), 0
    return None


def address_of(kind: str, own_url: str = "", port: int = 0) -> tuple[PublicAddress, int]:
    """The address a screen's choice names (`QuickTunnel.name`, `OwnAddress.name` with its URL and the
    port the owner's proxy forwards to, or `LoopbackAddress.name`), and the receiver's port (0: any);
    AddressError when the own address is not one LINE can call. Connect LINE and Settings → LINE WORKS
    offer the same choices."""
    if kind == OwnAddress.name:
        return OwnAddress(own_url), port
    if kind == LoopbackAddress.name:
        return LoopbackAddress(), 0
    return QuickTunnel(), 0


def receive_at(db: Database, address: PublicAddress, port: int, service: Receiving | None) -> None:
    """Keep receiving at `address` from now on, as Connect LINE does when it finishes: stored where the
    app's receiving reads it at every start, and the running receiving (if any) restarted to use it."""
    remember_address(db, address, port)
    if service is not None:
        service.restart()


def others_set_up(db: Database) -> bool:
    """A channel other than LINE whose taps come back to the receiver is set up (LINE WORKS)."""
    for driver in registry.with_addresses():
        if driver.key == Channel.LINE.value or not driver.postbacks:
            continue
        try:
            connection = driver.connect(db)
        except secrets.SecretStoreError:
            continue
        if connection is not None:
            connection.close()
            return True
    return False


def callback_address(db: Database, path: str, live: ReceivingState | None = None) -> str | None:
    """Where a channel's server calls the receiver at `path`: the owner's own address when one is
    chosen, else the address the receiving is reachable at now (`live`, or as it last recorded; a quick
    tunnel's changes at each start); None while no address is chosen or the receiving is not running."""
    with db.read() as session:
        mode = keys.LINE_RECEIVE_ADDRESS.read(session)
        own_url = keys.LINE_RECEIVE_OWN_URL.read(session)
    if mode == OwnAddress.name and own_url:
        return endpoint(own_url, path)
    if mode is None and live is None:
        return None  # nothing chosen, and nothing receiving that says where
    if live is None:
        found = recorded(db)
        live = found[0] if found is not None else None
    at = live.endpoint if live is not None else None
    return at.removesuffix(PATH) + path if at is not None and at.endswith(PATH) else None


def recorded(db: Database) -> tuple[ReceivingState, dt.datetime] | None:
    """What the app's receiving last said and when; None: it never ran since this was recorded."""
    with db.read() as session:
        record = keys.LINE_RECEIVE_STATUS.read(session)
    if record is None:
        return None
    why = loads(record.why) if record.why else None
    return ReceivingState(record.endpoint, why if isinstance(why, Text) else None), record.since


def line_endpoint(db: Database) -> str | None:
    """Where LINE's webhook points now, as LINE says (one request); None: LINE is not set up, or
    could not be asked (logged), so a caller says nothing about it rather than something wrong."""
    try:
        client = client_from_settings(db)
    except ShiftcastError as exc:  # the keyring cannot give the credentials: the check says so elsewhere
        log.info("cannot ask LINE where its webhook points: %s", exc)
        return None
    if client is None:
        return None
    try:
        return client.webhook_endpoint().endpoint
    except (ShiftcastError, httpx.HTTPError) as exc:
        log.warning("could not ask LINE where its webhook points: %s", exc)
        return None
    finally:
        client.close()


class Receiving:
    """The app's receiver and its public address, on daemon threads; start() returns at once."""

    def __init__(self, db: Database, *, handlers: Sequence[EventHandler] | None = None,
                 clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC)) -> None:
        self.db = db
        self.clock = clock
        self.handlers = handlers  # the receiver's; None: its default ones
        self.listeners: list[Callable[[ReceivingState], None]] = []
        self._state = NOT_CONNECTED
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._receiver: WebhookReceiver | None = None
        self._address: PublicAddress | None = None
        self._stopping = False

    @property
    def state(self) -> ReceivingState:
        return self._state

    def start(self) -> Receiving:
        with self._lock:
            if self._thread is not None:
                raise RuntimeError("receiving is already started")
            self._stopping = False
            self._thread = threading.Thread(target=self._run, name="receiving", daemon=True)
        self._set(STARTING)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the address and the receiver; a tunnel still starting is stopped at once."""
        with self._lock:
            self._stopping = True
            thread, self._thread = self._thread, None
            address = self._address
        if address is not None:
            address.stop()  # a QuickTunnel's start() under way ends now
        if thread is not None:
            thread.join(_STOP_TIMEOUT)
        self._release()
        self._set(_not("receiving.why.stopped"))

    def restart(self) -> Receiving:
        """Stop and start again: the address chosen may have changed (Connect LINE finished)."""
        self.stop()
        return self.start()

    def _set(self, state: ReceivingState) -> None:
        # Recorded first: whoever sees this state here (the window, a test) then finds it recorded too,
        # and `doctor` in another process never reads an older one ("starting" after receiving began).
        self._record(state)
        self._state = state
        log.info("LINE webhooks: %s", state.words)
        for listener in list(self.listeners):
            listener(state)

    def _record(self, state: ReceivingState) -> None:
        """For another process to read (`recorded`); a database that cannot take it never stops receiving."""
        record = ReceivingRecord(state.endpoint, self.clock(), dumps(state.why) if state.why is not None else None)
        try:
            with self.db.write() as session:
                keys.LINE_RECEIVE_STATUS.write(session, record)
        except Exception:
            log.warning("could not record the receiving state", exc_info=True)

    def _release(self) -> None:
        with self._lock:
            address, self._address = self._address, None
            receiver, self._receiver = self._receiver, None
        stop_receiving(address, receiver)

    def _run(self) -> None:
        try:
            state = self._start_receiving()
        except ShiftcastError as exc:
            log.warning("cannot receive LINE's webhooks: %s", exc)
            state = ReceivingState(None, exc.text if isinstance(exc.text, Text) else t(
                "receiving.why.failed", detail=str(exc)))
        except Exception as exc:  # the window goes on; the status line and the log say why
            log.exception("receiving LINE's webhooks failed")
            state = _not("receiving.why.failed", detail=type(exc).__name__)
        if not state.receiving:
            self._release()
        if not self._stopping:
            self._set(state)

    def _start_receiving(self) -> ReceivingState:
        restore_if_pending(self.db)  # a connect flow that crashed first, so LINE ends at ours, not the reverse
        chosen = address_from_settings(self.db)
        if chosen is None:
            return NOT_CONNECTED
        relay = relay_state.relay_webhook(self.db)
        if relay is not None and line_endpoint(self.db) == relay:
            # The relay deployed for this app takes LINE's events, day and night, and the app pulls them
            # from it (core/relay/syncer.py): pointing LINE back here would leave them unheard while
            # this computer sleeps, at every start.
            log.info("LINE's webhook points at the relay (%s): this app does not receive it itself", relay)
            return ReceivingState(relay)
        address, port = chosen
        secret = secrets.line_channel_secret()
        if not secret and not others_set_up(self.db):
            return _not("receiving.why.no_secret")
        receiver = WebhookReceiver(self.db, secret or None, port=port, handlers=self.handlers)
        with self._lock:
            if self._stopping:
                return _not("receiving.why.stopped")
            self._receiver, self._address = receiver.start(), address
        url = endpoint(address.start(receiver.port))
        if self._stopping:
            return _not("receiving.why.stopped")
        if not secret:  # LINE WORKS alone: its callback is entered in its Developer Console, not set here
            return ReceivingState(url)
        return self._point_line(url)

    def _point_line(self, url: str) -> ReceivingState:
        client = client_from_settings(self.db)
        if client is None:
            return _not("receiving.why.no_credentials")
        try:
            current = client.webhook_endpoint()
            if current.endpoint != url:
                client.set_webhook_endpoint(url)
                log.info("LINE's webhook endpoint set to %s (it was %s)", url, current.endpoint)
                current = client.webhook_endpoint()
            with self.db.write() as session:
                keys.LINE_RECEIVE_ENDPOINT.write(session, url)
            if not current.active:
                return _not("receiving.why.webhook_off")
            test = explain(client.test_webhook(url), active=True)
        except (ShiftcastError, httpx.HTTPError) as exc:
            log.warning("could not point LINE's webhook at %s: %s", url, exc)
            return _not("receiving.why.line_unreachable", address=url, detail=str(exc) or type(exc).__name__)
        finally:
            client.close()
        if test.outcome is not TestOutcome.OK:
            log.warning("LINE's webhook test of %s: %s", url, test.words)
            return _not("receiving.why.test_failed", address=url, code=test.status_code)
        return ReceivingState(url)
