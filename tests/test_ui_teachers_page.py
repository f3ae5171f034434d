"""The teachers' page in the window, offscreen on a real SQLite file: Connect LINE's optional step (with
and without a relay: the endpoint to copy, or the way to Settings → Always on), bad IDs said in words
and nothing kept, Skip changing nothing, the same fields in Settings, and the readiness fix's dialog.
With SHIFTCAST_SCREENSHOTS set, the step and the section are saved as pictures at 1366×768."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from core.setup import teachers_page
from core.store import setting_keys as keys
from tests.ui_fixtures import ctx, settle  # noqa: F401
from tests.waiting import PATIENCE_MS
from ui.common import i18n
from ui.connect_line.pages import NextStepsPage
from ui.connect_line.teachers_page import TeachersPageDialog, TeachersPageStep
from ui.connect_line.wizard import ConnectLineDialog
from ui.services.context import AppContext
from ui.settings.view import SettingsView

CLICK = Qt.MouseButton.LeftButton
CHANNEL, LIFF = "1657000000", "1657000000-AbCdEfGh"
RELAY = "https://shiftcast-relay.example.workers.dev"


def _relay(ctx: AppContext) -> None:
    with ctx.db.write() as s:
        keys.RELAY_URL.write(s, RELAY)


def _wizard(qtbot, ctx: AppContext) -> ConnectLineDialog:
    """The wizard from its teachers' page step on (the steps before it need LINE: tests/test_ui_connect_line.py)."""
    dialog = ConnectLineDialog(ctx, pages=(TeachersPageStep, NextStepsPage))
    qtbot.addWidget(dialog)
    dialog.show()
    settle(qtbot, ctx)
    assert isinstance(dialog.page, TeachersPageStep)
    return dialog


def _settings(qtbot, ctx: AppContext) -> SettingsView:
    """The Settings tab at 1366×768, loaded."""
    view = SettingsView(ctx)
    qtbot.addWidget(view)
    view.resize(1366, 768)
    view.show()
    settle(qtbot, ctx)
    return view


def _shot(widget: QWidget, name: str) -> None:
    if shots := os.environ.get("SHIFTCAST_SCREENSHOTS"):
        assert widget.grab().save(str(Path(shots) / name))


def test_without_a_relay_the_step_says_one_comes_first_and_skip_changes_nothing(qtbot, ctx: AppContext) -> None:
    dialog = _wizard(qtbot, ctx)
    step = dialog.page
    assert isinstance(step, TeachersPageStep)
    fields = step.fields
    assert dialog.heading.text() == "Teachers' page (optional)"
    assert fields.no_relay.isVisibleTo(step) and fields.open_relay.isVisibleTo(step)
    assert not fields.endpoint.isVisibleTo(step)
    assert "A relay is needed first" in fields.no_relay.text()
    assert "until 7 days after each month ends." in fields.opt_in.text()
    assert dialog.next.text() == "Skip" and dialog.next.isEnabled()
    qtbot.mouseClick(dialog.next, CLICK)
    assert isinstance(dialog.page, NextStepsPage)
    saved = teachers_page.read(ctx.db)
    assert (saved.login_channel_id, saved.liff_id, saved.enabled) == (None, None, False)
    dialog.reject()


def test_bad_ids_are_said_and_kept_out_then_good_ones_turn_the_page_on(qtbot, ctx: AppContext) -> None:
    _relay(ctx)
    dialog = _wizard(qtbot, ctx)
    step = dialog.page
    assert isinstance(step, TeachersPageStep)
    fields = step.fields
    assert fields.endpoint.isVisibleTo(step) and fields.endpoint.text() == RELAY + "/liff/"
    assert not fields.no_relay.isVisibleTo(step)
    qtbot.mouseClick(fields.copy, CLICK)
    assert QApplication.clipboard().text() == RELAY + "/liff/"
    qtbot.keyClicks(fields.channel_id, "1657000001")  # another channel's ID than the LIFF app's
    qtbot.keyClicks(fields.liff_id, LIFF)
    fields.enabled.setChecked(True)
    assert dialog.next.text() == "Save and continue"
    qtbot.mouseClick(dialog.next, CLICK)
    qtbot.waitUntil(lambda: step.status.problem_shown, timeout=PATIENCE_MS)
    assert "belongs to LINE Login channel 1657000000, not 1657000001" in step.status.text()
    assert dialog.page is step and teachers_page.read(ctx.db).liff_id is None  # nothing kept
    fields.channel_id.clear()
    qtbot.keyClicks(fields.channel_id, CHANNEL)
    qtbot.mouseClick(dialog.next, CLICK)
    qtbot.waitUntil(lambda: isinstance(dialog.page, NextStepsPage), timeout=PATIENCE_MS)
    saved = teachers_page.read(ctx.db)
    assert (saved.login_channel_id, saved.liff_id, saved.enabled, saved.ready) == (CHANNEL, LIFF, True, True)
    last = dialog.page
    assert isinstance(last, NextStepsPage)
    assert "✓ The teachers' page is on." in last.done_label.text()
    dialog.reject()


