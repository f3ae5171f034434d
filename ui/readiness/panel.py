"""The readiness panel: the requirements read through a task, one row each, refreshed when the
bridge or another screen says something changed.

It only shows. What a button opens is the window's to decide: the panel says which fix was asked
for (`fix_wanted`, a core/setup/readiness.py Fix value) and MainWindow.open_fix opens it.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.app import autostart
from core.setup import readiness
from core.setup.readiness import Fix, Requirement, State
from core.texts import t
from ui.common import i18n
from ui.common.errors import message_for
from ui.common.phrases import PhraseLabel
from ui.common.widgets import sentence
from ui.services.context import AppContext

REFRESH_DELAY_MS = 300  # a burst of changes reads once
ROWS_HEIGHT = 170  # px at most above Publish; more scrolls, so the Publish area still fits a 1366×768 screen
# Where nothing else needs the height (Settings, the first start), every row shows: eight rows in Japanese,
# whose fix buttons make them taller, take about 215 px.
ROWS_HEIGHT_ROOMY = 320
ROWS_MINIMUM = 36  # px: one row and a scroll bar
SHOWN_DETAILS = 3  # the teachers or classrooms named on the row; the rest in its tooltip

MARKS = {State.OK: QStyle.StandardPixmap.SP_DialogApplyButton,
         State.WARNING: QStyle.StandardPixmap.SP_MessageBoxWarning,
         State.BLOCKING: QStyle.StandardPixmap.SP_MessageBoxCritical}


def read(ctx: AppContext) -> list[Requirement]:
    """On a pool thread: the requirements now, with this app's receiving as it is now."""
    reach = readiness.receiving_facts(ctx.db, ctx.receiving_state())
    return readiness.check(ctx.db, now=ctx.clock(), autostart=autostart.enabled_or_unknown(), receiving_now=reach)


class _Rows(QScrollArea):
    """The rows as tall as they are, up to `most`; then they scroll."""

    def __init__(self, parent: QWidget, most: int) -> None:
        super().__init__(parent)
        self.most = most

    def sizeHint(self) -> QSize:
        rows = self.widget()
        inner = rows.sizeHint() if rows is not None else QSize(0, 0)
        height = inner.height()
        width = self.viewport().width()
        if rows is not None and rows.hasHeightForWidth() and width > 0:
            # The rows' own hint wraps each sentence as if the panel were narrow: at the real width
            # they need less, and the extra would open gaps between the rows.
            height = max(rows.heightForWidth(width), 0) or height
        return QSize(inner.width(), min(height + 2 * self.frameWidth(), self.most))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # the height the rows need follows the width


