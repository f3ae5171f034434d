"""The readiness panel over a real database and the in-memory keyring: what it shows, that it follows
changes the bridge announces, that its buttons open the fixes, and that it fits a 1366×768 screen."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import cast

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QPushButton

from core.app import autostart
from core.emulator import LineEmulator
from core.sending import presence
from core.store import secrets
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.settings import ReceivingRecord
from tests import factories as f
from tests.linefixtures import TOKEN, emulator, line_ready  # noqa: F401 - fixtures
from tests.test_i18n import japanese  # noqa: F401 - a fixture
from tests.test_receiving_service import line  # noqa: F401 - a fixture
from tests.ui_fixtures import ctx, settle  # noqa: F401
from tests.waiting import PATIENCE_MS
from ui.readiness.panel import ReadinessPanel
from ui.services.context import AppContext

GROUP = "C" + "1" * 32


@pytest.fixture(autouse=True)
def _start_at_login_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # never the machine's own autostart folder


def _answered(qtbot, panel: ReadinessPanel, before: int) -> None:
    qtbot.waitUntil(lambda: panel.loaded > before, timeout=PATIENCE_MS)


def _row(panel: ReadinessPanel, key: str) -> str:
    label = panel.findChild(QLabel, f"readiness_{key}")
    assert label is not None, key
    return label.text()


def _all_set(db: Database) -> None:
    """LINE's token is in the keyring (line_ready); the app's receiving said LINE reaches it; a
    classroom with its group, a paired teacher, image hosting (the demo's local folder), start at
    login and a sender that checked in."""
    now = dt.datetime.now(dt.UTC)
    with db.write() as s:
        keys.LINE_RECEIVE_STATUS.write(s, ReceivingRecord("https://shiftcast.example.jp/line/webhook", now))
        f.classroom(s, "本校", line_group_id=GROUP)
        f.teacher(s, "佐藤", 1)
        keys.HOSTING_LOCAL_ROOT.write(s, "/srv/images")
        keys.HOSTING_LOCAL_BASE_URL.write(s, "http://127.0.0.1:8000/images")
        presence.register(s, "sender-1", home="/data", app="window", now=now)
    autostart.enable(["shiftcast", "tray"])


def test_a_new_data_folder_shows_what_blocks_with_a_button_to_each_fix(qtbot, ctx: AppContext) -> None:
    panel = ReadinessPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    _answered(qtbot, panel, 0)
    assert panel.isVisible() and panel.rows_area.isVisible()  # something blocks: the rows are open
    assert panel.summary.text() == "Not ready: 3 things stop the teachers' messages."
    assert _row(panel, "line") == "LINE is not connected: no message can be sent."
    assert _row(panel, "month_image") == "No image hosting: the month goes to the group as a list, not as the image."
    buttons = {b.objectName(): b.text() for b in panel.findChildren(QPushButton)}
    assert buttons == {"fix_line": "Connect LINE…", "fix_receiving": "Connect LINE…",
                       "fix_classroom_groups": "Add a classroom…", "fix_teachers": "Teachers…",
                       "fix_month_image": "Image hosting settings", "fix_autostart": "Start at login"}
    with qtbot.waitSignal(panel.fix_wanted) as asked:
        qtbot.mouseClick(panel.findChild(QPushButton, "fix_line"), Qt.MouseButton.LeftButton)
    assert asked.args == ["connect_line"]
    settle(qtbot, ctx)


def test_when_all_is_well_it_is_one_line_or_nothing(qtbot, ctx: AppContext, db: Database,
                                                    line_ready: LineEmulator) -> None:
    _all_set(db)
    panel = ReadinessPanel(ctx)
    hidden = ReadinessPanel(ctx, hide_when_ready=True)
    for each in (panel, hidden):
        qtbot.addWidget(each)
        each.show()
    for each in (panel, hidden):
        _answered(qtbot, each, 0)
    assert panel.summary.text() == "Ready to send: the teachers will get their messages."
    assert not panel.rows_area.isVisible() and not panel.toggle.isVisible()
    assert not hidden.isVisible()
    settle(qtbot, ctx)


def test_it_follows_a_change_the_bridge_announces(qtbot, ctx: AppContext, db: Database,
                                                  emulator: LineEmulator, monkeypatch: pytest.MonkeyPatch) -> None:
    panel = ReadinessPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    _answered(qtbot, panel, 0)
    assert _row(panel, "line").startswith("LINE is not connected")
    monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emulator.base_url)
    secrets.set_line_token(TOKEN)
    with db.write() as s:
        f.classroom(s, "本校", line_group_id=GROUP)
        f.teacher(s, "佐藤", 1)
        f.teacher(s, "鈴木", 2, line_opt_in=False)
    ctx.bridge.settings_changed.emit()
    qtbot.waitUntil(lambda: _row(panel, "line") == "LINE is connected; which account has not been checked yet "
                    "(Settings, LINE, Test connection)", timeout=PATIENCE_MS)
    assert _row(panel, "teachers") == "1 of 2 teachers can be reached. 鈴木: has not agreed to LINE"
    assert panel.summary.text() == "Messages can go, but 5 things need a look."
    assert _row(panel, "receiving") == "Shiftcast does not receive from LINE: pairing codes and 了解 taps are not received."
    assert not panel.rows_area.isVisible()  # only warnings: one line until the manager opens it
    panel.toggle.click()
    assert panel.rows_area.isVisible()
    settle(qtbot, ctx)


def test_the_buttons_open_the_fixes_and_the_first_start_shows_the_panel(qtbot, ctx: AppContext, db: Database,
                                                                        line_ready: LineEmulator,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.shell import app as ui_app

    monkeypatch.setattr(QMessageBox, "exec", lambda self: 0)
    shell = ui_app.Shell(cast(QApplication, QApplication.instance()), ctx, QIcon(), tray_available=False)
    window = shell.open_window()
    qtbot.addWidget(window)
    ui_app._first_run(ctx, shell)  # LINE's token is saved: no welcome box, straight to the panel
    assert window.tabs.currentWidget() is window.settings
    panel = window.settings.readiness
    _answered(qtbot, panel, 0)
    assert panel.isVisible() and _row(panel, "classroom_groups") == "There is no classroom yet."

    publish = window.publish.readiness
    window.tabs.setCurrentWidget(window.publish)
    qtbot.waitUntil(lambda: publish.loaded > 0 and publish.isVisible(), timeout=PATIENCE_MS)
    assert not publish.rows_area.isVisible()  # one line on Publish, even while something blocks
    publish.toggle.click()
    qtbot.mouseClick(publish.findChild(QPushButton, "fix_teachers"), Qt.MouseButton.LeftButton)
    assert window.tabs.currentWidget() is window.shifts
    dialog = window.shifts.teachers_dialog
    assert dialog is not None and dialog.isVisible()
    dialog.reject()
    window.tabs.setCurrentWidget(window.publish)
    qtbot.mouseClick(publish.findChild(QPushButton, "fix_month_image"), Qt.MouseButton.LeftButton)
    assert window.tabs.currentWidget() is window.settings
    settle(qtbot, ctx)


def test_it_fits_above_the_publish_area_on_a_1366_by_768_screen(qtbot, ctx: AppContext, db: Database,
                                                                line_ready: LineEmulator) -> None:
    from ui.publish.view import PublishView

    with db.write() as s:
        f.classroom(s, "本校")  # no group yet
        for n in range(1, 9):  # more teachers out of reach than the row names
            f.teacher(s, f"講師{n}", n, line_opt_in=False)
    view = PublishView(ctx)
    qtbot.addWidget(view)
    view.resize(1366, 640)  # the area in a window on a 1366×768 screen, under the menus and tabs
    view.show()
    _answered(qtbot, view.readiness, 0)
    panel = view.readiness
    assert panel.isVisible() and not panel.rows_area.isVisible()
    assert panel.summary.text() == "Not ready: 1 thing stops the teachers' messages."
    panel.toggle.click()  # the longest it gets: every row open
    qtbot.waitUntil(lambda: panel.rows_area.isVisible(), timeout=PATIENCE_MS)
    assert "and 5 more" in _row(panel, "teachers")
    assert panel.height() <= 260, panel.height()  # the rows wrap within the width, never push it wider
    assert view.width() == 1366 and view.viewer.height() >= 300, view.viewer.height()
    print(f"panel {panel.height()} px, preview {view.viewer.height()} px")
    settle(qtbot, ctx)


def test_it_speaks_japanese(qtbot, ctx: AppContext, db: Database, japanese: Path) -> None:
    with db.write() as s:
        f.classroom(s, "本校")
        f.teacher(s, "佐藤", 1, line_opt_in=False)
    panel = ReadinessPanel(ctx)
    qtbot.addWidget(panel)
    panel.resize(820, 300)
    panel.show()
    _answered(qtbot, panel, 0)
    assert panel.summary.text() == "準備ができていません。2件の問題のため、講師にメッセージを送信できません。"
    assert _row(panel, "line") == "LINEに接続していないため、メッセージを送信できません。"
    assert _row(panel, "teachers").startswith("1人中0人の講師に届きます。佐藤さん: LINEでの連絡に同意していません")
    button = panel.findChild(QPushButton, "fix_line")
    assert button is not None and button.text() == "LINEに接続…"
    assert panel.toggle.text() == "閉じる"
    if shots := os.environ.get("SHIFTCAST_SHOTS"):  # as tests/test_ui_texts_japanese.py saves what it saw
        panel.grab().save(str(Path(shots) / "readiness-ja.png"))
    settle(qtbot, ctx)


def test_receive_again_points_line_back_at_the_app(qtbot, ctx: AppContext, db: Database, line: LineEmulator,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's receiving (core/setup/receiving.py) against the emulator: stopped, its row warns;
    its button starts it again, LINE is pointed back at it, and the row turns OK."""
    from core.receiving.address import LoopbackAddress
    from core.setup.line_connect import remember_address
    from core.setup.receiving import Receiving
    from ui.shell import app as ui_app

    monkeypatch.setattr(QMessageBox, "exec", lambda self: 0)
    remember_address(db, LoopbackAddress(), 0)
    service = Receiving(db)
    ctx.bridge.attach_receiving(service.listeners)
    ctx.receiving = service
    try:
        shell = ui_app.Shell(cast(QApplication, QApplication.instance()), ctx, QIcon(), tray_available=False)
        window = shell.open_window()
        qtbot.addWidget(window)
        window.tabs.setCurrentWidget(window.settings)
        panel = window.settings.readiness
        panel.show()
        qtbot.waitUntil(lambda: panel.findChild(QPushButton, "fix_receiving") is not None, timeout=PATIENCE_MS)
        assert _row(panel, "receiving").startswith("LINE cannot reach Shiftcast now"), _row(panel, "receiving")
        button = panel.findChild(QPushButton, "fix_receiving")
        assert button is not None and button.text() == "Receive again"
        panel.toggle.setChecked(True)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: _row(panel, "receiving").startswith("LINE can reach Shiftcast at http://127.0.0.1:"),
                        timeout=PATIENCE_MS)
        assert line.webhook_endpoint is not None and line.webhook_endpoint in _row(panel, "receiving")
    finally:
        service.stop()
        ctx.receiving = None
    settle(qtbot, ctx)


