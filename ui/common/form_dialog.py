"""A dialog whose OK starts background work and closes only when that work succeeded.

Core refuses bad input with a plain sentence (an overlap, a duplicate name); the manager should read
it next to the fields that caused it and fix them, not lose everything typed to a message box.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QWidget

from core.errors import ShiftcastError
from ui.common.errors import message_for
from ui.common.phrases import PhraseLabel

log = logging.getLogger("shiftcast.ui")


class InlineError(PhraseLabel):
    """A red, selectable sentence under a form; hidden while there is nothing to say."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.WindowText, Qt.GlobalColor.darkRed)
        self.setPalette(palette)
        self.hide()

    def show_exception(self, exc: BaseException) -> None:
        text = message_for(exc)
        if not text:
            log.error("unexpected error", exc_info=(type(exc), exc, exc.__traceback__))
            text = self.tr("Sorry, something went wrong. The details were written to the log file.")
        self.show_text(text)

    def show_text(self, text: str) -> None:
        self.setText(text)
        self.show()

    def clear(self) -> None:
        self.setText("")
        self.hide()


class SubmitDialog(QDialog):
    """Subclasses build their fields, add `self.error` and `self.buttons` to their layout, and
    implement `collect()`; whoever opens the dialog connects `submitted` and answers with
    `succeeded()` or `failed(exc)`."""

    submitted = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.error = InlineError(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self._busy = False

    @property
    def busy(self) -> bool:
        return self._busy

    def collect(self) -> Any:
        """The values to submit; raise a ShiftcastError (ValidationError) to refuse them."""
        raise NotImplementedError

    def accept(self) -> None:
        if self._busy:
            return
        try:
            values = self.collect()
        except ShiftcastError as exc:
            self.error.show_exception(exc)
            return
        self.error.clear()
        self._set_busy(True)
        self.submitted.emit(values)

    def reject(self) -> None:
        if not self._busy:  # the work in flight will report back here
            super().reject()

    def succeeded(self, _result: object = None) -> None:
        self._set_busy(False)
        super().accept()

    def failed(self, exc: BaseException) -> None:
        self._set_busy(False)
        self.error.show_exception(exc)

    def _set_busy(self, busy: bool) -> None:
        self._busy = busy
        self.buttons.setEnabled(not busy)
        self.setCursor(Qt.CursorShape.BusyCursor if busy else Qt.CursorShape.ArrowCursor)
