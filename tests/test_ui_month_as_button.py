"""The month as a button to the teachers' page in the window: the choice under the page's opt-in in
Settings → Teachers' page (enabled only while the page is on), the Classrooms' old LIFF ID hidden while
the page is ready, and the Publish area saying the month goes as a button."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt

from core.setup import teachers_page
from core.store import setting_keys as keys
from core.store.db import Database
from tests.s3server import hosted, s3_endpoint  # noqa: F401
from tests.test_ui_publish import WAIT, _loaded, _month, _view
from tests.test_ui_teachers_page import CHANNEL, LIFF, RELAY, _relay, _settings
from tests.ui_fixtures import ctx, settle  # noqa: F401
from tests.waiting import PATIENCE_MS
from ui.services.context import AppContext

CLICK = Qt.MouseButton.LeftButton


def _chosen(ctx: AppContext) -> bool:
    with ctx.db.read() as s:
        return keys.PAGES_MONTH_AS_BUTTON.read(s)


def test_the_choice_sits_under_the_opt_in_enabled_only_while_the_page_is_on_and_is_saved(
        qtbot, ctx: AppContext) -> None:
    _relay(ctx)
    view = _settings(qtbot, ctx)
    section = view.teachers_page
    choice = section.as_button
    assert choice.text() == ("Send the month to the group as a button to the teachers' page instead of pictures "
                             "(the month's pictures are not put online)")
    assert not choice.isChecked() and not choice.isEnabled() and not section.save.isEnabled()
    assert choice.y() > section.fields.y() + section.fields.opt_in.y()  # under the opt-in
    qtbot.keyClicks(section.fields.channel_id, CHANNEL)
    qtbot.keyClicks(section.fields.liff_id, LIFF)
    section.fields.enabled.setChecked(True)
    assert choice.isEnabled()
    choice.setChecked(True)
    qtbot.mouseClick(section.save, CLICK)
    qtbot.waitUntil(lambda: section.status.text() == "Saved. The teachers' page is on.", timeout=PATIENCE_MS)
    assert _chosen(ctx) and teachers_page.read(ctx.db).ready and not section.save.isEnabled()

    choice.setChecked(False)  # the choice alone is a change to save
    assert section.save.isEnabled()
    qtbot.mouseClick(section.save, CLICK)
    qtbot.waitUntil(lambda: not _chosen(ctx) and not section.save.isEnabled(), timeout=PATIENCE_MS)

    choice.setChecked(True)
    section.fields.enabled.setChecked(False)  # the page off: the choice is kept, and cannot be changed
    assert not choice.isEnabled() and choice.isChecked()
    qtbot.mouseClick(section.save, CLICK)
    qtbot.waitUntil(lambda: section.status.text() == "Saved.", timeout=PATIENCE_MS)
    assert _chosen(ctx) and not teachers_page.read(ctx.db).enabled and not choice.isEnabled()


def test_the_classroom_s_old_liff_id_is_hidden_while_the_page_is_ready(qtbot, ctx: AppContext) -> None:
    from tests import factories as f

    with ctx.db.write() as s:
        f.classroom(s, line_group_id="C" + "1" * 32)
    view = _settings(qtbot, ctx)
    classrooms = view.classrooms
    qtbot.waitUntil(lambda: classrooms.classroom.count() == 1, timeout=PATIENCE_MS)
    assert classrooms.liff_row.isVisibleTo(view)
    assert "(Settings → Teachers' page) is the way to open the month inside LINE" in classrooms.liff_note.text()
    teachers_page.save(ctx.db, login_channel_id=CHANNEL, liff_id=LIFF, enabled=True)
    _relay(ctx)
    ctx.bridge.settings_changed.emit()
    qtbot.waitUntil(lambda: not classrooms.liff_row.isVisibleTo(view), timeout=PATIENCE_MS)
    teachers_page.set_enabled(ctx.db, False)
    ctx.bridge.settings_changed.emit()
    qtbot.waitUntil(lambda: classrooms.liff_row.isVisibleTo(view), timeout=PATIENCE_MS)
    settle(qtbot, ctx)


def test_publish_says_the_month_goes_as_a_button(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                 hosted: str) -> None:
    _month(db, now)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    _loaded(qtbot, ctx, view)
    assert view.preview_form.text() == "As pictures for phones"
    teachers_page.save(db, login_channel_id=CHANNEL, liff_id=LIFF, enabled=True)
    with db.write() as s:
        keys.RELAY_URL.write(s, RELAY)
        keys.PAGES_MONTH_AS_BUTTON.write(s, True)
    ctx.bridge.settings_changed.emit()
    qtbot.waitUntil(lambda: view.preview_form.text() == "As a button to the teachers' page", timeout=WAIT)
    with db.write() as s:  # the choice off: pictures again
        keys.PAGES_MONTH_AS_BUTTON.write(s, False)
    ctx.bridge.settings_changed.emit()
    qtbot.waitUntil(lambda: view.preview_form.text() == "As pictures for phones", timeout=WAIT)
