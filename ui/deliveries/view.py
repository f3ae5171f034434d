"""The Deliveries area: the live outbox with status counts, filters, a detail pane and the manager's
actions (retry, cancel, requeue every dead letter)."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import (
    QDate,
    QDateTime,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    QTime,
    QTimer,
)
from PySide6.QtGui import QAction, QColor, QKeySequence, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.channels import registry
from core.kinds import registry as message_kinds
from core.outbox import board
from core.outbox.deliveries import CANCELABLE, RETRYABLE, DeliveryFilter, RetryOutcome
from core.roster import clock
from core.sending import presence
from core.setup import classrooms, senders
from core.store.kinds import DeliveryStatus
from ui.common import dates, i18n
from ui.common.errors import show_error
from ui.common.phrases import PhraseLabel
from ui.deliveries.detail import DeliveryDetail
from ui.deliveries.model import (
    ATTEMPTS,
    CREATED,
    ERROR,
    ID,
    KIND,
    RECIPIENT,
    STATUS,
    STATUS_ORDER,
    STATUS_ROLE,
    WHEN,
    DeliveriesFeed,
    DeliveriesModel,
    Vocabulary,
    wall_time,
    zone_abbreviation,
)
from ui.services.context import AppContext

# Badge colours: calm for what is on its way, green for done, red for what needs the manager.
BADGE_COLOURS = {
    "pending": "#6c757d",
    "queued": "#0d6efd",
    "processing": "#6f42c1",
    "sent": "#198754",
    "failed": "#dc3545",
    "canceled": "#adb5bd",
    "dead_letter": "#842029",
}
SEARCH_DELAY_MS = 250  # typing in the search box filters once the manager pauses


class StatusBadgeDelegate(QStyledItemDelegate):
    """Paints the status as a rounded, coloured badge."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text, opt.text = opt.text, ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)  # selection, focus
        metrics = opt.fontMetrics
        height = metrics.height() + 4
        width = min(metrics.horizontalAdvance(text) + 16, opt.rect.width() - 8)
        badge = QRect(opt.rect.x() + 4, opt.rect.center().y() - height // 2 + 1, width, height)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(BADGE_COLOURS.get(index.data(STATUS_ROLE), "#6c757d")))
        painter.drawRoundedRect(badge, height / 2, height / 2)
        painter.setPen(QColor("white"))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter,
                         metrics.elidedText(text, Qt.TextElideMode.ElideRight, max(width - 8, 0)))
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        return QSize(size.width() + 24, size.height() + 4)


