"""Scrolling a page never changes a value: the mouse wheel over a spin box, date box or combo box the
manager has not clicked into scrolls the page around it instead.

Qt gives such a box the focus on a wheel turn and then changes its value, so a Settings page scrolled
with the pointer passing over 了解の確認 went from 3 to 24 hours. One filter on the application, installed
once at start-up, covers every screen: boxes take the focus by click or Tab only, and a wheel turn over
one without the focus goes to the nearest scroll area around it. A box with the focus still answers the
wheel, as the manager chose it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QComboBox, QWidget

GUARDED = (QAbstractSpinBox, QComboBox)  # spin, date and time boxes are QAbstractSpinBox


class WheelGuard(QObject):
    """The application's event filter (see the module's docstring)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.Wheel, QEvent.Type.Polish) or not isinstance(watched, GUARDED):
            return False
        if kind == QEvent.Type.Polish:
            if watched.focusPolicy() == Qt.FocusPolicy.WheelFocus:  # else a wheel turn gives it the focus first
                watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            return False
        if watched.hasFocus() or not isinstance(event, QWheelEvent):
            return False
        area = _scroll_area_around(watched)
        if area is not None:
            viewport = area.viewport()
            QCoreApplication.sendEvent(viewport, QWheelEvent(
                viewport.mapFromGlobal(event.globalPosition()), event.globalPosition(), event.pixelDelta(),
                event.angleDelta(), event.buttons(), event.modifiers(), event.phase(), event.inverted()))
            return True
        event.ignore()  # no scroll area: the parents may still use it, the box never does
        return True


def _scroll_area_around(widget: QWidget) -> QAbstractScrollArea | None:
    """The nearest scroll area holding `widget` in the same window."""
    parent = widget.parentWidget()
    while parent is not None and not widget.isWindow():
        if isinstance(parent, QAbstractScrollArea):
            return parent
        if parent.isWindow():
            return None
        parent = parent.parentWidget()
    return None


def install(app: QCoreApplication) -> WheelGuard:
    """Put the guard on the application, once: a second call returns the first guard."""
    found = app.findChild(WheelGuard)
    if isinstance(found, WheelGuard):
        return found
    guard = WheelGuard(app)
    app.installEventFilter(guard)
    return guard
