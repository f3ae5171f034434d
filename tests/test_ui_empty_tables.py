"""An empty table's column headings keep room either side, as the cells under them would: the Hours dialog
of a month without confirmed shifts and the Availability dialog of a month not asked yet, in Japanese,
where the headings are short and touched each other."""

from __future__ import annotations

from PySide6.QtWidgets import QTableWidget

from core.roster import rules
from core.store.db import Database
from tests.test_i18n import japanese  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.availability.dialog import AvailabilityDialog
from ui.hours.dialog import HoursDialog
from ui.services.context import AppContext

WAIT = 10_000


def _squeezed(table: QTableWidget) -> list[str]:
    """The headings with less than a character's room either side."""
    header = table.horizontalHeader()
    metrics = header.fontMetrics()
    room = 2 * metrics.averageCharWidth()
    headings = [table.horizontalHeaderItem(i) for i in range(table.columnCount())]
    return [item.text() for i, item in enumerate(headings)
            if item is not None and header.sectionSize(i) < metrics.horizontalAdvance(item.text()) + room]


def test_the_hours_of_an_empty_month_keep_their_headings_apart(qtbot, ctx: AppContext, db: Database,
                                                               japanese) -> None:
    with db.write() as s:
        rules.create_classroom(s, name="本校")
    dialog = HoursDialog(ctx, 2026, 11)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.counted is not None and dialog.table.columnCount() > 0, timeout=WAIT)
    settle(qtbot, ctx)
    assert dialog.table.rowCount() == 0 and dialog.table.horizontalHeaderItem(0).text() == "講師"  # type: ignore[union-attr]
    assert _squeezed(dialog.table) == []


def test_availability_not_asked_yet_keeps_its_headings_apart(qtbot, ctx: AppContext, db: Database,
                                                             japanese) -> None:
    with db.write() as s:
        room = rules.create_classroom(s, name="本校")
        room_id = room.id
    dialog = AvailabilityDialog(ctx, room_id, "本校", 2026, 12)
    qtbot.addWidget(dialog)
    dialog.show()
    settle(qtbot, ctx)
    assert dialog.table.rowCount() == 0 and dialog.table.horizontalHeaderItem(0).text() == "講師"  # type: ignore[union-attr]
    assert _squeezed(dialog.table) == []
