"""Printing the month's roster: the print dialog, then the image as large as the page allows.

The same image the exports write (a published revision's, or the roster as publishing it now would
show it), turned to landscape when it is wider than tall, centred and never stretched out of shape.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QRectF, Qt
from PySide6.QtGui import QImage, QPageLayout, QPainter
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import QDialog, QWidget


def print_image(parent: QWidget, image: QImage, title: str) -> bool:
    """Ask for the printer and print `image` on one page; False when the manager cancels."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setDocName(title)
    landscape = image.width() > image.height()
    printer.setPageOrientation(QPageLayout.Orientation.Landscape if landscape else QPageLayout.Orientation.Portrait)
    dialog = QPrintDialog(printer, parent)
    dialog.setWindowTitle(QCoreApplication.translate("PublishView", "Print"))
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return False
    paint_page(printer, image)
    return True


def paint_page(printer: QPrinter, image: QImage) -> None:
    page = printer.pageLayout().paintRectPixels(printer.resolution())
    size = image.size().scaled(page.size(), Qt.AspectRatioMode.KeepAspectRatio)
    left = (page.width() - size.width()) / 2
    top = (page.height() - size.height()) / 2
    painter = QPainter(printer)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    painter.drawImage(QRectF(left, top, size.width(), size.height()), image)
    painter.end()
