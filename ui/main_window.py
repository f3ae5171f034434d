"""The main window. For now a welcome screen over the data folder; the roster, publish, deliveries and
settings areas arrive as their own modules."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMainWindow, QVBoxLayout, QWidget

from core.paths import DataPaths
from core.version import __version__


class MainWindow(QMainWindow):
    def __init__(self, paths: DataPaths, summary: str) -> None:
        super().__init__()
        self.setWindowTitle(f"Shiftcast {__version__}")
        self.resize(960, 640)
        body = QWidget(self)
        layout = QVBoxLayout(body)
        title = QLabel(self.tr("Shiftcast"), body)
        title.setObjectName("title")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = title.font()
        font.setPointSize(font.pointSize() * 2)
        title.setFont(font)
        self.summary = QLabel(summary, body)
        self.summary.setObjectName("summary")
        self.summary.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addStretch(1)
        layout.addWidget(title)
        layout.addWidget(self.summary)
        layout.addStretch(2)
        self.setCentralWidget(body)
        self.statusBar().showMessage(self.tr("Data folder: {}").format(paths.home))
