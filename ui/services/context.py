"""What every screen needs, passed in explicitly (no global app object reached from everywhere)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from core.app.demo import DemoEnvironment
from core.store.db import Database
from core.store.paths import DataPaths
from ui.services.bridge import CoreBridge
from ui.services.tasks import Tasks

if TYPE_CHECKING:
    from core.sending.engine import Engine  # imported once the window is shown (ui/shell/app.py)
    from core.setup.receiving import Receiving, ReceivingState  # likewise


def system_clock() -> dt.datetime:
    """The present instant in UTC, from this computer's clock; tests hand AppContext a clock of their own."""
    return dt.datetime.now(dt.UTC)


class AppSignals(QObject):
    """Changes made by one screen that other screens must follow, without knowing who made them."""

    # A classroom or teacher was added, changed or removed, by whichever area did it: every area that
    # lists classrooms or teachers (Shifts, Publish, the Deliveries filters, Settings) reloads them.
    roster_changed = Signal()
    # The sending engine was started after the window was shown (or stopped): sender controls follow.
    engine_changed = Signal()


@dataclass
class AppContext:
    paths: DataPaths
    db: Database
    tasks: Tasks
    bridge: CoreBridge
    engine: Engine | None = None  # None when another process sends for this data folder
    demo: DemoEnvironment | None = None
    clock: Callable[[], dt.datetime] = field(default=system_clock)
    signals: AppSignals = field(default_factory=AppSignals)
    engine_starting: bool = False  # the window is shown first; the engine starts right after
    receiving: Receiving | None = None  # LINE's webhooks, once started after the window (not in the demo)

    def wake_sender(self) -> None:
        if self.engine is not None and self.engine.sender is not None:
            self.engine.sender.wake()

    def set_engine(self, engine: Engine | None) -> None:
        self.engine = engine
        self.engine_starting = False
        self.signals.engine_changed.emit()

    def receiving_state(self) -> ReceivingState | None:
        """Whether LINE can reach this app now; None: this run does not receive (a smoke check)."""
        if self.demo is not None and self.demo.receiver is not None:
            from core.setup.receiving import ReceivingState

            return ReceivingState(self.demo.receiver.url)  # the demo receives from its simulator from the start
        return self.receiving.state if self.receiving is not None else None
