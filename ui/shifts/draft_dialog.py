"""Draft the month…: choose how unanswered days count and whether the drafts there now stay, run the solver on the
task pool with its progress shown and a Stop that keeps the best found, then review what the draft changes
against the current drafts and the needs it leaves uncovered (each with why, and a button to act on it) before
Apply writes it as drafts in one undo step. A month that cannot be drafted (no lesson slots, no staffing needs,
no teachers) is not solved: the dialog says why as it opens and offers the Classroom setup dialog that fixes it.

The solver reports progress on its own thread; that reaches the widgets only through ui_thread.post. Drafts are
never told to teachers: confirming the month does that, as before.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from core.drafting.solver import Stopper
from core.planning import draft_month as roster_month
from core.planning.drafted import Act, MonthDraft, Step
from core.roster import draft_changes as changes
from core.roster import rules
from core.setup import month_drafts
from core.store.kinds import ShiftStatus
from core.texts.formats import weekday_short
from ui.common import i18n
from ui.common.errors import show_error
from ui.common.phrases import PhraseLabel
from ui.services import ui_thread
from ui.services.context import AppContext
from ui.shifts.commands import ApplyDraft
from ui.shifts.undo import CommandRunner

Drafter = Callable[[roster_month.DraftMonth, float, Callable[[Step], None], Stopper], MonthDraft]


@dataclass(frozen=True)
class Review:
    month: roster_month.DraftMonth
    draft: MonthDraft
    changes: changes.Changes


SLOTS, NEEDS, TEACHERS = "slots", "needs", "teachers"  # what a month cannot be drafted without


@dataclass(frozen=True)
class Refusal:
    missing: str  # SLOTS, NEEDS or TEACHERS


def missing_setup(month: roster_month.DraftMonth) -> str:
    """What the month cannot be drafted without, or "" when it can be."""
    if not any(room.slots for room in month.rooms):
        return SLOTS
    if not any(count for room in month.rooms for count in room.needs.values()):
        return NEEDS
    if not month.teachers:
        return TEACHERS
    return ""


class DraftDialog(QDialog):
    act_requested = Signal(object, object)  # Act, teacher ids: what the manager chose to do about a gap
    setup_requested = Signal(str)  # SLOTS or NEEDS: the Classroom setup dialog that lets the month be drafted
    applied = Signal()

    def __init__(self, ctx: AppContext, runner: CommandRunner, classroom_id: int, classroom: str, year: int,
                 month: int, label: str, drafter: Drafter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx, self.runner, self.drafter = ctx, runner, drafter
        self.classroom_id, self.year, self.month, self.label = classroom_id, year, month, label
        self.sharing: list[int] = [classroom_id]
        self.stop = Stopper()
        self.review: Review | None = None
        self.refusal: Refusal | None = None
        self.setWindowTitle(self.tr("Draft {0}").format(label))
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self._options_page(classroom))
        self.pages.addWidget(self._running_page())
        self.pages.addWidget(self._review_page())
        self.pages.addWidget(self._refusal_page())
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)
        self.resize(680, 300)  # the options are short; the review grows the dialog
        self.replace = True
        self.finished.connect(lambda _: self.stop.stop())  # closed while solving: the pool thread is not kept busy
        self._find_sharing()

    # ----- options -----

    def _options_page(self, classroom: str) -> QWidget:
        page = QWidget(self)
        intro = QLabel(self.tr("Make draft shifts for {0} from the teachers' availability answers, their weekly "
                               "patterns and limits, to cover the staffing needs. You review the draft before "
                               "anything is written; teachers are told only when you confirm the month.")
                       .format(classroom), page)
        intro.setWordWrap(True)
        self.unanswered = QComboBox(page)
        self.unanswered.addItem(self.tr("Not available (×)"), "no")
        self.unanswered.addItem(self.tr("Available (○)"), "yes")
        self.replace_button = QRadioButton(self.tr("Replace this month's drafts"), page)
        self.keep_button = QRadioButton(self.tr("Keep this month's drafts and add to them"), page)
        self.replace_button.setChecked(True)
        self.shared = QCheckBox(page)
        self.shared.setVisible(False)
        self.time_limit = QSpinBox(page)
        self.time_limit.setRange(5, 600)
        self.time_limit.setValue(30)
        self.time_limit.setSuffix(self.tr(" s"))
        form = QFormLayout()
        form.addRow(self.tr("A day a teacher did not answer:"), self.unanswered)
        form.addRow(self.tr("Drafts there now:"), self.replace_button)
        form.addRow("", self.keep_button)
        form.addRow("", self.shared)
        form.addRow(self.tr("Stop after at most:"), self.time_limit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, page)
        self.draft_button = buttons.addButton(self.tr("Draft"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.draft_button.setDefault(True)
        buttons.accepted.connect(self.start)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(page)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addStretch(1)
        layout.addWidget(buttons)
        return page

    def _find_sharing(self) -> None:
        """Offer the classrooms that share teachers with this one, to draft them together; a month none of them
        could be drafted in is refused at once, before any option is asked."""
        db, room, year, month = self.ctx.db, self.classroom_id, self.year, self.month

        def work() -> tuple[list[int], list[str], str]:
            found = month_drafts.sharing(db, room, year, month)
            return list(found.classroom_ids), list(found.other_names), missing_setup(found.month)

        def done(found: tuple[list[int], list[str], str]) -> None:
            self.sharing, names, missing = found
            if missing:
                self._show_refusal(Refusal(missing))
            elif names:
                self.shared.setText(self.tr("Also draft {0}, which share teachers with this classroom")
                                    .format(", ".join(names)))
                self.shared.setVisible(True)

        self.ctx.tasks.run(work, done, self._error, owner=self)

    # ----- running -----

    def _running_page(self) -> QWidget:
        page = QWidget(self)
        self.running_label = QLabel(self.tr("Drafting…"), page)
        self.progress_label = QLabel(page)
        self.progress_bar = QProgressBar(page)
        self.progress_bar.setRange(0, 0)
        self.stop_button = QPushButton(self.tr("Stop and keep the best so far"), page)
        self.stop_button.clicked.connect(self.stop_solving)
        layout = QVBoxLayout(page)
        layout.addStretch(1)
        for widget in (self.running_label, self.progress_bar, self.progress_label):
            layout.addWidget(widget)
        layout.addWidget(self.stop_button, 0, Qt.AlignmentFlag.AlignRight)
        layout.addStretch(1)
        return page

    def start(self) -> None:
        """Read the month and solve it on the task pool; progress comes back through ui_thread.post."""
        rooms = self.sharing if not self.shared.isHidden() and self.shared.isChecked() else [self.classroom_id]
        self.pages.setCurrentIndex(1)
        unanswered, replace = str(self.unanswered.currentData()), self.replace_button.isChecked()
        self.replace = replace
        seconds, stop, drafter, db = float(self.time_limit.value()), self.stop, self.drafter, self.ctx.db
        year, month, now = self.year, self.month, self.ctx.clock()

        def progress(step: Step) -> None:  # on the solver's thread: no Qt here
            ui_thread.post(self._show_step, step, owner=self)

        def work() -> Review | Refusal:
            start = month_drafts.draft_start(db, rooms, year, month, unanswered=unanswered, replace_drafts=replace,
                                             now=now)
            wanted = start.month
            if missing := missing_setup(wanted):
                return Refusal(missing)
            draft = drafter(wanted, seconds, progress, stop)
            return Review(wanted, draft, start.compare(draft.proposed, replace_drafts=replace))

        self.ctx.tasks.run(work, self._show_result, self._error, owner=self)

    def _show_step(self, step: Step) -> None:
        parts = [self.tr("time: {0} s").format(int(step.seconds))]
        if step.bound is not None:
            parts.insert(0, self.tr("none can miss fewer than: {0}").format(step.bound))
        if step.best is not None:
            parts.insert(0, self.tr("teacher-slots missing in the best so far: {0}").format(step.best))
        self.progress_label.setText(" · ".join(parts))

    def stop_solving(self) -> None:
        self.stop.stop()
        self.stop_button.setEnabled(False)
        self.running_label.setText(self.tr("Stopping; the best draft found so far is kept…"))

    # ----- review -----

    def _review_page(self) -> QWidget:
        page = QWidget(self)
        self.summary = QLabel(page)
        self.summary.setWordWrap(True)
        self.changes_label = QLabel(page)
        self.tabs = QTabWidget(page)
        self.preview = QTableWidget(0, 0, self.tabs)  # the month as the draft would make it
        self.preview.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.preview.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.preview.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.changes_table = self._table(self.tabs, [self.tr("Change"), self.tr("Teacher"), self.tr("Day"),
                                                     self.tr("Time"), self.tr("Classroom")])
        self.tabs.addTab(self.preview, self.tr("Month"))
        self.tabs.addTab(self.changes_table, self.tr("Changes"))
        self.gaps_label = QLabel(page)
        self.gaps_table = self._table(page, [self.tr("Day"), self.tr("Slot"), self.tr("Missing"), self.tr("Why"),
                                             self.tr("What to do")])
        self.gaps_table.horizontalHeader().setStretchLastSection(False)
        self.gaps_table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, page)
        self.apply_button = buttons.addButton(self.tr("Apply as drafts"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.apply_button.setToolTip(self.tr("Write the draft into the roster as draft shifts (Ctrl+Z takes it "
                                             "back); teachers are not told until you confirm the month"))
        buttons.accepted.connect(self.apply)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(page)
        layout.addWidget(self.summary)
        layout.addWidget(self.changes_label)
        layout.addWidget(self.tabs, 3)
        layout.addWidget(self.gaps_label)
        layout.addWidget(self.gaps_table, 2)
        layout.addWidget(buttons)
        return page

    @staticmethod
    def _table(parent: QWidget, headings: list[str]) -> QTableWidget:
        table = QTableWidget(0, len(headings), parent)
        table.setHorizontalHeaderLabels(headings)
        table.verticalHeader().setVisible(False)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setStretchLastSection(True)
        return table

    def _show_result(self, result: Review | Refusal) -> None:
        if isinstance(result, Refusal):
            self._show_refusal(result)
        else:
            self._show_review(result)

    def _show_review(self, review: Review) -> None:
        self.review = review
        draft, found = review.draft, review.changes
        self.summary.setText(self._summary(draft))
        self.changes_label.setText(self.tr("Against the drafts there now — added: {0}, removed: {1}, unchanged: {2}")
                                   .format(len(found.added), len(found.removed), len(found.unchanged)))
        names = {t.teacher_id: t.name for t in review.month.teachers}
        rooms = {r.classroom_id: r.name for r in review.month.rooms}
        rows = [(self.tr("Added"), d, QColor("#1b7f3b")) for d in found.added]
        rows += [(self.tr("Removed"), d, QColor("#b3261e")) for _, d in found.removed]
        rows.sort(key=lambda r: (r[1].local_date, r[1].start_time, names.get(r[1].teacher_id, "")))
        self.changes_table.setRowCount(len(rows))
        for row, (word, d, color) in enumerate(rows):
            cells = [word, names.get(d.teacher_id, f"#{d.teacher_id}"), self._day(d.local_date),
                     f"{d.start_time:%H:%M}–{d.end_time:%H:%M}", rooms.get(d.classroom_id, "")]
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column == 0:
                    item.setForeground(QBrush(color))
                self.changes_table.setItem(row, column, item)
        self._fill_preview(review, names)
        self.changes_table.setColumnHidden(4, len(rooms) < 2)
        self.gaps_label.setText(self.tr("Needs left uncovered: {0}").format(len(draft.gaps)) if draft.gaps
                                else self.tr("Every staffing need is covered."))
        self.gaps_table.setVisible(bool(draft.gaps))
        self.gaps_table.setRowCount(len(draft.gaps))
        for row, gap in enumerate(draft.gaps):
            for column, text in enumerate([self._day(gap.day), gap.slot, str(gap.missing), i18n.render(gap.why)]):
                self.gaps_table.setItem(row, column, QTableWidgetItem(text))
            button = QPushButton(self._act_text(gap.act, [names.get(i, "") for i in gap.teacher_ids]), self.gaps_table)
            button.clicked.connect(lambda _=False, g=gap: self.act_requested.emit(g.act, g.teacher_ids))
            self.gaps_table.setCellWidget(row, 4, button)
        self.apply_button.setEnabled(not found.empty)
        self.pages.setCurrentIndex(2)
        self.resize(max(self.width(), 1180), max(self.height(), 680))  # the month and its gaps: room for both

    def _fill_preview(self, review: Review, names: dict[int, str]) -> None:
        """Teachers by days: the draft's new shifts marked +, the drafts it removes struck through, the rest plain."""
        first, last = rules.month_bounds(self.year, self.month)
        days = [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]
        teachers = [t.teacher_id for t in review.month.teachers]
        self.preview.setRowCount(len(teachers))
        self.preview.setColumnCount(len(days))
        self.preview.setVerticalHeaderLabels([names[i] for i in teachers])
        self.preview.setHorizontalHeaderLabels([f"{d.day}\n{weekday_short(d, i18n.current())}" for d in days])
        rows = {teacher: row for row, teacher in enumerate(teachers)}
        cells: dict[tuple[int, int], list[tuple[str, str]]] = {}
        found = review.changes
        marked = [(d, "added") for d in found.added] + [(d, "removed") for _, d in found.removed]
        marked += [(d, "unchanged") for d in found.unchanged]
        marked += [(rules.ShiftDraft(classroom_id=p.classroom_id, teacher_id=p.teacher_id, local_date=p.day,
                                     start_time=p.start, end_time=p.end), "placed")
                   for p in review.month.placed if p.classroom_id in review.month.classroom_ids
                   and p.status == ShiftStatus.CONFIRMED]
        for d, kind in sorted(marked, key=lambda m: m[0].start_time):
            if d.teacher_id in rows:
                cells.setdefault((rows[d.teacher_id], d.local_date.day - 1), []).append(
                    (f"{d.start_time:%H:%M}\n{d.end_time:%H:%M}", kind))  # as the grid shows a shift
        self.preview.clearContents()
        for (row, column), shifts in cells.items():
            kinds = {kind for _, kind in shifts}
            item = QTableWidgetItem("\n".join(("+" if kind == "added" else "") + text for text, kind in shifts))
            if "added" in kinds:
                item.setBackground(QBrush(QColor("#d9f2df")))
            if kinds == {"removed"}:
                font = item.font()
                font.setStrikeOut(True)
                item.setFont(font)
                item.setForeground(QBrush(QColor("#b3261e")))
            item.setToolTip("\n".join(f"{text.replace(chr(10), '–')} ({self._kind_word(kind)})" for text, kind in shifts))
            self.preview.setItem(row, column, item)

    def _kind_word(self, kind: str) -> str:
        return {"added": self.tr("added"), "removed": self.tr("removed"), "unchanged": self.tr("draft kept"),
                "placed": self.tr("confirmed")}[kind]

    def _summary(self, draft: MonthDraft) -> str:
        shifts = self.tr("Shifts proposed: {0}.").format(len(draft.proposed))
        if draft.status == "optimal":
            quality = self.tr("The best possible draft (proven).")
        elif draft.gap is not None:
            quality = self.tr("A good draft; at most {0} % from the best possible.").format(round(draft.gap * 100, 1))
        else:
            quality = self.tr("A draft; how far it is from the best possible is not known.")
        stopped = self.tr("Stopped: the best draft found by then. ") if draft.stopped else ""
        return f"{stopped}{quality} {shifts}"

    # ----- refusal -----

    def _refusal_page(self) -> QWidget:
        page = QWidget(self)
        self.refusal_label = PhraseLabel(page)
        self.fix_button = QPushButton(page)
        self.fix_button.clicked.connect(self._open_fix)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, page)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(page)
        layout.addWidget(self.refusal_label)
        layout.addWidget(self.fix_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)
        layout.addWidget(buttons)
        return page

    def _show_refusal(self, refusal: Refusal) -> None:
        """Only why the month cannot be drafted and the way to what fixes it: no review of an empty draft."""
        self.refusal = refusal
        self.refusal_label.setText({
            SLOTS: self.tr("The draft cannot be made: this classroom has no lesson slots (コマ). Add them first: "
                           "Classroom setup → Lesson slots…"),
            NEEDS: self.tr("Nothing to draft yet: no staffing needs are set, so no lesson slot needs a teacher. "
                           "Set how many teachers each slot needs: Classroom setup → Staffing needs…"),
            TEACHERS: self.tr("The draft cannot be made: this classroom has no active teachers."),
        }[refusal.missing])
        self.fix_button.setText(self.tr("Open Lesson slots…") if refusal.missing == SLOTS
                                else self.tr("Open Staffing needs…"))
        self.fix_button.setVisible(refusal.missing in (SLOTS, NEEDS))
        self.pages.setCurrentIndex(3)

    def _open_fix(self) -> None:
        if self.refusal is not None:
            self.setup_requested.emit(self.refusal.missing)
            self.reject()  # the setup dialog takes its place; Draft the month… is one click once it is done

    def _act_text(self, act: Act, names: list[str]) -> str:
        if act == Act.LIMITS:
            return self.tr("Edit {0}'s limits…").format("、".join(n for n in names if n)) if names else \
                self.tr("Edit limits…")
        return self.tr("Open availability…")

    def _day(self, day: dt.date) -> str:
        return f"{day.month}/{day.day} ({weekday_short(day, i18n.current())})"

    def apply(self) -> None:
        """One undo step in the roster: Ctrl+Z takes the whole draft back."""
        review = self.review
        if review is None:
            return
        self.apply_button.setEnabled(False)
        command = ApplyDraft(list(review.month.classroom_ids), self.year, self.month, list(review.draft.proposed),
                             replace_drafts=self.replace,
                             label=self.label)

        def done(_: object) -> None:
            self.applied.emit()
            self.accept()

        def failed(exc: BaseException) -> None:
            self.apply_button.setEnabled(True)
            self._error(exc)

        self.runner.execute(command, on_done=done, on_error=failed)

    def _error(self, exc: BaseException) -> None:
        show_error(self, exc, paths=self.ctx.paths)
