"""The main window: four areas in tabs under a strip of open alerts, a status line for the sender and
for whether LINE reaches Shiftcast, the File and Help menus.

Only the area on screen is built (and its module imported) when the window opens; the others are
built the first time they are shown or asked for. Importing and building all four cost about 250 ms
more at every start (measured here), for areas most starts never open.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

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

from core.outbox import board
from core.roster import contacts
from core.texts import t
from core.version import __version__
from ui.common import i18n
from ui.services.context import AppContext
from ui.shell.alerts_banner import AlertsBanner
from ui.shell.database_banner import DatabaseBanner
from ui.shell.window_geometry import Rect, SavedGeometry, screen_key, window_rect

if TYPE_CHECKING:
    from core.planning.unacknowledged import Reminded
    from ui.deliveries.view import DeliveriesView
    from ui.publish.view import PublishView
    from ui.settings.view import SettingsView
    from ui.shifts.view import ShiftsView

AREAS = ("shifts", "publish", "deliveries", "settings")  # in tab order


def _build_shifts(ctx: AppContext, parent: QWidget) -> QWidget:
    from ui.shifts.view import ShiftsView

    return ShiftsView(ctx, parent)


def _build_publish(ctx: AppContext, parent: QWidget) -> QWidget:
    from ui.publish.view import PublishView

    return PublishView(ctx, parent)


def _build_deliveries(ctx: AppContext, parent: QWidget) -> QWidget:
    from ui.deliveries.view import DeliveriesView

    view = DeliveriesView(ctx, parent)
    # Its classroom filter follows classrooms added or renamed in any area.
    ctx.signals.roster_changed.connect(view._load_classrooms)
    return view


def _build_settings(ctx: AppContext, parent: QWidget) -> QWidget:
    from ui.settings.view import SettingsView

    return SettingsView(ctx, parent)


BUILDERS: dict[str, Callable[[AppContext, QWidget], QWidget]] = {
    "shifts": _build_shifts, "publish": _build_publish, "deliveries": _build_deliveries,
    "settings": _build_settings,
}


class MainWindow(QMainWindow):
    close_requested = Signal()  # the app decides: hide to the tray, or quit
    quit_requested = Signal()

    def __init__(self, ctx: AppContext, icon: QIcon | None = None) -> None:
        super().__init__()
        self.ctx = ctx
        self.setWindowTitle(f"Shiftcast {__version__}" + (self.tr(" — DEMO") if ctx.demo else ""))
        if icon is not None:
            self.setWindowIcon(icon)
        self._saved_geometry = SavedGeometry(ctx.paths.home)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self._views: dict[str, QWidget] = {}
        titles = {"shifts": self.tr("Shifts"), "publish": self.tr("Publish"), "deliveries": self.tr("Deliveries"),
                  "settings": self.tr("Settings")}
        for area in AREAS:
            self.tabs.addTab(QWidget(self.tabs), titles[area])  # a stand-in until the area is first shown
        self._area(AREAS[0])
        self.tabs.currentChanged.connect(lambda index: self._area(AREAS[index]) if 0 <= index < len(AREAS) else None)
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
        ctx.signals.engine_changed.connect(self.refresh_status)
        ctx.bridge.receiving_changed.connect(lambda _state: self.refresh_status())
        ctx.bridge.cover_requests_changed.connect(lambda _event: self.refresh_status())
        self.refresh_status()
        self.place()

    # ----- areas -----

    def _area(self, name: str) -> QWidget:
        """The area's view, built on first use in place of its stand-in tab."""
        view = self._views.get(name)
        if view is not None:
            return view
        view = BUILDERS[name](self.ctx, self.tabs)
        self._views[name] = view
        index = AREAS.index(name)
        current, title = self.tabs.currentIndex(), self.tabs.tabText(index)
        stand_in = self.tabs.widget(index)
        # Swapping the page moves the current tab for a moment; nobody should hear of it.
        self.tabs.blockSignals(True)
        try:
            self.tabs.removeTab(index)
            self.tabs.insertTab(index, view, title)
            self.tabs.setCurrentIndex(current)
        finally:
            self.tabs.blockSignals(False)
        if stand_in is not None:
            stand_in.deleteLater()
        panel = getattr(view, "readiness", None)  # Publish and Settings show what stands before sending
        if panel is not None:
            panel.fix_wanted.connect(self.open_fix)
        return view

    @property
    def shifts(self) -> ShiftsView:
        return cast("ShiftsView", self._area("shifts"))  # BUILDERS["shifts"] builds one

    @property
    def publish(self) -> PublishView:
        return cast("PublishView", self._area("publish"))  # BUILDERS["publish"] builds one

    @property
    def deliveries(self) -> DeliveriesView:
        return cast("DeliveriesView", self._area("deliveries"))  # BUILDERS["deliveries"] builds one

    @property
    def settings(self) -> SettingsView:
        return cast("SettingsView", self._area("settings"))  # BUILDERS["settings"] builds one

    def built_areas(self) -> list[str]:
        return [area for area in AREAS if area in self._views]

    # ----- size and place -----

    def place(self, available: Rect | None = None, key: str | None = None) -> None:
        """Fit the window into the screen's available area, where it last was on that screen."""
        screen = self.screen()
        if available is None:
            available = Rect.of(screen.availableGeometry())
        key = key or screen_key(screen)
        self.setGeometry(window_rect(available, self._saved_geometry.read(key)).qrect())

    def save_geometry(self) -> None:
        if not self.isVisible():
            return
        self._saved_geometry.write(screen_key(self.screen()), Rect.of(self.normalGeometry()))

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self.hours_action = QAction(self.tr("&Hours for payroll…"), self, shortcut=QKeySequence("Ctrl+Shift+H"))
        self.hours_action.setToolTip(self.tr("Each teacher's confirmed hours of a month, to save as CSV or print"))
        self.hours_action.triggered.connect(self.open_hours)
        file_menu.addAction(self.hours_action)
        quit_action = QAction(self.tr("&Quit"), self, shortcut=QKeySequence(QKeySequence.StandardKey.Quit))
        quit_action.triggered.connect(self._quit)
        file_menu.addAction(quit_action)
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        help_menu.addAction(self.tr("Open the data folder"),
                            lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.ctx.paths.home))))
        help_menu.addAction(self.tr("Open the log file"),
                            lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.ctx.paths.logs / "shiftcast.log"))))
        help_menu.addAction(self.tr("About Shiftcast"), self.about)

    def open_hours(self) -> None:
        """The Hours dialog on the month the Shifts area shows (the month it would open on, if not built yet)."""
        from ui.common.month_picker import default_month
        from ui.hours.dialog import HoursDialog

        year, month = ((self.shifts.year, self.shifts.month) if "shifts" in self._views
                       else default_month(self.ctx.clock().astimezone().date()))
        self.hours_dialog = HoursDialog(self.ctx, year, month, parent=self)
        self.hours_dialog.open()

    def _quit(self) -> None:
        self.save_geometry()
        self.quit_requested.emit()

    def about(self) -> None:
        QMessageBox.about(self, self.tr("About Shiftcast"),
                          self.tr("Shiftcast {0}\nShift rosters published and reminded over LINE.\n\nData folder: {1}")
                          .format(__version__, self.ctx.paths.home))

    def show_deliveries(self, dead_letters_only: bool) -> None:
        if dead_letters_only:
            self.deliveries.dead_check.setChecked(True)
        self.tabs.setCurrentWidget(self.deliveries)

    def show_settings(self, section: str) -> None:
        self.tabs.setCurrentWidget(self.settings)
        self.settings.show_section(section)

    def open_fix(self, fix: str) -> None:
        """Open what fixes a readiness requirement (a core/setup/readiness.py Fix value)."""
        if fix == "connect_line":
            self.tabs.setCurrentWidget(self.settings)
            self.settings.line.open_connect()
        elif fix == "add_classroom":
            self.tabs.setCurrentWidget(self.shifts)
            self.shifts.add_classroom()
        elif fix == "teachers":
            self.tabs.setCurrentWidget(self.shifts)
            self.shifts.open_teachers()
        elif fix == "unacknowledged":
            # No Deliveries filter picks out these shifts; the roster grid marks each shift's 了解, so
            # the soonest one is shown there, on its day.
            from core.planning import unacknowledged

            self.tabs.setCurrentWidget(self.shifts)
            self.ctx.tasks.run(lambda: unacknowledged.soonest(self.ctx.db, now=self.ctx.clock()),
                               self._show_unacknowledged, lambda _exc: None, owner=self)
        elif fix == "classroom_group":
            # Chosen in Connect LINE's group step, never typed: on its own when LINE is connected and this
            # app receives the account's joins, else the whole wizard, whose group step comes after LINE.
            self.ctx.tasks.run(self._group_step_ready, self._choose_group, lambda _exc: self._choose_group(False),
                               owner=self)
        elif fix == "teachers_page":  # Connect LINE's step on its own
            from ui.connect_line.teachers_page import open_teachers_page

            open_teachers_page(self.ctx, self)
        elif fix == "receiving" and self.ctx.receiving is not None:
            # Stopped and started again on a pool thread (a tunnel takes seconds): it points LINE's webhook
            # back at this app; the status line and the panel follow its state.
            self.ctx.tasks.run(self.ctx.receiving.restart, owner=self)
        else:  # keyring, email, hosting, autostart, receiving here: a section of Settings
            self.show_settings({"keyring": "line", "receiving": "line"}.get(fix, fix))

    def _group_step_ready(self) -> bool:
        """On a pool thread: LINE is connected and this app receives what LINE sends."""
        from core.setup import readiness

        state = self.ctx.receiving_state()
        return "line" in readiness.channels_ready(self.ctx.db)[0] and state is not None and state.endpoint is not None

    def _choose_group(self, ready: bool) -> None:
        if ready:
            from ui.connect_line.group_dialog import open_choose_group

            self.choose_group_dialog = open_choose_group(self.ctx, self)
        else:
            self.settings.line.open_connect()

    def _show_unacknowledged(self, found: Reminded | None) -> None:
        if found is None:  # acknowledged meanwhile, or started: the month as it is
            return
        self.shifts.focus_cell(found.teacher_id, found.local_start.date())
        if self.shifts.classroom_id != found.classroom_id:
            self.shifts.set_classroom(found.classroom_id)

    def refresh_status(self) -> None:
        self.ctx.tasks.run(lambda: board.status(self.ctx.db), self._show_status, lambda _exc: None, owner=self)

    def _show_status(self, status: board.Status) -> None:
        counts, hold, unset, asking = status.counts, status.hold, status.not_set_up, status.open_cover
        engine = self.ctx.engine
        if engine is None and self.ctx.engine_starting:
            state = self.tr("Starting to send…")
        elif engine is None:
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
        text = self.tr("{0} · waiting {1} · failed {2}").format(state, waiting, counts["failed"])
        if unset:  # rows that cannot go until a channel is set up: said here, not only in Deliveries
            labels = tuple(contacts.label(channel) for channel in sorted(unset))
            text += " · " + i18n.render(t("status.not_set_up", count=sum(unset.values()), channels=labels))
        if asking:  # teachers' requests for cover waiting for the manager (Shifts → Cover requests…)
            text += " · " + i18n.render(t("status.cover_requests", count=asking))
        receiving = self.ctx.receiving_state()
        if receiving is not None:  # whether LINE can reach Shiftcast now (core/setup/receiving.py)
            text += " · " + i18n.render(receiving.words)
        self.sender_status.setText(text)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_geometry()
        event.ignore()
        self.close_requested.emit()
