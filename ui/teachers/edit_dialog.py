"""One teacher's details: name, contacts, consents, how they are reached (LINE, e-mail, both, or LINE with
e-mail when LINE cannot reach them), the LINE user ID with a way to check or find it, and the classrooms
they belong to (a tick each; a new teacher starts in the classroom the Shifts area shows).

LINE and e-mail keep their own rows (LINE's with Check and Pick); every other registered channel a
teacher has an address on (core/channels/registry.py `with_addresses`) gets an address row and a
consent tick of its own, built from its driver."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from core.channels import registry
from core.errors import ValidationError
from core.roster import channel_choice, contacts, ids, limits, rules
from core.roster.limits import Limits, SlotName
from core.roster.patterns import Pattern
from core.roster.queries import TeacherRecord
from core.store.kinds import Channel
from ui.common import i18n
from ui.common.errors import message_for
from ui.common.form_dialog import SubmitDialog
from ui.common.widgets import PROBLEM_COLOR, sentence
from ui.common.wrapped_text import keep_text_visible
from ui.services.context import AppContext
from ui.teachers.calendar_row import CalendarRow
from ui.teachers.friends_dialog import FriendsDialog
from ui.teachers.limits import LimitsEditor
from ui.teachers.line import display_name, explain
from ui.teachers.patterns import PatternsEditor


def channel_labels() -> dict[str, str]:
    """The "Send to" choices in the manager's words (the dialog's list and the teachers table)."""
    return {
        "line": QCoreApplication.translate("TeacherChannel", "LINE"),
        "email": QCoreApplication.translate("TeacherChannel", "E-mail"),
        "both": QCoreApplication.translate("TeacherChannel", "LINE and e-mail"),
        "line_fallback": QCoreApplication.translate("TeacherChannel", "LINE, e-mail if LINE cannot reach them"),
    } | {driver.key: i18n.render(driver.label) for driver in _other_drivers()}


def _other_drivers() -> list[Any]:
    """The registered channels with an address to type, besides LINE and e-mail (which have their own rows)."""
    return [d for d in registry.with_addresses() if d.key not in (Channel.LINE, Channel.EMAIL)]


def _agreed(edit: QLineEdit, tick: QCheckBox | None) -> bool:
    """The tick where the channel needs the teacher's consent; else an address is agreement enough."""
    return tick.isChecked() if tick is not None else bool(edit.text().strip())


def unreachable_text() -> str:
    return QCoreApplication.translate(
        "TeacherChannel", "LINE cannot reach this teacher (not a friend of the account, or blocked).")


@dataclass(frozen=True)
class TeacherValues:
    name: str
    email: str | None
    line_user_id: str | None
    line_opt_in: bool
    email_opt_in: bool
    active: bool
    channel: str = channel_choice.LINE.word
    others: Mapping[str, tuple[str | None, bool]] = field(default_factory=dict)  # key → (address, agreed)
    reading: str | None = None  # ふりがな: the order teachers are listed in
    patterns: tuple[Pattern, ...] = ()  # their weekly slots, saved apart (core.roster.patterns.set_teacher_patterns)
    classroom_ids: tuple[int, ...] | None = None  # the classrooms they belong to; None: no classroom to choose
    limits: Limits = limits.NONE  # their limits and wishes, saved apart (core.roster.limits.set_limits)

    def as_kwargs(self) -> dict[str, Any]:
        """What core.roster.rules.create_teacher / update_teacher take."""
        values = dict(self.__dict__)
        values.pop("patterns")
        values.pop("limits")
        if values["classroom_ids"] is None:
            values.pop("classroom_ids")
        others = values.pop("others")
        values["contacts_in"] = {key: rules.ContactChange(address, agreed) for key, (address, agreed) in others.items()}
        return values


