"""The teachers: a table with add, edit and delete (erase), opened from the Shifts area.

The table is in the listing order (core/roster/reading.py); Move up / Move down (Alt+Up, Alt+Down) put
the selected teacher in the manager's own order, and Sort by reading forgets it (core/roster/order.py).
Every list of teachers follows, the Shifts grid at once (`changed`).

Deleting a teacher erases their personal data but keeps the history of shifts and messages under an
anonymous label (core.roster.rules.erase_teacher); the confirmation says exactly that before anything goes.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.channels import line_reach
from core.channels.line_reach import Reach
from core.roster import limits, teacher_list
from core.roster.limits import Limits, SlotName
from core.roster.queries import TeacherRecord
from core.texts import formats
from ui.common import i18n
from ui.common.errors import show_error
from ui.services.context import AppContext
from ui.teachers.edit_dialog import (
    TeacherEditDialog,
    TeacherValues,
    channel_labels,
    unreachable_text,
)

log = logging.getLogger("shiftcast.ui")
ID_ROLE = Qt.ItemDataRole.UserRole + 1
UNREACHABLE_ROLE = Qt.ItemDataRole.UserRole + 2
LINE_ID_COLUMN = 2
CLASSROOMS_COLUMN = 7
UNREACHABLE_COLOR = "#c0392b"  # readable on light and dark palettes alike


class TeachersDialog(QDialog):
    changed = Signal()  # a teacher was added, changed or erased: the roster should be read again

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, *, classroom_id: int | None = None) -> None:
        """`classroom_id`: the classroom the Shifts area shows, which a teacher added here joins."""
        super().__init__(parent)
        self.ctx = ctx
        self.classroom_id = classroom_id
        self.records: list[TeacherRecord] = []
        self.classrooms: list[tuple[int, str]] = []  # (id, name): where a weekly pattern can be
        self.limits: dict[int, Limits] = {}  # each teacher's limits and wishes, for the editor
        self.slots: list[SlotName] = []  # every classroom's lesson slots, to tick those a teacher can teach
        self.edit_dialog: TeacherEditDialog | None = None
        self.setWindowTitle(self.tr("Teachers"))
        self.resize(820, 460)

        self.table = QTableWidget(0, 8, self)
        self.table.setHorizontalHeaderLabels([
            self.tr("Name"), self.tr("E-mail"), self.tr("LINE user ID"),
            self.tr("LINE messages"), self.tr("E-mails"), self.tr("Send to"), self.tr("Active"), self.tr("Classrooms"),
        ])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.itemDoubleClicked.connect(lambda _item: self.edit_selected())
        self.table.itemSelectionChanged.connect(self._update_buttons)

        self.add_button = QPushButton(self.tr("&Add…"), self)
        self.add_button.setToolTip(self.tr("Add a teacher (Insert)"))
        self.add_button.clicked.connect(self.add)
        self.edit_button = QPushButton(self.tr("&Edit…"), self)
        self.edit_button.setToolTip(self.tr("Edit the selected teacher (Enter)"))
        self.edit_button.clicked.connect(self.edit_selected)
        self.delete_button = QPushButton(self.tr("&Delete…"), self)
        self.delete_button.setToolTip(self.tr("Erase the selected teacher's personal data (Delete)"))
        self.delete_button.clicked.connect(self.erase_selected)
        self.up_button = QPushButton(self.tr("Move &up"), self)
        self.up_button.setToolTip(self.tr("Move the selected teacher up the list, in your own order (Alt+Up)"))
        self.up_button.clicked.connect(lambda: self.move_selected(-1))
        self.down_button = QPushButton(self.tr("Move do&wn"), self)
        self.down_button.setToolTip(self.tr("Move the selected teacher down the list, in your own order (Alt+Down)"))
        self.down_button.clicked.connect(lambda: self.move_selected(1))
        self.reading_button = QPushButton(self.tr("Sort by &reading"), self)
        self.reading_button.setToolTip(self.tr("List every teacher by reading (ふりがな) again, forgetting your own order"))
        self.reading_button.clicked.connect(self.sort_by_reading)
        for key, slot in ((QKeySequence.StandardKey.New, self.add), ("Ins", self.add), ("Return", self.edit_selected),
                          ("Enter", self.edit_selected), (QKeySequence.StandardKey.Delete, self.erase_selected),
                          ("Alt+Up", lambda: self.move_selected(-1)), ("Alt+Down", lambda: self.move_selected(1))):
            action = QAction(self.table, shortcut=QKeySequence(key))
            action.triggered.connect(slot)
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            self.table.addAction(action)

        self.status = QLabel(self)
        self.status.setWordWrap(True)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        row = QHBoxLayout()
        for button in (self.add_button, self.edit_button, self.delete_button):
            button.setAutoDefault(False)
            row.addWidget(button)
        row.addStretch(1)
        for button in (self.up_button, self.down_button, self.reading_button):
            button.setAutoDefault(False)
            row.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        layout.addWidget(close)
        self._update_buttons()
        self.reload()

    # ----- the table -----

    def reload(self, select_id: int | None = None) -> None:
        db = self.ctx.db

        def loaded(found: teacher_list.TeacherList) -> None:
            self.limits, self.slots = dict(found.limits), list(found.slots)
            self._fill(list(found.teachers), list(found.classrooms), keep)

        keep = select_id if select_id is not None else self.selected_id()
        self.ctx.tasks.run(lambda: teacher_list.read(db), loaded, self._error, owner=self)

    def _fill(self, records: list[TeacherRecord], classrooms: list[tuple[int, str]], select_id: int | None) -> None:
        self.records = records
        self.classrooms = classrooms
        self.table.setRowCount(len(records))
        labels = channel_labels()
        for row, record in enumerate(records):
            rooms = formats.join([name for room_id, name in classrooms if room_id in record.classroom_ids], i18n.current())
            cells = [record.name, record.email, record.line_user_id, _mark(record.line_opt_in),
                     _mark(record.email_opt_in), labels.get(record.channel, record.channel), _mark(record.active), rooms]
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(ID_ROLE, record.id)
                if 3 <= column < CLASSROOMS_COLUMN:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if column == LINE_ID_COLUMN and record.line_unreachable and record.line_user_id:
                    item.setText(f"⚠ {record.line_user_id}")
                    item.setToolTip(unreachable_text())
                    item.setForeground(QBrush(QColor(UNREACHABLE_COLOR)))
                    item.setData(UNREACHABLE_ROLE, True)
                self.table.setItem(row, column, item)
            if record.id == select_id:
                self.table.selectRow(row)
        if not records:
            self.status.setText(self.tr("No teachers yet. Add them here, or import a CSV file from the Shifts area."))
        self._update_buttons()

    def selected_id(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        return int(rows[0].data(ID_ROLE)) if rows else None

    def select(self, teacher_id: int) -> None:
        for row, record in enumerate(self.records):
            if record.id == teacher_id:
                self.table.selectRow(row)

    def _record(self, teacher_id: int | None) -> TeacherRecord | None:
        return next((r for r in self.records if r.id == teacher_id), None)

    def _update_buttons(self) -> None:
        chosen = self.selected_id()
        self.edit_button.setEnabled(chosen is not None)
        self.delete_button.setEnabled(chosen is not None)
        ids = [r.id for r in self.records]
        self.up_button.setEnabled(chosen in ids[1:])
        self.down_button.setEnabled(chosen in ids[:-1])
        self.reading_button.setEnabled(any(r.position is not None for r in self.records))

    # ----- add and edit -----

    def add(self) -> None:
        self._open_editor(None)

    def edit_selected(self) -> None:
        record = self._record(self.selected_id())
        if record is not None:
            self._open_editor(record)

    def _open_editor(self, record: TeacherRecord | None) -> None:
        taken = {r.line_user_id: r.name for r in self.records if r.line_user_id}
        dialog = TeacherEditDialog(self.ctx, record, taken=taken, classrooms=self.classrooms,
                                   classroom_id=self.classroom_id, slots=self.slots, parent=self,
                                   limits=self.limits.get(record.id, limits.NONE) if record else limits.NONE)
        self.edit_dialog = dialog
        dialog.submitted.connect(lambda values: self._save(dialog, record, values))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def _save(self, dialog: TeacherEditDialog, record: TeacherRecord | None, values: TeacherValues) -> None:
        db = self.ctx.db

        def work() -> int:
            return teacher_list.save(db, None if record is None else record.id, values.as_kwargs(), values.patterns,
                                     values.limits).value

        def done(teacher_id: int) -> None:
            dialog.succeeded()
            self.status.setText(self.tr("Saved {0}.").format(values.name))
            self.reload(teacher_id)
            self.changed.emit()
            if values.line_user_id:
                self._check_reach(teacher_id, values.name)

        self.ctx.tasks.run(work, done, dialog.failed, owner=self)  # the editor stays open while busy, and is our child

    def _check_reach(self, teacher_id: int, name: str) -> None:
        """Ask LINE whether it can reach the saved user ID (nothing is asked without a LINE connection)."""
        db, now = self.ctx.db, self.ctx.clock()

        def reached(reach: Reach) -> None:
            if reach is Reach.UNKNOWN:
                return
            if reach is Reach.UNREACHABLE:
                self.status.setText(self.tr("Saved {0}.").format(name) + " " + unreachable_text())
            self.reload()

        def unknown(exc: BaseException) -> None:  # the save went through; LINE is asked again daily
            log.info("could not ask LINE about teacher %s: %r", teacher_id, exc)

        self.ctx.tasks.run(lambda: line_reach.check_teacher(db, teacher_id, now=now), reached, unknown, owner=self)

    # ----- the manager's order -----

    def move_selected(self, step: int) -> None:
        """One place up (-1) or down (1); the first move fixes the order shown (core/roster/order.py)."""
        record = self._record(self.selected_id())
        if record is None:
            return
        db = self.ctx.db

        def work() -> int:
            return teacher_list.move(db, record.id, step).value

        def done(place: int) -> None:
            self.status.setText(self.tr("{0} is now number {1} in the list.").format(record.name, place))
            self.reload(record.id)
            self.changed.emit()

        self.ctx.tasks.run(work, done, self._error, owner=self)

    def sort_by_reading(self) -> None:
        answer = QMessageBox.question(
            self, self.tr("Sort by reading"),
            self.tr("List every teacher by reading (ふりがな), then by name, again?\n\n"
                    "The order you set with Move up and Move down is forgotten."),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return
        db = self.ctx.db

        def work() -> int:
            return teacher_list.sort_by_reading(db).value

        def done(_count: int) -> None:
            self.status.setText(self.tr("The teachers are listed by reading again."))
            self.reload()
            self.changed.emit()

        self.ctx.tasks.run(work, done, self._error, owner=self)

    # ----- erase -----

    def erase_selected(self) -> None:
        record = self._record(self.selected_id())
        if record is None:
            return
        answer = QMessageBox.question(
            self, self.tr("Delete teacher"),
            self.tr("Delete {0}?\n\n"
                    "Erased now: the name, LINE user ID, e-mail address and notification consents. "
                    "Their future shifts are canceled.\n\n"
                    "Kept: past shifts and the record of messages sent, under an anonymous label such as "
                    "\"(deleted #{1})\", so earlier months still add up.\n\n"
                    "This cannot be undone.").format(record.name, record.id),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return
        db, now = self.ctx.db, self.ctx.clock()

        def work() -> None:
            teacher_list.erase(db, record.id, now=now)

        def done(_result: None) -> None:
            self.status.setText(self.tr("{0} was deleted.").format(record.name))
            self.reload()
            self.changed.emit()

        self.ctx.tasks.run(work, done, self._error, owner=self)

    def _error(self, exc: BaseException) -> None:
        show_error(self, exc, paths=self.ctx.paths)


def _mark(flag: bool) -> str:
    return "✓" if flag else ""
