"""Settings → Teachers' page → "Menu under the chat", offscreen on a real SQLite file against the LINE
emulator over real HTTP: the button sets the menu (four tiles), Set again replaces it and deletes the one
before, Remove removes it, LINE's refusal is said in words and changes nothing, the buttons wait for the
page to be ready, and Save turning the page on sets the menu at once. With SHIFTCAST_SCREENSHOTS set, the
section is saved as a picture at 1366×768 in Japanese."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image
from PySide6.QtCore import Qt

from core.emulator import LineEmulator
from core.setup import rich_menu, teachers_page
from core.store import setting_keys as keys
from tests.linefixtures import emulator, line_ready  # noqa: F401 - fixtures
from tests.ui_fixtures import ctx, settle  # noqa: F401
from tests.waiting import PATIENCE_MS
from ui.common import i18n
from ui.services.context import AppContext
from ui.settings.rich_menu_row import RichMenuRow
from ui.settings.view import SettingsView

CLICK = Qt.MouseButton.LeftButton
CHANNEL, LIFF = "1657000000", "1657000000-AbCdEfGh"
RELAY = "https://shiftcast-relay.example.workers.dev"


def _page(ctx: AppContext, *, enabled: bool = True) -> None:
    with ctx.db.write() as s:
        keys.RELAY_URL.write(s, RELAY)
    teachers_page.save(ctx.db, login_channel_id=CHANNEL, liff_id=LIFF, enabled=enabled)


def _saved(ctx: AppContext) -> str | None:
    with ctx.db.read() as s:
        return keys.LINE_RICH_MENU_ID.read(s)


def _settings(qtbot, ctx: AppContext) -> tuple[SettingsView, RichMenuRow]:
    """The Settings tab at 1366×768 and its row, loaded (the caller keeps the tab: qtbot holds it weakly)."""
    view = SettingsView(ctx)
    qtbot.addWidget(view)
    view.resize(1366, 768)
    view.show()
    settle(qtbot, ctx)
    row = view.teachers_page.menu
    qtbot.waitUntil(lambda: row.state is not None, timeout=PATIENCE_MS)
    return view, row


def _done(qtbot, row: RichMenuRow) -> None:
    qtbot.waitUntil(lambda: not row._busy and row.status.isVisible(), timeout=PATIENCE_MS)


def test_the_button_sets_the_menu_set_again_replaces_it_and_remove_removes_it(
        qtbot, ctx: AppContext, line_ready: LineEmulator) -> None:
    _page(ctx)
    _view, row = _settings(qtbot, ctx)
    assert row.state_label.text() == "Not set." and row.set_button.text() == "Set the menu"
    assert row.set_button.isEnabled() and not row.remove_button.isEnabled()
    assert "my shifts, availability, cover calls, my calendar" in row.about.text()
    qtbot.mouseClick(row.set_button, CLICK)
    _done(qtbot, row)
    first = _saved(ctx)
    seen = line_ready.rich_menus()
    assert first is not None and seen["default"] == first
    assert len(seen["richmenus"][0]["areas"]) == 4
    assert row.status.text().startswith("The menu is set") and not row.status.problem_shown
    qtbot.waitUntil(lambda: row.set_button.text() == "Set again", timeout=PATIENCE_MS)
    assert row.state_label.text().startswith("Set:") and row.remove_button.isEnabled()

    qtbot.mouseClick(row.set_button, CLICK)
    _done(qtbot, row)
    second = _saved(ctx)
    assert second not in (None, first)
    seen = line_ready.rich_menus()
    assert [m["richMenuId"] for m in seen["richmenus"]] == [second] == [seen["default"]]  # the old one deleted
    assert row.status.text().endswith("The menu set before is deleted.")

    qtbot.waitUntil(lambda: row.remove_button.isEnabled(), timeout=PATIENCE_MS)
    qtbot.mouseClick(row.remove_button, CLICK)
    _done(qtbot, row)
    assert line_ready.rich_menus() == {"default": None, "richmenus": []} and _saved(ctx) is None
    assert row.status.text() == "The menu is removed: LINE shows no menu under the chat now."
    qtbot.waitUntil(lambda: row.state_label.text() == "Not set.", timeout=PATIENCE_MS)
    assert row.set_button.text() == "Set the menu" and not row.remove_button.isEnabled()


def test_lines_refusal_is_said_in_words_and_changes_nothing(
        qtbot, ctx: AppContext, line_ready: LineEmulator, monkeypatch: pytest.MonkeyPatch) -> None:
    _page(ctx)
    before = rich_menu.set_rich_menu(ctx.db, language="ja")
    tall = io.BytesIO()
    Image.new("RGB", (2500, 1686), "white").save(tall, "PNG")  # not the menu's size: LINE refuses the picture
    monkeypatch.setattr(rich_menu, "menu_image", lambda labels, font_file=None: tall.getvalue())
    _view, row = _settings(qtbot, ctx)
    qtbot.mouseClick(row.set_button, CLICK)
    _done(qtbot, row)
    assert row.status.problem_shown
    assert "LINE did not take the rich menu" in row.status.text() and "2500x1686" in row.status.text()
    seen = line_ready.rich_menus()
    assert [m["richMenuId"] for m in seen["richmenus"]] == [before.rich_menu_id] == [seen["default"]]
    assert _saved(ctx) == before.rich_menu_id
    qtbot.waitUntil(lambda: row.set_button.isEnabled(), timeout=PATIENCE_MS)  # may be tried again


def test_without_the_page_ready_the_row_says_what_is_missing_and_sets_nothing(
        qtbot, ctx: AppContext, line_ready: LineEmulator) -> None:
    _view, row = _settings(qtbot, ctx)
    assert not row.set_button.isEnabled() and not row.remove_button.isEnabled()
    assert "enter the LINE Login channel ID and the LIFF ID above and save" in row.state_label.text()
    teachers_page.save(ctx.db, login_channel_id=CHANNEL, liff_id=LIFF, enabled=True)  # on, but no relay
    ctx.bridge.settings_changed.emit()
    qtbot.waitUntil(lambda: "attach a relay first" in row.state_label.text(), timeout=PATIENCE_MS)
    assert not row.set_button.isEnabled()
    _page(ctx, enabled=False)
    ctx.bridge.settings_changed.emit()
    qtbot.waitUntil(lambda: "turn the teachers' page on above" in row.state_label.text(), timeout=PATIENCE_MS)
    assert not row.set_button.isEnabled()
    assert line_ready.rich_menus() == {"default": None, "richmenus": []}


def test_without_line_connected_the_row_says_so(qtbot, ctx: AppContext) -> None:
    _page(ctx)
    _view, row = _settings(qtbot, ctx)
    assert row.state_label.text() == "Not set. To set it, connect LINE first." and not row.set_button.isEnabled()


def test_saving_the_page_on_sets_the_menu_at_once_and_says_so(qtbot, ctx: AppContext, line_ready: LineEmulator) -> None:
    with ctx.db.write() as s:
        keys.RELAY_URL.write(s, RELAY)
    view = SettingsView(ctx)
    qtbot.addWidget(view)
    view.show()
    settle(qtbot, ctx)
    section = view.teachers_page
    qtbot.keyClicks(section.fields.channel_id, CHANNEL)
    qtbot.keyClicks(section.fields.liff_id, LIFF)
    section.fields.enabled.setChecked(True)
    qtbot.mouseClick(section.save, CLICK)
    row = section.menu
    qtbot.waitUntil(lambda: row.status.text().startswith("The teachers' page is on, so the menu"), timeout=PATIENCE_MS)
    seen = line_ready.rich_menus()
    assert seen["default"] == _saved(ctx) is not None
    qtbot.waitUntil(lambda: row.set_button.text() == "Set again", timeout=PATIENCE_MS)


def test_a_new_liff_id_saved_while_a_menu_is_set_sets_it_again_to_open_the_new_one(
        qtbot, ctx: AppContext, line_ready: LineEmulator) -> None:
    _page(ctx)
    rich_menu.set_rich_menu(ctx.db, language="en")
    old = _saved(ctx)
    view, row = _settings(qtbot, ctx)
    section = view.teachers_page
    section.fields.liff_id.clear()
    qtbot.keyClicks(section.fields.liff_id, "1657000000-NewLiffApp")
    qtbot.mouseClick(section.save, CLICK)
    qtbot.waitUntil(lambda: row.status.text().startswith("The menu under the chat is set again"), timeout=PATIENCE_MS)
    new = _saved(ctx)
    assert new is not None and new != old
    seen = line_ready.rich_menus()
    assert seen["default"] == new
    [menu] = [m for m in seen["richmenus"] if m["richMenuId"] == new]
    assert old not in [m["richMenuId"] for m in seen["richmenus"]]  # the old menu is deleted
    uris = [area["action"]["uri"] for area in menu["areas"]]
    assert uris and all(uri.startswith("https://liff.line.me/1657000000-NewLiffApp?") for uri in uris)


def test_in_japanese_the_section_shows_the_row(qtbot, ctx: AppContext, qapp, tmp_path: Path,
                                              line_ready: LineEmulator) -> None:
    i18n.install(qapp, "ja", tmp_path)
    try:
        _page(ctx)
        view, row = _settings(qtbot, ctx)
        assert row.heading.text() == "トーク画面下のメニュー" and row.set_button.text() == "メニューを設定"
        qtbot.mouseClick(row.set_button, CLICK)
        _done(qtbot, row)
        assert row.status.text().startswith("メニューを設定しました")
        qtbot.waitUntil(lambda: row.set_button.text() == "もう一度設定", timeout=PATIENCE_MS)
        view.show_section("teachers_page")
        settle(qtbot, ctx)
        if shots := os.environ.get("SHIFTCAST_SCREENSHOTS"):
            assert view.grab().save(str(Path(shots) / "rich-menu-settings-ja.png"))
    finally:
        i18n.install(qapp, "en", tmp_path)
