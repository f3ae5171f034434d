"""The tray: sending goes on with the window closed. Open, send now, pause, counts, quit, and desktop
notifications for what needs the manager: every alert kind (dead letters, a refused token or password,
the quota, a stalled queue, another computer sending from this data folder, a left LINE group)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from core.outbox import board
from core.store.kinds import AlertKind
from ui.services.context import AppContext

# Alert codes worth a desktop notification: the sender's AUTH_FAILED and every alert kind's name
# (core/alerts.py), so a kind added later is announced too. Each asks the manager to act.
NOTIFY = {"AUTH_FAILED", *(kind.name for kind in AlertKind)}


class Tray(QObject):
    def __init__(self, ctx: AppContext, icon: QIcon, *, open_window: Callable[[], object], quit_app: Callable[[], None]) -> None:
        super().__init__()
        self.ctx = ctx
        # The demo runs beside the real app at times: its name says so wherever the tray shows it.
        self.name = self.tr("Shiftcast DEMO") if ctx.demo is not None else "Shiftcast"
        self.icon = QSystemTrayIcon(icon, self)
        self.icon.setToolTip(self.name)
        menu = QMenu()
        self._menu = menu
        self.open_action = QAction(self.tr("Open Shiftcast"), menu)
        self.open_action.triggered.connect(open_window)
        self.send_action = QAction(self.tr("Send now"), menu)
        self.send_action.triggered.connect(self.send_now)
        self.pause_action = QAction(self.tr("Pause sending"), menu, checkable=True)
        self.pause_action.toggled.connect(self.set_paused)
        self.counts_action = QAction("", menu, enabled=False)
        self.quit_action = QAction(self.tr("Quit (stop sending)"), menu)
        self.quit_action.triggered.connect(quit_app)
        for action in (self.open_action, self.send_action, self.pause_action):
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction(self.counts_action)
        menu.addSeparator()
        menu.addAction(self.quit_action)
        self.icon.setContextMenu(menu)
        self.icon.activated.connect(lambda reason: open_window() if reason == QSystemTrayIcon.ActivationReason.Trigger else None)
        ctx.bridge.alert.connect(self.notify)
        ctx.bridge.deliveries_changed.connect(lambda _ids: self.refresh_counts())
        self._timer = QTimer(self, interval=60_000)
        self._timer.timeout.connect(self.refresh_counts)
        self._timer.start()
        ctx.signals.engine_changed.connect(self.engine_changed)
        self.engine_changed()

    def engine_changed(self) -> None:
        """The engine starts after the tray is built (or not at all, when another process sends)."""
        sending = self.ctx.engine is not None and self.ctx.engine.sending
        self.send_action.setEnabled(sending)
        self.pause_action.setEnabled(sending)
        self.refresh_counts()

    @staticmethod
    def available() -> bool:
        return QSystemTrayIcon.isSystemTrayAvailable()

    def show(self) -> None:
        self.icon.show()

    def hide(self) -> None:
        self.icon.hide()

    def send_now(self) -> None:
        self.ctx.wake_sender()

    def set_paused(self, paused: bool) -> None:
        if self.ctx.engine is not None and self.ctx.engine.sender is not None:
            self.ctx.engine.sender.pause(paused)
        self.refresh_counts()

    def refresh_counts(self) -> None:
        self.ctx.tasks.run(lambda: board.counts(self.ctx.db), self._show_counts, lambda _exc: None, owner=self)

    def _show_counts(self, counts: Mapping[str, int]) -> None:
        text = self.tr("Waiting {0} · Sent {1} · Failed {2}").format(
            counts["pending"] + counts["queued"] + counts["processing"], counts["sent"], counts["failed"])
        if self.pause_action.isChecked():
            text = self.tr("Paused") + " · " + text
        self.counts_action.setText(text)
        self.icon.setToolTip(f"{self.name} — {text}")

    def notify(self, code: str, text: str) -> None:
        if code in NOTIFY and self.icon.isVisible():
            self.icon.showMessage(self.name, text, QSystemTrayIcon.MessageIcon.Warning, 10_000)

    def say_still_running(self) -> None:
        self.icon.showMessage(self.name, self.tr("Shiftcast keeps sending reminders from here. "
                                                   "Use Quit in this menu to stop it."),
                              QSystemTrayIcon.MessageIcon.Information, 8_000)
