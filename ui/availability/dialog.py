"""The Availability dialog: the Shifts area's classroom and month as asked (シフト希望) — each teacher
answered, answered late, or not yet, with how many days and when — and the three things the manager
does about it: Ask… (the deadline, an optional automatic reminder, who is asked by e-mail for want of
LINE, and what it costs of LINE's quota before anything goes), Remind (only those who have not
answered) and Enter answers… (a teacher's reply to the e-mailed request, typed in the words the LINE
reader takes, recorded as entered by the manager).

Reading and the operations run on the pool (ctx.tasks); the sender is woken after Ask or Remind queued
messages, and the list is read again whenever answers arrive or are entered. The answers themselves
also shade the Shifts grid (ui/shifts/delegate.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.roster import availability_entry, availability_text
from core.roster.availability import MonthAvailability, TeacherAnswers
from core.roster.availability_text import NO, DayAnswer
from core.setup import availability_asking
from ui.common import dates
from ui.common.errors import show_error
from ui.common.month_picker import month_title
from ui.common.phrases import PhraseLabel
from ui.common.widgets import space_headings
from ui.services.context import AppContext


class AvailabilityDialog(QDialog):
    def __init__(self, ctx: AppContext, classroom_id: int, classroom: str, year: int, month: int,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.classroom_id, self.classroom = classroom_id, classroom
        self.year, self.month = year, month
        self.shown: MonthAvailability | None = None
        self.setWindowTitle(self.tr("Availability — {0}, {1}").format(classroom, month_title(year, month)))
        self.resize(640, 480)

        self.summary = PhraseLabel(self)
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, 4, self)
        self.table.setHorizontalHeaderLabels([self.tr("Teacher"), self.tr("Answer"), self.tr("Days"),
                                              self.tr("Answered")])
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        space_headings(self.table)  # a month not asked yet has no rows, and its headings would touch
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.ask_button = QPushButton(self.tr("Ask…"), self)
        self.ask_button.setToolTip(self.tr("Send every teacher the month's days to answer: on LINE with buttons, "
                                           "by e-mail to those LINE cannot reach"))
        self.ask_button.clicked.connect(self.ask)
        self.remind_button = QPushButton(self.tr("Remind"), self)
        self.remind_button.setToolTip(self.tr("Send the request again to the teachers who have not answered"))
        self.remind_button.clicked.connect(self.remind)
        self.enter_button = QPushButton(self.tr("Enter answers…"), self)
        self.enter_button.setToolTip(self.tr("Enter a teacher's answers for them: their reply to the e-mailed "
                                             "request, or what they told you"))
        self.enter_button.clicked.connect(self.enter)
        self.status = PhraseLabel(self)
        self.status.setWordWrap(True)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        bottom = QHBoxLayout()
        bottom.addWidget(self.ask_button)
        bottom.addWidget(self.remind_button)
        bottom.addWidget(self.enter_button)
        bottom.addWidget(self.status, 1)
        bottom.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addLayout(bottom)
        self.remind_button.setEnabled(False)
        self.enter_button.setEnabled(False)
        ctx.bridge.availability_answered.connect(self.load)  # answers arriving while it is open
        self.load()

    # ----- reading -----

    def load(self, _event: object = None) -> None:
        db, room, year, month = self.ctx.db, self.classroom_id, self.year, self.month
        self.ctx.tasks.run(lambda: availability_entry.month_status(db, room, year, month), self._show,
                           lambda exc: show_error(self, exc, paths=self.ctx.paths), owner=self, latest="availability")

    def _show(self, shown: MonthAvailability | None) -> None:
        self.shown = shown
        rows = shown.teachers if shown is not None else ()
        if shown is None:
            self.summary.setText(self.tr("Nobody was asked about this month yet. Ask… sends every teacher the "
                                         "month's days to answer: on LINE with buttons, by e-mail to those LINE "
                                         "cannot reach."))
        else:
            answered = sum(1 for r in rows if r.answered)
            self.summary.setText(self.tr("Answers by {0}: {1} of {2} teachers answered.").format(
                dates.day_text(shown.request.deadline), answered, len(rows)))
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            cells = (row.name, self._state(row), self._days(row),
                     dates.moment_text(row.answered_at, shown.request.timezone) if shown and row.answered_at else "")
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        self.remind_button.setEnabled(shown is not None and bool(shown.silent))
        self.enter_button.setEnabled(bool(rows))

    def _state(self, row: TeacherAnswers) -> str:
        if not row.answered:
            return self.tr("Not answered (reminded)") if row.reminded_at else self.tr("Not answered")
        state = self.tr("Answered late") if row.late else self.tr("Answered")
        if row.entered_by_manager:
            return self.tr("{0} (entered by you)").format(state)
        return self.tr("{0} (from the page)").format(state) if row.from_page else state

    def _days(self, row: TeacherAnswers) -> str:
        if not row.answered:
            return ""
        can = sum(1 for a in row.days.values() if a.answer != NO)
        return self.tr("{0} of {1} can").format(can, len(row.days))

    # ----- asking and reminding -----

    def ask(self) -> None:
        form = AskDialog(self.ctx, self.classroom_id, self.year, self.month, parent=self)
        if form.exec() != QDialog.DialogCode.Accepted:
            return
        db, room, year, month = self.ctx.db, self.classroom_id, self.year, self.month
        deadline, days = form.deadline(), form.remind_days()
        now = self.ctx.clock()

        def run() -> int:
            return len(availability_asking.ask(db, room, year, month, deadline, now=now,
                                               remind_days_before=days).value.asked)

        self.ctx.tasks.run(run, self._asked, lambda exc: show_error(self, exc, paths=self.ctx.paths), owner=self)

    def _asked(self, count: int) -> None:
        self.status.setText(self.tr("Asked %n teachers.", "", count))
        self.ctx.wake_sender()
        self.load()

    def remind(self) -> None:
        silent = self.shown.silent if self.shown is not None else ()
        if not silent:
            return
        names = "、".join(r.name for r in silent)
        answer = QMessageBox.question(self, self.tr("Remind"), self.tr(
            "Send the request again to the %n teachers who have not answered? Each on LINE costs one LINE "
            "message; an e-mail costs none.",
            "", len(silent)) + "\n\n" + names)
        if answer != QMessageBox.StandardButton.Yes:
            return
        db, room, year, month, now = self.ctx.db, self.classroom_id, self.year, self.month, self.ctx.clock()

        def run() -> tuple[str, ...]:
            return availability_asking.remind(db, room, year, month, now=now).value

        self.ctx.tasks.run(run, self._reminded, lambda exc: show_error(self, exc, paths=self.ctx.paths), owner=self)

    def _reminded(self, names: tuple[str, ...]) -> None:
        self.status.setText(self.tr("Reminded %n teachers.", "", len(names)))
        self.ctx.wake_sender()
        self.load()

    # ----- entering a teacher's answers -----

    def enter(self) -> None:
        rows = self.shown.teachers if self.shown is not None else ()
        if not rows:
            return
        form = EnterDialog(rows, self.year, self.month, parent=self)
        if form.exec() != QDialog.DialogCode.Accepted:
            return
        teacher_id, name, given = form.teacher_id(), form.teacher_name(), form.answers
        db, room, year, month, now = self.ctx.db, self.classroom_id, self.year, self.month, self.ctx.clock()

        def run() -> int:
            return availability_entry.enter(db, room, year, month, teacher_id, given, now=now).value

        self.ctx.tasks.run(run, lambda count: self._entered(name, count),
                           lambda exc: show_error(self, exc, paths=self.ctx.paths), owner=self)

    def _entered(self, name: str, count: int) -> None:
        self.status.setText(self.tr("Entered %n days for {0}.", "", count).format(name))
        self.load()


class AskDialog(QDialog):
    """The deadline and the automatic reminder, with who is asked and what it costs, before anything goes."""

    def __init__(self, ctx: AppContext, classroom_id: int, year: int, month: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Ask for availability"))
        today = ctx.clock().date()
        first = dt.date(year, month, 1)
        default = max(today + dt.timedelta(days=7), min(first - dt.timedelta(days=10), first))
        self.deadline_edit = QDateEdit(QDate(default.year, default.month, default.day), self)
        self.deadline_edit.setCalendarPopup(True)
        self.deadline_edit.setLocale(dates.locale())
        self.deadline_edit.setDisplayFormat(dates.day_pattern())
        self.remind_edit = QSpinBox(self)
        self.remind_edit.setRange(0, 30)
        self.remind_edit.setValue(2)
        self.remind_edit.setSpecialValueText(self.tr("no automatic reminder"))
        self.remind_edit.valueChanged.connect(self._remind_suffix)
        self._remind_suffix(self.remind_edit.value())
        preview = availability_asking.preview(ctx.db, classroom_id, year, month, default, now=ctx.clock())
        asking, quota = preview.asking, preview.quota
        cost = self.tr("Goes to %n teachers on LINE: one message each of the monthly quota.", "", asking.messages)
        if quota.limit is not None:
            cost += " " + self.tr("Used this month: {0} of {1}.").format(quota.used or 0, quota.limit)
        if asking.by_email:
            cost += "\n" + self.tr("By e-mail, not on LINE: {0}. They reply to you, and you enter their answers "
                                   "with Enter answers….").format("、".join(asking.by_email))
        if asking.unreachable:
            cost += "\n" + self.tr("Reachable neither on LINE nor by e-mail, not asked: {0}").format(
                "、".join(asking.unreachable))
        self.cost = PhraseLabel(cost, self)
        self.cost.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Ask"))
        buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(asking.asked))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(self.tr("Answers by:"), self.deadline_edit)
        form.addRow(self.tr("Remind:"), self.remind_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.cost)
        layout.addWidget(buttons)

    def deadline(self) -> dt.date:
        day = self.deadline_edit.date()
        return dt.date(day.year(), day.month(), day.day())

    def remind_days(self) -> int | None:
        return self.remind_edit.value() or None

    def _remind_suffix(self, days: int) -> None:
        # A spin box's suffix has no plural of its own: it follows the number shown.
        self.remind_edit.setSuffix(self.tr(" days before the deadline", "", days))


class EnterDialog(QDialog):
    """A teacher and their answers as text, in the words the LINE reader takes (火木 17時以降, 12/5 ×,
    全部OK, or the e-mailed list of days with ○ × after each); OK only once the text reads."""

    def __init__(self, teachers: Sequence[TeacherAnswers], year: int, month: int,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.year, self.month = year, month
        self.answers: tuple[DayAnswer, ...] = ()
        self.setWindowTitle(self.tr("Enter answers"))
        self.teacher = QComboBox(self)
        for row in teachers:
            self.teacher.addItem(row.name, row.teacher_id)
        # The first who has not answered: their reply is usually the one to enter.
        self.teacher.setCurrentIndex(next((i for i, row in enumerate(teachers) if not row.answered), 0))
        self.text = QPlainTextEdit(self)
        self.text.setPlaceholderText(self.tr("For example: 火木 17時以降, 12/5 ×, 全部OK — or paste the reply with "
                                             "○, × or the hours after each day"))
        self.problem = PhraseLabel(self)
        self.problem.setWordWrap(True)
        self.problem.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Enter"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(self.tr("Teacher:"), self.teacher)
        form.addRow(self.tr("Answers:"), self.text)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)

    def teacher_id(self) -> int:
        return int(self.teacher.currentData())

    def teacher_name(self) -> str:
        return self.teacher.currentText()

    def accept(self) -> None:
        read = availability_text.parse_reply(self.text.toPlainText(), self.year, self.month)
        if not read:
            self.problem.setText(self.tr("These answers cannot be read for certain. Write each day once, for "
                                         "example 12/5 ×, 火木 17時以降 or 全部OK."))
            self.problem.show()
            return
        self.answers = read
        super().accept()
