"""The main window: areas built when first shown, every area following a classroom or teacher change
made in another, and the sender's status once the engine has started."""

from __future__ import annotations

from PySide6.QtCore import Qt

from core.sending.engine import Engine
from core.store.db import Database
from tests import factories as f
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.app import start_engine
from ui.context import AppContext
from ui.main_window import MainWindow


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
    window.show()
    window.tabs.setCurrentWidget(window.publish)
    qtbot.waitUntil(lambda: "Add classroom…" in window.publish.viewer.message.text(), timeout=5000)
    assert "Shifts" in window.publish.viewer.message.text()  # where the action really is
    deliveries, settings = window.deliveries, window.settings  # built before the change
    settle(qtbot, ctx)
    window.tabs.setCurrentWidget(window.shifts)
    shifts = window.shifts
    qtbot.waitUntil(lambda: shifts.pages.currentWidget() is shifts.no_classroom, timeout=5000)

    qtbot.mouseClick(shifts.no_classroom.button, Qt.MouseButton.LeftButton)
    dialog = shifts.classroom_dialog
    assert dialog is not None
    dialog.name.setText("駅前教室")
    dialog.accept()
    qtbot.waitUntil(lambda: shifts.classroom_combo.currentText() == "駅前教室", timeout=5000)
    settle(qtbot, ctx)

    # Each already-built area has read the new classroom without a restart and without being shown.
    assert window.publish.classroom_box.currentText() == "駅前教室"
    assert deliveries.classroom_box.findText("駅前教室") > 0
    assert settings.classrooms.classroom.currentText() == "駅前教室"
    window.tabs.setCurrentWidget(window.publish)
    qtbot.waitUntil(lambda: "Add classroom" not in window.publish.viewer.message.text()
                    or window.publish.viewer.has_image, timeout=10_000)
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
    qtbot.waitUntil(lambda: window.sender_status.text().startswith("Starting to send"), timeout=5000)
    engine = Engine(ctx.db, ctx.paths)
    try:
        assert start_engine(ctx, engine)
        qtbot.waitUntil(lambda: window.sender_status.text().startswith("Sending ·"), timeout=5000)
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
        qtbot.waitUntil(lambda: window.sender_status.text().startswith("Another Shiftcast window"), timeout=5000)
    finally:
        first.stop()
    settle(qtbot, ctx)