def test_settings_has_the_same_fields_and_saves_them(qtbot, ctx: AppContext) -> None:
    _relay(ctx)
    view = _settings(qtbot, ctx)
    section = view.teachers_page
    assert section.title() == "Teachers' page" and not section.save.isEnabled()
    assert section.fields.endpoint.text() == RELAY + "/liff/"
    qtbot.keyClicks(section.fields.channel_id, CHANNEL)
    qtbot.keyClicks(section.fields.liff_id, f"https://liff.line.me/{LIFF}")  # the LIFF URL, as the console shows it
    section.fields.enabled.setChecked(True)
    assert section.save.isEnabled()
    qtbot.mouseClick(section.save, CLICK)
    qtbot.waitUntil(lambda: section.status.text() == "Saved. The teachers' page is on.", timeout=PATIENCE_MS)
    assert section.fields.liff_id.text() == LIFF and not section.save.isEnabled()
    assert teachers_page.read(ctx.db).ready


def test_the_readiness_fix_opens_the_step_on_its_own(qtbot, ctx: AppContext) -> None:
    teachers_page.save(ctx.db, login_channel_id=CHANNEL, liff_id=LIFF, enabled=True)  # on, but no relay
    dialog = TeachersPageDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    settle(qtbot, ctx)
    fields = dialog.page.fields
    assert fields.liff_id.text() == LIFF and fields.enabled.isChecked() and fields.no_relay.isVisibleTo(dialog)
    assert not dialog.save.isEnabled()  # nothing changed yet
    fields.enabled.setChecked(False)
    qtbot.mouseClick(dialog.save, CLICK)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=PATIENCE_MS)
    assert not teachers_page.read(ctx.db).enabled and teachers_page.read(ctx.db).liff_id == LIFF


@pytest.mark.parametrize("relay", [False, True])
def test_in_japanese_the_step_and_the_section_show_every_line(qtbot, ctx: AppContext, qapp, tmp_path: Path,
                                                             relay: bool) -> None:
    i18n.install(qapp, "ja", tmp_path)
    try:
        if relay:
            _relay(ctx)
        dialog = _wizard(qtbot, ctx)
        step = dialog.page
        assert isinstance(step, TeachersPageStep)
        assert dialog.heading.text() == "講師ページ（任意）" and dialog.next.text() == "省略"
        assert step.fields.opt_in.text().endswith("各月の終わりから7日後まで保管します。")
        settle(qtbot, ctx)
        # Every line of the step fits the wizard as it opens: nothing is cut off at the bottom.
        assert step.status.geometry().bottom() <= step.height()
        assert step.fields.enabled.mapTo(dialog, step.fields.enabled.rect().bottomLeft()).y() < dialog.next.mapTo(
            dialog, dialog.next.rect().topLeft()).y()
        _shot(dialog, f"teachers-page-step-{'relay' if relay else 'no-relay'}-ja.png")
        dialog.reject()
        view = _settings(qtbot, ctx)
        section = view.teachers_page
        # Every line of the section has its room once laid out at the page's width.
        qtbot.waitUntil(lambda: section.fields.height() >= section.fields.minimumSizeHint().height() > 300,
                        timeout=PATIENCE_MS)
        view.show_section("teachers_page")
        settle(qtbot, ctx)
        assert section.title() == "講師ページ"
        _shot(view, f"teachers-page-settings-{'relay' if relay else 'no-relay'}-ja.png")
    finally:
        i18n.install(qapp, "en", tmp_path)
