"""`main.py screenshots --out DIR`: the documentation's pictures, taken from the demo data.

The app has already seeded the demo and started its LINE simulator (with no sender running). Each
picture is taken once the window's background work has settled, so it shows loaded data and not
"Loading…". Views and dialogs that cannot be imported are skipped with a line saying so, so one
missing screen never costs all the others.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QEventLoop
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

from core.app import demo
from core.roster import clock
from ui.services.context import AppContext

SETTLE_LIMIT = 15.0  # seconds to wait for a screen's background work before taking it anyway
QUIET_FOR = 0.3  # no task pending for this long counts as settled (results often start follow-up tasks)
TABS = (("01-shifts.png", "shifts"), ("02-publish.png", "publish"), ("03-deliveries.png", "deliveries"),
        ("04-settings.png", "settings"))
INBOX = "09-demo-inbox.png"
LINE_WORKS = "15-line-works-settings.png"
SCREEN = "00-screen.png"  # the whole screen, on a real display
T = TypeVar("T")


def settle(ctx: AppContext, limit: float = SETTLE_LIMIT) -> bool:
    """Process events until no background task has been pending for a moment. False on time-out."""
    app = QApplication.instance()
    assert app is not None, "the screenshots run inside the app"
    deadline = time.monotonic() + limit
    quiet_since: float | None = None
    while time.monotonic() < deadline:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        if ctx.tasks.pending:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= QUIET_FOR:
            return True
        time.sleep(0.01)  # a batch tool, not the UI: a short nap keeps the loop from spinning
    return False


def save_all(ctx: AppContext, out: Path, icon: QIcon) -> int:
    """Save every picture; 0 when the four tabs (and the inbox, in demo mode) were saved, else 1.
    A dialog that is skipped does not fail the run: it says so and the rest go on."""
    out.mkdir(parents=True, exist_ok=True)
    missing = 0
    if ctx.demo is not None:
        # Send first, so the Deliveries and Publish pictures show a real history, not empty tables.
        try:
            print(in_background(ctx, lambda: demo.send_once(ctx.db, ctx.paths, now=ctx.clock)), flush=True)
        except Exception as exc:  # noqa: BLE001 - empty tables are still worth a picture
            print(f"the demo could not send: {exc}", flush=True)
    try:
        from ui.shell.main_window import MainWindow
    except ImportError as exc:
        print(f"skipped {', '.join(name for name, _ in TABS)} (the main window cannot be imported: {exc})",
              flush=True)
        window = None
        missing += len(TABS)
    else:
        window = MainWindow(ctx, icon)
        window.place()  # as a manager's start sizes it: fitted to the screen's available area
        window.show()
        if QGuiApplication.platformName() not in ("offscreen", "minimal"):
            # The whole screen as well, so the picture shows the window fitting it, frame included.
            window.tabs.setCurrentWidget(window.shifts)
            missing += 1 - _shoot_screen(ctx, window, out / SCREEN)
        for name, attribute in TABS:
            window.tabs.setCurrentWidget(getattr(window, attribute))
            missing += 1 - _shoot(ctx, window, out / name)
        for name, make in DIALOGS:
            _shoot_dialog(ctx, window, out / name, make)
        window.tabs.setCurrentWidget(window.settings)  # LINE WORKS' section, as its readiness fix opens it
        window.settings.show_section("line_works")
        missing += 1 - _shoot(ctx, window, out / LINE_WORKS)
    if ctx.demo is not None:
        missing += 1 - _shoot_inbox(ctx, out / INBOX)
    if window is not None:
        window.hide()
        window.deleteLater()
    ctx.tasks.wait()
    return 0 if missing == 0 else 1


def _shoot_screen(ctx: AppContext, window: QWidget, path: Path) -> int:
    settle(ctx)
    QApplication.processEvents()
    if not window.screen().grabWindow(0).save(str(path)):
        print(f"could not write {path}", flush=True)
        return 0
    print(f"saved {path}", flush=True)
    return 1


def _shoot(ctx: AppContext, widget: QWidget, path: Path) -> int:
    if not settle(ctx):
        print(f"note: background work was still running when {path.name} was taken", flush=True)
    if not widget.grab().save(str(path)):
        print(f"could not write {path}", flush=True)
        return 0
    print(f"saved {path}", flush=True)
    return 1


def _shoot_dialog(ctx: AppContext, window: QWidget, path: Path, make: Callable[[AppContext, QWidget], QWidget]) -> int:
    try:
        dialog = make(ctx, window)
    except Exception as exc:  # noqa: BLE001 - a screen written elsewhere may not exist yet; skip it
        print(f"skipped {path.name} ({type(exc).__name__}: {exc})", flush=True)
        return 0
    dialog.show()  # not exec(): nothing may wait for a click
    try:
        return _shoot(ctx, dialog, path)
    finally:
        dialog.hide()
        dialog.deleteLater()


def in_background(ctx: AppContext, fn: Callable[[], T]) -> T:
    """Run `fn` through ctx.tasks like any screen does, and wait for its answer."""
    box: list[T] = []
    errors: list[BaseException] = []
    ctx.tasks.run(fn, box.append, errors.append)
    settle(ctx, limit=120.0)
    if errors:
        raise errors[0]
    if not box:
        raise TimeoutError("the background task did not finish in time")
    return box[0]


# Dialogs that open without any input from the manager. Each maker imports its screen itself, so a
# screen that is missing or has changed costs only its own picture.

def _shift_dialog(ctx: AppContext, window: QWidget) -> QWidget:
    from core.planning.month_grid import TeacherItem, load_month
    from ui.shifts.shift_dialog import ShiftDialog

    today = ctx.clock().astimezone(clock.zone("Asia/Tokyo")).date()

    def teachers() -> tuple[TeacherItem, ...]:
        return load_month(ctx.db, None, today.year, today.month, now=ctx.clock()).active_teachers

    return ShiftDialog(in_background(ctx, teachers), day=today, parent=window)


def _teachers_dialog(ctx: AppContext, window: QWidget) -> QWidget:
    from ui.teachers.dialog import TeachersDialog

    return TeachersDialog(ctx, window)


def _teacher_edit_dialog(ctx: AppContext, window: QWidget) -> QWidget:
    from ui.teachers.edit_dialog import TeacherEditDialog

    return TeacherEditDialog(ctx, parent=window)


def _classroom_dialog(ctx: AppContext, window: QWidget) -> QWidget:
    from ui.shifts.classroom_dialog import ClassroomDialog

    return ClassroomDialog(window)


def _readiness(ctx: AppContext, window: QWidget) -> QWidget:
    from ui.readiness.panel import ReadinessPanel, read

    page = QWidget()
    page.setWindowTitle("Shiftcast")
    page.resize(820, 320)  # the Settings page's width
    column = QVBoxLayout(page)
    panel = ReadinessPanel(ctx, page)
    panel.show_requirements(in_background(ctx, lambda: read(ctx)))  # laid out before the page is shown
    panel.toggle.click()  # every row open, as the manager sees it after "Show"
    column.addWidget(panel)
    column.addStretch(1)
    return page


def _classroom(ctx: AppContext) -> tuple[int, str, dt.date]:
    """The demo's classroom (id, name) and today on its clock."""
    from core.setup import classrooms

    def first() -> tuple[int, str, dt.date]:
        room = classrooms.listing(ctx.db)[0]
        return room.id, room.name, clock.local_now(ctx.clock(), room.timezone).date()

    return in_background(ctx, first)