class ReadinessPanel(QFrame):
    fix_wanted = Signal(str)  # a Fix value

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, *, hide_when_ready: bool = False,
                 open_when_blocked: bool = True, rows_height: int = ROWS_HEIGHT_ROOMY) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.hide_when_ready = hide_when_ready
        self.open_when_blocked = open_when_blocked
        self.requirements: list[Requirement] = []
        self.loaded = 0  # how many answers were shown (tests wait for the next one)
        self.setObjectName("readiness")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.mark = QLabel(self)
        self.summary = PhraseLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.toggle = QToolButton(self)
        self.toggle.setCheckable(True)
        self.toggle.toggled.connect(self._expand)
        self.toggle.clicked.connect(self._chosen)
        self._opened = False  # the manager opened the rows themselves
        head = QHBoxLayout()
        head.addWidget(self.mark)
        head.addWidget(self.summary, 1)
        head.addWidget(self.toggle)
        self.rows = QWidget(self)
        self.grid = QGridLayout(self.rows)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setColumnStretch(1, 1)
        self.rows_area = _Rows(self, rows_height)
        self.rows_area.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        self.rows_area.setWidgetResizable(True)
        self.rows_area.setFrameShape(QFrame.Shape.NoFrame)
        self.rows_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.rows_area.setWidget(self.rows)
        self.rows_area.setMinimumHeight(ROWS_MINIMUM)  # below its own hint: a small screen scrolls the rows instead
        column = QVBoxLayout(self)
        column.setContentsMargins(8, 6, 8, 6)
        column.addLayout(head)
        column.addWidget(self.rows_area)
        self.rows_area.hide()
        self.hide()  # until the first answer: no flash of an empty frame
        self._timer = QTimer(self, singleShot=True, interval=REFRESH_DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        for changed in (ctx.bridge.settings_changed, ctx.signals.roster_changed, ctx.signals.engine_changed):
            changed.connect(self.schedule_refresh)
        ctx.bridge.shifts_changed.connect(self.schedule_refresh)
        ctx.bridge.hold_changed.connect(self.schedule_refresh)
        ctx.bridge.receiving_changed.connect(self.schedule_refresh)
        self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.schedule_refresh()  # e.g. start at login was turned on elsewhere meanwhile

    def schedule_refresh(self, *_: object) -> None:
        self._timer.start()

    def refresh(self) -> None:
        self.ctx.tasks.run(lambda: read(self.ctx), self.show_requirements, self._failed, owner=self,
                           latest="readiness")

    # ----- showing -----

    def show_requirements(self, requirements: list[Requirement]) -> None:
        self.requirements = requirements
        self.loaded += 1
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()  # at once: a deferred delete waits for the event loop's next turn
                widget.deleteLater()
        for row in range(self.grid.rowCount()):
            self.grid.setRowStretch(row, 0)
        for index, requirement in enumerate(requirements):
            self._add_row(index, requirement)
        self.grid.setRowStretch(len(requirements), 1)  # any height left over goes below the rows, not between
        problems = [r for r in requirements if r.state is not State.OK]
        blocking = [r for r in problems if r.state is State.BLOCKING]
        worst = State.BLOCKING if blocking else State.WARNING if problems else State.OK
        self.mark.setPixmap(self.style().standardIcon(MARKS[worst]).pixmap(16, 16))
        self.summary.setText(sentence(i18n.render(readiness.summary(requirements))))
        self.toggle.setVisible(bool(problems))
        self.toggle.blockSignals(True)
        # Open while something blocks (where there is room for it); otherwise as the manager left it.
        self.toggle.setChecked((bool(blocking) and self.open_when_blocked) or (bool(problems) and self._opened))
        self.toggle.blockSignals(False)
        self._expand(self.toggle.isChecked() and bool(problems))
        self.setVisible(bool(problems) or not self.hide_when_ready)

    def _add_row(self, index: int, requirement: Requirement) -> None:
        mark = QLabel(self.rows)
        mark.setPixmap(self.style().standardIcon(MARKS[requirement.state]).pixmap(16, 16))
        words = sentence(i18n.render(requirement.says))
        details = [i18n.render(d) for d in requirement.details]
        shown = words
        if details:
            # Japanese runs sentences on without a space (as core's messages list them).
            space, between = ("", " ") if i18n.current() == "ja" else (" ", "; ")
            more = len(details) - SHOWN_DETAILS
            shown += space + between.join(details[:SHOWN_DETAILS])
            if more > 0:
                shown += " " + i18n.render(t("readiness.more", count=more))
        label = PhraseLabel(shown, self.rows)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setObjectName(f"readiness_{requirement.key}")
        tip = "\n".join([words, *details])
        if requirement.state is not State.OK and requirement.fix_says is not None:
            tip += "\n" + sentence(i18n.render(requirement.fix_says))
        label.setToolTip(tip)
        self.grid.addWidget(mark, index, 0, Qt.AlignmentFlag.AlignTop)
        self.grid.addWidget(label, index, 1)
        if requirement.state is not State.OK and requirement.fix is not None:
            button = QPushButton(self._button_text(requirement.fix), self.rows)
            button.setObjectName(f"fix_{requirement.key}")
            button.setToolTip(sentence(i18n.render(requirement.fix_says)) if requirement.fix_says else "")
            fix = requirement.fix.value
            button.clicked.connect(lambda _checked=False, fix=fix: self.fix_wanted.emit(fix))
            self.grid.addWidget(button, index, 2, Qt.AlignmentFlag.AlignTop)

    def _button_text(self, fix: Fix) -> str:
        return {
            Fix.CONNECT_LINE: self.tr("Connect LINE…"),
            Fix.KEYRING: self.tr("LINE settings"),
            Fix.ADD_CLASSROOM: self.tr("Add a classroom…"),
            Fix.CLASSROOM_GROUP: self.tr("Choose the LINE group…"),
            Fix.TEACHERS: self.tr("Teachers…"),
            Fix.EMAIL: self.tr("E-mail settings"),
            Fix.HOSTING: self.tr("Image hosting settings"),
            Fix.AUTOSTART: self.tr("Start at login"),
            Fix.RECEIVING: self.tr("Receive again"),
            Fix.UNACKNOWLEDGED: self.tr("Show the shift"),
            Fix.RELAY: self.tr("Always on settings"),
            Fix.LINE_WORKS: self.tr("LINE WORKS settings"),
            Fix.CLASSROOMS: self.tr("Classroom settings"),
            Fix.TEACHERS_PAGE: self.tr("Teachers' page…"),
        }[fix]

    def _chosen(self, opened: bool) -> None:
        self._opened = opened

    def _expand(self, expanded: bool) -> None:
        self.rows_area.setVisible(expanded)
        self.rows_area.updateGeometry()  # its size follows the rows just made
        self.toggle.setText(self.tr("Hide") if expanded else self.tr("Show"))

    def _failed(self, exc: BaseException) -> None:
        self.loaded += 1
        self.mark.setPixmap(self.style().standardIcon(MARKS[State.WARNING]).pixmap(16, 16))
        self.summary.setText(self.tr("Could not check whether messages can be sent: {0}").format(message_for(exc)))
        self.toggle.hide()
        self.rows_area.hide()
        self.show()
