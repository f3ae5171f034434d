"""Sentences a new manager met cut off on a 1366×768 screen are shown whole, in English and Japanese:
the shift dialog's status line and the Publish area's dry run and list of changes (the Deliveries
area's Status column is in tests/test_ui_deliveries.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics

from core.planning.month_grid import ShiftItem, TeacherItem
from core.publication import publish as publication
from core.publication.image_store import ImageStore
from core.roster import rules
from core.store.db import Database
from core.store.kinds import ShiftStatus
from tests import factories as f
from tests.test_i18n import japanese  # noqa: F401
from tests.test_ui_publish import GROUP, SMALL_SCREEN, WAIT, _view
from tests.test_ui_wrapped_text import cut, language, shows_whole  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.shifts.shift_dialog import ShiftDialog

DAY = dt.date(2026, 12, 3)


@pytest.mark.parametrize("status", list(ShiftStatus))
def test_the_shift_dialogs_status_line_is_shown_whole(qtbot, language: str, status: ShiftStatus) -> None:
    shift = ShiftItem(1, 1, 1, DAY, dt.time(16), dt.time(21), False, "", status, 1)
    dialog = ShiftDialog([TeacherItem(1, "佐藤", True)], shift=shift, day=DAY)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert (language == "ja") == any("\u3040" <= c <= "\u30ff" for c in dialog.status.text())  # really translated
    dialog.resize(dialog.minimumWidth(), 1)  # as small as the manager may make it
    label = dialog.status
    qtbot.waitUntil(lambda: shows_whole(dialog, label), timeout=5000)
    lines = _wrapped(label.fontMetrics(), label.width(), label.text())
    assert lines.width() <= label.width() and lines.height() <= label.height()


def test_the_dry_run_and_the_changes_fit_the_publish_area_on_a_small_screen(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, language: str) -> None:
    with db.write() as s:
        room = f.classroom(s, line_group_id=GROUP)
        teacher = f.teacher(s, "Alexandra Featherstonehaugh-Wolfeschlegel", 1)
        shift = f.shift(s, room, teacher, DAY, now=now)
        publication.publish(s, room.id, 2026, 12, now=now, store=ImageStore(ctx.paths.images))
        rules.edit_shift(s, shift.id, rules.ShiftChange(start_time=dt.time(15)), now=now)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx, SMALL_SCREEN)
    qtbot.waitUntil(lambda: view.state is not None and len(view.state.changes) == 1, timeout=WAIT)
    settle(qtbot, ctx, timeout=WAIT)

    recipients = view.recipients_label
    # The group by its classroom's name, whole, never cut inside a word; its raw ID only on hovering.
    assert GROUP not in recipients.text() and GROUP in recipients.toolTip()
    assert recipients.shown_text() == recipients.text()
    assert recipients.fontMetrics().horizontalAdvance(recipients.text()) <= recipients.contentsRect().width()
    assert recipients.geometry().right() <= view.plan_box.contentsRect().right()

    members = view.members_label
    assert (language == "ja") == ("unknown" not in members.text())  # really translated
    qtbot.waitUntil(lambda: not cut(members), timeout=WAIT)
    assert _wrapped(members.fontMetrics(), members.width(), members.text()).width() <= members.width()
    assert members.geometry().right() <= view.plan_box.contentsRect().right()

    changes = view.changes
    viewport = changes.viewport().width()
    for row in range(changes.count()):
        item = changes.item(row)
        rect = changes.visualItemRect(item)
        assert rect.left() >= 0 and rect.right() < viewport, item.text()  # nothing beyond the list's right edge
        needed = _wrapped(changes.fontMetrics(), rect.width(), item.text())
        assert needed.width() <= rect.width() and needed.height() <= rect.height(), item.text()


def _wrapped(metrics: QFontMetrics, width: int, text: str) -> QRect:
    return metrics.boundingRect(0, 0, width, 10_000, int(Qt.TextFlag.TextWordWrap), text)
