"""了解 in the screens: the Settings → LINE switch for the button, and the roster grid's mark on a shift
whose teacher tapped it (the Deliveries view's side is in tests/test_ui_deliveries.py)."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QModelIndex, QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QLabel, QStyleOptionViewItem

from core.messages import ack
from core.store import ack_key
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Channel, Delivery, DeliveryKind, DeliveryStatus, ShiftStatus
from tests import factories as f
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.services.context import AppContext
from ui.settings.view import SettingsView
from ui.shifts.delegate import ShiftCellDelegate
from ui.shifts.view import ShiftsView

DAY = dt.date(2026, 12, 3)


def test_the_ack_switch_turns_the_button_on_and_off_and_says_when_taps_are_seen(
        qtbot, ctx: AppContext, db: Database) -> None:
    view = SettingsView(ctx)
    qtbot.addWidget(view)
    view.resize(1000, 900)
    view.show()
    settle(qtbot, ctx)
    line = view.line
    assert not line.ack.isChecked()  # off by default
    said = " ".join(label.text() for label in line.findChildren(QLabel))
    assert "only while Shiftcast is receiving" in said and "“Webhook redelivery”" in said

    line.ack.click()
    settle(qtbot, ctx)
    with db.read() as s:
        assert keys.LINE_ACK_BUTTON.read(s) and ack_key.held_key(s)  # on, with its signing key
        assert ack.signer(s) is not None  # reminders sent from now on carry the button
    assert "carry a “了解” button" in line.ack_state.text()

    again = SettingsView(ctx)  # a later visit shows what is stored
    qtbot.addWidget(again)
    settle(qtbot, ctx)
    assert again.line.ack.isChecked()

    line.ack.click()
    settle(qtbot, ctx)
    with db.read() as s:
        assert not keys.LINE_ACK_BUTTON.read(s) and ack.signer(s) is None


def _paint(view: ShiftsView, index: QModelIndex) -> QImage:
    rect = view.table.visualRect(index)
    image = QImage(rect.size(), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    option = QStyleOptionViewItem()
    option.rect = QRect(QPoint(0, 0), rect.size())
    option.font = view.table.font()
    painter = QPainter(image)
    ShiftCellDelegate().paint(painter, option, index)
    painter.end()
    return image


TAPPED = dt.datetime(2026, 12, 1, 6, 5, tzinfo=dt.UTC)


def _one_tapped_one_not(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                        width: int) -> tuple[ShiftsView, QModelIndex, QModelIndex]:
    """The Shifts grid with two confirmed shifts on DAY: 佐藤 tapped 了解 on its reminder, 鈴木 did not."""
    with db.write() as s:
        room = f.classroom(s, "本校")
        sato, suzuki = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        seen = f.shift(s, room, sato, DAY, now=now, status=ShiftStatus.CONFIRMED)
        unseen = f.shift(s, room, suzuki, DAY, now=now, status=ShiftStatus.CONFIRMED)
        for n, (shift, at) in enumerate(((seen, TAPPED), (unseen, None))):
            s.add(Delivery(kind=DeliveryKind.SHIFT_REMINDER, channel=Channel.LINE, dedup_key=f"r{n}",
                           status=DeliveryStatus.SENT, teacher_id=shift.teacher_id, classroom_id=room.id,
                           subject_type="shift", subject_id=shift.id, subject_version=shift.version, sent_at=now, acknowledged_at=at,
                           created_at=now, due_at=now, next_attempt_at=now, updated_at=now))
        ids = (sato.id, suzuki.id)
    ctx.clock = lambda: now
    view = ShiftsView(ctx)
    qtbot.addWidget(view)
    view.resize(width, 700)
    view.show()
    settle(qtbot, ctx)
    qtbot.waitUntil(lambda: ctx.tasks.pending == 0 and not view.busy, timeout=5000)
    marked, plain = (view.model.index_of(teacher, DAY) for teacher in ids)
    return view, marked, plain


def test_the_grid_marks_a_shift_whose_teacher_tapped_ok_with_a_tooltip_saying_when(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    view, marked, plain = _one_tapped_one_not(qtbot, ctx, db, now, 1200)
    assert view.model.shifts_at(marked)[0].acknowledged_at == TAPPED
    assert view.model.shifts_at(plain)[0].acknowledged_at is None
    assert "✓ 佐藤 tapped 了解 on" in marked.data(Qt.ItemDataRole.ToolTipRole)
    assert "了解" not in plain.data(Qt.ItemDataRole.ToolTipRole)
    # Same times, same status, same size: only the mark tells the two cells apart.
    assert _paint(view, marked) != _paint(view, plain)


def test_without_a_keyring_the_switch_says_the_button_is_off_and_switching_it_on_changes_nothing(
        qtbot, ctx: AppContext, db: Database) -> None:
    import keyring
    from keyring.backends import fail

    with db.write() as s:
        keys.LINE_ACK_BUTTON.write(s, True)  # switched on while this computer still had its keyring
    keyring.set_keyring(fail.Keyring())
    view = SettingsView(ctx)
    qtbot.addWidget(view)
    view.show()
    settle(qtbot, ctx)
    line = view.line
    assert line.ack.isChecked()
    assert "button is off because its key cannot be read" in line.ack_state.text()
    assert "SHIFTCAST_LINE_ACK_KEY" in line.ack_state.text()

    line.ack.click()  # off: needs no key
    settle(qtbot, ctx)
    line.ack.click()  # on again: there is nowhere to keep a key
    settle(qtbot, ctx)
    assert "SHIFTCAST_LINE_ACK_KEY" in line.ack_state.text()
    assert not line.ack.isChecked()
    with db.read() as s:
        assert not keys.LINE_ACK_BUTTON.read(s)


def _luminance(color: QColor) -> float:
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4
    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) + 0.0722 * linear(color.blueF())


def _contrast(one: QColor, other: QColor) -> float:
    light, dark = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_ok_mark_is_a_clear_stroke_inside_a_cell_of_the_default_height(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    view, marked_index, plain_index = _one_tapped_one_not(qtbot, ctx, db, now, 1366)
    assert view.table.rowHeight(marked_index.row()) == view.table.verticalHeader().defaultSectionSize()
    marked, plain = _paint(view, marked_index), _paint(view, plain_index)
    mark = [(x, y) for y in range(marked.height()) for x in range(marked.width())
            if marked.pixelColor(x, y) != plain.pixelColor(x, y)]
    assert mark
    # Legible: enough of the mark's pixels stand out from what they are drawn over by at least 4.5:1.
    clear = [(x, y) for x, y in mark if _contrast(marked.pixelColor(x, y), plain.pixelColor(x, y)) >= 4.5]
    assert len(clear) >= 12, f"only {len(clear)} pixels of the mark reach 4.5:1"
    # Whole: the mark keeps clear of the cell's edges, so nothing of it is cut off.
    xs, ys = [x for x, _ in mark], [y for _, y in mark]
    assert min(xs) > 0 and min(ys) > 0 and max(xs) < marked.width() - 1 and max(ys) < marked.height() - 1
