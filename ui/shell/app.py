"""Starting the desktop app in its modes: the window (default), tray only, demo, smoke check, screenshots."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QCoreApplication, QProcess, QProcessEnvironment, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from core.app import demo as demo_data
from core.app import window_prefs
from core.child_environment import without_own_variables
from core.errors import ShiftcastError
from core.outbox import board
from core.outbox.waiting import Waiting
from core.resources import resource
from core.store import secrets
from core.store.bootstrap import open_database
from core.store.changes import ChangeWatcher
from core.store.data_folder import open_data_folder
from core.store.paths import DataPaths, resolve_home
from core.texts import t
from ui.common import i18n, wheel_guard
from ui.common.errors import install_excepthook, show_error
from ui.services.bridge import CoreBridge
from ui.services.context import AppContext
from ui.services.sending import start_engine, window_engine
from ui.services.tasks import Tasks
from ui.shell.gc_tuning import tune_for_interactivity
from ui.shell.single_instance import SingleInstance, Start

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.store.db import Database
    from ui.shell.main_window import MainWindow
    from ui.shell.no_tray import TrayWait

log = logging.getLogger(__name__)
DEMO_BADGE_COLOUR = "#d32f2f"
# Set by tests/perf/startup.py and the tests that start real windows: a line on stderr once the event
# loop has shown the window ("window shown"), and at each step of deciding who holds it (`report`).
REPORT_SHOWN_ENV = "SHIFTCAST_REPORT_SHOWN"


def run_gui(args: argparse.Namespace) -> int:
    import core.relay.images  # registers the relay as a host for the month's pictures
    import core.sending.kinds  # noqa: F401 - registers the message kinds the screens name and plan

    started = time.perf_counter()
    mode = args.command or "gui"
    smoke = bool(getattr(args, "smoke", False))
    given_language: str | None = getattr(args, "lang", None)  # --lang: this run only, never saved
    home = Path(args.home) if args.home else None
    if mode in ("demo", "screenshots"):
        home = demo_data.demo_home(resolve_home(home))
    # Whoever made the application object first (pytest-qt, an earlier run) made a QApplication: this
    # module is the only one that makes it, and the window needs widgets.
    app = cast(QApplication, QApplication.instance() or QApplication(sys.argv[:1]))
    wheel_guard.install(app)  # scrolling a page never changes the value of a box under the pointer
    app.setApplicationName("Shiftcast")
    app.setOrganizationName("Shiftcast")
    icon = QIcon(str(resource("icons", "shiftcast.png")))
    app.setWindowIcon(icon)
    try:
        paths, _ = open_data_folder(home)
    except ShiftcastError as exc:
        return _cannot_start(exc, given_language=given_language)
    install_excepthook(paths)

    instance = SingleInstance(paths)
    if mode != "screenshots":
        start = _hold_the_window(instance, paths, smoke=smoke)
        if start is Start.HANDED_OVER:
            return 0
        if start is Start.NO_ANSWER:
            return _cannot_start(ShiftcastError(t("window.not_answering", folder=str(paths.home))), paths,
                                 given_language=given_language)
    try:
        demo = mode in ("demo", "screenshots")
        # The demo's own file, whatever SHIFTCAST_DB_URL says: that names the real data. Its secrets stay in memory.
        db = open_database(paths, url=paths.local_database_url() if demo else None, keyring=not demo)
    except Exception as exc:  # noqa: BLE001 - a window that cannot start says why in one box, never a traceback
        instance.close()
        return _cannot_start(exc, paths, given_language=given_language)
    saved = window_prefs.at_start(db)
    language, first_run_done = i18n.choose(given_language or saved.language), saved.first_run_done
    i18n.install(app, language, paths.home / "cache")

    ctx = AppContext(paths=paths, db=db, tasks=Tasks(app), bridge=CoreBridge(db.events, app))
    ctx.tasks.error_handler = _smoke_failure(app) if smoke else lambda exc: show_error(None, exc, paths=paths)
    if mode in ("demo", "screenshots"):
        demo_data.seed(db, now=ctx.clock())
        ctx.demo = demo_data.DemoEnvironment(paths.home).start(db)
        if mode == "demo" and not smoke:  # the relay beside it, on its own thread (not for a smoke check or pictures)
            ctx.demo.start_relay()
    if ctx.demo is not None:
        icon = demo_icon(icon)
        app.setWindowIcon(icon)
    if ctx.demo is not None or smoke or mode == "screenshots":
        # A connect flow that crashed left LINE pointing at it. Where the app receives, its receiving
        # puts that back first itself, so the two never race at LINE (core/setup/receiving.py).
        ctx.tasks.run(_restore_pending_endpoint(db), owner=app)
    # A relay deployed from this app older than the one it bundles is updated (one settings read otherwise).
    ctx.tasks.run(_update_relay(db), owner=app)
    # What the command line or another computer changes reaches the screens (and this window's
    # scheduler, when it sends) within seconds, whether this window sends or another process does.
    watcher = ChangeWatcher(db).start() if mode != "screenshots" else None
    if mode == "screenshots":
        ctx.engine = window_engine(ctx, mode)  # shown as "not sending": the pictures are taken without a sender running
    elif not smoke:
        ctx.engine_starting = True  # started by _run once the window is up
    try:
        if mode == "screenshots":
            from ui.shell.screenshots import save_all

            return save_all(ctx, Path(args.out), icon)
        return _run(app, ctx, mode, icon, instance, smoke=smoke, started=started, first_run_done=first_run_done)
    finally:
        if ctx.receiving is not None:
            ctx.receiving.stop()
        if ctx.engine is not None:
            ctx.engine.stop()
        if watcher is not None:
            watcher.stop()
        ctx.tasks.wait()
        ctx.tasks.shutdown()  # answers still on their way find no window: none is delivered later
        ctx.bridge.detach()
        if ctx.demo is not None:
            ctx.demo.stop()
        instance.close()
        db.dispose()


def _hold_the_window(instance: SingleInstance, paths: DataPaths, *, smoke: bool) -> Start:
    """Hold the data folder's window, or hand this start's request to the process that holds it.

    A smoke check never hands over (it must show its own window and say so); while a window holds the
    folder it runs beside it without serving other starts, and removes nothing of the holder's."""
    if smoke:
        if instance.claim():
            report("holds the window")
        else:
            log.info("a window is open for %s; the smoke check runs beside it", paths.home)
        return Start.HOLDS
    if not instance.claim():
        report("waiting for the running window")
        start = instance.claim_or_hand_over()
        if start is Start.HANDED_OVER:
            log.info("another window is open for %s; asked it to come forward", paths.home)
            report("handed over to the running window")
            return start
        if start is Start.NO_ANSWER:
            log.error("another window holds %s but did not answer", paths.home)
            return start
    report("holds the window")
    return Start.HOLDS


