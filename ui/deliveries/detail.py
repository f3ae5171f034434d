"""The selected delivery in full. First what a manager asks: when it was due and sent, by whom, how late and
why, and each attempt in the order it happened with what the other side said, in words. The technical
lines (keys, request IDs, HTTP statuses, durations, error codes) stay behind *Technical details*, for a
support request."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLayout,
    QScrollArea,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.kinds import registry as message_kinds
from core.outbox import board, policy
from core.outbox.detail import AttemptFields, DeliveryFacts
from ui.common import dates, i18n
from ui.common.errors import show_error
from ui.common.widgets import Expander
from ui.deliveries.model import Vocabulary, same_clock_as_computer, wall_time, zone_abbreviation
from ui.services.context import AppContext


def read_facts(ctx: AppContext, delivery_id: int) -> DeliveryFacts | None:
    """Runs on a pool thread. None: the delivery was purged meanwhile."""
    return board.facts(ctx.db, delivery_id)


LATE_AFTER = dt.timedelta(minutes=1)
SHOWN_LINES = 12  # the pane's least height: the summary's rows, or the history's first attempts  # a first attempt this long after the due time was not the sender's doing


class DeliveryDetail(QWidget):
    def __init__(self, ctx: AppContext, words: Vocabulary, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.words = words
        # core.outbox.policy.Outcome values in the manager's words.
        self._outcomes = {
            "sent": self.tr("Sent"),
            "retry": self.tr("Will retry"),
            "failed": self.tr("Failed"),
            "dead": self.tr("Gave up (dead letter)"),
            "throttled": self.tr("Rate limited; retried soon"),
            "hold": self.tr("Held: {0} refused our credentials"),  # {0}: the channel's name
        }
        # An attempt whose error code says more than its outcome (core.outbox.policy.ErrorCode values).
        self._outcomes_by_code = {
            policy.ErrorCode.HOSTING_UNUSABLE.value: self.tr("Not sent: image hosting failed; the month goes as a "
                                                             "message next"),
        }
        self.delivery_id: int | None = None
        self.default_zone: str | None = None  # for a delivery without a classroom; None: the computer's
        self._zone: str | None = None  # the shown delivery's
        self.title = QLabel(self)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self._values: dict[str, QLabel] = {}
        self.fields = self._form((
            ("status", self.tr("Status")), ("recipient", self.tr("Recipient")), ("due", self.tr("Due")),
            ("late", self.tr("Late")), ("sent", self.tr("Sent")), ("acknowledged", self.tr("Acknowledged (了解)")),
            ("next", self.tr("Next attempt")), ("error", self.tr("Last problem")),
        ))
        self.history = self._tree([self.tr("Time"), self.tr("By"), self.tr("Result")])
        self.history_label = QLabel(self.tr("What happened"), self)
        history_column = QVBoxLayout()
        history_column.addWidget(self.history_label)
        history_column.addWidget(self.history, 1)
        # Fields beside the history: the pane sits under a tall table, so width is what it has.
        body = QHBoxLayout()
        body.addLayout(self.fields, 2)
        body.addLayout(history_column, 3)

        self.technical = QWidget(self)
        self.technical_fields = self._form((
            ("key", self.tr("Delivery key")), ("address", self.tr("Address")), ("retry_key", self.tr("Retry key")),
            ("request", self.tr("Request ID")), ("error_code", self.tr("Error code")),
        ))
        self.attempts = self._tree([self.tr("#"), self.tr("Time"), self.tr("HTTP"), self.tr("Request IDs"),
                                    self.tr("Duration"), self.tr("Outcome"), self.tr("Server's message")])
        technical = QHBoxLayout(self.technical)
        technical.setContentsMargins(0, 0, 0, 0)
        technical.addLayout(self.technical_fields, 2)
        technical.addWidget(self.attempts, 3)
        self.expander = Expander(self.tr("Technical details"), self.technical, self)
        self.technical_button = self.expander.toggle
        self.technical_button.toggled.connect(self._technical_opened)

        self.empty = QLabel(self.tr("Select a delivery to see its attempts."), self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        # Under a tall table the pane is short: it scrolls rather than squeeze its rows into each other
        # (most of all with the technical details open).
        content = QWidget()
        column = QVBoxLayout(content)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)  # never below its rows' height
        column.addLayout(body, 1)
        column.addWidget(self.expander, 1)
        self.pane = QScrollArea(self)
        self.pane.setWidgetResizable(True)
        self.pane.setMinimumHeight(self.fontMetrics().lineSpacing() * SHOWN_LINES)
        self.pane.setFrameShape(QFrame.Shape.NoFrame)
        self.pane.setWidget(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.empty)
        layout.addWidget(self.title)
        layout.addWidget(self.pane, 1)
        self._show_empty(True)

    def _form(self, rows: tuple[tuple[str, str], ...]) -> QFormLayout:
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        for key, label in rows:
            value = QLabel(self)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            # Long values (keys, the server's messages) must not widen the pane; the tooltip has them in full.
            value.setMinimumWidth(1)
            self._values[key] = value
            form.addRow(label, value)
        return form

    def _tree(self, headings: list[str]) -> QTreeWidget:
        tree = QTreeWidget(self)
        tree.setRootIsDecorated(False)
        tree.setUniformRowHeights(True)
        tree.setHeaderLabels(headings)
        tree.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        tree.header().setStretchLastSection(True)
        return tree

    def _technical_opened(self, shown: bool) -> None:
        if shown:  # into view once laid out: the pane is short and opens at its top
            QTimer.singleShot(0, self, lambda: self.pane.ensureWidgetVisible(self.technical))

    def show_delivery(self, delivery_id: int | None) -> None:
        self.delivery_id = delivery_id
        self.refresh()

    def refresh(self) -> None:
        """Read the selected delivery again; an answer for an earlier selection is dropped."""
        if self.delivery_id is None:
            self.ctx.tasks.supersede(self, "facts")
            self._show_empty(True)
            return
        delivery_id = self.delivery_id
        self.ctx.tasks.run(lambda: read_facts(self.ctx, delivery_id), self._show, lambda exc: show_error(self, exc),
                           owner=self, latest="facts")

    def _show(self, facts: DeliveryFacts | None) -> None:
        if facts is None:
            self.empty.setText(self.tr("This delivery no longer exists (old history is purged)."))
            self._show_empty(True)
            return
        self._show_empty(False)
        self._zone = facts.zone or self.default_zone
        d = facts.delivery
        words = self.words
        channel = words.channels.get(d.channel, d.channel)
        self.title.setText(self.tr("Delivery #{0} · {1} · {2}").format(
            d.id, words.kinds.get(d.kind, d.kind), channel))
        status = words.statuses.get(d.status.value, d.status.value)
        if d.dead_lettered_at is not None:
            status = self.tr("{0} — dead letter since {1}").format(status, self._time(d.dead_lettered_at))
        if d.cancel_reason:
            status = self.tr("{0} ({1})").format(status, i18n.render(message_kinds.cancel_text(d.cancel_reason)))
        recipient = facts.teacher or (self.tr("{0} — {1} group").format(facts.classroom, channel)
                                      if facts.classroom else "")
        sending = next((a for a in facts.attempts if a.outcome == "sent"), None)  # the first that went through
        values = {
            "status": status,
            "recipient": recipient or d.recipient or "",
            "due": self._time(d.due_at),
            "late": self._late(facts, sending),
            "sent": self._sent(d.sent_at, sending),
            "acknowledged": self._time(d.acknowledged_at),
            "next": self._time(d.next_attempt_at) if d.status.value in ("pending", "queued") else "",
            "error": i18n.render(policy.shown_error(d.last_error_message)),
            "key": d.dedup_key,
            "address": d.recipient or "",
            "retry_key": (self.tr("{0} (issued {1})").format(d.retry_key, self._time(d.retry_key_issued_at))
                          if d.retry_key else ""),
            "request": " / ".join(x for x in (d.line_request_id, d.accepted_request_id) if x),
            "error_code": d.last_error_code or "",
        }
        for key, text in values.items():
            self._values[key].setText(text or "—")
            self._values[key].setToolTip(text)
        self.history.clear()
        self.attempts.clear()
        for number, attempt in enumerate(facts.attempts, start=1):  # numbered as they happened
            self.history.addTopLevelItem(self._history_row(attempt, channel))
            self.attempts.addTopLevelItem(self._attempt_row(number, attempt, channel))

    def _history_row(self, attempt: AttemptFields, channel: str) -> QTreeWidgetItem:
        """One attempt as a manager reads it: when, who, and what the other side said, in words."""
        if attempt.outcome == "sent" and attempt.accepted_request_id:
            said = self.tr("{0} already had it from an earlier attempt, so it was not sent twice").format(channel)
        elif attempt.outcome == "sent":
            said = self.tr("{0} accepted it").format(channel)
        else:
            outcome = self._outcomes_by_code.get(attempt.error_code or "",
                                                 self._outcomes.get(attempt.outcome, attempt.outcome)).format(channel)
            error = i18n.render(policy.shown_error(attempt.error_message))
            said = self.tr("{0}: {1}").format(outcome, error) if error else outcome
        by = self.tr("The relay") if attempt.via == "relay" else self.tr("Shiftcast")
        row = QTreeWidgetItem([self._time(attempt.started_at, seconds=True), by, said])
        row.setToolTip(2, said)
        return row

    def _attempt_row(self, number: int, attempt: AttemptFields, channel: str) -> QTreeWidgetItem:
        error = i18n.render(policy.shown_error(attempt.error_message))
        ids = attempt.request_id or ""
        if attempt.accepted_request_id:
            ids = self.tr("{0} (accepted earlier: {1})").format(ids or "—", attempt.accepted_request_id)
        row = QTreeWidgetItem([
            str(number), self._time(attempt.started_at, seconds=True),
            str(attempt.http_status) if attempt.http_status is not None else self.tr("no answer"),
            ids, self.tr("{0} ms").format(attempt.duration_ms) if attempt.duration_ms is not None else "",
            self._outcome(attempt.outcome, attempt.error_code, attempt.via, channel),
            ": ".join(x for x in (attempt.error_code, error) if x),
        ])
        row.setToolTip(6, error)
        return row

    def _sent(self, sent_at: dt.datetime | None, sending: AttemptFields | None) -> str:
        if sent_at is None:
            return ""
        when = self._time(sent_at)
        if sending is None:
            return when
        if sending.via == "relay":
            return self.tr("{0}, by the relay").format(when)
        return self.tr("{0}, by Shiftcast").format(when)

    def _late(self, facts: DeliveryFacts, sending: AttemptFields | None) -> str:
        """How late it went, in minutes or hours, and why, as far as the attempts tell; "" when on time."""
        seconds = facts.delivery.late_seconds
        if not seconds or seconds <= 0:
            return ""
        minutes = max(1, round(seconds / 60))
        hours = round(minutes / 60)
        if minutes < 120:
            late = self.tr("1 minute late") if minutes == 1 else self.tr("{0} minutes late").format(minutes)
        else:
            late = self.tr("about {0} hours late").format(hours)
        first = facts.attempts[0] if facts.attempts else None
        if sending is not None and sending.via == "relay":
            why = self.tr("the computer was asleep or off; the relay sent it")
        elif sending is not None and sending is not first:
            why = self.tr("the earlier attempts did not go through")
        elif first is not None and first.started_at - facts.delivery.due_at >= LATE_AFTER:
            why = self.tr("Shiftcast was not sending when it was due (the computer was asleep or off)")
        else:
            return late
        return self.tr("{0}: {1}").format(late, why)

    def _outcome(self, outcome: str, error_code: str | None, via: str | None, channel: str) -> str:
        said = self._outcomes_by_code.get(error_code or "", self._outcomes.get(outcome, outcome)).format(channel)
        # The relay sent it while every PC slept (docs/relay.md); anything else is this app's own sender.
        return self.tr("{0} (by the relay)").format(said) if via == "relay" else said

    def _show_empty(self, empty: bool) -> None:
        self.empty.setVisible(empty)
        self.title.setVisible(not empty)
        self.pane.setVisible(not empty)
        self.history.setVisible(not empty)
        self.history_label.setVisible(not empty)
        for row in range(self.fields.rowCount()):
            self.fields.setRowVisible(row, not empty)
        if empty and self.delivery_id is None:
            self.empty.setText(self.tr("Select a delivery to see its attempts."))

    def _time(self, moment: dt.datetime | None, *, seconds: bool = False) -> str:
        """In the delivery's classroom's zone, named when this computer's clock differs."""
        if moment is None:
            return ""
        local = wall_time(moment, self._zone)
        text = dates.wall_text(local, seconds=seconds)  # attempts can be seconds apart
        if self._zone is not None and not same_clock_as_computer(self._zone, moment):
            text = f"{text} {zone_abbreviation(self._zone, moment)}"
        return text
