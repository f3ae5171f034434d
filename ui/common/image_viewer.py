"""A zoomable image preview: zoom in/out (buttons, Ctrl+wheel under the mouse, Ctrl++/Ctrl+−, + and −),
fit to the window or to its width, actual size.

Fit to width suits a month roster, wider than tall with small text: fitting the whole page into a
laptop's window made it unreadable (about a third of its size); to the width, it scrolls down instead.

QGraphicsView rather than a QLabel in a scroll area: it scales the pixmap while painting instead of
keeping a scaled copy per zoom step, which matters for a month image of 3,000 × 2,000 pixels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import (
    QAction,
    QImage,
    QKeySequence,
    QPainter,
    QPixmap,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsPixmapItem,
    QGraphicsScene,
    QGraphicsView,
    QLabel,
    QStackedWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from ui.common.phrases import PhraseLabel

STEP = 1.25
MIN_ZOOM, MAX_ZOOM = 0.05, 8.0
Fit = Literal["page", "width"]


class _Canvas(QGraphicsView):
    wheel_zoom = Signal(int)  # steps; the zoom is anchored under the mouse
    resized = Signal()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = round(event.angleDelta().y() / 120) or (1 if event.angleDelta().y() > 0 else -1)
            self.wheel_zoom.emit(steps)
            event.accept()
            return
        super().wheelEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.resized.emit()


class ImageViewer(QWidget):
    zoom_changed = Signal(float)

    def __init__(self, parent: QWidget | None = None, *, fit: Fit = "page") -> None:
        super().__init__(parent)
        self.zoom = 1.0
        self.fitting = True  # follow the window's size until the manager picks a zoom
        self.fit_mode: Fit = fit
        self.scene = QGraphicsScene(self)
        self.pixmap_item = QGraphicsPixmapItem()
        self.pixmap_item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        self.scene.addItem(self.pixmap_item)
        self.canvas = _Canvas(self.scene, self)
        self.canvas.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.canvas.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.canvas.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.canvas.wheel_zoom.connect(lambda steps: self.set_zoom(self.zoom * STEP ** steps))
        self.canvas.resized.connect(lambda: self.fit() if self.fitting else None)
        if fit == "width":
            self.canvas.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)  # read from the top
        self.message = PhraseLabel(self)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setWordWrap(True)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.message)
        self.stack.addWidget(self.canvas)
        self.toolbar = QToolBar(self)
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.zoom_out_action = self._action(self.tr("Zoom out"), [QKeySequence(QKeySequence.StandardKey.ZoomOut),
                                            QKeySequence("-")], lambda: self.set_zoom(self.zoom / STEP))
        self.zoom_in_action = self._action(self.tr("Zoom in"), [QKeySequence(QKeySequence.StandardKey.ZoomIn),
                                           QKeySequence("+"), QKeySequence("=")], lambda: self.set_zoom(self.zoom * STEP))
        self.fit_action = self._action(self.tr("Fit width") if fit == "width" else self.tr("Fit"),
                                       [QKeySequence("Ctrl+0")], self.fit)
        self.actual_action = self._action(self.tr("100%"), [QKeySequence("Ctrl+1")], lambda: self.set_zoom(1.0))
        self.zoom_label = QLabel(self)
        for action in (self.zoom_out_action, self.zoom_in_action, self.fit_action, self.actual_action):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.toolbar.addAction(action)
            self.addAction(action)
        self.toolbar.addWidget(self.zoom_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.stack, 1)
        self.show_message(self.tr("No preview yet."))

    def _action(self, text: str, keys: list[QKeySequence], slot: Callable[[], None]) -> QAction:
        action = QAction(text, self)
        action.setShortcuts(keys)
        action.triggered.connect(slot)
        return action

    @property
    def has_image(self) -> bool:
        return not self.pixmap_item.pixmap().isNull() and self.stack.currentWidget() is self.canvas

    def set_image(self, image: QImage) -> None:
        """Show a new image, keeping the manager's zoom (or fitting, if they have not chosen one)."""
        self.pixmap_item.setPixmap(QPixmap.fromImage(image))
        self.scene.setSceneRect(self.pixmap_item.boundingRect())
        self.stack.setCurrentWidget(self.canvas)
        self._enable(True)
        if self.fitting:
            self.fit()
        else:
            self._apply(self.zoom)

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.stack.setCurrentWidget(self.message)
        self._enable(False)

    def set_zoom(self, zoom: float) -> None:
        self.fitting = False
        self._apply(zoom)

    def fit(self) -> None:
        self.fitting = True
        rect = self.pixmap_item.boundingRect()
        viewport = self.canvas.viewport().rect()
        if rect.isEmpty() or viewport.isEmpty():
            return
        if self.fit_mode == "width":
            # The width beside a vertical scroll bar, shown or not: fitting to the width with and
            # without it would make the bar come and go at every resize.
            width = self.canvas.contentsRect().width() - self.canvas.verticalScrollBar().sizeHint().width()
            self._apply(max(1, width - 2) / rect.width())
            return
        self._apply(min(viewport.width() / rect.width(), viewport.height() / rect.height()))

    def _apply(self, zoom: float) -> None:
        self.zoom = max(MIN_ZOOM, min(MAX_ZOOM, zoom))
        self.canvas.resetTransform()
        self.canvas.scale(self.zoom, self.zoom)
        self.zoom_label.setText(self.tr("{0}%").format(round(self.zoom * 100)))
        self.zoom_in_action.setEnabled(self.has_image and self.zoom < MAX_ZOOM)
        self.zoom_out_action.setEnabled(self.has_image and self.zoom > MIN_ZOOM)
        self.zoom_changed.emit(self.zoom)

    def _enable(self, enabled: bool) -> None:
        for action in (self.zoom_out_action, self.zoom_in_action, self.fit_action, self.actual_action):
            action.setEnabled(enabled)
        if not enabled:
            self.zoom_label.clear()
