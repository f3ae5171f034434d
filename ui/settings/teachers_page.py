"""Settings → Teachers' page: the same fields as Connect LINE's step (ui/connect_line/teachers_page.py),
and, under the opt-in, how the month goes to LINE groups while the page is on (core/setup/month_as_button.py);
saved with Save; read and saved on `ctx.tasks`. Under them the menu under the chat (ui/settings/rich_menu_row.py),
set at once when Save turns the page on."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QCheckBox, QGroupBox, QPushButton, QVBoxLayout, QWidget

from core.setup import month_as_button, teachers_page
from core.setup.teachers_page import PageSettings
from ui.common.widgets import StatusLabel, report, row, stack
from ui.common.wrapped_text import keep_text_visible
from ui.connect_line.teachers_page import PageFields, show_relay_settings
from ui.services.context import AppContext
from ui.settings.rich_menu_row import RichMenuRow


class TeachersPageSection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Teachers' page"))
        self.setObjectName("teachersPageSection")
        self.ctx = ctx
        self.fields = PageFields(self)
        self.fields.edited.connect(self._edited)
        self.fields.relay_wanted.connect(show_relay_settings)
        self.as_button = QCheckBox(self.tr(
            "Send the month to the group as a button to the teachers' page instead of pictures "
            "(the month's pictures are not put online)"), self)
        self.as_button.setObjectName("pageMonthAsButton")
        self.as_button.toggled.connect(lambda _on: self._edited())
        self.fields.enabled.toggled.connect(self.as_button.setEnabled)  # it means something only with the page on
        self.as_button.setEnabled(False)
        self._as_button_saved: bool | None = None
        self.save = QPushButton(self.tr("Save"), self)
        self.save.setObjectName("pageSave")
        self.save.setEnabled(False)
        self.save.clicked.connect(self._save)
        self.status = StatusLabel(self)
        self.status.setObjectName("pageStatus")
        self.menu = RichMenuRow(ctx, self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.fields)
        layout.addWidget(self.as_button)
        layout.addWidget(stack(row(self.save, stretch_last=True), self.status))
        layout.addWidget(self.menu)
        self._fitting = False
        ctx.bridge.settings_changed.connect(self.reload)  # a relay attached or removed changes the endpoint
        self.reload()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._fitting:  # once laid out at the page's width (ui/connect_line/teachers_page.py says why)
            self._fitting = True
            QTimer.singleShot(0, self, lambda: keep_text_visible(self))

    def reload(self) -> None:
        db = self.ctx.db
        self.ctx.tasks.run(lambda: (teachers_page.read(db), month_as_button.read(db)), self._loaded, self._failed,
                           owner=self)

    def _loaded(self, read: tuple[PageSettings, bool]) -> None:
        saved, as_button = read
        if not self._as_button_changed():  # keep what is being ticked
            self.as_button.setChecked(as_button)
        self._as_button_saved = as_button
        if self.fields.saved is not None and self.fields.saved.relay_url != saved.relay_url and self.fields.changed():
            # Keep what is being typed; only the relay's part follows.
            saved = PageSettings(self.fields.channel_id.text(), self.fields.liff_id.text(),
                                 self.fields.enabled.isChecked(), saved.relay_url)
        self.fields.show_settings(saved)
        self.as_button.setEnabled(self.fields.enabled.isChecked())
        self._edited()

    def _as_button_changed(self) -> bool:
        return self._as_button_saved is not None and self.as_button.isChecked() != self._as_button_saved

    def _edited(self) -> None:
        self.save.setEnabled(self.fields.changed() or self._as_button_changed())

    def _save(self) -> None:
        self.save.setEnabled(False)
        self.status.busy(self.tr("Saving…"))
        fields, ctx, as_button = self.fields, self.ctx, self.as_button.isChecked()
        was_ready = fields.saved is not None and fields.saved.ready
        was_liff = fields.saved.liff_id if fields.saved is not None else None
        ctx.tasks.run(lambda: (fields.save(ctx), month_as_button.save(ctx.db, as_button)),
                      lambda done: self._saved(done, was_ready=was_ready, was_liff=was_liff), self._failed, owner=self)

    def _saved(self, done: tuple[PageSettings, bool], *, was_ready: bool, was_liff: str | None = None) -> None:
        saved, self._as_button_saved = done
        self.fields.show_settings(saved)
        self.as_button.setEnabled(saved.enabled)
        self.status.ok(self.tr("Saved. The teachers' page is on.") if saved.ready else self.tr("Saved."))
        self.ctx.bridge.settings_changed.emit()
        if saved.ready and not was_ready:
            self.menu.page_turned_on()  # the menu is what brings teachers to the page: set it at once
        elif saved.ready and saved.liff_id != was_liff:
            self.menu.page_moved()

    def _failed(self, exc: BaseException) -> None:
        self._edited()
        report(self, self.status, exc, self.ctx.paths)
