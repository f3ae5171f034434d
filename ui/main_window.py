"""The main window: four areas in tabs under a strip of open alerts, a status line for the sender, the File
and Help menus."""

from __future__ import annotations

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from core.outbox import deliveries
from core.store import setting_keys as keys
from core.store.settings import ChannelHold
from core.version import __version__
from ui.alerts_banner import AlertsBanner
from ui.context import AppContext
from ui.database_banner import DatabaseBanner
from ui.deliveries_view import DeliveriesView
from ui.publish_view import PublishView
from ui.settings_view import SettingsView
from ui.shifts_view import ShiftsView


class MainWindow(QMainWindow):
    close_requested = Signal()  # the app decides: hide to the tray, or quit
    quit_requested = Signal()

    def __init__(self, ctx: AppContext, icon: QIcon | None = None) -> None:
        super().__init__()
        self.ctx = ctx
        self.setWindowTitle(f"Shiftcast {__version__}" + (self.tr(" — demo") if ctx.demo else ""))
        if icon is not None:
            self.setWindowIcon(icon)
        self.resize(1280, 800)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.shifts = ShiftsView(ctx, self)
        self.publish = PublishView(ctx, self)
        self.deliveries = DeliveriesView(ctx, self)
        self.settings = SettingsView(ctx, self)
        self.tabs.addTab(self.shifts, self.tr("Shifts"))
        self.tabs.addTab(self.publish, self.tr("Publish"))
        self.tabs.addTab(self.deliveries, self.tr("Deliveries"))
        self.tabs.addTab(self.settings, self.tr("Settings"))
        self.alerts_banner = AlertsBanner(ctx, self)
        self.alerts_banner.deliveries_wanted.connect(self.show_deliveries)
        self.alerts_banner.settings_wanted.connect(self.show_settings)
        central = QWidget(self)
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.alerts_banner)
        column.addWidget(DatabaseBanner(ctx, central))
        column.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self.sender_status = QLabel(self)
        self.statusBar().addPermanentWidget(self.sender_status)
        self._build_menus()
        ctx.bridge.deliveries_changed.connect(lambda _ids: self.refresh_status())
        ctx.bridge.hold_changed.connect(lambda _reason: self.refresh_status())
        self.refresh_status()

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        quit_action = QAction(self.tr("&Quit"), self, shortcut=QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.quit_requested)
        file_menu.addAction(quit_action)
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        help_menu.addAction(QAction(self.tr("Open the data folder"), self,
                                    triggered=lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.ctx.paths.home)))))
        help_menu.addAction(QAction(self.tr("Open the log file"), self,
                                    triggered=lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.ctx.paths.logs / "shiftcast.log")))))
        help_menu.addAction(QAction(self.tr("About Shiftcast"), self, triggered=self.about))

    def about(self) -> None:
        QMessageBox.about(self, self.tr("About Shiftcast"),
                          self.tr("Shiftcast {0}\nShift rosters published and reminded over LINE.\n\nData folder: {1}")
                          .format(__version__, self.ctx.paths.home))

    def show_deliveries(self, dead_letters_only: bool) -> None:
        if dead_letters_only:
            self.deliveries.dead_check.setChecked(True)
        self.tabs.setCurrentWidget(self.deliveries)

    def show_settings(self, channel: str) -> None:
        self.tabs.setCurrentWidget(self.settings)
        self.settings.show_section(channel)

    def refresh_status(self) -> None:
        def load() -> tuple[dict[str, int], ChannelHold | None]:
            with self.ctx.db.read() as session:
                return deliveries.counts(session), keys.LINE_HOLD.read(session)

        self.ctx.tasks.run(load, self._show_status, lambda _exc: None, owner=self)

    def _show_status(self, result: tuple[dict[str, int], ChannelHold | None]) -> None:
        counts, hold = result
        engine = self.ctx.engine
        if engine is None:
            state = self.tr("Another Shiftcast window or tray is sending")
        elif not engine.sending:
            state = self.tr("Not sending from this window")
        elif hold is not None:
            state = self.tr("Sending held: LINE refused the channel access token (Settings)")
        elif engine.sender is not None and engine.sender.paused:
            state = self.tr("Sending paused")
        else:
            state = self.tr("Sending")
        waiting = counts["pending"] + counts["queued"] + counts["processing"]
        self.sender_status.setText(self.tr("{0} · waiting {1} · failed {2}").format(state, waiting, counts["failed"]))

    def closeEvent(self, event: QCloseEvent) -> None:
        event.ignore()
        self.close_requested.emit()
