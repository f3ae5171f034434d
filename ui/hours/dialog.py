"""The Hours dialog: a month and all classrooms or one, the month's hours per teacher as a table under the
rule they were counted by, Save CSV… in the encoding chosen, and Print….

The month is read and the file written on the pool (ctx.tasks); the dialog keeps the counted month it
shows, so the file and the paper say exactly what is on screen. A table with many columns (a classroom's
lesson slots, several classrooms) widens the dialog as far as its screen allows: scrolled sideways, the
table would hide whose row a figure is on.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.roster import hours_month, hours_table
from core.roster.hours import MonthHours
from core.roster.hours_table import Encoding
from core.store.exports import write_export
from ui.common import i18n
from ui.common.errors import show_error
from ui.common.month_picker import month_label, month_title, shifted
from ui.common.phrases import PhraseLabel
from ui.common.widgets import space_headings
from ui.hours import printing
from ui.services import file_places
from ui.services.context import AppContext

CSV_FILTER = "CSV (*.csv);;*"
FRAME = 16  # what a window's frame adds around the dialog, left and right together


def room_on_screen(widget: QWidget) -> QRect:
    """Where a window may be on the screen `widget` is on: its area without the task bar, less a frame."""
    screen = widget.screen()
    area = screen.availableGeometry() if screen is not None else QRect(0, 0, 1280, 680)
    return area.adjusted(0, 0, -FRAME, 0)


def widened(current: int, missing: int, room: int) -> int:
    """The dialog's width with `missing` pixels more for its table, within `room`; never narrower than it is."""
    return max(current, min(current + missing, room))


