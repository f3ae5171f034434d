"""Core events as Qt signals. Core calls plain callbacks on its own threads; each is posted to the
UI thread (ui_thread: never a Qt call from a core thread) and the signal is emitted there. The
database's events (core/store/events.py, this process's commits and other processes' alike) arrive
with their payload; bursts of delivery changes are coalesced so a sender draining thousands of rows
costs the UI a few updates a second, not one per row."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from core.sending.sender import SenderEvents
from core.store import events as store_events
from core.texts import Text, render
from ui.common import i18n
from ui.services import ui_thread

COALESCE_MS = 200


class CoreBridge(QObject):
    deliveries_changed = Signal(list)  # delivery ids, coalesced
    shifts_changed = Signal(object)  # store_events.ShiftsChanged: which shifts (None: some, from elsewhere)
    acknowledged = Signal(object)  # store_events.DeliveriesAcknowledged: teachers' 了解 taps
    availability_answered = Signal(object)  # store_events.AvailabilityAnswered: teachers' answers when asked
    alert = Signal(str, str)  # code, text in the interface's language
    hold_changed = Signal(object)  # reason or None
    settings_changed = Signal()
    receiving_changed = Signal(object)  # core.setup.receiving.ReceivingState
    cover_requests_changed = Signal(object)  # store_events.CoverRequestsChanged: asked, volunteered, answered
    webhook_events_handled = Signal(object)  # store_events.WebhookEventsHandled: by any receiver of the data

    def __init__(self, events: store_events.Events, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pending: set[int] = set()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(COALESCE_MS)
        self._timer.timeout.connect(self._flush)
        ui_thread.install()
        self._unhook = [
            events.listen(store_events.ShiftsChanged, self._from_core(self.shifts_changed.emit)),
            events.listen(store_events.DeliveriesAcknowledged, self._from_core(self.acknowledged.emit)),
            events.listen(store_events.AvailabilityAnswered, self._from_core(self.availability_answered.emit)),
            events.listen(store_events.CoverRequestsChanged, self._from_core(self.cover_requests_changed.emit)),
            events.listen(store_events.WebhookEventsHandled, self._from_core(self.webhook_events_handled.emit)),
            events.listen(store_events.DeliveriesEnqueued, self._from_core(lambda _event: self._collect([]))),
        ]

    def _from_core(self, on_ui_thread: Callable[..., None]) -> Callable[..., None]:
        """A callback for core's threads that runs `on_ui_thread` on the UI thread, while this bridge lives."""
        def post(*args: Any) -> None:
            ui_thread.post(on_ui_thread, *args, owner=self)
        return post

    def attach(self, events: SenderEvents) -> None:
        events.deliveries_changed.append(self._from_core(self._collect))
        events.alert.append(self._from_core(self.raise_alert))
        events.hold_changed.append(self._from_core(self.hold_changed.emit))

    def attach_receiving(self, listeners: list[Callable[[Any], None]]) -> None:
        """Core's receiving state changes (its own thread) reach the window on the UI thread."""
        listeners.append(self._from_core(self.receiving_changed.emit))

    def raise_alert(self, code: str, text: Text | str) -> None:
        """On the UI thread: the title is rendered in the interface's language here, so the banner,
        the tray and every listener read the same words."""
        self.alert.emit(code, render(text, i18n.current()))

    def detach(self) -> None:
        for unhook in self._unhook:
            unhook()
        self._unhook.clear()

    def _collect(self, ids: list[int]) -> None:
        self._pending.update(ids)
        if not self._timer.isActive():
            self._timer.start()

    @Slot()
    def _flush(self) -> None:
        ids = sorted(self._pending)
        self._pending.clear()
        self.deliveries_changed.emit(ids)