class DeliveriesView(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.words = self._vocabulary()
        self.model = DeliveriesModel(self.words, self)
        self.feed = DeliveriesFeed(ctx, self.model, self)
        self.message: QMessageBox | None = None  # the last notice shown (kept so it is not collected)
        self._build_counts()
        self._build_filters()
        self._build_actions()
        self._build_table()
        # Times are the classrooms' wall times; said above the table whenever this computer's clock differs.
        self.zone_note = PhraseLabel(self)
        self.zone_note.setWordWrap(True)
        self.zone_note.setVisible(False)
        # Who sends from this database (several senders can share a PostgreSQL server): one line.
        self.senders_note = PhraseLabel(self)
        self.senders_note.setWordWrap(True)
        self.senders_note.setVisible(False)
        self.detail = DeliveryDetail(ctx, self.words, self)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.table)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(self.counts_row)
        layout.addLayout(self.filters_row)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.zone_note)
        layout.addWidget(self.senders_note)
        layout.addWidget(splitter, 1)
        self.model.counts_changed.connect(self._show_counts)
        self.model.modelReset.connect(self._update_actions)
        self.model.dataChanged.connect(lambda *_: self._update_actions())
        self.model.rowsRemoved.connect(lambda *_: self._update_actions())
        self.feed.applied.connect(self._rows_applied)
        self.feed.failed.connect(lambda exc: show_error(self, exc))
        self.feed.zones_changed.connect(self._show_zones)
        ctx.bridge.settings_changed.connect(self._load_classrooms)
        ctx.bridge.settings_changed.connect(self.feed.check_zones)
        self._load_classrooms()
        self._load_senders()
        self._show_counts()
        self._update_actions()
        self.feed.reload()

    # ----- building -----

    def _vocabulary(self) -> Vocabulary:
        return Vocabulary(
            headers=(self.tr("ID"), self.tr("Created"), self.tr("Kind"), self.tr("Recipient"), self.tr("Status"),
                     self.tr("Attempts"), self.tr("Next attempt / sent"), self.tr("Last error")),
            kinds={kind.key: i18n.render(kind.label) for kind in message_kinds.kinds()},
            statuses={"pending": self.tr("Pending"), "queued": self.tr("Queued"), "processing": self.tr("Sending"),
                      "sent": self.tr("Sent"), "failed": self.tr("Failed"), "canceled": self.tr("Canceled")},
            dead_letter=self.tr("Dead letter"),
            channels={key: i18n.render(driver.label) for key, driver in registry.DRIVERS.items()},
            group_of=self.tr("{0} ({1} group)"),
            deleted_teacher=self.tr("(deleted #{0})"),
            unknown=self.tr("(unknown)"),
            acknowledged=self.tr("{0} · ✓ 了解 {1}"),
            on_channel=self.tr("{0} · {1}"),
        )

    def _build_counts(self) -> None:
        self.counts_row = QHBoxLayout()
        self.count_labels: dict[str, QLabel] = {}
        for key in (*STATUS_ORDER, "dead_letters"):
            label = QLabel(self)
            label.setTextFormat(Qt.TextFormat.RichText)
            self.count_labels[key] = label
            self.counts_row.addWidget(label)
        self.counts_row.addStretch(1)

    def _build_filters(self) -> None:
        self.filters_row = QHBoxLayout()
        self.status_button = QToolButton(self)
        self.status_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.status_menu = QMenu(self)
        self.status_actions: dict[str, QAction] = {}
        for key in STATUS_ORDER:
            action = QAction(self.words.statuses[key], self, checkable=True)
            action.toggled.connect(self._filter_changed)
            self.status_menu.addAction(action)
            self.status_actions[key] = action
        self.status_button.setMenu(self.status_menu)
        self.kind_box = QComboBox(self)
        self.kind_box.addItem(self.tr("All kinds"), None)
        for key, label in self.words.kinds.items():
            self.kind_box.addItem(label, key)
        self.classroom_box = QComboBox(self)
        self.classroom_box.addItem(self.tr("All classrooms"), None)
        self.date_check = QCheckBox(self.tr("Created from"), self)
        self._zone_of: dict[int, str] = {}  # classroom id → its time zone, for the days of the date filter
        self._senders: tuple[presence.SenderInfo, ...] = ()  # as last read, shown again when the zones change
        self._days_chosen = False  # the manager set a day: it is no longer moved to the zone's today
        self.date_from, self.date_to = QDateEdit(self), QDateEdit(self)
        self._show_last_week()
        for edit in (self.date_from, self.date_to):
            edit.setCalendarPopup(True)
            edit.setLocale(dates.locale())  # "Tue 24 Nov 2026", never the ambiguous "24/11/2026"
            edit.setDisplayFormat(dates.day_pattern())
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(self.tr("Search recipient, key or error"))
        self.search.setClearButtonEnabled(True)
        self.dead_check = QCheckBox(self.tr("Dead letters only"), self)
        self._search_timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._filter_changed)
        self.search.textChanged.connect(lambda _text: self._search_timer.start())
        for box in (self.kind_box, self.classroom_box):
            box.currentIndexChanged.connect(self._filter_changed)
        for check in (self.date_check, self.dead_check):
            check.toggled.connect(self._filter_changed)
        for edit in (self.date_from, self.date_to):
            edit.dateChanged.connect(self._day_chosen)
        # Another classroom may keep another clock.
        self.classroom_box.currentIndexChanged.connect(lambda _index: self._show_last_week())
        to_label = QLabel(self.tr("to"), self)
        row: list[QWidget] = [self.status_button, self.kind_box, self.classroom_box, self.date_check, self.date_from,
                              to_label, self.date_to]
        for widget in row:
            self.filters_row.addWidget(widget)
        self.filters_row.addWidget(self.search, 1)
        self.filters_row.addWidget(self.dead_check)
        self._show_status_choice()

    def _build_actions(self) -> None:
        self.toolbar = QToolBar(self)
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        # Not "now": a delivery whose due time is still to come waits for it.
        self.retry_action = QAction(self.tr("Retry"), self)
        self.retry_action.setToolTip(self.tr("Send the selected delivery again with a fresh retry budget: now, or at "
                                             "its due time if that is still to come"))
        self.retry_action.triggered.connect(self.retry_selected)
        self.cancel_action = QAction(self.tr("Cancel delivery"), self)
        self.cancel_action.triggered.connect(self.cancel_selected)
        self.requeue_action = QAction(self.tr("Requeue all dead letters"), self)
        self.requeue_action.triggered.connect(self.requeue_dead_letters)
        self.reload_action = QAction(self.tr("Reload"), self)
        self.reload_action.setShortcut(QKeySequence.StandardKey.Refresh)
        self.reload_action.triggered.connect(self.feed.reload)
        self.reload_action.triggered.connect(self._load_senders)
        for action in (self.retry_action, self.cancel_action, self.requeue_action):
            self.toolbar.addAction(action)
        self.toolbar.addSeparator()
        self.toolbar.addAction(self.reload_action)

    def _build_table(self) -> None:
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setItemDelegateForColumn(STATUS, StatusBadgeDelegate(self.table))
        # Fixed row heights and column widths: nothing ever measures 100,000 rows.
        rows = self.table.verticalHeader()
        rows.setVisible(False)
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.fontMetrics().height() + 10)
        columns = self.table.horizontalHeader()
        columns.setStretchLastSection(True)
        metrics = self.fontMetrics()
        em = metrics.horizontalAdvance("M")
        sample = dates.wall_text(QDateTime(QDate(2026, 12, 30), QTime(23, 59)))  # a long weekday and month
        # The recipient holds a name and its channel's ("中村 大輝 · LINE WORKS").
        for column, width in ((ID, 5 * em), (CREATED, 0), (KIND, 0), (RECIPIENT, 18 * em), (STATUS, 8 * em),
                              (ATTEMPTS, 0), (WHEN, 0), (ERROR, 20 * em)):
            header = metrics.horizontalAdvance(self.words.headers[column]) + 3 * em  # room for the sort arrow
            if column == KIND:  # the longest kind's name, in whichever language, with the cell's margins
                width = max(metrics.horizontalAdvance(w) for w in self.words.kinds.values()) + 2 * em
            elif column in (CREATED, WHEN):
                width = metrics.horizontalAdvance(sample) + 2 * em
            elif column == STATUS:  # the longest badge, a 了解 tap's time included, with its padding
                words = [*self.words.statuses.values(), self.words.dead_letter]
                words.append(self.words.acknowledged.format(self.words.statuses.get("sent", ""), sample))
                width = max(metrics.horizontalAdvance(w) for w in words) + 3 * em
            elif column == ATTEMPTS:
                width = header
            columns.resizeSection(column, max(width, header))
        columns.setSortIndicator(ID, Qt.SortOrder.DescendingOrder)
        self.table.setSortingEnabled(True)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._selection_changed())
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._selection_changed())

    # ----- state shown -----

    def _show_zones(self) -> None:
        zones = self.feed.zones
        now = self.ctx.clock()
        self.detail.default_zone = zones.default
        self._show_senders(self._senders)
        self._show_last_week()
        if not zones.foreign(now):
            self.zone_note.clear()
            self.zone_note.setVisible(False)
        elif len(zones.classrooms) == 1:
            [zone] = zones.classrooms
            self.zone_note.setText(self.tr("Times are shown in the classroom's time zone, {0} ({1}). "
                                           "This computer's clock is on {2}.").format(
                zone, zone_abbreviation(zone, now), zone_abbreviation(None, now)))
            self.zone_note.setVisible(True)
        else:
            self.zone_note.setText(self.tr("Times are shown in each classroom's own time zone ({0}). "
                                           "This computer's clock is on {1}.").format(
                ", ".join(zones.classrooms), zone_abbreviation(None, now)))
            self.zone_note.setVisible(True)
        self.detail.refresh()

    def _show_counts(self) -> None:
        counts = self.model.counts
        names = {**self.words.statuses, "dead_letters": self.tr("Dead letters")}
        for key, label in self.count_labels.items():
            colour = BADGE_COLOURS["dead_letter" if key == "dead_letters" else key]
            label.setText(f'<span style="color:{colour}">●</span> {names[key]} <b>{counts.get(key, 0)}</b>')
            label.setProperty("count", counts.get(key, 0))  # for tests and accessibility tools
        self.requeue_action.setEnabled(counts.get("dead_letters", 0) > 0)

    def selected_id(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        return self.model.item_at(rows[0].row()).id

    def select(self, delivery_id: int) -> bool:
        row = self.model.row_of(delivery_id)
        if row is None:
            return False
        self.table.selectRow(row)
        self.table.scrollTo(self.model.index(row, 0))
        return True

    def _selection_changed(self) -> None:
        selected = self.selected_id()
        if selected != self.detail.delivery_id:
            self.detail.show_delivery(selected)
        self._update_actions()

    def _rows_applied(self, ids: list[int]) -> None:
        if self.detail.delivery_id is not None and self.detail.delivery_id in ids:
            self.detail.refresh()
        self._update_actions()

    def _update_actions(self) -> None:
        selected = self.selected_id()
        item = self.model.get(selected) if selected is not None else None
        status = item.status if item is not None else None
        self.retry_action.setEnabled(status in {s.value for s in RETRYABLE})
        self.cancel_action.setEnabled(status in {s.value for s in CANCELABLE})

    # ----- filters -----

    def current_filter(self) -> DeliveryFilter:
        statuses = tuple(DeliveryStatus(k) for k, a in self.status_actions.items() if a.isChecked())
        kind = self.kind_box.currentData()
        created_from = created_to = None
        if self.date_check.isChecked():
            zone = self._filter_zone()
            created_from = _midnight(self.date_from.date(), zone)
            created_to = _midnight(self.date_to.date().addDays(1), zone)  # the end day is included
        return DeliveryFilter(
            statuses=statuses,
            kinds=(kind,) if kind else (),
            classroom_id=self.classroom_box.currentData(),
            created_from=created_from,
            created_to=created_to,
            text=self.search.text(),
            dead_letters_only=self.dead_check.isChecked(),
        )

    def _filter_changed(self) -> None:
        self._show_status_choice()
        keep = self.selected_id()
        self.model.set_filter(self.current_filter())
        if keep is None or not self.select(keep):
            self.detail.show_delivery(None)
        self._update_actions()

    def _show_status_choice(self) -> None:
        """The filter bar's own state: the status button's text, the date range's enabled edits."""
        chosen = [self.words.statuses[k] for k, a in self.status_actions.items() if a.isChecked()]
        button = self.status_button
        button.setText(self.tr("Status: {0}").format(", ".join(chosen) if chosen else self.tr("all")))
        # The menu arrow is drawn inside the button's text area, over the text's end, unless room is made for it.
        style = button.style()
        room = (style.pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, None, button)
                + 2 * style.pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, None, button))
        button.setMinimumWidth(button.fontMetrics().horizontalAdvance(button.text()) + room)
        self.date_from.setEnabled(self.date_check.isChecked())
        self.date_to.setEnabled(self.date_check.isChecked())

    def _filter_zone(self) -> str | None:
        """The zone the date filter's days are read in: the chosen classroom's, else the one the
        table's rows without a classroom are shown in (None: the computer's)."""
        return self._zone_of.get(self.classroom_box.currentData(), self.feed.zones.default)

    def _show_last_week(self) -> None:
        """The date filter's days, from a week ago to today on its zone's clock, until the manager
        sets a day or turns the filter on."""
        if self.date_check.isChecked() or self._days_chosen:
            return
        zone = self._filter_zone()
        now = self.ctx.clock()
        today = (now.astimezone(clock.zone(zone)) if zone else now.astimezone()).date()
        for edit, day in ((self.date_from, today - dt.timedelta(days=7)), (self.date_to, today)):
            edit.blockSignals(True)  # the filter is off: the rows shown do not change
            edit.setDate(QDate(day.year, day.month, day.day))
            edit.blockSignals(False)

    def _day_chosen(self) -> None:
        self._days_chosen = True
        self._filter_changed()

    def _load_classrooms(self) -> None:
        def read() -> list[tuple[int, str, str]]:
            return [(room.id, room.name, room.timezone) for room in classrooms.listing(self.ctx.db)]

        self.ctx.tasks.run(read, self._show_classrooms, lambda exc: show_error(self, exc), owner=self)

    def _load_senders(self) -> None:
        def read() -> tuple[presence.SenderInfo, ...]:
            return senders.sending_now(self.ctx.db, now=self.ctx.clock())

        self.ctx.tasks.run(read, self._show_senders, lambda exc: show_error(self, exc), owner=self, latest="senders")

    def _show_senders(self, found: tuple[presence.SenderInfo, ...]) -> None:
        self._senders = found
        zone = self.feed.zones.default  # as the rows without a classroom: the note above says which clock
        parts, details = [], []
        for info in found:
            since = dates.moment_text(info.started_at, zone)
            if info.state is presence.SenderState.STALE:
                parts.append(self.tr("{0} (no heartbeat since {1})").format(
                    info.host, dates.moment_text(info.heartbeat_at, zone)))
            else:
                parts.append(self.tr("{0} (since {1})").format(info.host, since))
            details.append(f"{info.host} · {info.app} · pid {info.pid} · {info.home}")
        self.senders_note.setText(self.tr("Sending from: {0}").format(", ".join(parts)) if parts else "")
        self.senders_note.setToolTip("\n".join(details))
        self.senders_note.setVisible(bool(parts))

    def _show_classrooms(self, rooms: list[tuple[int, str, str]]) -> None:
        current = self.classroom_box.currentData()
        self._zone_of = {room_id: zone for room_id, _name, zone in rooms}
        self._show_last_week()
        self.classroom_box.blockSignals(True)
        self.classroom_box.clear()
        self.classroom_box.addItem(self.tr("All classrooms"), None)
        for room_id, name, _zone in rooms:
            self.classroom_box.addItem(name, room_id)
        self.classroom_box.setCurrentIndex(max(self.classroom_box.findData(current), 0))
        self.classroom_box.blockSignals(False)
        if self.classroom_box.currentData() != current:
            self._filter_changed()

    # ----- actions -----

    def retry_selected(self) -> None:
        delivery_id = self.selected_id()
        if delivery_id is None:
            return

        def work() -> RetryOutcome:
            return board.retry_now(self.ctx.db, delivery_id, now=self.ctx.clock())

        self.retry_action.setEnabled(False)
        self.ctx.tasks.run(work, self._retried, self._action_failed, owner=self)

    def _retried(self, outcome: RetryOutcome) -> None:
        self.ctx.wake_sender()
        self.feed.changed([outcome.delivery_id])
        if outcome.waits:
            zone = outcome.zone or self.feed.zones.default
            local = wall_time(outcome.send_at, zone)
            at = local.time().toString("HH:mm")
            if zone is not None and zone in self.feed.zones.foreign(self.ctx.clock()):
                at = f"{at} {zone_abbreviation(zone, outcome.send_at)}"
            text = self.tr("Delivery #{0} will be sent on {1} at {2}, its due time, if its shift and teacher "
                           "still allow it then.").format(
                outcome.delivery_id, dates.day_text(dates.day_of(local.date())), at)
        else:
            text = self.tr("Delivery #{0} will be sent now.").format(outcome.delivery_id)
        if outcome.new_retry_key:
            text += "\n\n" + self.tr(
                "It has a new retry key, because its old key had expired. If an earlier attempt did get "
                "through, the recipient may get this message twice.")
        self._notify(QMessageBox.Icon.Warning if outcome.new_retry_key else QMessageBox.Icon.Information, text)

    def cancel_selected(self) -> None:
        delivery_id = self.selected_id()
        item = self.model.get(delivery_id) if delivery_id is not None else None
        if delivery_id is None or item is None:
            return
        answer = QMessageBox.question(
            self, self.tr("Cancel delivery"),
            self.tr("Cancel delivery #{0}, {1} to {2}? It will not be sent.\n\n"
                    "Retry brings it back; it then goes at its due time.").format(
                delivery_id, item.texts[KIND], item.texts[RECIPIENT]),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return

        def work() -> int:
            return board.cancel(self.ctx.db, delivery_id, now=self.ctx.clock())

        self.cancel_action.setEnabled(False)
        self.ctx.tasks.run(work, lambda done_id: self.feed.changed([done_id]), self._action_failed, owner=self)

    def requeue_dead_letters(self) -> None:
        count = self.model.counts.get("dead_letters", 0)
        answer = QMessageBox.question(self, self.tr("Requeue dead letters"), self.tr(
            "Send all %n dead letters again now, each with a fresh retry budget?", "", count))
        if answer != QMessageBox.StandardButton.Yes:
            return

        def work() -> tuple[RetryOutcome, ...]:
            return board.requeue_dead_letters(self.ctx.db, now=self.ctx.clock())

        self.requeue_action.setEnabled(False)
        self.ctx.tasks.run(work, self._requeued, self._action_failed, owner=self)

    def _requeued(self, outcomes: tuple[RetryOutcome, ...]) -> None:
        self.ctx.wake_sender()
        self.feed.changed([o.delivery_id for o in outcomes])
        renewed = sum(o.new_retry_key for o in outcomes)
        text = self.tr("%n dead letters are queued again.", "", len(outcomes))
        waiting = sum(o.waits for o in outcomes)
        if waiting:
            text += " " + self.tr("{0} of them wait for their due time.").format(waiting)
        if renewed:
            text += "\n\n" + self.tr(
                "{0} of them got a new retry key because the old one had expired: if an earlier attempt did "
                "get through, those recipients may get the message twice.").format(renewed)
        self._notify(QMessageBox.Icon.Warning if renewed else QMessageBox.Icon.Information, text)

    def _action_failed(self, exc: BaseException) -> None:
        self._update_actions()
        self._show_counts()
        show_error(self, exc)

    def _notify(self, icon: QMessageBox.Icon, text: str) -> None:
        # Window-modal but not blocking: the table keeps updating behind it.
        self.message = QMessageBox(icon, self.tr("Deliveries"), text, QMessageBox.StandardButton.Ok, self)
        self.message.setWindowModality(Qt.WindowModality.WindowModal)
        self.message.open()


def _midnight(day: QDate, zone: str | None) -> dt.datetime:
    """The start of `day` in the zone the times are shown in (None: the computer's), as a UTC instant."""
    if zone is not None:
        return clock.to_utc(dates.day_of(day), dt.time(0), zone)
    seconds = QDateTime(day, QTime(0, 0)).toSecsSinceEpoch()
    return dt.datetime.fromtimestamp(seconds, dt.UTC)
