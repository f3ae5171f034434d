"""Settings → Language and Data folder."""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QComboBox, QGroupBox, QLabel, QPushButton, QWidget

from core.app import window_prefs
from ui.common import i18n
from ui.common.widgets import StatusLabel, form, note, report, row, stack
from ui.services.context import AppContext

AUTOMATIC = window_prefs.AUTOMATIC_LANGUAGE


class LanguageSection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Language"))
        self.ctx = ctx
        layout = form(self)
        self.choice = QComboBox(self)
        self.choice.setObjectName("uiLanguage")
        self.choice.addItem(self.tr("Automatic (follow the system)"), AUTOMATIC)
        for code, name in i18n.LANGUAGES.items():  # each language under its own name
            self.choice.addItem(name, code)
        self.choice.setEnabled(False)
        # activated, not currentIndexChanged: only the manager's own choice is saved.
        self.choice.activated.connect(self._chosen)
        self.status = StatusLabel(self)
        self.status.setObjectName("languageStatus")
        layout.addRow(self.tr("Shiftcast's language:"), stack(row(self.choice, stretch_last=True), self.status, note(self.tr(
            "The language of the messages teachers receive is set per classroom above."), self)))
        ctx.tasks.run(lambda: window_prefs.language(ctx.db), self._loaded,
                      lambda exc: report(self, self.status, exc, self.ctx.paths), owner=self)

    def _loaded(self, choice: str) -> None:
        self.choice.setCurrentIndex(max(self.choice.findData(choice), 0))
        self.choice.setEnabled(True)

    def _chosen(self, _index: int) -> None:
        choice = str(self.choice.currentData())
        self.ctx.tasks.run(lambda: window_prefs.save_language(self.ctx.db, choice), self._saved,
                           lambda exc: report(self, self.status, exc, self.ctx.paths), owner=self)

    def _saved(self, _result: None) -> None:
        self.status.ok(self.tr("Saved. The new language applies the next time Shiftcast starts."))
        self.ctx.bridge.settings_changed.emit()


class DataFolderSection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Data folder"))
        self.ctx = ctx
        layout = form(self)
        path = QLabel(str(ctx.paths.home), self)
        path.setObjectName("dataFolder")
        path.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open = QPushButton(self.tr("Open"), self)
        self.open.clicked.connect(self._open)
        layout.addRow(self.tr("Location:"), stack(row(path, self.open), note(self.tr(
            "Everything Shiftcast keeps is in this folder: the database, the roster images and the log. "
            "Before every upgrade the database is copied into its “backups” folder (the last ten "
            "copies are kept). To back up by hand, copy the whole folder while Shiftcast is closed."), self)))

    def _open(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.ctx.paths.home)))
