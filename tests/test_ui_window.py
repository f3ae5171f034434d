"""The main window: where it opens and how large, areas built when first shown, every area following a
classroom or teacher change made in another, and the sender's status once the engine has started."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt

from core.sending.engine import Engine
from core.store.db import Database
from tests import factories as f
from tests.ui_fixtures import ctx, settle  # noqa: F401
from tests.waiting import PATIENCE_MS
from ui.services.context import AppContext
from ui.services.sending import start_engine
from ui.shell.main_window import MainWindow
from ui.shell.window_geometry import DEFAULT_SIZE, Rect, SavedGeometry, screen_key, window_rect

NO_FRAME = (0, 0, 0, 0)
FRAME = (4, 32, 4, 4)


def _inside(inner: Rect, outer: Rect) -> bool:
    return (outer.x <= inner.x and outer.y <= inner.y and inner.x + inner.width <= outer.x + outer.width
            and inner.y + inner.height <= outer.y + outer.height)


def _framed(rect: Rect, frame: tuple[int, int, int, int]) -> Rect:
    left, top, right, bottom = frame
    return Rect(rect.x - left, rect.y - top, rect.width + left + right, rect.height + top + bottom)


# ----- the sizing rule -----

@pytest.mark.parametrize("available", [Rect(0, 0, 1366, 728), Rect(0, 0, 1280, 680), Rect(0, 27, 1366, 741),
                                       Rect(1920, 0, 1280, 720)])
def test_nothing_saved_opens_as_large_as_designed_but_inside_the_available_area(available: Rect) -> None:
    rect = window_rect(available, None, frame=FRAME)
    assert _inside(_framed(rect, FRAME), available)
    assert rect.width == min(DEFAULT_SIZE[0], available.width - 8)
    assert rect.height == min(DEFAULT_SIZE[1], available.height - 36)


def test_on_a_large_screen_the_default_size_is_centred() -> None:
    rect = window_rect(Rect(0, 0, 1920, 1040), None, frame=NO_FRAME)
    assert (rect.width, rect.height) == DEFAULT_SIZE and (rect.x, rect.y) == (320, 120)


def test_a_saved_place_is_kept_when_it_fits() -> None:
    saved = Rect(100, 80, 1000, 600)
    assert window_rect(Rect(0, 0, 1920, 1040), saved, frame=FRAME) == saved


@pytest.mark.parametrize("saved", [Rect(-500, -300, 900, 600), Rect(3000, 2000, 900, 600), Rect(1800, 50, 1280, 800),
                                   Rect(0, 0, 1920, 1080)])
def test_a_saved_place_off_this_screen_or_too_large_is_pulled_inside(saved: Rect) -> None:
    available = Rect(0, 0, 1366, 728)
    rect = window_rect(available, saved, frame=FRAME)
    assert _inside(_framed(rect, FRAME), available)
    assert rect.width == min(saved.width, 1358) and rect.height == min(saved.height, 692)


# ----- the window -----

@pytest.mark.parametrize("available", [Rect(0, 0, 1366, 768), Rect(0, 0, 1280, 720)])
def test_the_window_fits_a_small_screen(qtbot, ctx: AppContext, available: Rect) -> None:
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.place(available, key="test")
    window.show()
    qtbot.waitExposed(window)
    for area in ("publish", "deliveries", "settings", "shifts"):  # each area's minimum fits, not only the first
        window.tabs.setCurrentWidget(getattr(window, area))
    settle(qtbot, ctx)
    hint = window.minimumSizeHint()
    assert hint.width() <= available.width and hint.height() <= available.height - FRAME[1]
    geometry = Rect.of(window.geometry())
    assert _inside(_framed(geometry, FRAME), available)
    assert (geometry.width, geometry.height) == (window.width(), window.height())
    menu_bar = window.menuBar().mapTo(window, window.menuBar().rect().topLeft())
    assert menu_bar.y() >= 0 and window.tabs.tabBar().isVisible()


def test_size_and_place_come_back_on_the_same_screen_only(qtbot, ctx: AppContext) -> None:
    available = Rect(0, 0, 1920, 1040)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    key = screen_key(window.screen())  # where the window is saved from
    window.place(available, key=key)
    window.show()
    qtbot.waitExposed(window)
    window.setGeometry(QRect(200, 150, 1000, 640))
    qtbot.waitUntil(lambda: window.geometry() == QRect(200, 150, 1000, 640))
    window.save_geometry()
    saved = SavedGeometry(ctx.paths.home)
    assert saved.read(key) == Rect(200, 150, 1000, 640)
    assert (ctx.paths.home / "window.ini").exists()

    again = MainWindow(ctx)
    qtbot.addWidget(again)
    again.place(available, key=key)
    assert Rect.of(again.geometry()) == Rect(200, 150, 1000, 640)
    again.place(Rect(0, 0, 1280, 720), key=key)  # the same key on a smaller screen: clamped in
    assert _inside(_framed(Rect.of(again.geometry()), FRAME), Rect(0, 0, 1280, 720))
    again.place(available, key="another screen 1366x768")
    assert (again.width(), again.height()) == DEFAULT_SIZE


def test_only_the_shown_area_is_built_at_start(qtbot, ctx: AppContext) -> None:
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    assert window.built_areas() == ["shifts"]
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == ["Shifts", "Publish", "Deliveries",
                                                                              "Settings"]
    window.tabs.setCurrentIndex(2)  # as a click on the tab does
    assert window.built_areas() == ["shifts", "deliveries"]
    assert window.tabs.currentWidget() is window.deliveries and window.deliveries.isVisible()
    window.tabs.setCurrentWidget(window.settings)
    assert window.tabs.currentIndex() == 3 and window.settings.isVisible()
    settle(qtbot, ctx)


# ----- one change signal -----

def test_a_classroom_added_in_shifts_reaches_publish_deliveries_and_settings(qtbot, ctx: AppContext) -> None:
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.place(Rect(0, 0, 1366, 768), key="test")
    window.show()
    window.tabs.setCurrentWidget(window.publish)
    qtbot.waitUntil(lambda: "Add classroom…" in window.publish.viewer.message.text(), timeout=PATIENCE_MS)
    assert "Shifts" in window.publish.viewer.message.text()  # where the action really is
    deliveries, settings = window.deliveries, window.settings  # built before the change
    settle(qtbot, ctx)
    window.tabs.setCurrentWidget(window.shifts)
    shifts = window.shifts
    qtbot.waitUntil(lambda: shifts.pages.currentWidget() is shifts.no_classroom, timeout=PATIENCE_MS)

    qtbot.mouseClick(shifts.no_classroom.button, Qt.MouseButton.LeftButton)
    dialog = shifts.classroom_dialog
    assert dialog is not None
    dialog.name.setText("駅前教室")
    dialog.accept()
    qtbot.waitUntil(lambda: shifts.classroom_combo.currentText() == "駅前教室", timeout=PATIENCE_MS)
    settle(qtbot, ctx)

    # Each already-built area has read the new classroom without a restart and without being shown.
    assert window.publish.classroom_box.currentText() == "駅前教室"
    assert deliveries.classroom_box.findText("駅前教室") > 0
    assert settings.classrooms.classroom.currentText() == "駅前教室"
    window.tabs.setCurrentWidget(window.publish)
    qtbot.waitUntil(lambda: "Add classroom" not in window.publish.viewer.message.text()
                    or window.publish.viewer.has_image, timeout=PATIENCE_MS)
    settle(qtbot, ctx)


def test_a_teacher_added_in_the_teachers_dialog_is_announced(qtbot, ctx: AppContext, db: Database) -> None:
    with db.write() as s:
        f.classroom(s, "本校")
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    settle(qtbot, ctx)
    heard: list[int] = []
    ctx.signals.roster_changed.connect(lambda: heard.append(1))
    window.shifts.open_teachers()
    dialog = window.shifts.teachers_dialog
    assert dialog is not None
    dialog.changed.emit()  # what the dialog says after each add, edit or erase
    assert heard == [1]
    dialog.reject()
    settle(qtbot, ctx)


# ----- the engine starts after the window -----

def test_the_status_line_follows_the_engine_started_after_the_window(qtbot, ctx: AppContext) -> None:
    ctx.engine_starting = True
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.sender_status.text().startswith("Starting to send"), timeout=PATIENCE_MS)
    engine = Engine(ctx.db, ctx.paths)
    try:
        assert start_engine(ctx, engine)
        qtbot.waitUntil(lambda: window.sender_status.text().startswith("Sending ·"), timeout=PATIENCE_MS)
    finally:
        engine.stop()
    settle(qtbot, ctx)


def test_the_status_line_says_when_another_process_sends(qtbot, ctx: AppContext) -> None:
    ctx.engine_starting = True
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    first = Engine(ctx.db, ctx.paths)
    assert first.start()  # another window or tray already sends for this folder
    try:
        assert not start_engine(ctx, Engine(ctx.db, ctx.paths))
        qtbot.waitUntil(lambda: window.sender_status.text().startswith("Another Shiftcast window"), timeout=PATIENCE_MS)
    finally:
        first.stop()
    settle(qtbot, ctx)


def test_the_status_line_says_what_waits_for_a_channel_that_is_not_set_up(qtbot, ctx: AppContext, now) -> None:
    from core.outbox import queue
    from core.store.models import DeliveryKind

    with ctx.db.write() as s:  # a message due now, and no LINE credentials anywhere
        queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="waits-for-line", due_at=now, now=now,
                      recipient="U" + "1" * 32)
    ctx.engine_starting = True
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    engine = Engine(ctx.db, ctx.paths)
    try:
        assert start_engine(ctx, engine)
        qtbot.waitUntil(lambda: window.sender_status.text().endswith("1 waits because LINE is not set up"),
                        timeout=PATIENCE_MS)
    finally:
        engine.stop()
    settle(qtbot, ctx)
