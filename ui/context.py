"""What every screen needs, passed in explicitly (no global app object reached from everywhere)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from core.app.demo import DemoEnvironment
from core.sending.engine import Engine
from core.store.db import Database
from core.store.models import utcnow
from core.store.paths import DataPaths
from ui.bridge import CoreBridge
from ui.tasks import Tasks


@dataclass
class AppContext:
    paths: DataPaths
    db: Database
    tasks: Tasks
    bridge: CoreBridge
    engine: Engine | None = None  # None when another process sends for this data folder
    demo: DemoEnvironment | None = None
    clock: Callable[[], dt.datetime] = field(default=utcnow)

    def wake_sender(self) -> None:
        if self.engine is not None and self.engine.sender is not None:
            self.engine.sender.wake()
