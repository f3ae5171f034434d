"""The Cover requests dialog, opened from the Shifts area: every request waiting for the manager, its
volunteers and the teachers free at that time, and the manager's answer — call for volunteers (in the
classroom's group, else to every teacher free then on LINE), assign the shift to a teacher, or decline
(with an optional reason, which the teacher who asked is told with the decline).

Reads and changes run on the pool (ctx.tasks) through core (core/roster/cover.py,
core/sending/kinds/cover_call.py, cover_declined.py); an assignment is the normal shift edit, so the
teachers are told as after any edit. Refresh reads again (volunteers arrive while the dialog is open).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.messages import texts
from core.roster import cover, cover_board
from core.roster.cover import CoverRequestView
from core.roster.cover_board import Shown
from core.setup import cover_answers
from core.store.db import Database
from core.texts import t
from ui.common import i18n
from ui.common.errors import show_error
from ui.common.phrases import PhraseLabel
from ui.services.context import AppContext


def summary(view: CoverRequestView) -> str:
    facts = texts.ShiftFacts(view.classroom, view.local_date, view.start_time, view.end_time, view.ends_next_day)
    return i18n.render(t("cover.summary", id=view.id, state=t(f"cover.state.{view.state.value}"),
                         teacher=view.teacher_name, when=texts.when(facts, i18n.current()), classroom=view.classroom,
                         reason=view.reason or "-"))


class CoverDialog(QDialog):
    changed = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.shown: list[Shown] = []
        self.setWindowTitle(self.tr("Cover requests"))
        self.resize(720, 420)
        self.requests = QListWidget(self)
        self.requests.currentRowChanged.connect(self._chosen)
        self.volunteers = PhraseLabel(self)
        self.volunteers.setWordWrap(True)
        self.teacher_box = QComboBox(self)
        self.assign_button = QPushButton(self.tr("Assign"), self)
        self.assign_button.clicked.connect(self.assign)
        self.call_button = QPushButton(self.tr("Call for volunteers"), self)
        self.call_button.clicked.connect(self.call)
        self.decline_button = QPushButton(self.tr("Decline"), self)
        self.decline_button.setToolTip(self.tr("The shift stays with the teacher who asked; they are told, with "
                                               "your reason if you write one"))
        self.decline_button.clicked.connect(self.decline)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(self.tr("Reason for declining (optional; the teacher reads it)"))
        self.reason.setMaxLength(cover.REASON_LIMIT)
        actions = QHBoxLayout()
        actions.addWidget(self.teacher_box, 1)
        for button in (self.assign_button, self.call_button, self.decline_button):
            actions.addWidget(button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        refresh = buttons.addButton(self.tr("Refresh"), QDialogButtonBox.ButtonRole.ActionRole)
        refresh.clicked.connect(self.reload)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.requests, 1)
        layout.addWidget(self.volunteers)
        layout.addLayout(actions)
        layout.addWidget(self.reason)
        layout.addWidget(buttons)
        self._chosen(-1)
        ctx.bridge.cover_requests_changed.connect(self._heard)  # a volunteer's tap shows while it is open
        self.reload()

    def _heard(self, _event: object) -> None:
        self.reload()

    def reload(self) -> None:
        self.ctx.tasks.run(lambda: cover_board.read(self.ctx.db), self._show, lambda exc: show_error(self, exc), owner=self,
                           latest="read")

    def _show(self, shown: list[Shown]) -> None:
        chosen = self.current()
        self.shown = shown
        self.requests.clear()
        for one in shown:
            self.requests.addItem(QListWidgetItem(summary(one.request)))
        ids = [one.request.id for one in shown]
        self.requests.setCurrentRow(ids.index(chosen.request.id) if chosen and chosen.request.id in ids
                                    else 0 if ids else -1)

    def current(self) -> Shown | None:
        row = self.requests.currentRow()
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def _chosen(self, _row: int) -> None:
        one = self.current()
        self.teacher_box.clear()
        for widget in (self.assign_button, self.call_button, self.decline_button, self.reason):
            widget.setEnabled(one is not None)
        if one is None:
            self.volunteers.setText(self.tr("No request waits for you."))
            return
        offered = {v.teacher_id for v in one.request.volunteers if v.free}
        # Volunteers first: the manager usually picks one of them. Marked in words, not an emoji, which
        # a computer without an emoji font draws as an empty box.
        for teacher_id, name in sorted(one.free, key=lambda pair: pair[0] not in offered):
            self.teacher_box.addItem(self.tr("{0} (offered)").format(name) if teacher_id in offered else name,
                                     teacher_id)
        names = ", ".join(v.teacher_name for v in one.request.volunteers) or "-"
        self.volunteers.setText(self.tr("Volunteers: {0}").format(names))
        self.assign_button.setEnabled(self.teacher_box.count() > 0)

    def _answer(self, step: Callable[[Database, int, dt.datetime], object]) -> None:
        """Run the manager's answer to the chosen request (a core operation, one transaction), then read again."""
        if (one := self.current()) is None:
            return
        request_id = one.request.id

        def work() -> None:
            step(self.ctx.db, request_id, dt.datetime.now(dt.UTC))

        def done(_result: object) -> None:
            self.changed.emit()
            self.reload()

        self.ctx.tasks.run(work, done, lambda exc: show_error(self, exc), owner=self)

    def assign(self) -> None:
        teacher_id = self.teacher_box.currentData()
        if teacher_id is not None:
            self._answer(lambda db, request_id, now: cover_board.assign(db, request_id, int(teacher_id), now=now))

    def call(self) -> None:
        self._answer(lambda db, request_id, now: cover_answers.call(db, request_id, now=now))

    def decline(self) -> None:
        reason = self.reason.text()
        self.reason.clear()
        self._answer(lambda db, request_id, now: cover_answers.decline(db, request_id, now=now, reason=reason))
