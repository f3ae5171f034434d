"""The Hours dialog: the seeded month's table as the plain count has it, one classroom or all, another
month; Save CSV… in both encodings and the Shift_JIS refusal; Print… to a PDF; opened from the main
window's File menu; in Japanese within a 1280×720 screen, and with 8 lesson slots and 25 teachers every
column in view at 1280×720 and 1366×768."""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QFont
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMenu, QTableWidgetItem

from core.roster import hours_table
from core.store.db import Database
from tests.test_hours import MAIN, SEEDED, SLOT_NAMES, SLOTS, STATION, expected, expected_slots, seed
from tests.test_i18n import japanese  # noqa: F401
from tests.ui_fixtures import ctx, documents, settle  # noqa: F401
from ui.hours import dialog as hours_dialog
from ui.hours import printing
from ui.hours.dialog import HoursDialog
from ui.services.context import AppContext
from ui.shell.main_window import MainWindow

WAIT = 20_000


def _opened(qtbot, ctx: AppContext, year: int = 2026, month: int = 11) -> HoursDialog:
    dialog = HoursDialog(ctx, year, month)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.counted is not None, timeout=WAIT)
    return dialog


def _text(item: QTableWidgetItem | None) -> str:
    assert item is not None
    return item.text()


def _headings(dialog: HoursDialog) -> list[str]:
    return [_text(dialog.table.horizontalHeaderItem(c)) for c in range(dialog.table.columnCount())]


def _cells(dialog: HoursDialog) -> dict[str, dict[str, str]]:
    table = dialog.table
    headings = _headings(dialog)
    rows = {}
    for r in range(table.rowCount()):
        cells = [_text(table.item(r, c)) for c in range(table.columnCount())]
        rows[cells[0]] = dict(zip(headings, cells, strict=True))
    return rows


def _minutes(text: str) -> int:
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def test_the_dialog_shows_the_months_hours_for_all_classrooms_or_one(qtbot, ctx: AppContext, db: Database,
                                                                   now: dt.datetime) -> None:
    seed(db, now)
    dialog = _opened(qtbot, ctx)
    assert dialog.month_label.text() == "November 2026"
    assert dialog.preamble.text().splitlines()[0] == "Hours for payroll, November 2026, all classrooms"
    assert "Counted: confirmed shifts only" in dialog.preamble.text()
    shown = _cells(dialog)
    assert list(shown) == ["佐藤", "鈴木", "田中", "=SUM(A1)"]  # on screen a name is shown as it is
    for who, counts in expected(SEEDED).items():
        row = shown[who]
        assert (int(row["Shifts"]), _minutes(row["Hours"])) == (counts["shifts"], counts["minutes"])
        assert _minutes(row["Sundays and holidays"]) == counts.get("holiday", 0)
        assert _minutes(row[MAIN]) == counts.get(MAIN, 0) and _minutes(row[STATION]) == counts.get(STATION, 0)
    assert [dialog.classroom_box.itemText(i) for i in range(dialog.classroom_box.count())] == ["All classrooms", MAIN,
                                                                                               STATION]
    dialog.classroom_box.setCurrentIndex(2)
    qtbot.waitUntil(lambda: dialog.counted is not None and dialog.counted.classroom == STATION, timeout=WAIT)
    assert {who: _minutes(row["Hours"]) for who, row in _cells(dialog).items()} == {
        who: counts["minutes"] for who, counts in expected(SEEDED, room=STATION).items()}
    assert MAIN not in _headings(dialog)
    dialog.prev_button.click()  # October, still the one classroom: nothing there
    qtbot.waitUntil(lambda: dialog.counted is not None and dialog.counted.month == 10, timeout=WAIT)
    assert dialog.table.rowCount() == 0 and dialog.empty.isVisibleTo(dialog)
    assert dialog.classroom_box.currentText() == STATION


def test_the_dialog_shows_a_column_per_lesson_slot_and_the_slots_taught(qtbot, ctx: AppContext, db: Database,
                                                                       now: dt.datetime) -> None:
    seed(db, now, slots=SLOTS)
    dialog = _opened(qtbot, ctx)
    assert _headings(dialog)[-5:] == [*SLOT_NAMES, "Lesson slots"]
    assert "A lesson slot (コマ) counts once" in dialog.preamble.text()
    shown = _cells(dialog)
    taught = expected_slots(SEEDED, SLOTS)
    for who in expected(SEEDED):
        counts = taught.get(who, {})
        assert {name: int(shown[who][name]) for name in SLOT_NAMES} == {name: counts.get(name, 0) for name in SLOT_NAMES}
        assert int(shown[who]["Lesson slots"]) == sum(counts.values())
    assert shown["佐藤"]["Lesson slots"] == "3"
    assert dialog.counted is not None
    printed = printing.document(hours_table.table(dialog.counted, "en"), "none").toPlainText()
    assert all(name in printed for name in (*SLOT_NAMES, "Lesson slots", "A lesson slot (コマ) counts once"))
    dialog.classroom_box.setCurrentIndex(2)  # the station school defines no slots: no slot columns
    qtbot.waitUntil(lambda: dialog.counted is not None and dialog.counted.classroom == STATION, timeout=WAIT)
    assert _headings(dialog)[-1] == "Sundays and holidays" and "コマ" not in dialog.preamble.text()
    settle(qtbot, ctx, timeout=WAIT)


