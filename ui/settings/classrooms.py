"""Settings → Classrooms: each classroom's LINE group, reminder lead time, quiet hours, message
language, LIFF ID (hidden while the teachers' page is ready), and whether the manager is told of a reminder not acknowledged. Saved in one
transaction, so a bad value changes nothing."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from types import MappingProxyType

from PySide6.QtCore import QTime
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from core.channels import line_works_rooms, registry
from core.channels.line import LineApiError
from core.errors import ValidationError
from core.planning import unacknowledged
from core.planning.reminder_times import QUIET_MARGIN, QuietHours, reminder_due
from core.roster import clock
from core.roster.queries import ClassroomSettings
from core.setup import classrooms, line, teachers_page
from ui.common.widgets import StatusLabel, TimeField, form, note, report, row, stack
from ui.common.wrapped_text import keep_text_visible
from ui.services.context import AppContext


@dataclass(frozen=True)
class QuietExample:
    """A sample shift whose reminder falls in quiet hours, and where the planner's rule moves it."""

    shift: dt.time
    due: dt.time  # lead before the shift, inside quiet hours
    sent: dt.time  # what reminder_due returns
    days_before: int  # the sent time's local day, counted back from the shift's


def quiet_example(*, lead_minutes: int, quiet: QuietHours, zone_name: str, day: dt.date) -> QuietExample:
    """Run a sample shift through `reminder_due`, the function the planner calls, so the hint under
    quiet hours can only ever describe what the planner really does."""
    # Due at the last full hour inside quiet hours (06:00 for 22:00–07:00): an early shift, the
    # usual case a manager meets.
    end = dt.datetime.combine(day, quiet.end)
    wall = (end.replace(minute=0) - (dt.timedelta(hours=1) if quiet.end.minute == 0 else dt.timedelta())).time()
    if not quiet.contains(wall):
        wall = quiet.start
    lead = dt.timedelta(minutes=lead_minutes)
    start = clock.to_utc(day, wall, zone_name) + lead
    sent = reminder_due(start, lead=lead, zone_name=zone_name, quiet=quiet)
    local_start, local_sent = clock.local_now(start, zone_name), clock.local_now(sent, zone_name)
    return QuietExample(local_start.time(), clock.local_now(start - lead, zone_name).time(), local_sent.time(),
                        (local_start.date() - local_sent.date()).days)


