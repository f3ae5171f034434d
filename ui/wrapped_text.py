"""Windows that grow when a wrapped label gains lines after they are shown.

Qt gives a top-level window a minimum size that ignores height-for-width (and QFormLayout answers
height-for-width with its size hint), so a word-wrapped label whose text becomes longer once the
window is open (a check's result, a warning) is squeezed into the height it had and cut off
mid-sentence. Here each wrapped label's minimum height follows the height its text needs at the
width it has; the layout's minimum then grows with it and Qt grows the window to match.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel, QWidget


def fit_label(label: QLabel) -> None:
    """Reserve the height the label's text needs at its current width."""
    if not label.wordWrap() or label.width() <= 0:
        return
    need = label.heightForWidth(label.width()) if label.text() else 0
    if need != label.minimumHeight():
        label.setMinimumHeight(max(need, 0))


class _FitWrappedLabels(QObject):
    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(watched, QLabel) and event.type() == QEvent.Type.Resize:
            fit_label(watched)  # a new width: a new number of lines
        elif watched is self.window and event.type() == QEvent.Type.LayoutRequest:
            for label in self.window.findChildren(QLabel):
                fit_label(label)  # a new text: a new number of lines
        return False


def keep_text_visible(window: QWidget) -> None:
    """From now on the window grows whenever one of its word-wrapped labels needs more lines.

    Call it once the window's labels exist."""
    fitter = _FitWrappedLabels(window)
    window.installEventFilter(fitter)
    for label in window.findChildren(QLabel):
        if label.wordWrap():
            label.installEventFilter(fitter)
