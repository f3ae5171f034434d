"""The Publish area: pick a classroom and month, see the month as it would go out, what changed since
the last revision and what it costs, publish it, and follow every revision's delivery.

Three kinds of background work, each dropped if the pickers moved on meanwhile: the month's state
(dry run, changes, history — a few quick queries), the preview image (a Pillow render, the slow part)
and the LINE group's live member count (network; the cached count is used until it answers).
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QImage, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStyle,
    QToolBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.channels.line import LineApiError, access_from_settings
from core.errors import ShiftcastError
from core.publication import month_image, screen
from core.publication.history import CellChange, Revision
from core.publication.image_store import ImageStore
from core.publication.publish import PublishPlan
from core.roster import contacts
from core.roster.queries import ClassroomSettings
from core.setup import classrooms, publishing
from core.texts import Text, t
from ui.common import dates, i18n
from ui.common.errors import show_error
from ui.common.image_viewer import ImageViewer
from ui.common.month_picker import default_month, month_label, month_title
from ui.common.phrases import PhraseLabel
from ui.common.widgets import ElidedLabel
from ui.common.wrapped_text import keep_text_visible
from ui.publish.printing import print_image
from ui.readiness.panel import ROWS_HEIGHT, ReadinessPanel
from ui.services import file_places
from ui.services.context import AppContext

log = logging.getLogger(__name__)
REFRESH_DELAY_MS = 300  # a burst of shift edits or picker steps renders once
MEMBERS_FRESH_S = 600.0  # ask LINE for a group's member count at most every ten minutes
MEMBERS_TIMEOUT = httpx.Timeout(5.0)
PUBLICATION_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True)
class Room:
    id: int
    name: str
    group_id: str | None
    timezone: str  # its publications' times are shown on its clock

    @classmethod
    def of(cls, room: ClassroomSettings) -> Room:
        return cls(room.id, room.name, room.line_group_id or None, room.timezone)


@dataclass(frozen=True)
class MonthState:
    room: Room
    year: int
    month: int
    plan: PublishPlan
    changes: list[CellChange]
    revisions: list[Revision]
    missing: tuple[Text, ...] = ()  # what stops the group message now (core/setup/publishing.py)


# ----- background work (pool threads: no widgets here) -----

def read_rooms(ctx: AppContext) -> list[Room]:
    return [Room.of(r) for r in classrooms.listing(ctx.db)]


def read_state(ctx: AppContext, room_id: int, year: int, month: int, members: int | None,
               each_teacher: bool = False) -> MonthState:
    now = ctx.clock()
    state = screen.month_state(ctx.db, room_id, year, month, now=now, members=members, each_teacher=each_teacher)
    missing = publishing.missing(ctx.db, state.room.id, now=now)
    return MonthState(Room.of(state.room), year, month, state.plan, list(state.changes), list(state.revisions),
                      missing)


def render_month(ctx: AppContext, room_id: int, year: int, month: int) -> bytes:
    """The month's grid as a publication now would store it (what Export and Print take), drafts included."""
    return month_image.render_png(screen.month_view(ctx.db, room_id, year, month, now=ctx.clock()))


@dataclass(frozen=True)
class PreviewImage:
    image: QImage
    form: Text | None  # which form the group receives, said above the picture
    rooms: tuple[str, ...] = ()  # no LINE group: the channels whose rooms get the wide grid (LINE WORKS)


def render_preview(ctx: AppContext, room_id: int, year: int, month: int) -> PreviewImage:
    """What publishing would send (core/publication/group_preview.py): the pages for phones with image
    hosting, the month as Flex cards without it; the wide grid when only rooms on other channels
    (LINE WORKS) carry it."""
    now = ctx.clock()
    grid = screen.rooms_view(ctx.db, room_id, year, month, now=now)
    shown = screen.group_view(ctx.db, room_id, year, month, now=now) if grid is None else None
    # QImage, unlike QPixmap, may be made off the UI thread
    image = QImage.fromData(shown.png if shown is not None else grid.png if grid is not None else b"")
    if image.isNull():
        raise ShiftcastError("the preview image could not be read back")
    return PreviewImage(image, shown.form) if shown is not None else PreviewImage(
        image, None, grid.channels if grid is not None else ())


