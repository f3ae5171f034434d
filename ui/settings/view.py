"""The Settings tab: one scrolling page of sections, each in its own module (ui/settings/*.py).

Every section loads and saves through `ctx.tasks`, so the page opens at once and the keyring, the
database and LINE are only touched off the UI thread. Saves emit `ctx.bridge.settings_changed`.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QFrame, QHBoxLayout, QScrollArea, QVBoxLayout, QWidget

from ui.readiness.panel import ReadinessPanel
from ui.services.context import AppContext
from ui.settings.autostart import AutostartSection
from ui.settings.classrooms import ClassroomSection
from ui.settings.database import DatabaseSection
from ui.settings.email_alerts import AlertsSection, EmailSection
from ui.settings.general import DataFolderSection, LanguageSection
from ui.settings.hosting import HostingSection
from ui.settings.line import LineSection
from ui.settings.line_works import LineWorksSection
from ui.settings.relay import RelaySection
from ui.settings.teachers_page import TeachersPageSection

# Long lines of explanation are hard to read on a wide window; the page keeps a comfortable width.
PAGE_WIDTH = 820


class SettingsView(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.line = LineSection(ctx)
        self.line_works = LineWorksSection(ctx)
        self.email = EmailSection(ctx)
        self.alerts = AlertsSection(ctx)
        self.classrooms = ClassroomSection(ctx)
        self.hosting = HostingSection(ctx)
        self.relay = RelaySection(ctx)
        self.teachers_page = TeachersPageSection(ctx)
        self.language = LanguageSection(ctx)
        self.data_folder = DataFolderSection(ctx)
        self.autostart = AutostartSection(ctx)
        self.database = DatabaseSection(ctx)
        self.readiness = ReadinessPanel(ctx)

        page = QWidget()
        column = QVBoxLayout()
        column.setSpacing(12)
        for section in (self.readiness, self.line, self.line_works, self.email, self.alerts, self.classrooms, self.hosting, self.relay,
                        self.teachers_page, self.autostart, self.language,
                        self.data_folder, self.database):
            column.addWidget(section)
        column.addStretch(1)
        page.setMaximumWidth(PAGE_WIDTH)
        page.setLayout(column)
        centred = QWidget()
        row = QHBoxLayout(centred)
        # The page takes the room up to its width; what is left is shared by the margins either side.
        row.addStretch(1)
        row.addWidget(page, 10)
        row.addStretch(1)

        self.page_scroll = scroll = QScrollArea(self)
        self._scrolled = centred
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(centred)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)

    def show_section(self, name: str) -> None:
        """Scroll to a section: a channel's ("line" or "email", e.g. from an alert about it), "hosting",
        "autostart" or "classrooms" (from the readiness panel)."""
        sections: dict[str, QWidget] = {"email": self.email, "hosting": self.hosting, "autostart": self.autostart,
                                        "classrooms": self.classrooms, "relay": self.relay,
                                        "line_works": self.line_works, "teachers_page": self.teachers_page}
        section = sections.get(name, self.line)
        self.page_scroll.verticalScrollBar().setValue(section.mapTo(self._scrolled, QPoint(0, 0)).y())
