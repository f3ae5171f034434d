"""The strip that says the database server cannot be reached, shown above the tabs until it answers again.

Only a server database has it (a local file does not go away). A cheap round trip runs on the task
pool every few seconds; while it fails the strip stays, and every save in the meantime is refused
with the same words (core/store/db.py raises ServerUnreachable), so nothing is silently lost. The
engine's pre-ping replaces the dropped connections once the server is back, and the strip goes.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QWidget

from core.texts import t
from ui.common import i18n
from ui.common.phrases import PhraseLabel
from ui.services.context import AppContext

CHECK_EVERY_MS = 10_000  # while the server answers: one SELECT 1 per window every ten seconds
RETRY_EVERY_MS = 2_000  # while it does not: notice its return within a couple of seconds


class DatabaseBanner(QFrame):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("databaseBanner")
        self.setStyleSheet("#databaseBanner { background: #fdecea; border-bottom: 1px solid #c0392b; }"
                           "#databaseBanner QLabel { color: #7b241c; }")
        self.label = PhraseLabel(i18n.render(t("db.unreachable")), self)
        self.label.setWordWrap(True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 6)
        layout.addWidget(self.label, 1)
        self.hide()
        self._checking = False
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.check)
        if not ctx.db.is_sqlite:
            self.timer.start(CHECK_EVERY_MS)

    @property
    def unreachable(self) -> bool:
        return not self.isHidden()

    def check(self) -> None:
        """One round trip to the server, off the UI thread; the next one is scheduled by its answer."""
        if self._checking:
            return
        self._checking = True
        self.ctx.tasks.run(self.ctx.db.ping, self._answered, lambda _exc: self._answered(False), owner=self)

    def _answered(self, reachable: bool) -> None:
        self._checking = False
        self.setVisible(not reachable)
        self.timer.start(CHECK_EVERY_MS if reachable else RETRY_EVERY_MS)
