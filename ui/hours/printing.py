"""The hours table on paper: the title, the rule and the table as a text document, through the print dialog
(a PDF printer is one of its choices). Landscape when the table has a column per classroom."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QPageLayout, QTextDocument
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import QDialog, QWidget

from core.roster.hours_table import Table

WIDE = 8  # columns beyond which the page turns to landscape


def document(table: Table, empty: str) -> QTextDocument:
    """The summary as a document: the preamble's lines above the table (or `empty` when no rows)."""
    title, *rule = table.preamble
    cells = "".join(f"<th>{escape(h)}</th>" for h in table.headings)
    rows = "".join("<tr>" + "".join(f'<td align="{"right" if right else "left"}">{escape(cell)}</td>'
                                    for cell, right in zip(row, table.numeric, strict=True)) + "</tr>"
                   for row in table.rows)
    body = (f'<table border="1" cellspacing="0" cellpadding="4" width="100%"><tr>{cells}</tr>{rows}</table>'
            if table.rows else f"<p>{escape(empty)}</p>")
    html = f"<h2>{escape(title)}</h2>" + "".join(f"<p>{escape(line)}</p>" for line in rule) + body
    doc = QTextDocument()
    doc.setHtml(html)
    return doc


def paint(printer: QPrinter, table: Table, empty: str) -> None:
    document(table, empty).print_(printer)  # laid out on the printer's pages, over several if it must


def printer_for(table: Table, title: str) -> QPrinter:
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setDocName(title)
    wide = len(table.headings) > WIDE
    printer.setPageOrientation(QPageLayout.Orientation.Landscape if wide else QPageLayout.Orientation.Portrait)
    return printer


def print_table(parent: QWidget, table: Table, title: str, empty: str) -> bool:
    """Ask for the printer and print the summary; False when the manager cancels."""
    printer = printer_for(table, title)
    dialog = QPrintDialog(printer, parent)
    dialog.setWindowTitle(QCoreApplication.translate("HoursDialog", "Print hours"))
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return False
    paint(printer, table, empty)
    return True
