"""Marking a day of the shown classroom closed or open, from the menu of the day's column heading.

A closed day is shaded in the grid (ui/shifts/grid.py); a national holiday is closed until the manager
opens it (core/roster/closed_days.py). The change is written in the background and the month read
again; it is not an undo step, since the menu's other entry puts the day back.
"""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QMenu, QWidget

from core.roster import classroom_setup
from ui.common.errors import show_error
from ui.services.context import AppContext
from ui.shifts.grid import RosterGridModel, date_label


class ClosedDayActions(QObject):
    changed = Signal()  # a day was closed or opened and committed
    status = Signal(str)  # a short sentence for the view's status line

    def __init__(self, ctx: AppContext, model: RosterGridModel, widget: QWidget) -> None:
        super().__init__(widget)
        self.ctx = ctx
        self.model = model
        self.widget = widget

    def day_menu(self, column: int) -> QMenu | None:
        """The heading's menu: "Mark closed" on an open day, "Mark open" on a closed one."""
        day = self.model.day_at(column)
        room = self.model.snapshot.classroom
        if day is None or room is None:
            return None
        menu = QMenu(self.widget)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        if day in self.model.snapshot.closed:
            action = menu.addAction(self.tr("Mark {0} open").format(date_label(day)))
            action.triggered.connect(lambda: self.set_closed(day, False))
        else:
            action = menu.addAction(self.tr("Mark {0} closed").format(date_label(day)))
            action.triggered.connect(lambda: self.set_closed(day, True))
        return menu

    def set_closed(self, day: dt.date, closed: bool) -> None:
        room = self.model.snapshot.classroom
        if room is None:
            return
        db, classroom_id = self.ctx.db, room.id

        def work() -> None:
            classroom_setup.set_closed(db, classroom_id, day, closed)

        def done(_: None) -> None:
            said = self.tr("{0} is now closed.") if closed else self.tr("{0} is now open.")
            self.status.emit(said.format(date_label(day)))
            self.changed.emit()

        self.ctx.tasks.run(work, done, lambda exc: show_error(self.widget, exc, paths=self.ctx.paths), owner=self)