class TeacherEditDialog(SubmitDialog):
    def __init__(self, ctx: AppContext, record: TeacherRecord | None = None, *,
                 taken: Mapping[str, str] | None = None, classrooms: Sequence[tuple[int, str]] = (),
                 classroom_id: int | None = None, limits: Limits = limits.NONE, slots: Sequence[SlotName] = (),
                 parent: QWidget | None = None) -> None:
        """`taken`: LINE user IDs of the other teachers → their names (the friends list marks them);
        `classrooms`: (id, name) of every classroom, for the ticks and the weekly patterns; `classroom_id`:
        the classroom chosen in the Shifts area, which a new teacher joins unless unticked; `limits`: the
        teacher's limits and wishes; `slots`: every classroom's lesson slots, to tick those they can teach."""
        super().__init__(parent)
        self.ctx = ctx
        self.record = record
        self.taken = dict(taken or {})
        self.friends_dialog: FriendsDialog | None = None
        self.setWindowTitle(self.tr("Edit teacher") if record else self.tr("Add teacher"))
        self.setMinimumWidth(520)

        self.name = QLineEdit(record.name if record else "", self)
        self.name.setMaxLength(200)
        self.reading = QLineEdit(record.reading if record else "", self)
        self.reading.setMaxLength(200)
        self.reading.setPlaceholderText(self.tr("e.g. さとう はなこ (optional; teachers are listed by it)"))
        self.email = QLineEdit(record.email if record else "", self)
        self.email.setPlaceholderText(self.tr("optional"))
        self.line_id = QLineEdit(record.line_user_id if record else "", self)
        self.line_id.setPlaceholderText(self.tr("U followed by 32 hex digits (optional)"))
        self.line_id.setToolTip(self.tr("Not the LINE ID people search for: the user ID LINE gives this account. "
                                        "Teachers cannot see it themselves; use Pick or Check."))
        self.check_button = QPushButton(self.tr("&Check"), self)
        self.check_button.setToolTip(self.tr("Ask LINE whose ID this is"))
        self.check_button.setAutoDefault(False)
        self.check_button.clicked.connect(self.check)
        self.pick_button = QPushButton(self.tr("&Pick from the account's friends…"), self)
        self.pick_button.setAutoDefault(False)
        self.pick_button.clicked.connect(self.pick)
        self.line_result = QLabel(self)
        self.line_result.setWordWrap(True)
        self.line_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.line_id.textEdited.connect(lambda _text: self.line_result.clear())

        self.line_opt_in = QCheckBox(self.tr("Send LINE messages (the teacher agreed)"), self)
        self.line_opt_in.setChecked(record.line_opt_in if record else False)
        self.email_opt_in = QCheckBox(self.tr("Send e-mails (the teacher agreed)"), self)
        self.email_opt_in.setChecked(record.email_opt_in if record else False)
        self.active = QCheckBox(self.tr("Active: can be given shifts"), self)
        self.active.setChecked(record.active if record else True)
        # A channel that needs no consent (LINE WORKS: the company's own directory) has no tick: an
        # address is all it takes.
        self.others: dict[str, tuple[QLineEdit, QCheckBox | None]] = {}
        for driver in _other_drivers():
            address, agreed = record.others.get(driver.key, ("", False)) if record else ("", False)
            edit = QLineEdit(address, self)
            edit.setPlaceholderText(self.tr("optional"))
            tick = None
            if driver.needs_consent:
                tick = QCheckBox(self.tr("Send by {0} (the teacher agreed)").format(i18n.render(driver.label)), self)
                tick.setChecked(agreed)
            self.others[driver.key] = (edit, tick)
        self.channel = QComboBox(self)
        for value, label in channel_labels().items():
            self.channel.addItem(label, value)
        if record is not None and self.channel.findData(record.channel) < 0:
            self.channel.addItem(record.channel, record.channel)  # a combination chosen elsewhere (CSV, CLI)
        self.channel.setCurrentIndex(max(self.channel.findData(record.channel if record else channel_choice.LINE.word), 0))
        self.channel_hint = QLabel(self)
        self.channel_hint.setWordWrap(True)
        self.channel_hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # quiet unless it warns
        self.channel_hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        for changed in (self.line_opt_in.toggled, self.email_opt_in.toggled, self.active.toggled):
            changed.connect(self._update_hint)
        for edited in (self.email.textChanged, self.line_id.textChanged):
            edited.connect(self._update_hint)
        for edit, tick in self.others.values():
            edit.textChanged.connect(self._update_hint)
            if tick is not None:
                tick.toggled.connect(self._update_hint)
        self.channel.currentIndexChanged.connect(self._update_hint)
        self.weekly = PatternsEditor(classrooms, record.patterns if record else (), self)
        joined = record.classroom_ids if record else {c for c, _ in classrooms if c == classroom_id or len(classrooms) == 1}
        self.classroom_boxes: dict[int, QCheckBox] = {}
        rooms = QGridLayout()
        rooms.setContentsMargins(0, 0, 0, 0)
        for n, (room_id, room_name) in enumerate(classrooms):
            box = QCheckBox(room_name, self)
            box.setChecked(room_id in joined)
            self.classroom_boxes[room_id] = box
            rooms.addWidget(box, n // 3, n % 3)  # three a row: a chain's classrooms stay inside a small screen

        line_row = QHBoxLayout()
        line_row.addWidget(self.line_id, 1)
        line_row.addWidget(self.check_button)
        form = QFormLayout()
        form.addRow(self.tr("&Name:"), self.name)
        form.addRow(self.tr("&Reading:"), self.reading)
        form.addRow(self.tr("&E-mail:"), self.email)
        line_label = QLabel(self.tr("&LINE user ID:"), self)
        line_label.setBuddy(self.line_id)  # a row holding a layout gets no buddy, so no mnemonic, by itself
        form.addRow(line_label, line_row)
        form.addRow("", self.pick_button)
        form.addRow("", self.line_result)
        for key, (edit, _tick) in self.others.items():
            form.addRow(i18n.render(registry.driver(key).label) + ":", edit)
        form.addRow(self.tr("Notifications:"), self.line_opt_in)
        form.addRow("", self.email_opt_in)
        for _edit, tick in self.others.values():
            if tick is not None:
                form.addRow("", tick)
        form.addRow("", self.active)
        form.addRow(self.tr("Send &to:"), self.channel)
        form.addRow("", self.channel_hint)
        # The teacher's calendar address, for a teacher saved already and only while the page serves it.
        self.calendar_row: CalendarRow | None = None
        if record is not None:
            self.calendar_row = CalendarRow(ctx, record.id, self)
            form.addRow(self.tr("Calendar address:"), self.calendar_row)
            form.setRowVisible(self.calendar_row, False)
            self.calendar_row.offered.connect(lambda shown: self._show_calendar(form, shown))
            self.calendar_row.start()
        if self.classroom_boxes:
            form.addRow(self.tr("Classrooms:"), rooms)
        form.addRow(self.tr("&Weekly:"), self.weekly)
        details = QWidget(self)
        QVBoxLayout(details).addLayout(form)
        self.limits_editor = LimitsEditor(limits, slots, self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(details, self.tr("Teacher"))
        self.tabs.addTab(self.limits_editor, self.tr("Limits and wishes"))
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.buttons.button(self.buttons.StandardButton.Ok).setText(self.tr("Save") if record else self.tr("Add"))
        if record is not None and record.line_unreachable:
            self.line_result.setText(unreachable_text())
        self._update_hint()
        keep_text_visible(self)  # LINE's answers and the warning below can be several lines long
        self.name.setFocus()

    def _show_calendar(self, form: QFormLayout, shown: bool) -> None:
        if self.calendar_row is not None:
            form.setRowVisible(self.calendar_row, shown)

    def _update_hint(self) -> None:
        """Say so when the choice and the consents leave the teacher with no way to be reached."""
        if not self.active.isChecked():
            self.channel_hint.clear()
            self.channel_hint.hide()
            return
        try:
            choice = channel_choice.parse(str(self.channel.currentData()))
        except ValidationError:
            choice = channel_choice.LINE
        unreachable = bool(self.record and self.record.line_unreachable
                           and self.line_id.text().strip() == self.record.line_user_id)
        typed: dict[str, tuple[str, bool]] = {Channel.LINE: (self.line_id.text().strip(), self.line_opt_in.isChecked()),
                 Channel.EMAIL: (self.email.text().strip(), self.email_opt_in.isChecked())}
        typed |= {key: (edit.text().strip(), _agreed(edit, tick)) for key, (edit, tick) in self.others.items()}
        started = self.record is not None or any(
            address or agreed for address, agreed in typed.values())  # a blank new teacher is not warned about yet
        # The teacher's contacts as they would be saved, through the same rule the planner applies.
        drafts = [SimpleNamespace(channel=key, address=address or None, agreed_at=True if agreed else None,
                                  unreachable_since=True if key == Channel.LINE and unreachable else None,
                                  rank=choice.channels.index(key) if key in choice.channels else None)
                  for key, (address, agreed) in typed.items()]
        reached = contacts.planned(choice.rule, drafts)
        if reached or not started:
            self.channel_hint.setStyleSheet("")
            self.channel_hint.setText(self.tr("Messages go only by the ways the teacher agreed to above."))
        else:
            self.channel_hint.setStyleSheet(f"color: {PROBLEM_COLOR};")
            self.channel_hint.setText(self.tr(
                "With these choices this teacher gets no messages: LINE needs a user ID and the teacher's "
                "agreement, e-mail an address and the teacher's agreement."))
        self.channel_hint.show()

    # ----- LINE -----

    def check(self) -> None:
        try:
            user_id = ids.line_user_id(self.line_id.text())
        except ValidationError as exc:
            self.line_result.setText(i18n.describe(exc))
            return
        if user_id is None:
            self.line_result.setText(self.tr("Type a LINE user ID first, or pick one from the account's friends."))
            return
        self.line_result.setText(self.tr("Asking LINE…"))
        self.check_button.setEnabled(False)
        db = self.ctx.db
        self.ctx.tasks.run(lambda: display_name(db, user_id), self._checked, self._check_failed, owner=self)

    def _checked(self, name: str) -> None:
        self.check_button.setEnabled(True)
        self.line_result.setText(self.tr("LINE name: {0}").format(name))

    def _check_failed(self, exc: BaseException) -> None:
        self.check_button.setEnabled(True)
        self.line_result.setText(explain(exc) or sentence(message_for(exc)) or self.tr("LINE could not be asked."))

    def pick(self) -> None:
        own = self.record.line_user_id if self.record else ""
        taken = {uid: name for uid, name in self.taken.items() if uid != own}
        dialog = FriendsDialog(self.ctx, taken, self)
        self.friends_dialog = dialog
        dialog.picked.connect(self._picked)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        dialog.start()

    def _picked(self, user_id: str, name: str) -> None:
        self.line_id.setText(user_id)
        self.line_result.setText(self.tr("LINE name: {0}").format(name))
        if not self.name.text().strip():
            self.name.setText(name)

    # ----- saving -----

    def collect(self) -> TeacherValues:
        name = self.name.text().strip()
        if not name:
            self.tabs.setCurrentIndex(0)
            raise ValidationError(self.tr("The teacher needs a name."))
        try:
            chosen = self.limits_editor.limits()
        except ValidationError:
            self.tabs.setCurrentWidget(self.limits_editor)  # the reason shows beside the fields it is about
            raise
        return TeacherValues(
            name=name,
            email=self.email.text().strip() or None,
            line_user_id=self.line_id.text().strip() or None,
            line_opt_in=self.line_opt_in.isChecked(),
            email_opt_in=self.email_opt_in.isChecked(),
            active=self.active.isChecked(),
            channel=str(self.channel.currentData()),
            others={key: (edit.text().strip() or None, _agreed(edit, tick)) for key, (edit, tick) in self.others.items()},
            reading=self.reading.text().strip() or None,
            patterns=self.weekly.weekly(),
            classroom_ids=tuple(c for c, box in self.classroom_boxes.items() if box.isChecked())
            if self.classroom_boxes else None,
            limits=chosen,
        )
