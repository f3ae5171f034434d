"""Small pieces the areas share: explanatory notes, inline results, a one-line label cut to fit, an expander,
time fields, table headings with room around them."""

from __future__ import annotations

import datetime as dt
import html

from PySide6.QtCore import QSize, Qt, QTime
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLayout,
    QLineEdit,
    QSizePolicy,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.errors import ValidationError
from core.roster import time_of_day
from core.store.paths import DataPaths
from ui.common.errors import message_for, show_error
from ui.common.phrases import PhraseLabel

# Readable on light and dark palettes alike.
PROBLEM_COLOR = "#c0392b"


def note(text: str, parent: QWidget | None = None) -> QLabel:
    """A wrapped, quieter explanation under a field (what it is, where to find it)."""
    label = PhraseLabel(text, parent)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    policy = label.sizePolicy()  # keep the height-for-width flag that word wrap set
    policy.setHorizontalPolicy(QSizePolicy.Policy.Expanding)
    label.setSizePolicy(policy)
    return label


def sentence(text: str) -> str:
    """Core messages are written to follow "error:"; on their own they start with a capital."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    # A sentence that already ends (also in Japanese, where a closing bracket may end it) gets no "." more.
    return text if text[-1] in ".!?。！？)）」" else text + "."


class ElidedLabel(QLabel):
    """One line that fits the width it gets: cut with … in the middle, the whole text in its tooltip.

    For text with no place to wrap, such as a LINE group ID, which would otherwise widen its panel
    past the screen or be cut without a sign. text() stays the whole text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)

    def shown_text(self) -> str:
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideMiddle, self.contentsRect().width())

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), self.shown_text())
        painter.end()


class SpacedHeader(QHeaderView):
    """Column headings with room either side while the table is empty. A column fitted to its contents
    is then as wide as its heading, and the headings touched; with rows the cells' own margins space
    them, and a wide table keeps every column on the screen."""

    def sectionSizeFromContents(self, logicalIndex: int) -> QSize:
        size = super().sectionSizeFromContents(logicalIndex)
        model = self.model()
        if model is not None and model.rowCount() > 0:
            return size
        return QSize(size.width() + 2 * self.fontMetrics().averageCharWidth(), size.height())


def space_headings(table: QTableView) -> QHeaderView:
    """Give `table` spaced column headings (before its columns' sizing is set); the new header."""
    header = SpacedHeader(Qt.Orientation.Horizontal, table)
    header.setSectionsClickable(True)  # as the table's own header is
    header.setHighlightSections(True)
    table.setHorizontalHeader(header)
    return header


class StatusLabel(PhraseLabel):
    """The inline outcome of a check or a save, next to the button that started it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem_shown = False
        self.url: str | None = None  # the link shown, if the result is one
        self.hide()

    def busy(self, text: str) -> None:
        self._show(text, problem=False)

    def ok(self, text: str) -> None:
        self._show(text, problem=False)

    def problem(self, text: str) -> None:
        self._show(text, problem=True)

    def link(self, prefix: str, url: str) -> None:
        """A result that is a web address the manager may want to open."""
        self._show("", problem=False)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setOpenExternalLinks(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.url = url
        self.setText(f'{html.escape(prefix)} <a href="{html.escape(url)}">{html.escape(url)}</a>')

    def clear_status(self) -> None:
        self.clear()
        self.hide()

    def _show(self, text: str, *, problem: bool) -> None:
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # An empty style sheet falls back to the platform's own text colour.
        self.setStyleSheet(f"color: {PROBLEM_COLOR};" if problem else "")
        self.problem_shown = problem
        self.url = None
        self.setText(text)
        self.show()


def report(widget: QWidget, status: StatusLabel, exc: BaseException, paths: DataPaths | None = None) -> None:
    """Typed errors become an inline sentence; anything unexpected goes to the log and a dialog."""
    text = message_for(exc)
    if text:
        status.problem(sentence(text))
    else:
        status.clear_status()
        show_error(widget, exc, paths=paths)


class Expander(QWidget):
    """A "▸ Advanced" toggle that shows or hides rarely needed settings."""

    def __init__(self, title: str, body: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.toggle = QToolButton(self)
        self.toggle.setText(title)
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.body = body
        body.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toggle)
        layout.addWidget(body)
        self.toggle.toggled.connect(self._toggled)

    def _toggled(self, open_: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if open_ else Qt.ArrowType.RightArrow)
        self.body.setVisible(open_)


def stack(*parts: QWidget | QLayout) -> QWidget:
    """A field with its notes and results underneath; hidden results take no room.

    A widget rather than a bare layout: QFormLayout sizes a widget field by its height for the width
    it really gets, which keeps wrapped notes from leaving gaps."""
    box = QWidget()
    column = QVBoxLayout(box)
    column.setContentsMargins(0, 0, 0, 0)
    column.setSpacing(4)
    for part in parts:
        if isinstance(part, QLayout):
            column.addLayout(part)
        else:
            column.addWidget(part)
    return box


def row(*parts: QWidget, stretch_last: bool = False) -> QHBoxLayout:
    """Controls side by side; the first one takes the spare width unless `stretch_last` (buttons only)."""
    line = QHBoxLayout()
    for index, part in enumerate(parts):
        line.addWidget(part, 1 if index == 0 and not stretch_last else 0)
    if stretch_last:
        line.addStretch(1)
    return line


def form(parent: QWidget) -> QFormLayout:
    """A form whose text fields grow while buttons, spin boxes and combo boxes keep their size."""
    layout = QFormLayout(parent)
    layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
    return layout


class TimeField(QLineEdit):
    """A time of day typed as the manager writes it (22:00, 2200, 22時, full-width digits), shown
    back as HH:MM once the field is left. Read like a QTimeEdit: `time()` and `setTime()`; an
    unreadable text raises ValidationError from `time()`, so saving says what is wrong with it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText(self.tr("HH:MM"))
        self.setToolTip(self.tr("A time such as 22:00, 2200 or 22時"))
        self.setMaximumWidth(self.fontMetrics().horizontalAdvance("00:00") * 2 + 16)
        self.editingFinished.connect(self._tidy)

    def time(self) -> QTime:
        wall = self.wall_time()
        return QTime(wall.hour, wall.minute)

    def wall_time(self) -> dt.time:
        """The time typed, to the minute, as core's rules take it."""
        wall, _ = time_of_day.parse(self.text())
        return dt.time(wall.hour, wall.minute)

    def setTime(self, value: QTime) -> None:  # the QTimeEdit name it stands in for
        self.setText(value.toString("HH:mm"))

    def _tidy(self) -> None:
        try:
            self.setTime(self.time())
        except ValidationError:
            pass  # left as typed: saving names the problem