@dataclass(frozen=True)
class Printable:
    """What Export and Print take: a published revision's stored image, or, with none chosen (nothing
    published yet), the roster as publishing it now would show it."""

    room_id: int
    year: int
    month: int
    name: str  # the file's name without its suffix
    sha256: str | None = None

    def png(self, ctx: AppContext) -> bytes:
        if self.sha256 is not None:
            return ImageStore(ctx.paths.images).get(self.sha256, ".png")
        return render_month(ctx, self.room_id, self.year, self.month)


def live_members(ctx: AppContext, group_id: str) -> int | None:
    """The group's member count straight from LINE; None (use the cached count) if LINE is not set up or
    does not answer."""
    try:
        access = access_from_settings(ctx.db, timeout=MEMBERS_TIMEOUT)
    except ShiftcastError as exc:  # e.g. no usable keyring
        log.info("LINE not usable for the member count: %s", exc)
        return None
    if access is None:
        return None
    try:
        return access.client.group_member_count(group_id)
    except LineApiError as exc:
        log.info("member count of %s unavailable: %s", group_id, exc)
        return None
    finally:
        access.client.close()


def publish_month(ctx: AppContext, room_id: int, year: int, month: int, *, when_ready: bool,
                  each_teacher: bool = False) -> publishing.Outcome:
    return publishing.publish(ctx.db, room_id, year, month, now=ctx.clock(), store=ImageStore(ctx.paths.images),
                              when_ready=when_ready, each_teacher=each_teacher)


def export_image(ctx: AppContext, what: Printable, target: Path, *, pdf: bool) -> Path:
    data = what.png(ctx)
    target.write_bytes(month_image.pdf_of(data) if pdf else data)
    return target


def printable_image(ctx: AppContext, what: Printable) -> QImage:
    image = QImage.fromData(what.png(ctx))
    if image.isNull():
        raise ShiftcastError("the month's image could not be read back")
    return image


