"""The selected delivery in full: its fields and every attempt, with the server's own words for each failure."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.kinds import registry as message_kinds
from core.outbox import detail, policy
from core.outbox.detail import DeliveryFacts
from ui.common import dates, i18n
from ui.common.errors import show_error
from ui.deliveries.model import Vocabulary, same_clock_as_computer, wall_time, zone_abbreviation
from ui.shell.context import AppContext


def read_facts(ctx: AppContext, delivery_id: int) -> DeliveryFacts | None:
    """Runs on a pool thread. None: the delivery was purged meanwhile."""
    with ctx.db.read() as session:
        return detail.delivery_facts(session, delivery_id)


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
        self.fields = QFormLayout()
        self.fields.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self._values: dict[str, QLabel] = {}
        for key, label in (
            ("status", self.tr("Status")), ("recipient", self.tr("Recipient")), ("key", self.tr("Delivery key")),
            ("created", self.tr("Created")), ("due", self.tr("Due")), ("next", self.tr("Next attempt")),
            ("sent", self.tr("Sent")), ("acknowledged", self.tr("Acknowledged (了解)")), ("retry_key", self.tr("Retry key")),
            ("request", self.tr("Request ID")), ("error", self.tr("Last error")),
        ):
            value = QLabel(self)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            # Long values (keys, the server's messages) must not widen the pane; the tooltip has them in full.
            value.setMinimumWidth(1)
            self._values[key] = value
            self.fields.addRow(label, value)
        self.attempts = QTreeWidget(self)
        self.attempts.setRootIsDecorated(False)
        self.attempts.setUniformRowHeights(True)
        self.attempts.setHeaderLabels([self.tr("#"), self.tr("Time"), self.tr("HTTP"), self.tr("Request IDs"),
                                       self.tr("Duration"), self.tr("Outcome"), self.tr("Server's message")])
        self.attempts.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.attempts.header().setStretchLastSection(True)
        self.empty = QLabel(self.tr("Select a delivery to see its attempts."), self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.attempts_label = QLabel(self.tr("Attempts"), self)
        attempts_column = QVBoxLayout()
        attempts_column.addWidget(self.attempts_label)
        attempts_column.addWidget(self.attempts, 1)
        # Fields beside the attempts: the pane sits under a tall table, so width is what it has.
        body = QHBoxLayout()
        body.addLayout(self.fields, 2)
        body.addLayout(attempts_column, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.empty)
        layout.addWidget(self.title)
        layout.addLayout(body, 1)
        self._show_empty(True)

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
        values = {
            "status": status,
            "recipient": " ".join(x for x in (recipient, f"<{d.recipient}>" if d.recipient else "") if x),
            "key": d.dedup_key,
            "created": self._time(d.created_at),
            "due": self._time(d.due_at) + (self.tr(" (late by {0} s)").format(d.late_seconds)
                                           if d.late_seconds else ""),
            "next": self._time(d.next_attempt_at) if d.status.value in ("pending", "queued") else "",
            "sent": self._time(d.sent_at),
            "acknowledged": self._time(d.acknowledged_at),
            "retry_key": (self.tr("{0} (issued {1})").format(d.retry_key, self._time(d.retry_key_issued_at))
                          if d.retry_key else ""),
            "request": " / ".join(x for x in (d.line_request_id, d.accepted_request_id) if x),
            "error": ": ".join(x for x in (d.last_error_code, i18n.render(policy.shown_error(d.last_error_message)))
                               if x),
        }
        for key, text in values.items():
            self._values[key].setText(text or "—")
            self._values[key].setToolTip(text)
        self.attempts.clear()
        for attempt in facts.attempts:
            error = i18n.render(policy.shown_error(attempt.error_message))
            ids = attempt.request_id or ""
            if attempt.accepted_request_id:
                ids = self.tr("{0} (accepted earlier: {1})").format(ids or "—", attempt.accepted_request_id)
            row = QTreeWidgetItem([
                str(attempt.number), self._time(attempt.started_at, seconds=True),
                str(attempt.http_status) if attempt.http_status is not None else self.tr("no answer"),
                ids, self.tr("{0} ms").format(attempt.duration_ms) if attempt.duration_ms is not None else "",
                self._outcome(attempt.outcome, attempt.error_code, attempt.via, channel),
                ": ".join(x for x in (attempt.error_code, error) if x),
            ])
            row.setToolTip(6, error)
            self.attempts.addTopLevelItem(row)

    def _outcome(self, outcome: str, error_code: str | None, via: str | None, channel: str) -> str:
        said = self._outcomes_by_code.get(error_code or "", self._outcomes.get(outcome, outcome)).format(channel)
        # The relay sent it while every PC slept (docs/relay.md); anything else is this app's own sender.
        return self.tr("{0} (by the relay)").format(said) if via == "relay" else said

    def _show_empty(self, empty: bool) -> None:
        self.empty.setVisible(empty)
        self.title.setVisible(not empty)
        self.attempts.setVisible(not empty)
        self.attempts_label.setVisible(not empty)
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