def report(what: str) -> None:
    """One line on stderr for tests/perf/startup.py and the tests that start real windows (REPORT_SHOWN_ENV)."""
    if os.environ.get(REPORT_SHOWN_ENV):
        print(f"shiftcast: {what}", file=sys.stderr, flush=True)


def _cannot_start(exc: BaseException, paths: DataPaths | None = None, *, given_language: str | None = None) -> int:
    """Say in one box, in the run's language (--lang, else the computer's), why Shiftcast cannot open (the data folder, the log or
    the database cannot be written), and end with status 1."""
    from core.store.db import sqlite_file_of, storage_problem
    from core.texts import describe, render

    language = i18n.choose(given_language)  # the database, which keeps the saved choice, is what failed
    database = sqlite_file_of(paths.database_url()) if paths is not None else None
    problem = storage_problem(exc, database=database)
    if problem is not None:
        text = render(problem, language)
    elif isinstance(exc, ShiftcastError):
        text = describe(exc, language)
    else:
        log.error("Shiftcast could not start", exc_info=exc)
        text = f"{type(exc).__name__}: {exc}"
    log.error("cannot start: %s", text)
    print(f"shiftcast: {text}", file=sys.stderr)  # for a start from a terminal, or without a screen
    if os.environ.get("QT_QPA_PLATFORM") != "offscreen":
        QMessageBox.critical(None, "Shiftcast", text)
    return 1


def _restore_pending_endpoint(db: Database) -> Callable[[], object]:
    def work() -> object:
        from core.setup.line_connect import restore_if_pending  # off the start-up path: imported on the task's thread

        return restore_if_pending(db)

    return work


SMOKE_FAILED = "shiftcast_smoke_failed"