def _availability_dialog(ctx: AppContext, window: QWidget) -> QWidget:
    from ui.availability.dialog import AvailabilityDialog

    room_id, name, today = _classroom(ctx)
    return AvailabilityDialog(ctx, room_id, name, *clock.planning_month(today), parent=window)


def _cover_dialog(ctx: AppContext, window: QWidget) -> QWidget:
    from ui.cover.dialog import CoverDialog

    return CoverDialog(ctx, window)


def _hours_dialog(ctx: AppContext, window: QWidget) -> QWidget:
    from ui.hours.dialog import HoursDialog

    _, _, today = _classroom(ctx)  # this month: its shifts are the confirmed ones the demo has
    return HoursDialog(ctx, today.year, today.month, parent=window)


DIALOGS: tuple[tuple[str, Callable[[AppContext, QWidget], QWidget]], ...] = (
    ("05-shift-dialog.png", _shift_dialog),
    ("06-teachers-dialog.png", _teachers_dialog),
    ("07-teacher-dialog.png", _teacher_edit_dialog),
    ("08-classroom-dialog.png", _classroom_dialog),
    ("11-readiness.png", _readiness),
    ("12-availability.png", _availability_dialog),
    ("13-cover.png", _cover_dialog),
    ("14-hours.png", _hours_dialog),
)


def _shoot_inbox(ctx: AppContext, path: Path) -> int:
    try:
        from ui.demo.inbox import InboxWindow
    except ImportError as exc:
        print(f"skipped {path.name} ({exc})", flush=True)
        return 0
    window = InboxWindow(ctx)
    window.resize(960, 680)
    window.show()
    settle(ctx)
    try:
        return _shoot(ctx, window, path)
    finally:
        window.hide()
        window.deleteLater()