class HoursDialog(QDialog):
    def __init__(self, ctx: AppContext, year: int, month: int, classroom_id: int | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.year, self.month = year, month
        self.classroom_id = classroom_id
        self.counted: MonthHours | None = None
        self.setWindowTitle(self.tr("Hours for payroll"))
        self.resize(900, 560)  # within a 1280×720 screen, title bar and task bar included

        style = self.style()
        self.prev_button = QToolButton(self)
        self.prev_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_ArrowBack))
        self.prev_button.setToolTip(self.tr("Previous month"))
        self.prev_button.clicked.connect(lambda: self.step_month(-1))
        self.next_button = QToolButton(self)
        self.next_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_ArrowForward))
        self.next_button.setToolTip(self.tr("Next month"))
        self.next_button.clicked.connect(lambda: self.step_month(1))
        self.month_label = month_label(self)
        self.classroom_box = QComboBox(self)
        self.classroom_box.setMinimumContentsLength(12)
        self.classroom_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.classroom_box.currentIndexChanged.connect(self._classroom_chosen)
        top = QHBoxLayout()
        top.addWidget(self.prev_button)
        top.addWidget(self.month_label)
        top.addWidget(self.next_button)
        top.addSpacing(12)
        top.addWidget(QLabel(self.tr("Classroom:"), self))
        top.addWidget(self.classroom_box)
        top.addStretch(1)

        self.preamble = PhraseLabel(self)
        self.preamble.setWordWrap(True)
        self.preamble.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(self)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        space_headings(self.table)  # an empty month's headings would touch
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.empty = QLabel(self)
        self.empty.hide()

        self.encoding_box = QComboBox(self)
        self.encoding_box.addItem(self.tr("UTF-8 (Excel)"), Encoding.UTF8)
        self.encoding_box.addItem(self.tr("Shift_JIS (older software)"), Encoding.SHIFT_JIS)
        self.encoding_box.setToolTip(self.tr("The CSV file's encoding"))
        self.save_button = QPushButton(self.tr("Save CSV…"), self)
        self.save_button.clicked.connect(self.save_csv)
        self.print_button = QPushButton(self.tr("Print…"), self)
        self.print_button.clicked.connect(self.print_hours)
        self.status = PhraseLabel(self)
        self.status.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(QLabel(self.tr("Encoding:"), self))
        bottom.addWidget(self.encoding_box)
        bottom.addWidget(self.save_button)
        bottom.addWidget(self.print_button)
        bottom.addWidget(buttons)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.preamble)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty)
        layout.addLayout(bottom)
        self._update_buttons()
        self.load()

    # ----- reading -----

    def step_month(self, step: int) -> None:
        self.year, self.month = shifted(self.year, self.month, step)
        self.load()

    def _classroom_chosen(self, index: int) -> None:
        if index >= 0:
            self.classroom_id = self.classroom_box.itemData(index)
            self.load()

    def load(self) -> None:
        self.month_label.setText(month_title(self.year, self.month))
        self.counted = None
        self._update_buttons()
        db, year, month, room = self.ctx.db, self.year, self.month, self.classroom_id
        self.ctx.tasks.run(lambda: hours_month.read(db, year, month, room), self._show,
                           lambda exc: show_error(self, exc, paths=self.ctx.paths), owner=self, latest="hours")

    def _show(self, result: tuple[list[tuple[int, str]], MonthHours]) -> None:
        rooms, counted = result
        if (counted.year, counted.month) != (self.year, self.month):
            return
        self._fill_classrooms(rooms, counted)
        self.counted = counted
        shown = hours_table.table(counted, i18n.current())
        self.preamble.setText("\n".join(shown.preamble))
        self.table.clear()
        self.table.setColumnCount(len(shown.headings))
        self.table.setHorizontalHeaderLabels(list(shown.headings))
        self.table.setRowCount(len(shown.rows))
        for r, row in enumerate(shown.rows):
            for c, (cell, right) in enumerate(zip(row, shown.numeric, strict=True)):
                item = QTableWidgetItem(cell)
                if right:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        self.empty.setText(i18n.render(hours_table.NONE))
        self.empty.setVisible(not shown.rows)
        self._update_buttons()
        self._fit_columns()

    def _fit_columns(self) -> None:
        """As wide as every column needs, when the screen has the room; moved left if that leaves the screen."""
        table = self.table
        table.horizontalHeader().resizeSections(QHeaderView.ResizeMode.ResizeToContents)
        needed = (table.horizontalHeader().length() + 2 * table.frameWidth()
                  + table.verticalScrollBar().sizeHint().width())  # 25 teachers and more scroll down
        missing = needed - table.width()
        if missing <= 0:
            return
        room = room_on_screen(self)
        width = widened(self.width(), missing, room.width())
        if width == self.width():
            return
        self.resize(width, self.height())
        if self.isVisible() and self.geometry().right() > room.right():
            self.move(max(room.left(), room.right() - width), self.y())

    def _fill_classrooms(self, rooms: list[tuple[int, str]], counted: MonthHours) -> None:
        chosen = next((room_id for room_id, name in rooms if name == counted.classroom), None)
        self.classroom_id = chosen
        self.classroom_box.blockSignals(True)
        try:
            self.classroom_box.clear()
            self.classroom_box.addItem(self.tr("All classrooms"), None)
            for room_id, name in rooms:
                self.classroom_box.addItem(name, room_id)
            self.classroom_box.setCurrentIndex(max(0, self.classroom_box.findData(chosen)) if chosen else 0)
        finally:
            self.classroom_box.blockSignals(False)

    def _update_buttons(self) -> None:
        ready = self.counted is not None
        self.save_button.setEnabled(ready)
        self.print_button.setEnabled(ready)

    # ----- the file and the paper -----

    def _name(self) -> str:
        counted = self.counted
        assert counted is not None
        # Words in a file's name.
        what, where = self.tr("hours"), counted.classroom or self.tr("all classrooms")
        return f"{what}-{where}-{counted.year}-{counted.month:02d}"

    def save_csv(self) -> None:
        counted = self.counted
        if counted is None:
            return
        suggested = file_places.start_in(self.ctx, f"{self._name()}.csv")
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save hours as CSV"), suggested, CSV_FILTER)
        if not path:
            return
        file_places.remember(self.ctx, path, owner=self)
        encoding = Encoding(self.encoding_box.currentData())
        lang = i18n.current()

        def work() -> str:
            # Encoded first: a name the encoding cannot hold is refused before anything is written.
            data = hours_table.csv_bytes(counted, lang, encoding)
            write_export(Path(path), lambda: data)
            return path

        self.ctx.tasks.run(work, lambda saved: self.status.setText(self.tr("Saved {0}").format(saved)),
                           lambda exc: show_error(self, exc, paths=self.ctx.paths), owner=self)

    def print_hours(self) -> None:
        if self.counted is None:
            return
        shown = hours_table.table(self.counted, i18n.current())
        if printing.print_table(self, shown, self._name(), i18n.render(hours_table.NONE)):
            self.status.setText(self.tr("Sent {0} to the printer.").format(self._name()))
