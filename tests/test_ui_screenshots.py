"""The screenshots mode's dialogs of the manager's month (ui/shell/screenshots.py): on the demo data each
opens with its rows loaded, so the pictures in docs/screenshots/ show the seeded month, not empty tables."""

from __future__ import annotations

import datetime as dt

from PySide6.QtWidgets import QWidget

from core.app import demo as demo_data
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.availability.dialog import AvailabilityDialog
from ui.cover.dialog import CoverDialog
from ui.hours.dialog import HoursDialog
from ui.services.context import AppContext
from ui.shell import screenshots

NOW = dt.datetime(2026, 12, 2, 6, 0, tzinfo=dt.UTC)


def test_the_availability_cover_and_hours_pictures_show_the_demo_month(qtbot, ctx: AppContext) -> None:
    ctx.clock = lambda: NOW
    assert demo_data.seed(ctx.db, now=NOW)
    makers = dict(screenshots.DIALOGS)
    window = QWidget()
    qtbot.addWidget(window)

    availability = makers["12-availability.png"](ctx, window)
    cover = makers["13-cover.png"](ctx, window)
    hours = makers["14-hours.png"](ctx, window)
    settle(qtbot, ctx)
    assert isinstance(availability, AvailabilityDialog) and (availability.year, availability.month) == (2026, 12)
    assert availability.table.rowCount() == len(demo_data.TEACHERS) + len(demo_data.NEW_TEACHERS)
    assert "8 of 10" in availability.summary.text()
    assert isinstance(cover, CoverDialog) and cover.requests.count() == 2  # the declined one waits no more
    assert "(offered)" in cover.teacher_box.itemText(0)
    assert isinstance(hours, HoursDialog) and (hours.year, hours.month) == (2026, 12)
    assert hours.table.rowCount() == len(demo_data.TEACHERS)  # everyone with confirmed shifts this month
