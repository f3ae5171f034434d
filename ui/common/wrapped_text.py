"""Word-wrapped labels that keep the height their text needs, so no sentence is cut off.

Qt lays out a QFormLayout row with a wrapped label from the label's size hint, not from the height
its text needs at the width it gets (QFormLayout answers height-for-width with a cached size hint),
and gives a top-level window a minimum size that ignores height-for-width. So a label whose text
grows once the window is open (a check's result, a warning), or that is narrower than its hint
assumed, is squeezed and cut mid-sentence, in a dialog and in the scrolling Settings page alike.
Here each wrapped label's minimum height follows what its text needs at its current width; the
layouts' minimums then grow with it, and the window or the scrolled page grows to match.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QLabel, QWidget

_FITTED = "wrappedTextFittedFor"  # the width and text the label's minimum height was set for


def fit_label(label: QLabel) -> None:
    """Reserve the height the label's text needs at its current width."""
    if not label.wordWrap() or label.width() <= 0:
        return
    # QLabel answers heightForWidth no lower than its minimum height, so the minimum is cleared to
    # ask; the same width and text are not asked again, or each answer would request a new layout.
    key = f"{label.width()}|{label.font().key()}|{label.textFormat()}|{label.text()}"
    if label.property(_FITTED) == key:
        return
    label.setProperty(_FITTED, key)
    label.setMinimumHeight(0)
    if label.text():
        label.setMinimumHeight(label.heightForWidth(label.width()))


class _FitWrappedLabels(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(watched, QLabel):
            if event.type() == QEvent.Type.Resize:
                fit_label(watched)  # a new width: a new number of lines
        elif event.type() == QEvent.Type.LayoutRequest:
            # A label's new text asks its parent's layout for room; the layout has seen the request
            # before this filter (it gets events first), so the labels' widths are current.
            for label in watched.findChildren(QLabel, options=Qt.FindChildOption.FindDirectChildrenOnly):
                fit_label(label)
        return False


def keep_text_visible(root: QWidget) -> None:
    """From now on every word-wrapped label inside `root` keeps the height its text needs.

    Call it once the labels exist; a label's text may change at any time after."""
    fitter = _FitWrappedLabels(root)
    watched: set[int] = set()
    for label in root.findChildren(QLabel):
        if not label.wordWrap():
            continue
        for widget in (label, label.parentWidget()):
            if widget is not None and id(widget) not in watched:
                watched.add(id(widget))
                widget.installEventFilter(fitter)
        fit_label(label)
