"""The strip at the top of the main window that shows every open alert (core/alerts.py): hidden while
nothing needs the manager, otherwise one line per incident with a button to where it is dealt with.

It is read again when an alert is raised, a few seconds after deliveries change (a sender draining a
backlog must not make it query the database for every batch), and once a minute, which is how an
incident that cleared itself disappears.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.app import open_alerts
from core.app.open_alerts import OpenAlert
from core.store.kinds import AlertKind
from ui.common import i18n
from ui.common.phrases import PhraseLabel
from ui.services.context import AppContext

DEBOUNCE_MS = 3_000  # at most one read per this many milliseconds while deliveries keep changing
POLL_MS = 60_000
# A warm strip with dark text: readable whatever the palette, light or dark.
BACKGROUND = "#fff3cd"
BORDER = "#e0b252"
TEXT = "#5c3c00"


def read_open_alerts(ctx: AppContext) -> list[OpenAlert]:
    return list(open_alerts.open_alerts(ctx.db, i18n.current()))


class AlertsBanner(QFrame):
    deliveries_wanted = Signal(bool)  # show the Deliveries tab; True: only the dead letters
    settings_wanted = Signal(str)  # show the settings of this channel ("line", "email")

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("alertsBanner")
        self.setStyleSheet(f"#alertsBanner {{ background: {BACKGROUND}; border-bottom: 1px solid {BORDER}; }}"
                           f"#alertsBanner QLabel {{ color: {TEXT}; }}")
        self.rows = QVBoxLayout(self)
        self.rows.setContentsMargins(10, 6, 10, 6)
        self.rows.setSpacing(6)
        self.alerts: list[OpenAlert] = []
        self.buttons: list[QPushButton] = []  # one per alert shown, in order
        self._loading = False
        self._again = False
        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._debounce.timeout.connect(self.refresh)
        self._poll = QTimer(self, interval=POLL_MS)
        self._poll.timeout.connect(self.refresh)
        self._poll.start()
        # Bound methods: Qt drops these connections when the banner is deleted.
        ctx.bridge.alert.connect(self._alert_raised)
        ctx.bridge.deliveries_changed.connect(self._deliveries_changed)
        ctx.bridge.hold_changed.connect(self._hold_changed)
        ctx.bridge.settings_changed.connect(self._soon)
        self.hide()
        self.refresh()

    # ----- when to read -----

    def _alert_raised(self, _code: str, _text: str) -> None:
        self.refresh()

    def _hold_changed(self, _reason: object) -> None:
        self._soon()

    def _deliveries_changed(self, _ids: list[int]) -> None:
        self._soon()

    def _soon(self) -> None:
        if not self._debounce.isActive():  # a burst of changes costs one read, not one each
            self._debounce.start()

    def refresh(self) -> None:
        if self._loading:  # one read at a time; the latest request is served when it ends
            self._again = True
            return
        self._loading = True
        ctx = self.ctx
        ctx.tasks.run(lambda: read_open_alerts(ctx), self._loaded, self._failed, owner=self)

    def _loaded(self, found: list[OpenAlert]) -> None:
        self._loading = False
        if found != self.alerts:
            self._show(found)
        self.setVisible(bool(found))
        if self._again:
            self._again = False
            self.refresh()

    def _failed(self, _exc: BaseException) -> None:  # a busy database now and then: the next read will do
        self._loading = False

    # ----- showing -----

    def _show(self, found: list[OpenAlert]) -> None:
        self.alerts = found
        self.buttons = []
        while self.rows.count():
            item = self.rows.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        for alert in found:
            self.rows.addWidget(self._row(alert))

    def _row(self, alert: OpenAlert) -> QWidget:
        box = QWidget(self)
        line = QHBoxLayout(box)
        line.setContentsMargins(0, 0, 0, 0)
        text = PhraseLabel("⚠ " + alert.text, box)
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.PlainText)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        line.addWidget(text, 1)
        button = QPushButton(box)
        if alert.kind is AlertKind.CHANNEL_HELD:
            button.setText(self.tr("Open Settings"))
            button.clicked.connect(lambda: self.settings_wanted.emit(alert.scope))
        elif alert.kind is AlertKind.DEAD_LETTER:
            button.setText(self.tr("Show dead letters"))
            button.clicked.connect(lambda: self.deliveries_wanted.emit(True))
        else:
            button.setText(self.tr("Show deliveries"))
            button.clicked.connect(lambda: self.deliveries_wanted.emit(False))
        button.setProperty("alertKind", alert.kind.value)  # for tests and accessibility tools
        self.buttons.append(button)
        line.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
        return box
