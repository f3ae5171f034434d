"""The teacher dialog's calendar row: shown while the teachers' page is on and a relay is attached, Copy
puts the teacher's address on the clipboard, New address asks first and then replaces it; with the page
off, or for a teacher not yet saved, there is no row."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox

from core.calendar import feeds
from core.store import setting_keys as keys
from core.store.db import Database
from tests import factories as f
from tests.test_ui_shifts import open_teachers, open_view
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.teachers.calendar_row import CalendarRow
from ui.teachers.edit_dialog import TeacherEditDialog

RELAY = "https://relay.example.workers.dev"


def _teacher(db: Database, *, page: bool) -> int:
    with db.write() as s:
        room = f.classroom(s, "本校")
        sato = f.teacher(s, "佐藤", 1, classroom_ids=[room.id]).id
        keys.RELAY_URL.write(s, RELAY)
        keys.PAGES_ENABLED.write(s, page)
    return sato


def _row(qtbot, ctx: AppContext, now: dt.datetime, teacher_id: int | None) -> tuple[TeacherEditDialog, bool]:
    """The teacher's editor, and what its calendar row answered about being offered."""
    view = open_view(qtbot, ctx, now)
    dialog = open_teachers(qtbot, ctx, view)
    if teacher_id is None:
        dialog.add()
    else:
        dialog.select(teacher_id)
        dialog.edit_selected()
    editor = dialog.edit_dialog
    assert isinstance(editor, TeacherEditDialog)
    if editor.calendar_row is None:
        return editor, False
    with qtbot.waitSignal(editor.calendar_row.offered) as answered:
        pass
    return editor, bool(answered.args and answered.args[0])


def _address(db: Database, teacher_id: int) -> str | None:
    with db.read() as s:
        feed = feeds.feed_of(s, teacher_id)
        return None if feed is None else feeds.address(RELAY, feed.token)


def test_copy_and_a_new_address_after_asking(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    sato = _teacher(db, page=True)
    editor, offered = _row(qtbot, ctx, now, sato)
    row = editor.calendar_row
    assert offered and isinstance(row, CalendarRow)
    qtbot.waitUntil(row.isVisible)
    assert _address(db, sato) is None  # made the first time it is asked for

    QGuiApplication.clipboard().clear()
    row.copy_button.click()
    qtbot.waitUntil(lambda: row.result.text() == "Copied.")
    old = _address(db, sato)
    assert old is not None and QGuiApplication.clipboard().text() == old

    asked: list[str] = []
    answers = iter([QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes])

    def answer(_parent, _title, text, *args, **kwargs):
        asked.append(text)
        return next(answers)

    monkeypatch.setattr(QMessageBox, "question", answer)
    row.new_button.click()  # No: nothing changes
    settle(qtbot, ctx)
    assert _address(db, sato) == old and row.result.text() == "Copied."
    row.new_button.click()
    qtbot.waitUntil(lambda: row.result.text() == "New address copied.")
    new = _address(db, sato)
    assert new not in (None, old) and QGuiApplication.clipboard().text() == new
    assert len(asked) == 2 and "The old address stops working" in asked[0]


def test_no_row_while_the_page_is_off_or_for_a_new_teacher(qtbot, ctx: AppContext, db: Database,
                                                         now: dt.datetime) -> None:
    sato = _teacher(db, page=False)
    editor, offered = _row(qtbot, ctx, now, sato)
    assert not offered and editor.calendar_row is not None and not editor.calendar_row.isVisible()
    editor.reject()
    settle(qtbot, ctx)
    with db.write() as s:
        keys.PAGES_ENABLED.write(s, True)
    editor, offered = _row(qtbot, ctx, now, None)
    assert editor.calendar_row is None and not offered