@pytest.mark.parametrize(("choice", "codec"), [(0, "utf-8-sig"), (1, "shift_jis")])
def test_save_csv_writes_the_table_in_the_encoding_chosen(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                          tmp_path: Path, documents: Path, choice: int, codec: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    seed(db, now)
    dialog = _opened(qtbot, ctx)
    target = tmp_path / "hours.csv"
    offered: list[str] = []

    def save(_parent: object, _title: str, where: str, *_args: object) -> tuple[str, str]:
        offered.append(where)
        return str(target), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    dialog.encoding_box.setCurrentIndex(choice)
    dialog.save_button.click()
    qtbot.waitUntil(lambda: target.exists() and "Saved" in dialog.status.text(), timeout=WAIT)
    settle(qtbot, ctx, timeout=WAIT)
    assert offered == [str(documents / "hours-all classrooms-2026-11.csv")]
    rows = list(csv.reader(io.StringIO(target.read_bytes().decode(codec), newline="")))
    assert rows[0][:3] == ["Teacher", "Shifts", "Hours"]  # payroll software reads the headings from line 1
    found = {row[0]: row for row in rows[1:]}
    assert found["'=SUM(A1)"][2] == "1:05"  # formula-safe: a leading apostrophe
    assert {who: _minutes(found.get(who, found.get("'" + who, []))[2]) for who in expected(SEEDED)} == {
        who: counts["minutes"] for who, counts in expected(SEEDED).items()}


def test_shift_jis_refuses_a_name_it_cannot_hold_and_saves_nothing(qtbot, ctx: AppContext, db: Database,
                                                                   now: dt.datetime, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    seed(db, now, SEEDED + [("Nguyễn", MAIN, "2026-11-05", "16:00", "20:00", "confirmed")])
    dialog = _opened(qtbot, ctx)
    target = tmp_path / "hours.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    said: list[str] = []
    monkeypatch.setattr(hours_dialog, "show_error", lambda _parent, exc, **_k: said.append(str(exc)))
    dialog.encoding_box.setCurrentIndex(1)
    dialog.save_button.click()
    qtbot.waitUntil(lambda: bool(said), timeout=WAIT)
    assert said == ["the name of teacher Nguyễn has a character Shift_JIS cannot hold (ễ); nothing was saved: "
                    "save the file as UTF-8 instead"]
    settle(qtbot, ctx, timeout=WAIT)
    assert list(tmp_path.glob("hours*")) == []


def test_print_sends_the_summary_to_the_printer(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed(db, now)
    dialog = _opened(qtbot, ctx)
    pdf = tmp_path / "hours.pdf"

    class ToPdf:
        """The print dialog, answered as a manager choosing "Print to PDF" would."""

        def __init__(self, printer: QPrinter, _parent: object) -> None:
            self.printer = printer

        def setWindowTitle(self, _title: str) -> None:
            pass

        def exec(self) -> QDialog.DialogCode:
            self.printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
            self.printer.setOutputFileName(str(pdf))
            return QDialog.DialogCode.Accepted

    monkeypatch.setattr(printing, "QPrintDialog", ToPdf)
    dialog.print_button.click()
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 1000
    assert dialog.status.text() == "Sent hours-all classrooms-2026-11 to the printer."
    assert dialog.counted is not None
    document = printing.document(hours_table.table(dialog.counted, "en"), "none")
    assert "Counted: confirmed shifts only" in document.toPlainText() and "=SUM(A1)" in document.toPlainText()


def test_the_main_windows_file_menu_opens_it(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    seed(db, now)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    [file_menu] = [a.menu() for a in window.menuBar().actions() if a.text() == "&File"]
    assert isinstance(file_menu, QMenu) and window.hours_action in file_menu.actions()
    window.shifts.set_month(2026, 11)
    window.hours_action.trigger()
    dialog = window.hours_dialog
    qtbot.waitUntil(lambda: dialog.counted is not None, timeout=WAIT)
    assert dialog.isVisible() and (dialog.year, dialog.month) == (2026, 11) and dialog.table.rowCount() == 4
    settle(qtbot, ctx, timeout=WAIT)


def test_in_japanese_within_a_small_screen(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                           japanese: Path) -> None:
    seed(db, now)
    dialog = _opened(qtbot, ctx)
    assert dialog.windowTitle() == "給与用の勤務時間"
    assert dialog.preamble.text().splitlines()[0] == "2026年11月の勤務時間（全教室）"
    assert _headings(dialog) == ["講師", "シフト数", "勤務時間", "勤務時間（10進）", "平日", "土曜", "日曜・祝日", MAIN, STATION]
    assert [dialog.save_button.text(), dialog.print_button.text()] == ["CSVで保存…", "印刷…"]
    # Within 1280×720 less a title bar and a task bar, and the table needs no sideways scrolling there.
    assert dialog.width() <= 1280 and dialog.height() <= 680
    assert dialog.minimumSizeHint().width() <= 1280 and dialog.minimumSizeHint().height() <= 680
    table = dialog.table
    wanted = sum(table.columnWidth(c) for c in range(table.columnCount())) + table.verticalHeader().width()
    assert wanted <= 1280 - 40
    settle(qtbot, ctx, timeout=WAIT)


SURNAMES = ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤", "吉田", "山田", "佐々木",
            "山口", "松本", "井上", "木村", "林", "斎藤", "清水", "長谷川", "阿久津", "宇佐美", "東海林", "勅使河原"]
GIVEN = ["花子", "一郎", "美咲", "健太", "さくら", "翔", "結衣", "大輝", "陽菜", "蓮"]
EIGHT_SLOTS = {MAIN: [("午前1限", "09:00", "10:20"), ("午前2限", "10:30", "11:50"), ("1限", "13:00", "14:20"),
                      ("2限", "14:30", "15:50"), ("3限", "16:00", "17:20"), ("4限", "17:30", "18:50"),
                      ("5限", "19:00", "20:20"), ("6限", "20:30", "21:50")]}


def _busy_month() -> list[tuple[str, str, str, str, str, str]]:
    """25 teachers, six long days each in November 2026, most at the classroom with 8 slots."""
    rows = []
    for n, surname in enumerate(SURNAMES):
        who = f"{surname} {GIVEN[n % len(GIVEN)]}"
        for k in range(6):
            day = dt.date(2026, 11, 2 + k * 4 + n % 3)
            rows.append((who, MAIN if k % 3 else STATION, day.isoformat(), "09:00", "21:50", "confirmed"))
    return rows


# The test platform's font is 9 pt; Ubuntu's desktop font is 11 pt, and at that size the table was wider than
# the dialog opened: its last columns (6限, コマ数) lay beyond the right edge, behind a sideways scroll.
@pytest.mark.parametrize(("screen", "points"), [((1280, 720), 9.0), ((1280, 720), 11.0), ((1366, 768), 11.0)])
def test_eight_lesson_slots_and_25_teachers_show_every_column_in_japanese(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, japanese: Path, monkeypatch: pytest.MonkeyPatch,
        screen: tuple[int, int], points: float) -> None:
    seed(db, now, _busy_month(), EIGHT_SLOTS)
    width, height = screen[0], screen[1] - 40  # less a task bar
    monkeypatch.setattr(hours_dialog, "room_on_screen",
                        lambda _widget: QRect(0, 0, width - hours_dialog.FRAME, height))
    saved = QFont(QApplication.font())
    font = QApplication.font()
    font.setPointSizeF(points)
    QApplication.setFont(font)
    try:
        window = MainWindow(ctx)
        qtbot.addWidget(window)
        window.resize(width, height)
        window.show()
        window.shifts.set_month(2026, 11)
        window.hours_action.trigger()  # File → Hours for payroll…
        dialog = window.hours_dialog
        qtbot.waitUntil(lambda: dialog.counted is not None, timeout=WAIT)
        table = dialog.table
        assert table.rowCount() == 25 and _headings(dialog)[-9:] == [*(n for n, _, _ in EIGHT_SLOTS[MAIN]), "コマ数"]
        header = table.horizontalHeader()
        qtbot.waitUntil(lambda: header.length() <= table.viewport().width(), timeout=5000)  # no column cut off
        assert not table.horizontalScrollBar().isVisible()
        assert dialog.width() <= width - hours_dialog.FRAME and dialog.height() <= height
        metrics = header.fontMetrics()
        for column, heading in enumerate(_headings(dialog)):
            assert header.sectionSize(column) >= metrics.horizontalAdvance(heading), heading  # no heading elided
        for row in range(table.rowCount()):
            for column in range(table.columnCount()):
                text = _text(table.item(row, column))
                assert table.columnWidth(column) >= table.fontMetrics().horizontalAdvance(text), text
        preamble = dialog.preamble
        qtbot.waitUntil(lambda: preamble.height() >= preamble.heightForWidth(preamble.width()),
                        timeout=5000)  # the rule's lines whole
        for button in (dialog.save_button, dialog.print_button):
            assert dialog.rect().contains(button.geometry())
        settle(qtbot, ctx, timeout=WAIT)
    finally:
        QApplication.setFont(saved)
