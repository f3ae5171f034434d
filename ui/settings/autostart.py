"""Settings → Start at login: the tray sender starts with the computer, so reminders go out even
when nobody opened the window."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QGroupBox, QWidget

from core.app import autostart
from ui.common.widgets import StatusLabel, form, note, report, stack
from ui.services.context import AppContext


class AutostartSection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Start at login"))
        self.ctx = ctx
        layout = form(self)
        self.enabled = QCheckBox(self.tr("Start Shiftcast in the system tray when I log in"), self)
        self.enabled.setObjectName("startAtLogin")
        self.enabled.setEnabled(False)
        self.enabled.clicked.connect(self._toggled)
        self.status = StatusLabel(self)
        layout.addRow(stack(self.enabled, self.status, note(self.tr(
            "Recommended: reminders are sent by Shiftcast on this computer, so it should be running "
            "whenever the computer is on. It starts quietly in the tray, without opening the window."), self)))
        ctx.tasks.run(autostart.is_enabled, self._loaded,
                      lambda exc: report(self, self.status, exc, self.ctx.paths), owner=self)

    def _loaded(self, enabled: bool) -> None:
        self.enabled.setChecked(enabled)
        self.enabled.setEnabled(True)

    def _toggled(self, checked: bool) -> None:
        def apply() -> bool:
            if checked:
                autostart.enable(autostart.command_for_this_app())
            else:
                autostart.disable()
            return autostart.is_enabled()

        self.enabled.setEnabled(False)
        self.ctx.tasks.run(apply, self._applied, self._failed, owner=self)

    def _applied(self, enabled: bool) -> None:
        self.enabled.setChecked(enabled)
        self.enabled.setEnabled(True)
        self.status.ok(self.tr("Shiftcast will start at login.") if enabled
                       else self.tr("Shiftcast will not start at login."))
        self.ctx.bridge.settings_changed.emit()  # the readiness panels say whether it starts at login

    def _failed(self, exc: BaseException) -> None:
        self.enabled.setEnabled(True)
        self._loaded(autostart.is_enabled())
        report(self, self.status, exc, self.ctx.paths)
