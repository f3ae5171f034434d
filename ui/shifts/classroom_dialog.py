"""Adding a classroom from the Shifts area: a name, its time zone, and optionally its LINE group.

Only what a first roster needs; reminder lead time and quiet hours keep core's defaults and can be
changed in Settings later.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from core.errors import ValidationError
from ui.common.form_dialog import SubmitDialog
from ui.common.phrases import PhraseLabel

# The zones a Japanese classroom (or its online branch) is likely to use; any IANA name may be typed.
COMMON_ZONES = ("Asia/Tokyo", "UTC", "Asia/Seoul", "Asia/Taipei", "Asia/Shanghai", "Asia/Singapore",
                "Australia/Sydney", "Europe/London", "America/Los_Angeles", "America/New_York")


@dataclass(frozen=True)
class ClassroomValues:
    name: str
    timezone: str
    line_group_id: str | None


class ClassroomDialog(SubmitDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Add classroom"))
        self.setMinimumWidth(420)
        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("e.g. 本校, Ekimae branch"))
        self.name.setMaxLength(200)
        self.timezone = QComboBox(self)
        self.timezone.setEditable(True)
        self.timezone.addItems(COMMON_ZONES)
        self.timezone.setCurrentText("Asia/Tokyo")
        self.timezone.setToolTip(self.tr("Shift times are written in this zone's wall time."))
        self.group = QLineEdit(self)
        self.group.setPlaceholderText(self.tr("optional: C followed by 32 hex digits"))
        self.group.setToolTip(self.tr("The teachers' LINE group the month's roster is posted to. "
                                      "It can be added later in Settings."))
        form = QFormLayout()
        form.addRow(self.tr("&Name:"), self.name)
        form.addRow(self.tr("&Time zone:"), self.timezone)
        form.addRow(self.tr("LINE &group ID:"), self.group)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        hint = PhraseLabel(self.tr("Reminder time and quiet hours start with the usual values (2 hours before, "
                              "quiet 22:00–7:00) and can be changed in Settings."), self)
        hint.setWordWrap(True)
        layout.addWidget(hint)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.buttons.button(self.buttons.StandardButton.Ok).setText(self.tr("Add"))
        self.name.setFocus()

    def collect(self) -> ClassroomValues:
        name = self.name.text().strip()
        if not name:
            raise ValidationError(self.tr("Give the classroom a name."))
        return ClassroomValues(name, self.timezone.currentText().strip(), self.group.text().strip() or None)