def test_in_settings_every_row_shows_without_scrolling_in_japanese(qtbot, ctx: AppContext, db: Database,
                                                                  japanese: Path) -> None:
    from ui.settings.view import SettingsView

    with db.write() as s:
        f.classroom(s, "本校")
        f.teacher(s, "佐藤", 1, line_opt_in=False)
    view = SettingsView(ctx)
    qtbot.addWidget(view)
    view.resize(1366, 680)
    view.show()
    panel = view.readiness
    _answered(qtbot, panel, 0)
    qtbot.waitUntil(lambda: panel.rows_area.isVisible(), timeout=PATIENCE_MS)
    assert len(panel.requirements) >= 7
    settle(qtbot, ctx)
    assert panel.rows_area.verticalScrollBar().maximum() == 0, panel.rows_area.height()  # no row hidden
    settle(qtbot, ctx)


def test_a_japanese_row_ending_in_a_bracket_gets_no_latin_full_stop() -> None:
    from ui.common.widgets import sentence

    assert sentence("佐藤さん（本校 14:30）") == "佐藤さん（本校 14:30）"
    assert sentence("「講師」") == "「講師」"
    assert sentence("messages wait") == "Messages wait."


def test_a_relay_holding_old_line_credentials_shows_a_row_whose_button_opens_always_on(
        qtbot, ctx: AppContext, japanese: None) -> None:
    from core.setup import relay_state
    from core.setup.relay_credentials import SECRET, TOKEN, fingerprints

    secrets.set_line_token("the-new-token")
    secrets.set_line_channel_secret("the-channel-secret")
    url = "https://shiftcast-relay-ab12cd34.example.workers.dev"
    relay_state.save(ctx.db, relay_state.Deployment("ab12cd34", account_id="acc", database_id="db", url=url,
                                                    line_credentials=fingerprints({SECRET: "the-channel-secret",
                                                                                   TOKEN: "the-old-token"})))
    relay_state.remember_relay(ctx.db, url)
    panel = ReadinessPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    _answered(qtbot, panel, 0)
    assert "以前に保存したLINEの認証情報をまだ使っています" in _row(panel, "relay")
    button = panel.findChild(QPushButton, "fix_relay")
    assert button is not None and button.text() == "常時稼働の設定"
    with qtbot.waitSignal(panel.fix_wanted) as asked:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert asked.args == ["relay"]