def _smoke_failure(app: QApplication) -> Callable[[BaseException], None]:
    """A smoke check has nobody to close an error dialog: a background task's error fails it instead."""
    def fail(exc: BaseException) -> None:
        log.error("background task failed during the smoke check", exc_info=(type(exc), exc, exc.__traceback__))
        print(json.dumps({"smoke": "failed", "error": repr(exc)}), file=sys.stderr, flush=True)
        app.setProperty(SMOKE_FAILED, True)  # _run answers 1 even when the check's own quit comes after
        app.exit(1)

    return fail


def _update_relay(db: Database) -> Callable[[], object]:
    def work() -> object:
        from core.setup import relay_state

        if relay_state.deployment(db) is None:
            return None  # nothing deployed: Cloudflare's SDK (and pydantic, 30 MB) stays unloaded
        from core.setup.relay_deploy import update_at_start  # off the start-up path: imported on the task's thread

        return update_at_start(db)

    return work


def start_receiving(ctx: AppContext) -> None:
    """Receive LINE's webhooks while the window or the tray runs, at the address Connect LINE kept (on
    the service's own thread: a quick tunnel takes seconds); the status line follows its state."""
    from core.setup.receiving import Receiving

    service = Receiving(ctx.db)
    ctx.bridge.attach_receiving(service.listeners)
    ctx.receiving = service.start()


