"""A teacher's weekly patterns in the teacher dialog: shown as "Tue 17:00–21:00 at 本校", added, changed
(with the dates they hold between) and removed, saved with the teacher (a new one too) and kept when other
details change; the dialog fits 1280×720 in Japanese."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDate

from core.roster import patterns, rules
from core.roster.patterns import Pattern
from core.store.db import Database
from tests import factories as f
from tests.test_i18n import japanese  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.teachers.dialog import TeachersDialog
from ui.teachers.edit_dialog import TeacherEditDialog

T = dt.time
WAIT = 5000


def _open(qtbot, ctx: AppContext) -> TeachersDialog:
    dialog = TeachersDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: bool(dialog.records) and bool(dialog.classrooms), timeout=WAIT)
    return dialog


def _editor(qtbot, dialog: TeachersDialog, name: str | None) -> TeacherEditDialog:
    if name is None:
        dialog.add()
    else:
        dialog._open_editor(next(r for r in dialog.records if r.name == name))
    editor = dialog.edit_dialog
    assert editor is not None
    qtbot.waitExposed(editor)
    return editor


def test_patterns_are_shown_added_removed_and_saved(qtbot, ctx: AppContext, db: Database) -> None:
    with db.write() as s:
        main, station = f.classroom(s, "本校"), f.classroom(s, "駅前")
        sato = f.teacher(s, "佐藤", 1)
        patterns.set_teacher_patterns(s, sato.id, [
            Pattern(sato.id, main.id, 1, T(17), T(21), rules.FIRST_DAY),
            Pattern(sato.id, station.id, 3, T(16), T(18), dt.date(2027, 1, 1), dt.date(2027, 3, 31))])
        ids = {"sato": sato.id, "main": main.id, "station": station.id}
    dialog = _open(qtbot, ctx)
    editor = _editor(qtbot, dialog, "佐藤")
    weekly = editor.weekly
    assert [weekly.list.item(i).text() for i in range(weekly.list.count())] == [
        "Tue 17:00–21:00 at 本校", "Thu 16:00–18:00 at 駅前 from Fri 1 Jan 2027 until Wed 31 Mar 2027"]

    weekly.list.setCurrentRow(0)
    weekly.remove_button.click()
    weekly.weekday.setCurrentIndex(weekly.weekday.findData(5))  # Saturday
    weekly.start.setText("1000")
    weekly.end.setText("12時")
    weekly.classroom.setCurrentIndex(weekly.classroom.findData(ids["main"]))
    weekly.add_button.click()
    weekly.start.setText("13:00")
    weekly.end.setText("12:00")
    weekly.add_button.click()  # ends before it starts: said, not added
    assert weekly.problem.isVisible() and "end after it starts" in weekly.problem.text()
    assert weekly.list.count() == 2
    editor.reading.setText("さとう")  # another detail changed in the same save
    editor.accept()
    qtbot.waitUntil(lambda: dialog.status.text() == "Saved 佐藤.", timeout=WAIT)
    with db.read() as s:
        assert patterns.teacher_patterns(s, ids["sato"]) == [
            Pattern(ids["sato"], ids["station"], 3, T(16), T(18), dt.date(2027, 1, 1), dt.date(2027, 3, 31)),
            Pattern(ids["sato"], ids["main"], 5, T(10), T(12), rules.FIRST_DAY)]
        assert rules.get_teacher(s, ids["sato"]).reading == "さとう"
    settle(qtbot, ctx)


def test_a_pattern_is_given_dates_changed_and_saved_and_fill_keeps_inside_them(qtbot, ctx: AppContext,
                                                                              db: Database) -> None:
    with db.write() as s:
        main, station = f.classroom(s, "本校"), f.classroom(s, "駅前")
        sato = f.teacher(s, "佐藤", 1)
        patterns.set_teacher_patterns(s, sato.id, [Pattern(sato.id, main.id, 1, T(17), T(21), rules.FIRST_DAY)])
        ids = {"sato": sato.id, "main": main.id, "station": station.id}
    dialog = _open(qtbot, ctx)
    editor = _editor(qtbot, dialog, "佐藤")
    weekly = editor.weekly
    assert not weekly.from_day.isEnabled() and not weekly.change_button.isEnabled()
    weekly.list.setCurrentRow(0)  # the row back in the fields: Tuesday 17:00–21:00 at 本校, no dates
    assert (weekly.weekday.currentData(), weekly.start.text(), weekly.end.text(), weekly.classroom.currentData(),
            weekly.from_check.isChecked(), weekly.until_check.isChecked()) == (1, "17:00", "21:00", ids["main"],
                                                                                False, False)
    weekly.until_check.setChecked(True)
    assert weekly.until_day.isEnabled()
    weekly.until_day.setDate(QDate(2027, 1, 15))
    weekly.change_button.click()  # Tuesdays until the 15th of January …
    weekly.weekday.setCurrentIndex(weekly.weekday.findData(1))
    weekly.classroom.setCurrentIndex(weekly.classroom.findData(ids["station"]))
    weekly.from_check.setChecked(True)
    weekly.from_day.setDate(QDate(2027, 1, 16))
    weekly.until_check.setChecked(False)
    weekly.add_button.click()  # … and at 駅前 from the 16th, for good
    weekly.until_check.setChecked(True)
    weekly.until_day.setDate(QDate(2027, 1, 1))
    weekly.add_button.click()  # until before from: said, not added
    assert weekly.problem.isVisible() and "before it starts" in weekly.problem.text()
    assert [weekly.list.item(i).text() for i in range(weekly.list.count())] == [
        "Tue 17:00–21:00 at 本校 until Fri 15 Jan 2027", "Tue 17:00–21:00 at 駅前 from Sat 16 Jan 2027"]
    editor.accept()
    qtbot.waitUntil(lambda: dialog.status.text() == "Saved 佐藤.", timeout=WAIT)
    with db.write() as s:
        assert patterns.teacher_patterns(s, ids["sato"]) == [
            Pattern(ids["sato"], ids["main"], 1, T(17), T(21), rules.FIRST_DAY, dt.date(2027, 1, 15)),
            Pattern(ids["sato"], ids["station"], 1, T(17), T(21), dt.date(2027, 1, 16))]
        now = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
        made = {room: [d.local_date.day for d in patterns.fill_month(s, ids[room], 2027, 1, now=now).drafts]
                for room in ("main", "station")}
    assert made == {"main": [5, 12], "station": [19, 26]}  # January 2027's Tuesdays: 5, 12, 19, 26
    settle(qtbot, ctx)


def test_a_new_teacher_is_saved_with_their_patterns(qtbot, ctx: AppContext, db: Database) -> None:
    with db.write() as s:
        room = f.classroom(s, "本校").id
        f.teacher(s, "佐藤", 1)
    dialog = _open(qtbot, ctx)
    editor = _editor(qtbot, dialog, None)
    editor.name.setText("鈴木")
    editor.weekly.add_button.click()  # Tuesday 17:00–21:00 at the first classroom, as offered
    editor.accept()
    qtbot.waitUntil(lambda: any(r.name == "鈴木" for r in dialog.records), timeout=WAIT)
    with db.read() as s:
        suzuki = rules.teacher_by_name(s, "鈴木").id
        assert patterns.teacher_patterns(s, suzuki) == [Pattern(suzuki, room, 1, T(17), T(21), rules.FIRST_DAY)]
    settle(qtbot, ctx)


def test_the_dialog_with_patterns_fits_1280_by_720_in_japanese(qtbot, ctx: AppContext, db: Database,
                                                               japanese) -> None:
    with db.write() as s:
        room = f.classroom(s, "本校")
        sato = f.teacher(s, "佐藤", 1)
        patterns.set_teacher_patterns(s, sato.id, [Pattern(sato.id, room.id, d, T(17), T(21), rules.FIRST_DAY)
                                                   for d in range(6)])
    dialog = _open(qtbot, ctx)
    editor = _editor(qtbot, dialog, "佐藤")
    assert editor.weekly.list.item(1).text() == "火 17:00〜21:00（本校）"
    hint = editor.minimumSizeHint()
    assert hint.width() <= 1280 and hint.height() <= 720 - 40  # the title bar and the taskbar
    editor.resize(hint)
    weekly = editor.weekly
    assert weekly.from_check.text() == "開始日" and weekly.until_check.text() == "終了日"
    qtbot.waitUntil(lambda: editor.size() == hint, timeout=WAIT)
    for field in (weekly.start, weekly.end):  # the dates on the same line squeeze no time out of sight
        assert field.width() >= field.fontMetrics().horizontalAdvance("00:00"), field.width()
    settle(qtbot, ctx)