class PublishView(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.rooms: dict[int, Room] = {}
        self.state: MonthState | None = None
        self._members: dict[str, tuple[int, float]] = {}  # group → (live count, when asked)
        self._asking: set[str] = set()
        self._publishing = False
        self._just_published: int | None = None  # the revision to select once the list shows it
        self._stale = True
        # The manager's own calendar decides which month opens, as in the Shifts area.
        self.year, self.month_number = default_month(ctx.clock().astimezone().date())
        self._timer = QTimer(self, singleShot=True, interval=REFRESH_DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        self._build()
        ctx.bridge.shifts_changed.connect(self.schedule_refresh)
        ctx.bridge.settings_changed.connect(self._load_rooms)
        ctx.signals.roster_changed.connect(self._load_rooms)
        ctx.bridge.deliveries_changed.connect(self._deliveries_changed)
        self._load_rooms()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.schedule_refresh()

    # ----- building -----

    def _build(self) -> None:
        # The same month and classroom bar as the Shifts area: arrows and Ctrl+PgUp / Ctrl+PgDown step months.
        style = self.style()
        bar = QToolBar(self)
        self.prev_action = QAction(style.standardIcon(QStyle.StandardPixmap.SP_ArrowBack), self.tr("Previous month"),
                                   self)
        self.next_action = QAction(style.standardIcon(QStyle.StandardPixmap.SP_ArrowForward), self.tr("Next month"),
                                   self)
        self.prev_action.triggered.connect(lambda: self.step_month(-1))
        self.next_action.triggered.connect(lambda: self.step_month(1))
        for action, keys in ((self.prev_action, "Ctrl+PgUp"), (self.next_action, "Ctrl+PgDown")):
            action.setShortcut(QKeySequence(keys))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.addAction(action)
        self.month_label = month_label(self)
        bar.addAction(self.prev_action)
        bar.addWidget(self.month_label)
        bar.addAction(self.next_action)
        bar.addSeparator()
        bar.addWidget(QLabel(self.tr("Classroom:"), self))
        self.classroom_box = QComboBox(self)
        self.classroom_box.setMinimumContentsLength(12)
        self.classroom_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.classroom_box.currentIndexChanged.connect(self.schedule_refresh)
        bar.addWidget(self.classroom_box)
        self._show_month()

        self.viewer = ImageViewer(self, fit="width")
        self.preview_form = PhraseLabel(self)  # which form the group receives: as a message, or as pictures
        self.preview_form.setObjectName("previewForm")
        self.preview_form.setWordWrap(True)
        self.preview_form.hide()
        self.warning = PhraseLabel(self)
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("QLabel { background: #fff3cd; color: #664d03; border: 1px solid #ffda6a;"
                                   " border-radius: 4px; padding: 8px; font-weight: bold; }")
        self.warning.hide()
        self.plan_box = QGroupBox(self.tr("Dry run"), self)
        form = QFormLayout(self.plan_box)
        # The group by its classroom's name, its ID (no place to wrap, nothing a manager reads) in the tooltip.
        self.recipients_label = ElidedLabel(self)
        self.members_label, self.cost_label = QLabel(self), QLabel(self)
        self.quota_label, self.drafts_label, self.revision_label = QLabel(self), QLabel(self), QLabel(self)
        form.addRow(self.tr("Recipients"), self.recipients_label)
        form.addRow(self.tr("Group members"), self.members_label)
        form.addRow(self.tr("Quota cost"), self.cost_label)
        form.addRow(self.tr("Quota left this month"), self.quota_label)
        form.addRow(self.tr("Drafts to confirm"), self.drafts_label)
        form.addRow(self.tr("Revision"), self.revision_label)
        # Asked for, not always: each personal LINE message costs the monthly quota on top of the group's.
        self.each_teacher = QCheckBox(self.tr("Also send each teacher their month"), self.plan_box)
        self.each_teacher.toggled.connect(lambda _on: self._load_state())
        self.each_teacher_label = PhraseLabel(self)
        self.each_teacher_label.setWordWrap(True)
        form.addRow(self.each_teacher)
        form.addRow(self.tr("Each teacher's month"), self.each_teacher_label)
        for label in (self.each_teacher_label, self.members_label, self.quota_label, self.revision_label):
            label.setWordWrap(True)
        keep_text_visible(self.plan_box)  # Qt's form layout would cut a wrapped answer's second line
        self.changes_box = QGroupBox(self.tr("Changes since the last publication"), self)
        self.changes = QListWidget(self.changes_box)
        # A change names a teacher, a day and both versions: wider than the panel on a 1366-pixel screen.
        self.changes.setWordWrap(True)
        self.changes.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        QVBoxLayout(self.changes_box).addWidget(self.changes)
        self.publish_button = QPushButton(self.tr("Publish…"), self)
        self.publish_button.setDefault(True)
        self.publish_button.clicked.connect(self.publish)
        # What publishing now will do for the group, in words: at once, or once LINE and the group are there.
        self.promise_label = PhraseLabel(self)
        self.promise_label.setObjectName("publishPromise")
        self.promise_label.setWordWrap(True)
        self.history_box = QGroupBox(self.tr("Published revisions"), self)
        self.history = QTreeWidget(self.history_box)
        self.history.setRootIsDecorated(False)
        self.history.setHeaderLabels([self.tr("Revision"), self.tr("Published"), self.tr("Changed cells"),
                                      self.tr("Delivery")])
        self.history.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.history.header().setStretchLastSection(True)
        self.history.itemSelectionChanged.connect(self._update_buttons)
        self.export_png_button = QPushButton(self.tr("Export PNG…"), self)
        self.export_pdf_button = QPushButton(self.tr("Export PDF…"), self)
        self.print_button = QPushButton(self.tr("Print…"), self)
        self.print_button.setToolTip(self.tr("Prints the chosen revision, or the roster as it would be published "
                                             "when none is chosen"))
        self.export_png_button.clicked.connect(lambda: self.export(pdf=False))
        self.export_pdf_button.clicked.connect(lambda: self.export(pdf=True))
        self.print_button.clicked.connect(self.print_month)
        self.print_action = QAction(self.tr("Print…"), self)
        self.print_action.setShortcut(QKeySequence.StandardKey.Print)
        self.print_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.print_action.triggered.connect(self.print_month)
        self.addAction(self.print_action)
        exports = QHBoxLayout()
        exports.addStretch(1)
        exports.addWidget(self.export_png_button)
        exports.addWidget(self.export_pdf_button)
        exports.addWidget(self.print_button)
        history_layout = QVBoxLayout(self.history_box)
        history_layout.addWidget(self.history)
        history_layout.addLayout(exports)

        # What the month would do scrolls when the screen is short; Publish and the revisions below it
        # stay in view: the dry run, the changes, the choices and the revisions together are taller
        # than a 1280×720 screen leaves.
        details = QWidget(self)
        details_layout = QVBoxLayout(details)
        details_layout.setContentsMargins(0, 0, 0, 0)
        details_layout.addWidget(self.warning)
        details_layout.addWidget(self.plan_box)
        details_layout.addWidget(self.changes_box, 1)
        details_scroll = QScrollArea(self)
        details_scroll.setWidget(details)
        details_scroll.setWidgetResizable(True)
        details_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        details_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        details_scroll.setMinimumWidth(details.minimumSizeHint().width()
                                       + details_scroll.verticalScrollBar().sizeHint().width())
        side = QWidget(self)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(details_scroll, 3)
        side_layout.addWidget(self.promise_label)
        side_layout.addWidget(self.publish_button)
        side_layout.addWidget(self.history_box, 1)
        preview = QWidget(self)
        preview_layout = QVBoxLayout(preview)
        preview_layout.setContentsMargins(0, 0, 0, 0)
        preview_layout.addWidget(self.preview_form)
        preview_layout.addWidget(self.viewer, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(preview)
        splitter.addWidget(side)
        # Most of the width to the picture: on a 1366-pixel screen a 3:2 split left it at a third of its size.
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        self.status = PhraseLabel(self)
        self.status.setWordWrap(True)
        # What stands between publishing and the teachers getting it; shown only, Publish still decides.
        # One line until the manager opens it: open, its rows would crowd the dry run on a 1366×768 screen.
        self.readiness = ReadinessPanel(self.ctx, self, hide_when_ready=True, open_when_blocked=False,
                                        rows_height=ROWS_HEIGHT)
        layout = QVBoxLayout(self)
        layout.addWidget(self.readiness)
        layout.addWidget(bar)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.status)
        self._update_buttons()

    # ----- pickers -----

    def month(self) -> tuple[int, int]:
        return self.year, self.month_number

    def set_month(self, year: int, month: int) -> None:
        if (year, month) != (self.year, self.month_number):
            self.year, self.month_number = year, month
            self._show_month()
            self.schedule_refresh()

    def step_month(self, step: int) -> None:
        index = self.year * 12 + (self.month_number - 1) + step
        self.set_month(index // 12, index % 12 + 1)

    def _show_month(self) -> None:
        self.month_label.setText(self._month_title(self.year, self.month_number))

    def _month_title(self, year: int, month: int) -> str:
        return month_title(year, month)

    def room(self) -> Room | None:
        room_id = self.classroom_box.currentData()
        return self.rooms.get(room_id) if room_id is not None else None

    def _load_rooms(self) -> None:
        self.ctx.tasks.run(lambda: read_rooms(self.ctx), self._show_rooms, lambda exc: show_error(self, exc),
                           owner=self)

    def _show_rooms(self, rooms: list[Room]) -> None:
        current = self.classroom_box.currentData()
        self.rooms = {r.id: r for r in rooms}
        self.classroom_box.blockSignals(True)
        self.classroom_box.clear()
        for r in rooms:
            self.classroom_box.addItem(r.name, r.id)
        self.classroom_box.setCurrentIndex(max(self.classroom_box.findData(current), 0))
        self.classroom_box.blockSignals(False)
        self._members.clear()  # a group ID may have changed in Settings
        self.schedule_refresh()

    # ----- refreshing -----

    def schedule_refresh(self) -> None:
        self._timer.start()

    def refresh(self) -> None:
        """Reload the month's state and re-render its preview (normally through schedule_refresh).

        Only while the area is on screen: rendering a month nobody is looking at would compete with
        the sender and slow start-up; a hidden view just remembers to refresh when it is shown."""
        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        room = self.room()
        if room is None:
            self.state = None
            self.ctx.tasks.supersede(self, "state")
            self.ctx.tasks.supersede(self, "preview")
            self.preview_form.hide()
            self.viewer.show_message(self.tr("No classroom yet. Add one with “Add classroom…” in the Shifts area; "
                                             "its roster can then be published here."))
            self._show_state(None)
            return
        self._load_state()
        year, month = self.month()
        self.ctx.tasks.run(lambda: render_preview(self.ctx, room.id, year, month), self._show_preview,
                           self._preview_failed, owner=self, latest="preview")
        if room.group_id:
            self._ask_members(room.group_id)

    def _load_state(self) -> None:
        room = self.room()
        if room is None:
            return
        year, month = self.month()
        members = self._members[room.group_id][0] if room.group_id in self._members else None
        each_teacher = self.each_teacher.isChecked()
        self.ctx.tasks.run(lambda: read_state(self.ctx, room.id, year, month, members, each_teacher), self._show_state,
                           lambda exc: show_error(self, exc), owner=self, latest="state")

    def _ask_members(self, group_id: str) -> None:
        known = self._members.get(group_id)
        if group_id in self._asking or (known and time.monotonic() - known[1] < MEMBERS_FRESH_S):
            return
        self._asking.add(group_id)
        self.ctx.tasks.run(lambda: live_members(self.ctx, group_id),
                           lambda count: self._members_read(group_id, count),
                           lambda _exc: self._asking.discard(group_id), owner=self)

    def _members_read(self, group_id: str, count: int | None) -> None:
        self._asking.discard(group_id)
        if count is None:
            return
        self._members[group_id] = (count, time.monotonic())
        room = self.room()
        if room is not None and room.group_id == group_id:
            self._load_state()

    def _deliveries_changed(self, ids: list[int]) -> None:
        # Only this month's publications matter here; an empty list may be a new one.
        mine = {r.delivery_id for r in self.state.revisions} if self.state else set()
        if not ids or mine.intersection(ids):
            if self.isVisible():
                self._load_state()
            else:
                self._stale = True

    # ----- showing -----

    def _show_preview(self, preview: PreviewImage) -> None:
        if preview.rooms:
            self.preview_form.setText(self.tr("As one picture of the month's grid, to the classroom's {0} room").format(
                ", ".join(i18n.render(contacts.label(channel)) for channel in preview.rooms)))
        else:
            self.preview_form.setText(i18n.render(preview.form) if preview.form is not None else "")
        self.preview_form.setVisible(bool(preview.rooms) or preview.form is not None)
        self.viewer.set_image(preview.image)

    def _preview_failed(self, exc: BaseException) -> None:
        self.preview_form.hide()
        self.viewer.show_message(self.tr("The preview could not be drawn."))
        show_error(self, exc)

    def _show_state(self, state: MonthState | None) -> None:
        self.state = state
        self.changes.clear()
        selected = self._selected_revision()
        if state is not None and any(r.revision == self._just_published for r in state.revisions):
            # The preview moves on to the next revision; the list follows with the one just published,
            # not the one that happened to be selected before.
            selected, self._just_published = self._just_published, None
        self.history.clear()
        if state is None:
            for label in (self.recipients_label, self.members_label, self.cost_label, self.quota_label,
                          self.drafts_label, self.revision_label, self.promise_label):
                label.setText("")  # not clear(): the recipients' tooltip follows setText
            self.warning.hide()
            self._update_buttons()
            return
        plan = state.plan
        live = state.room.group_id in self._members
        # Every room the month goes to: the LINE group, and the room on each other channel (LINE WORKS).
        rooms = ([self.tr("{0}'s LINE group").format(state.room.name)] if state.room.group_id else []) + [
            self.tr("{0}'s {1} room").format(state.room.name, i18n.render(contacts.label(channel)))
            for channel in plan.rooms]
        self.recipients_label.setText(", ".join(rooms) or self.tr("No LINE group yet: the month waits for it"))
        self.recipients_label.setToolTip("\n".join(
            ([self.tr("LINE group ID: {0}").format(state.room.group_id)] if state.room.group_id else []) + [
                f"{i18n.render(contacts.label(channel))}: {room}" for channel, room in plan.rooms.items()]))
        rooms_only = not state.room.group_id and bool(plan.rooms)  # LINE WORKS alone: LINE's counts do not apply
        if rooms_only:
            self.members_label.setText(self.tr("none: no LINE group; the month goes to the room above"))
        elif plan.members is None:
            self.members_label.setText(self.tr("unknown (LINE has not been asked yet)"))
        else:
            self.members_label.setText((self.tr("{0} (from LINE just now)") if live else self.tr("{0} (cached)"))
                                       .format(plan.members))
        if rooms_only and not plan.messages:
            self.cost_label.setText(self.tr("none: no LINE message is sent"))
        else:
            self.cost_label.setText(self.tr("%n messages", "", plan.messages) if plan.messages is not None
                                    else self.tr("unknown"))
        if plan.quota_limit is not None and plan.quota_used is not None:
            self.quota_label.setText(self.tr("{0} of {1}").format(plan.quota_limit - plan.quota_used, plan.quota_limit))
        else:
            self.quota_label.setText(self.tr("no monthly limit known"))
        self.drafts_label.setText(str(plan.drafts_to_confirm))
        self.each_teacher_label.setText(
            self.tr("teachers: {0}; LINE messages: {1}, counted in the quota cost").format(
                plan.teachers, plan.teacher_messages) if self.each_teacher.isChecked() else self.tr("not sent"))
        self.revision_label.setText(
            self.tr("{0} — the first publication of this month").format(plan.revision) if plan.revision == 1
            else self.tr("{0} — an update: %n changed cells are highlighted", "", plan.changed_cells).format(plan.revision)
            if plan.changed_cells else self.tr("{0} — no change since the previous revision").format(plan.revision))
        warning = "\n".join(filter(None, (self._missing_text(state), self._warning_text(plan))))
        self.warning.setText(warning)
        self.warning.setVisible(bool(warning))
        self.promise_label.setText(i18n.render(publishing.promise(state.missing)))
        self.changes_box.setTitle(self.tr("Changes since revision {0}").format(plan.revision - 1) if plan.revision > 1
                                  else self.tr("Changes since the last publication"))
        if plan.revision == 1:
            self.changes.addItem(self.tr("Nothing published yet for this month: everything is new."))
        elif not state.changes:
            self.changes.addItem(self.tr("No changes."))
        for change in state.changes:
            self.changes.addItem(self._describe_change(state, change))
        for revision in state.revisions:
            item = QTreeWidgetItem([str(revision.revision), self._time(revision.created_at),
                                    str(revision.changed_cells), self._outcome(revision)])
            item.setData(0, PUBLICATION_ROLE, revision.revision)
            if revision.last_error:
                item.setToolTip(3, i18n.render(revision.last_error))
            self.history.addTopLevelItem(item)
            if revision.revision == selected:
                item.setSelected(True)
        newest = self.history.topLevelItem(0)
        if not self.history.selectedItems() and newest is not None:
            newest.setSelected(True)
        self._update_buttons()

    def _warning_text(self, plan: PublishPlan) -> str:
        """The dry run's warning in the manager's language (core's text is English for logs and the CLI)."""
        if not plan.warning:
            return ""
        if plan.revision > 1 and not plan.changed_cells:
            return self.tr("Nothing changed since revision {0}: there is nothing new to publish.").format(
                plan.revision - 1)
        if plan.members is not None and plan.quota_limit is not None and plan.quota_used is not None:
            return self.tr("LINE's monthly quota would not cover this: %n messages left, this publication "
                           "needs {0}. LINE will refuse it until the quota resets or is raised.", "",
                           plan.quota_limit - plan.quota_used).format(plan.members)
        return i18n.render(plan.warning_text) if plan.warning_text is not None else plan.warning

    def _missing_text(self, state: MonthState) -> str:
        return i18n.render(t("publish.not_yet", missing=state.missing)) if state.missing else ""

    def _describe_change(self, state: MonthState, change: CellChange) -> str:
        day = dates.day_short(dt.date(state.year, state.month, change.day))
        nothing = self.tr("no shift")
        return self.tr("{0} — {1}: {2} → {3}").format(change.teacher, day, ", ".join(change.before) or nothing,
                                                      ", ".join(change.after) or nothing)

    def _outcome(self, revision: Revision) -> str:
        outcome = revision.outcome
        if outcome == "sent":
            return self.tr("Sent {0}").format(self._time(revision.sent_at))
        if outcome == "queued":
            return self.tr("Queued")
        if outcome == "failed":
            return self.tr("Failed: {0}").format(i18n.render(revision.last_error or ""))
        if outcome == "superseded":
            return self.tr("Canceled — superseded by a later revision")
        if outcome == "canceled":
            return self.tr("Canceled")
        if outcome == "waiting_for_group":
            return self.tr("Waiting for the LINE group")
        return self.tr("Unknown (delivery history purged)")

    def _time(self, moment: dt.datetime | None) -> str:
        if moment is None:
            return ""
        return dates.moment_text(moment, self.state.room.timezone if self.state is not None else None)

    def _selected_revision(self) -> int | None:
        items = self.history.selectedItems()
        return items[0].data(0, PUBLICATION_ROLE) if items else None

    def _selected(self) -> Revision | None:
        number = self._selected_revision()
        if self.state is None or number is None:
            return None
        return next((r for r in self.state.revisions if r.revision == number), None)

    def _update_buttons(self) -> None:
        plan = self.state.plan if self.state else None
        # Whatever is missing for the group: the month is recorded now and its group message waits (the
        # confirmation says so), so only nothing new to publish keeps the button off.
        can_publish = (plan is not None and not (plan.revision > 1 and not plan.changed_cells)
                       and not self._publishing)
        self.publish_button.setEnabled(can_publish)
        # Before the first publication too: then what is exported or printed is the roster as it stands.
        exportable = self._printable() is not None
        for control in (self.export_png_button, self.export_pdf_button, self.print_button, self.print_action):
            control.setEnabled(exportable)

    # ----- actions -----

    def publish(self) -> None:
        state = self.state
        if state is None:
            return
        plan = state.plan
        month = self._month_title(state.year, state.month)
        lines = [self.tr("Publish {0}'s roster for {1} as revision {2}?").format(state.room.name, month, plan.revision)]
        if plan.drafts_to_confirm:
            lines.append(self.tr("%n draft shifts will be confirmed first.", "", plan.drafts_to_confirm))
        if plan.revision > 1:
            lines.append(self.tr("%n cells changed since revision {0}; they are highlighted in the image.", "",
                                 plan.changed_cells).format(plan.revision - 1))
        if plan.messages is not None:
            left = (self.tr(" ({0} left this month)").format(plan.quota_limit - plan.quota_used)
                    if plan.quota_limit is not None and plan.quota_used is not None else "")
            lines.append(self.tr("It costs %n messages of LINE's monthly quota{0}.", "", plan.messages).format(left))
        warning = self._warning_text(plan)
        if warning:
            lines.append(warning)
        lines.append(i18n.render(t("publish.waiting", promise=publishing.promise(state.missing), missing=state.missing)
                                 if state.missing else publishing.promise(())))
        answer = QMessageBox.question(self, self.tr("Publish"), "\n\n".join(lines))
        if answer != QMessageBox.StandardButton.Yes:
            return
        self._publishing = True
        self._update_buttons()
        self.status.setText(self.tr("Publishing…"))
        room_id, year, month_number = state.room.id, state.year, state.month
        when_ready = True  # the confirmation just said what waits and why
        each_teacher = self.each_teacher.isChecked()
        self.ctx.tasks.run(lambda: publish_month(self.ctx, room_id, year, month_number, when_ready=when_ready,
                                                 each_teacher=each_teacher),
                           self._published, self._publish_failed, owner=self)

    def _published(self, outcome: publishing.Outcome) -> None:
        self._publishing = False
        self.ctx.wake_sender()
        done = outcome.published
        if outcome.waiting_for:
            text = i18n.render(t("publish.done_waiting", revision=done.revision,
                                 promise=publishing.promise(outcome.waiting_for), missing=outcome.waiting_for))
            if done.email_deliveries:
                text += " " + i18n.render(t("publish.emails_too", count=len(done.email_deliveries)))
        elif done.email_deliveries:
            text = self.tr("Revision {0} is published and on its way to the LINE group and by e-mail "
                           "(%n teachers).", "", len(done.email_deliveries)).format(done.revision)
        else:
            text = self.tr("Revision {0} is published and on its way to the LINE group.").format(done.revision)
        if done.teacher_months:
            text += " " + self.tr("Each teacher's own month: %n messages.", "", len(done.teacher_months))
        if done.superseded:
            text += " " + self.tr("The earlier revision that had not gone out yet will not be sent.")
        self.status.setText(text)
        self._just_published = done.revision
        self.schedule_refresh()

    def _publish_failed(self, exc: BaseException) -> None:
        self._publishing = False
        self.status.clear()
        self._update_buttons()
        show_error(self, exc)

    def _printable(self) -> Printable | None:
        state = self.state
        if state is None:
            return None
        month = f"{state.room.name}-{state.year}-{state.month:02d}"
        revision = self._selected()
        if revision is None:
            preview = self.tr("preview")  # in a file's name: not a published revision
            return Printable(state.room.id, state.year, state.month, f"{month}-{preview}")
        return Printable(state.room.id, state.year, state.month, f"{month}-r{revision.revision}",
                         revision.image_sha256)

    def print_month(self) -> None:
        what = self._printable()
        if what is None:
            return
        self.ctx.tasks.run(lambda: printable_image(self.ctx, what), lambda image: self._print(what, image),
                           lambda exc: show_error(self, exc), owner=self)

    def _print(self, what: Printable, image: QImage) -> None:
        if print_image(self, image, what.name):
            self.status.setText(self.tr("Sent {0} to the printer.").format(what.name))

    def export(self, *, pdf: bool) -> None:
        what = self._printable()
        if what is None:
            return
        suffix = "pdf" if pdf else "png"
        name = f"{what.name}.{suffix}"
        suggested = file_places.start_in(self.ctx, name)
        if pdf:
            path, _ = QFileDialog.getSaveFileName(self, self.tr("Export PDF"), suggested, self.tr("PDF (*.pdf)"))
        else:
            path, _ = QFileDialog.getSaveFileName(self, self.tr("Export PNG"), suggested, self.tr("PNG image (*.png)"))
        if not path:
            return
        file_places.remember(self.ctx, path, owner=self)
        self.ctx.tasks.run(lambda: export_image(self.ctx, what, Path(path), pdf=pdf),
                           lambda saved: self.status.setText(self.tr("Saved {0}").format(saved)),
                           lambda exc: show_error(self, exc), owner=self)