def demo_icon(icon: QIcon) -> QIcon:
    """The app's icon with a red DEMO badge across its lower part, so the demo's window and tray icon
    are never taken for the real app's."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QColor, QFont, QPainter, QPixmap

    base = icon.pixmap(128, 128)
    if base.isNull():
        base = QPixmap(128, 128)
        base.fill(QColor("white"))
    badge = QPixmap(base)
    painter = QPainter(badge)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    band = QRect(0, badge.height() * 5 // 8, badge.width(), badge.height() * 3 // 8)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(DEMO_BADGE_COLOUR))
    painter.drawRoundedRect(band, badge.width() / 16, badge.width() / 16)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(band.height() * 3 // 4)
    painter.setFont(font)
    painter.setPen(QColor("white"))
    painter.drawText(band, Qt.AlignmentFlag.AlignCenter, QCoreApplication.translate("app", "DEMO"))
    painter.end()
    return QIcon(badge)


class Shell:
    """The window and the tray of one running app, and what closing means.

    With a tray and a running sender, closing the window hides it and sending goes on (said once,
    the first time); without a tray (some Linux desktops), closing quits — sending stops with it.
    Quitting from the window (closing it without a tray, or File → Quit) while this process sends and
    messages wait to go within a day asks first, naming how many: they go only while Shiftcast runs.
    The tray's Quit says "stop sending" in its own words and does not ask."""

    def __init__(self, app: QApplication, ctx: AppContext, icon: QIcon, *, tray_available: bool) -> None:
        from ui.shell.tray import Tray

        self.app = app
        self.ctx = ctx
        self.icon = icon
        self.window: MainWindow | None = None
        self.tray: Tray | None = None
        self.quitting = False
        self.asking = False  # a question about waiting messages is open or on its way
        self.tray_wait: TrayWait | None = None
        if tray_available:
            self.tray = Tray(ctx, icon, open_window=self.open_window, quit_app=self.quit_app)
            self.tray.show()

    def adopt_tray(self) -> None:
        """A tray that appeared after the start: closing the window hides it there from now on."""
        from ui.shell.tray import Tray

        if self.tray is None and not self.quitting:
            self.tray = Tray(self.ctx, self.icon, open_window=self.open_window, quit_app=self.quit_app)
            self.tray.show()

    def wait_for_tray(self, available: Callable[[], bool], *, patience_ms: int | None = None) -> TrayWait:
        """The tray mode without a tray yet: ui/shell/no_tray.py (sending has already started)."""
        from ui.shell.no_tray import PATIENCE_MS, TrayWait, no_tray_text

        def give_up() -> None:
            window = self.open_window()
            report("window shown")
            # Shown, not exec()'d: nothing waits on it, sending has been going all along.
            box = QMessageBox(QMessageBox.Icon.Information, "Shiftcast", no_tray_text(), parent=window)
            box.setObjectName("no_tray_box")
            box.setModal(False)
            box.show()

        self.tray_wait = TrayWait(available, adopt=self.adopt_tray, give_up=give_up,
                                  patience_ms=PATIENCE_MS if patience_ms is None else patience_ms)
        self.tray_wait.start()
        return self.tray_wait

    def open_window(self) -> MainWindow:
        from ui.shell.main_window import MainWindow

        if self.window is None:
            self.window = MainWindow(self.ctx, self.icon)
            self.window.close_requested.connect(self.on_close)
            self.window.quit_requested.connect(self.quit_unless_kept)
            if self.ctx.demo is not None:
                _add_inbox(self.window, self.ctx)
        self.window.show()
        self.window.raise_()
        self.window.activateWindow()
        return self.window

    def quit_app(self) -> None:
        if self.window is not None:
            self.window.save_geometry()
        self.quitting = True
        if self.tray is not None:
            self.tray.hide()
        # exit(), not quit(): Qt 6's quit() first asks every top-level window to close, and one that
        # refuses (a dialog still busy) would keep the app running after the manager chose Quit.
        self.app.exit(0)

    def quit_unless_kept(self) -> None:
        """Quit, unless this process sends, messages wait and the manager chooses to keep it open."""
        if self.ctx.engine is None and not self.ctx.engine_starting:
            self.quit_app()  # another process sends, or nothing does: quitting stops no message
            return
        if self.asking or self.quitting:
            return
        self.asking = True
        now = self.ctx.clock()

        self.ctx.tasks.run(lambda: board.waiting_soon(self.ctx.db, now=now), self._ask_before_quitting, self._quit_without_asking, owner=self.window or self.app)

    def _ask_before_quitting(self, waits: Waiting) -> None:
        try:
            if waits.total and not self._quit_anyway(waits.total):
                return
        finally:
            self.asking = False
        self.quit_app()

    def _quit_without_asking(self, exc: BaseException) -> None:
        log.warning("could not count the messages waiting to be sent; quitting: %s", exc)
        self.asking = False
        self.quit_app()

    def _quit_anyway(self, count: int) -> bool:
        """Ask about `count` waiting messages: True if the manager chose to quit all the same."""
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Shiftcast")
        box.setText(QCoreApplication.translate(
            "app", "Messages waiting to be sent within the next 24 hours: {0}.").format(count))
        box.setInformativeText(QCoreApplication.translate(
            "app", "Shiftcast sends them only while it runs. If you quit now, they go out when you start Shiftcast "
                   "again, late or not at all."))
        quit_button = box.addButton(QCoreApplication.translate("app", "Quit anyway"),
                                    QMessageBox.ButtonRole.DestructiveRole)
        keep_button = box.addButton(QCoreApplication.translate("app", "Keep open"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(keep_button)
        box.setEscapeButton(keep_button)
        box.exec()
        return box.clickedButton() is quit_button

    def on_close(self) -> None:
        if self.tray is None or self.ctx.engine is None:
            self.quit_unless_kept()
            return
        assert self.window is not None
        self.window.hide()
        if window_prefs.tray_hint_first_time(self.ctx.db):
            self.tray.say_still_running()


def _run(app: QApplication, ctx: AppContext, mode: str, icon: QIcon, instance: SingleInstance, *, smoke: bool,
         started: float, first_run_done: bool) -> int:
    from ui.shell.tray import Tray

    app.setQuitOnLastWindowClosed(False)
    shell = Shell(app, ctx, icon, tray_available=Tray.available() and not smoke)
    instance.activated.connect(shell.open_window)
    instance.activated.connect(lambda: report("asked to come forward"))
    instance.listen()
    if mode == "tray" and shell.tray is None and not smoke:
        shell.wait_for_tray(Tray.available)
    elif mode != "tray" or shell.tray is None:
        shell.open_window()
        QTimer.singleShot(0, lambda: report("window shown"))
    if ctx.engine_starting:
        # The window first, the engine (imported, built and started: about 100 ms) a turn of the event
        # loop later, after the window's first paint. The status line and the tray follow
        # ctx.signals.engine_changed.
        QTimer.singleShot(0, lambda: QTimer.singleShot(0, lambda: start_engine(ctx, mode=mode)))
    if ctx.demo is None and not smoke:  # run_gui leaves the pending endpoint to it
        QTimer.singleShot(0, lambda: QTimer.singleShot(0, lambda: start_receiving(ctx)))
    QTimer.singleShot(2000, lambda: tune_for_interactivity(app))  # after the first loads have landed
    if smoke:
        window = shell.window
        assert window is not None
        app.processEvents()
        print(json.dumps({"smoke": "ok", "startup_ms": round((time.perf_counter() - started) * 1000),
                          "window": window.windowTitle(), "tabs": window.tabs.count()}), flush=True)
        QTimer.singleShot(0, shell.quit_app)
    elif mode == "gui" and not first_run_done and ctx.demo is None:
        QTimer.singleShot(0, lambda: _first_run(ctx, shell))
    code = app.exec()
    return 1 if smoke and app.property(SMOKE_FAILED) else code


def _add_inbox(window: MainWindow, ctx: AppContext) -> None:

    from ui.demo.inbox import InboxWindow

    holder: list[InboxWindow] = []

    def show_inbox() -> None:
        if not holder:
            holder.append(InboxWindow(ctx))
        holder[0].show()
        holder[0].raise_()

    menu = window.menuBar().addMenu(QCoreApplication.translate("window", "&Demo"))
    menu.addAction(QCoreApplication.translate("window", "Teachers' LINE inbox…"), show_inbox)


def _first_run(ctx: AppContext, shell: Shell) -> None:
    """No LINE token yet: offer the demo, LINE set-up, or later. Unless the demo takes over, the window
    opens on Settings, whose readiness panel lists what stands between this and the teachers' reminders."""
    window = shell.window
    try:
        has_token = bool(secrets.line_token())
    except ShiftcastError:
        has_token = False
    window_prefs.first_run_done(ctx.db)
    if window is not None:
        window.tabs.setCurrentWidget(window.settings)
    if has_token:
        return
    box = QMessageBox(window)
    box.setWindowTitle(QCoreApplication.translate("window", "Welcome to Shiftcast"))
    box.setText(QCoreApplication.translate("window", "Shiftcast is not connected to LINE yet.\n\nTry it first with sample data that is sent "
                          "to a built-in LINE simulator (nothing leaves this computer), or connect your LINE "
                          "Official Account now."))
    demo_button = box.addButton(QCoreApplication.translate("window", "Try the demo"), QMessageBox.ButtonRole.AcceptRole)
    setup_button = box.addButton(QCoreApplication.translate("window", "Connect LINE"), QMessageBox.ButtonRole.ActionRole)
    box.addButton(QCoreApplication.translate("window", "Later"), QMessageBox.ButtonRole.RejectRole)
    box.exec()
    if box.clickedButton() is demo_button:
        hand_over_to_demo(ctx, shell)
    elif box.clickedButton() is setup_button and window is not None:
        window.settings.line.open_connect()


def hand_over_to_demo(ctx: AppContext, shell: Shell) -> bool:
    """Start the demo and quit this app, so one Shiftcast runs, not two with identical tray icons.

    Why a new process and not the demo inside this one: the demo's LINE token is set in the process
    environment, and this process's engine, sender lock, single-instance socket and log all belong to
    the real data folder. Swapping them in place would risk the real folder sending with the demo's
    settings (or the reverse); a process per folder keeps them apart by construction. Nothing is lost
    by quitting here: with no LINE token yet this app had nothing it could send. Starting Shiftcast
    again opens the real data folder."""
    if not start_demo_process(ctx.paths.home):
        QMessageBox.warning(shell.window, "Shiftcast",
                            QCoreApplication.translate("window", "The demo could not be started."))
        return False
    shell.quit_app()
    return True


def start_demo_process(home: Path) -> bool:
    """Demo mode runs as its own process with its own data folder (`<home>/demo`, beside this window's
    data, whichever folder that is), so it never mixes with real data."""
    # The demo's own database has no saved language: it speaks this window's.
    arguments = ["--lang", i18n.current(), "--home", str(home), "demo"]
    if not getattr(sys, "frozen", False):
        arguments.insert(0, str(Path(__file__).resolve().parents[2] / "main.py"))
    process = QProcess()
    process.setProgram(sys.executable)
    process.setArguments(arguments)
    environment = QProcessEnvironment()
    for name, value in without_own_variables().items():
        environment.insert(name, value)
    process.setProcessEnvironment(environment)
    return bool(process.startDetached())  # the instance form returns whether it started (its stub says a tuple)