class ClassroomSection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Classrooms"))
        self.ctx = ctx
        self._rooms: list[ClassroomSettings] = []
        self._nudges: dict[int, unacknowledged.NudgeSettings] = {}
        self._dirty = False  # unsaved edits: a reload must not overwrite them
        self._loading = False
        self._filling = False  # fields being set from the database, not typed by the manager
        layout = self._form = form(self)
        self.classroom = QComboBox(self)
        self.classroom.setObjectName("classroom")
        self.classroom.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.classroom.currentIndexChanged.connect(self._pick)
        self.empty = note(self.tr("There are no classrooms yet."), self)
        layout.addRow(self.tr("Classroom:"), stack(self.classroom, self.empty))

        self.group_id = QLineEdit(self)
        self.group_id.setObjectName("groupId")
        self.group_id.setPlaceholderText("C0123456789abcdef0123456789abcdef")
        self.check = QPushButton(self.tr("Check"), self)
        self.check.setObjectName("checkGroup")
        self.check.clicked.connect(self._check_group)
        self.group_status = StatusLabel(self)
        self.group_status.setObjectName("groupStatus")
        layout.addRow(self.tr("LINE group ID:"), stack(
            row(self.group_id, self.check),
            note(self.tr(
                "The teachers' LINE group, where each month's roster is posted. LINE hands out the group ID "
                "(a C followed by 32 letters and digits) only when your LINE Official Account joins the group, "
                "in the message it sends to the account's webhook; whoever set up the account can copy it "
                "from there. “Check” asks LINE whether the account is in that group."), self),
            self.group_status))

        # The classroom's LINE WORKS channel, while LINE WORKS is part of Shiftcast.
        self.works_room = QLineEdit(self)
        self.works_room.setObjectName("lineWorksRoom")
        self.works_room.setPlaceholderText(self.tr("Optional"))
        if registry.registered(line_works_rooms.KEY):
            layout.addRow(self.tr("LINE WORKS channel ID:"), stack(self.works_room, note(self.tr(
                "The LINE WORKS talk room (channel) where each month's roster is posted, for teachers on LINE "
                "WORKS. Invite the bot into the room; its channel ID is in the room's menu, or in the callback "
                "the bot receives when it joins."), self)))
        else:
            self.works_room.hide()

        self.lead = QSpinBox(self)
        self.lead.setObjectName("leadMinutes")
        self.lead.setRange(1, 24 * 60)
        self.lead.setSingleStep(15)
        self.lead.setSuffix(self.tr(" minutes before the shift"))
        layout.addRow(self.tr("Reminder:"), self.lead)

        self.quiet = QCheckBox(self.tr("No reminders between"), self)
        self.quiet.setObjectName("quietHours")
        self.quiet_start, self.quiet_end = TimeField(self), TimeField(self)
        self.quiet_start.setObjectName("quietStart")
        self.quiet_end.setObjectName("quietEnd")
        self.quiet.toggled.connect(self._quiet_toggled)
        self.quiet_hint = note("", self)
        self.quiet_hint.setObjectName("quietHint")
        layout.addRow(self.tr("Quiet hours:"), stack(
            row(self.quiet, self.quiet_start, QLabel(self.tr("and"), self), self.quiet_end, stretch_last=True),
            self.quiet_hint))
        for changed in (self.lead.valueChanged, self.quiet.toggled, self.quiet_start.textChanged,
                        self.quiet_end.textChanged):
            changed.connect(self._update_quiet_hint)

        self.language = QComboBox(self)
        self.language.setObjectName("messageLanguage")
        self.language.addItem("日本語", "ja")
        self.language.addItem("English", "en")
        layout.addRow(self.tr("Messages in:"), self.language)

        self.liff_id = QLineEdit(self)
        self.liff_id.setObjectName("liffId")
        self.liff_id.setPlaceholderText(self.tr("Optional"))
        # From before the teachers' page, kept for the classrooms that have one: while the page is ready its
        # classroom view is what the month opens inside LINE (core/sending/kinds/shift_publication.py).
        self.liff_note = note(self.tr(
            "Optional, from before the teachers' page: a LIFF app of your own that opens the roster inside LINE. "
            "The teachers' page (Settings → Teachers' page) is the way to open the month inside LINE: while it is "
            "on, the month opens there and this field is not used."), self)
        self.liff_row = stack(self.liff_id, self.liff_note)
        self.liff_row.setObjectName("liffRow")
        layout.addRow(self.tr("LIFF ID:"), self.liff_row)

        self.nudge = QCheckBox(self.tr("Tell me when a reminder is not acknowledged"), self)
        self.nudge.setObjectName("nudgeUnacknowledged")
        self.nudge_hours = QSpinBox(self)
        self.nudge_hours.setObjectName("nudgeHours")
        self.nudge_hours.setRange(1, 24)
        self.nudge_hours.setSuffix(self.tr(" hours before the shift"))
        layout.addRow(self.tr("Not acknowledged:"), stack(row(self.nudge, self.nudge_hours, stretch_last=True), note(self.tr(
            "With the 了解 button on (LINE section), a shift this soon whose reminder nobody acknowledged is "
            "listed in the readiness check, and, when ticked, told to you on LINE and by e-mail at the alerts' "
            "addresses (Alerts section)."), self)))

        self.save = QPushButton(self.tr("Save classroom settings"), self)
        self.save.setObjectName("saveClassroom")
        self.save.clicked.connect(self._save)
        self.status = StatusLabel(self)
        self.status.setObjectName("classroomStatus")
        layout.addRow("", stack(row(self.save, stretch_last=True), self.status))

        for signal in (self.group_id.textEdited, self.works_room.textEdited, self.liff_id.textEdited, self.lead.valueChanged,
                       self.quiet.toggled, self.quiet_start.textEdited, self.quiet_end.textEdited,
                       self.language.currentIndexChanged, self.nudge.toggled, self.nudge_hours.valueChanged):
            signal.connect(self._edited)
        self._set_enabled(False)
        self._update_quiet_hint()
        keep_text_visible(self)  # Qt's form layout would cut long notes and answers mid-sentence
        ctx.signals.roster_changed.connect(self.reload)
        ctx.bridge.settings_changed.connect(self.reload)  # the teachers' page turned on or off
        self.reload()

    # ----- loading -----

    def showEvent(self, event: QShowEvent) -> None:
        # Classrooms may have been added on another tab since; re-read them whenever Settings shows.
        super().showEvent(event)
        self.reload()

    def reload(self) -> None:
        if self._loading:
            return
        self._loading = True
        db = self.ctx.db
        self.ctx.tasks.run(lambda: (classrooms.with_nudges(db), teachers_page.read(db).ready), self._loaded,
                           self._load_failed, owner=self)

    def _load_failed(self, exc: BaseException) -> None:
        self._loading = False
        report(self, self.status, exc, self.ctx.paths)

    def _loaded(self, read: tuple[classrooms.Classrooms, bool]) -> None:
        self._loading = False
        found, page_ready = read
        self._form.setRowVisible(self.liff_row, not page_ready)
        current = self.selected()
        rooms, self._nudges = list(found.rooms), dict(found.nudges)
        self._rooms = rooms
        self._filling = True
        self.classroom.clear()
        for room in rooms:
            self.classroom.addItem(room.name, room.id)
        index = next((i for i, r in enumerate(rooms) if current is not None and r.id == current.id), 0)
        self.classroom.setCurrentIndex(index if rooms else -1)
        self._filling = False
        self.empty.setVisible(not rooms)
        self._set_enabled(bool(rooms))
        if rooms and not (self._dirty and current is not None and current.id == rooms[index].id):
            self._fill(rooms[index])

    def selected(self) -> ClassroomSettings | None:
        index = self.classroom.currentIndex()
        return self._rooms[index] if 0 <= index < len(self._rooms) else None

    def _pick(self, _index: int) -> None:
        room = self.selected()
        if room is not None and not self._filling:
            self._fill(room)

    def _fill(self, room: ClassroomSettings) -> None:
        self._filling = True
        self.group_id.setText(room.line_group_id)
        self.works_room.setText(room.room_on(line_works_rooms.KEY))
        self.lead.setValue(room.lead_minutes)
        self.quiet.setChecked(room.quiet_enabled)
        self.quiet_start.setTime(QTime(room.quiet_start.hour, room.quiet_start.minute))
        self.quiet_end.setTime(QTime(room.quiet_end.hour, room.quiet_end.minute))
        self.language.setCurrentIndex(max(self.language.findData(room.language), 0))
        self.liff_id.setText(room.liff_id)
        nudge = self._nudges.get(room.id, unacknowledged.NudgeSettings(False, unacknowledged.DEFAULT_HOURS))
        self.nudge.setChecked(nudge.tell_manager)
        self.nudge_hours.setValue(nudge.hours)
        self._quiet_toggled(room.quiet_enabled)
        self._update_quiet_hint()  # the zone may differ even where the times do not
        self.group_status.clear_status()
        self.status.clear_status()
        self._dirty = self._filling = False

    def _edited(self, *_args: object) -> None:
        if not self._filling:
            self._dirty = True

    def _set_enabled(self, enabled: bool) -> None:
        for widget in (self.classroom, self.group_id, self.works_room, self.check, self.lead, self.quiet, self.language,
                       self.liff_id, self.nudge, self.nudge_hours, self.save):
            widget.setEnabled(enabled)
        self._quiet_toggled(enabled and self.quiet.isChecked())

    def _quiet_toggled(self, on: bool) -> None:
        self.quiet_start.setEnabled(on)
        self.quiet_end.setEnabled(on)

    def _update_quiet_hint(self, *_args: object) -> None:
        lead = self.lead.value()
        if not self.quiet.isChecked():
            self.quiet_hint.setText(self.tr(
                "Off: each reminder goes out {0} minutes before its shift, at any hour of the day or night.")
                .format(lead))
            return
        margin = int(QUIET_MARGIN.total_seconds() // 60)
        try:
            quiet = QuietHours(self.quiet_start.wall_time(), self.quiet_end.wall_time())
        except ValidationError:  # a time still being typed: the rule without an example
            self.quiet_hint.setText(self.tr(
                "A reminder that would fall in quiet hours moves earlier, to {0} minutes before they begin.")
                .format(margin))
            return
        room = self.selected()
        zone_name = room.timezone if room is not None else "UTC"
        example = quiet_example(lead_minutes=lead, quiet=quiet, zone_name=zone_name,
                                day=clock.local_now(self.ctx.clock(), zone_name).date())
        values = (margin, example.shift.strftime("%H:%M"), example.due.strftime("%H:%M"),
                  example.sent.strftime("%H:%M"), example.days_before)
        if example.days_before == 0:
            text = self.tr("A reminder that would fall in quiet hours moves earlier, to {0} minutes before they "
                           "begin. Example: for a shift at {1}, the reminder due at {2} goes out at {3}.")
        elif example.days_before == 1:
            text = self.tr("A reminder that would fall in quiet hours moves earlier, to {0} minutes before they "
                           "begin. Example: for a shift at {1}, the reminder due at {2} goes out at {3} "
                           "the day before.")
        else:
            text = self.tr("A reminder that would fall in quiet hours moves earlier, to {0} minutes before they "
                           "begin. Example: for a shift at {1}, the reminder due at {2} goes out at {3}, "
                           "{4} days before.")
        self.quiet_hint.setText(text.format(*values))

    # ----- actions -----

    def _check_group(self) -> None:
        value = self.group_id.text()
        self.check.setEnabled(False)
        self.group_status.busy(self.tr("Asking LINE…"))
        self.ctx.tasks.run(lambda: line.check_group(self.ctx.db, value),
                           self._group_checked, self._group_failed, owner=self)

    def _group_checked(self, group: line.GroupCheck) -> None:
        self.check.setEnabled(True)
        if group.members is None:
            self.group_status.ok(self.tr("✓ The account is in the group “{0}”.").format(group.name))
        else:
            self.group_status.ok(self.tr("✓ The account is in the group “{0}” ({1} members).")
                                 .format(group.name, group.members))

    def _group_failed(self, exc: BaseException) -> None:
        self.check.setEnabled(True)
        if isinstance(exc, LineApiError) and exc.status == 404:
            self.group_status.problem(self.tr(
                "LINE says the account is not in this group. Invite the LINE Official Account into the "
                "teachers' group, or check the group ID."))
        elif isinstance(exc, LineApiError) and exc.status == 401:
            self.group_status.problem(self.tr(
                "LINE refused the channel access token; correct it in the LINE section above."))
        else:
            report(self, self.group_status, exc, self.ctx.paths)

    def _save(self) -> None:
        room = self.selected()
        if room is None:
            return
        try:
            quiet = ((self.quiet_start.wall_time(), self.quiet_end.wall_time())
                     if self.quiet.isChecked() else None)
        except ValidationError as exc:
            report(self, self.status, exc, self.ctx.paths)
            return
        rooms = ({line_works_rooms.KEY: self.works_room.text()} if registry.registered(line_works_rooms.KEY)
                 else {})
        change = classrooms.ClassroomChange(line_group_id=self.group_id.text(), reminder_lead_minutes=self.lead.value(),
                                            quiet_hours=quiet, language=self.language.currentData(),
                                            liff_id=self.liff_id.text(), rooms=MappingProxyType(rooms))
        self.save.setEnabled(False)
        self.status.busy(self.tr("Saving…"))
        nudge = unacknowledged.NudgeSettings(self.nudge.isChecked(), self.nudge_hours.value())
        self._nudges[room.id] = nudge
        self.ctx.tasks.run(lambda: classrooms.save(self.ctx.db, room.id, change, nudge), self._saved, self._save_failed,
                           owner=self)

    def _saved(self, room: ClassroomSettings) -> None:
        self.save.setEnabled(True)
        self._rooms = [room if r.id == room.id else r for r in self._rooms]
        if (shown := self.selected()) is not None and shown.id == room.id:
            self._fill(room)
        self.status.ok(self.tr("Saved."))
        self.ctx.bridge.settings_changed.emit()
        self.ctx.signals.roster_changed.emit()

    def _save_failed(self, exc: BaseException) -> None:
        self.save.setEnabled(True)
        report(self, self.status, exc, self.ctx.paths)