def test_the_settings_and_publish_panels_and_doctor_agree_on_a_classroom_without_its_group(
        qtbot, ctx: AppContext, db: Database, line_ready: LineEmulator, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """One rule grades each requirement: a classroom without its group, with confirmed shifts ahead, is
    the same warning, and the same count, in Settings, in Publish and in `doctor`."""
    import json

    import main
    from core.setup.receiving import ReceivingState
    from core.store.models import ShiftStatus
    from ui.connect_line.group_dialog import ChooseGroupDialog
    from ui.shell import app as ui_app

    _all_set(db)
    with db.write() as s:
        annex = f.classroom(s, "分校")
        teacher = f.teacher(s, "鈴木", 2)
        tomorrow = (dt.datetime.now(dt.UTC) + dt.timedelta(days=2)).date()
        f.shift(s, annex, teacher, tomorrow, now=dt.datetime.now(dt.UTC), status=ShiftStatus.CONFIRMED)
    assert main.main(["--lang", "en", "doctor", "--json"]) == 0  # nothing blocks
    doctor = json.loads(capsys.readouterr().out)
    graded = {row["key"]: row["state"] for row in doctor["requirements"]}
    assert graded["classroom_groups"] == "warning"

    monkeypatch.setattr(QMessageBox, "exec", lambda self: 0)
    shell = ui_app.Shell(cast(QApplication, QApplication.instance()), ctx, QIcon(), tray_available=False)
    window = shell.open_window()
    qtbot.addWidget(window)
    settings, publish = window.settings.readiness, window.publish.readiness
    window.tabs.setCurrentWidget(window.settings)
    qtbot.waitUntil(lambda: settings.loaded > 0, timeout=PATIENCE_MS)
    window.tabs.setCurrentWidget(window.publish)
    qtbot.waitUntil(lambda: publish.loaded > 0, timeout=PATIENCE_MS)
    for panel in (settings, publish):
        shown = {r.key: r.state.value for r in panel.requirements}
        assert shown == graded
        assert shown["classroom_groups"] == "warning"
    # The same sentence, the same count (the window says it as a sentence: capital, full stop).
    assert settings.summary.text() == publish.summary.text() == doctor["summary"][0].upper() + doctor["summary"][1:] + "."

    # Its fix chooses the group in Connect LINE's group step, never a field to type an ID into.
    publish.toggle.click()
    button = publish.findChild(QPushButton, "fix_classroom_groups")
    assert button is not None and button.text() == "Choose the LINE group…"
    monkeypatch.setattr(ctx, "receiving_state", lambda: ReceivingState("https://shiftcast.example.jp/line/webhook"))
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: isinstance(getattr(window, "choose_group_dialog", None), ChooseGroupDialog)
                    and window.choose_group_dialog.isVisible(), timeout=PATIENCE_MS)
    assert window.tabs.currentWidget() is window.publish  # back at Publish once the group is chosen
    window.choose_group_dialog.reject()
    settle(qtbot, ctx)
