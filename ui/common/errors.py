"""Errors reach the user one way: a plain sentence. Never a traceback in a dialog."""

from __future__ import annotations

import logging
import sys
import traceback
from types import TracebackType

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from core.errors import ShiftcastError
from core.store.paths import DataPaths
from ui.common import i18n

log = logging.getLogger("shiftcast.ui")


def message_for(exc: BaseException) -> str:
    """Typed errors carry their own user-facing message, shown in the interface's language; anything
    else is an apology."""
    if isinstance(exc, ShiftcastError):
        return i18n.describe(exc)
    from core.channels.line import LineApiError

    if isinstance(exc, LineApiError):
        return str(exc)
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
    return ""


def show_error(parent: QWidget | None, exc: BaseException, *, title: str = "Shiftcast", paths: DataPaths | None = None) -> None:
    text = message_for(exc)
    if not text:
        log.error("unexpected error", exc_info=(type(exc), exc, exc.__traceback__))
        where = f"\n\n{paths.logs / 'shiftcast.log'}" if paths else ""
        text = QCoreApplication.translate(
            "QWidget", "Sorry, something went wrong. The details were written to the log file.") + where
    QMessageBox.warning(parent, title, text)


def install_excepthook(paths: DataPaths) -> None:
    """Unexpected errors on the UI thread are logged and shown as a short apology with the log's path."""

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        log.error("unhandled error:\n%s", "".join(traceback.format_exception(kind, exc, tb)))
        try:
            show_error(None, exc, paths=paths)
        except Exception:  # noqa: BLE001 - never recurse from the hook
            sys.__excepthook__(kind, exc, tb)

    sys.excepthook = hook
