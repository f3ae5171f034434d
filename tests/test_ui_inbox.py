"""The demo inbox window: what the LINE emulator received, per teacher and per group, with the
publication's preview image loaded from a loopback web server."""

from __future__ import annotations

import functools
import http.server
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QLabel

from core.channels.line import LineClient
from core.emulator import LineEmulator
from core.messages import month_flex
from core.messages import texts as messages
from core.publication import flex_picture
from core.store.db import Database
from tests import factories as f
from tests.linefixtures import TOKEN
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.demo.inbox import IMAGE_WIDTH, InboxWindow
from ui.services.context import AppContext

GROUP = "C" + "ab" * 16
TEACHER = f"U{1:032x}"  # what factories.teacher(..., n=1) gives teacher 1
STRANGER = "U" + "9" * 32


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        pass


@pytest.fixture
def image_url(tmp_path: Path) -> Iterator[str]:
    """A preview image served over loopback HTTP, as the demo serves its roster images."""
    folder = tmp_path / "served"
    folder.mkdir()
    image = QImage(640, 480, QImage.Format.Format_RGB32)
    image.fill(QColor("#1b7f5b"))
    assert image.save(str(folder / "preview.png"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/preview.png"
    server.shutdown()
    server.server_close()


@pytest.fixture
def demo_emulator(db: Database) -> Iterator[LineEmulator]:
    with db.write() as s:
        f.teacher(s, "佐藤 花子", 1)
        f.classroom(s, "本校", line_group_id=GROUP)
    with LineEmulator(token=TOKEN, allow_loopback_media=True) as emu:
        emu.add_user(TEACHER, "佐藤 花子")
        emu.add_user(STRANGER, "someone")
        emu.add_group(GROUP, "講師", [TEACHER])
        yield emu


def push(emu: LineEmulator, to: str, message: dict) -> None:
    with LineClient(TOKEN, base_url=emu.base_url) as client:
        result = client.push(to, [message], retry_key=str(uuid.uuid4()))
    assert result.http_status == 200, result.message


def images(window: InboxWindow) -> list[QLabel]:
    return [label for label in window.findChildren(QLabel, "messageImage") if not label.pixmap().isNull()]


def cards(window: InboxWindow) -> list[QLabel]:
    return window.findChildren(QLabel, "messageCards")


def texts(window: InboxWindow) -> list[str]:
    return [label.text() for label in window.findChildren(QLabel, "messageText")]


def test_inbox_shows_each_recipients_messages(qtbot, ctx: AppContext, demo_emulator: LineEmulator,
                                             image_url: str) -> None:
    push(demo_emulator, TEACHER, messages.text_message("明日 16:00–21:00 の授業のお知らせです。"))
    flex = messages.publication_flex(classroom="本校", year=2026, month=12, revision=1, changed=0, language="ja",
                                     preview_url=image_url, open_url=image_url, width=640, height=480)
    push(demo_emulator, GROUP, flex)
    push(demo_emulator, STRANGER, messages.text_message("hello"))
    ctx.demo = SimpleNamespace(emulator=demo_emulator)  # type: ignore[assignment]

    window = InboxWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    settle(qtbot, ctx)

    rows = [window.recipients.item(i).text() for i in range(window.recipients.count())]
    assert len(rows) == 3
    assert rows[0].startswith("本校 (LINE group)") and rows[1].startswith("佐藤 花子") and STRANGER in rows[2]
    # The group comes first and is shown: the publication's alt text and its preview, scaled to fit.
    assert texts(window) == [flex["altText"]]
    qtbot.waitUntil(lambda: len(images(window)) == 1)
    assert images(window)[0].pixmap().width() == IMAGE_WIDTH

    window.recipients.setCurrentRow(1)
    assert texts(window) == ["明日 16:00–21:00 の授業のお知らせです。"]
    assert images(window) == []


def test_inbox_shows_a_month_sent_as_flex_by_what_its_bubbles_say(qtbot, ctx: AppContext,
                                                                     demo_emulator: LineEmulator) -> None:
    facts = month_flex.MonthFacts("本校", 2026, 12, 2, {"佐藤": {3: ["15:00-21:00"]}, "鈴木": {4: ["09:00-12:00"]}},
                                  frozenset({("佐藤", 3)}), "ja")
    [month] = month_flex.group_messages(facts)
    push(demo_emulator, GROUP, month)
    push(demo_emulator, TEACHER, month_flex.teacher_message(facts, "佐藤"))
    ctx.demo = SimpleNamespace(emulator=demo_emulator)  # type: ignore[assignment]

    window = InboxWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    settle(qtbot, ctx)

    # The group: the month drawn as a phone shows it, a card a week side by side at a phone's size;
    # what the cards say (the weeks one after another) is their tooltip and accessible text.
    assert texts(window) == []
    [group] = cards(window)
    pixmap = group.pixmap()
    weeks_wide = 2 * flex_picture.CHAT_MARGIN + 5 * 300 + 4 * flex_picture.CARD_GAP
    assert pixmap.deviceIndependentSize().width() == weeks_wide  # drawn at twice that for a sharp screen
    shown = group.toolTip()
    assert group.accessibleName() == shown
    weeks = shown.split("\n\n")
    assert len(weeks) == 5
    assert weeks[0].splitlines() == ["本校 2026年12月 シフト表", "第2版です。変更1件に●を付けています。",
                                     "12月1日(火) – 12月6日(日)", "12月3日(木)", "● 佐藤  15:00-21:00",
                                     "12月4日(金)", "鈴木  09:00-12:00"]
    window.recipients.setCurrentRow(1)
    [own] = cards(window)  # one bubble: one card, as wide as a phone's bubble
    assert own.pixmap().deviceIndependentSize().width() == 2 * flex_picture.CHAT_MARGIN + 300
    assert own.toolTip() == ("佐藤さんの2026年12月のシフト\n本校\n前回から変わったシフトに●を付けています。\n"
                             "● 12月3日(木)  15:00-21:00")
    qtbot.mouseClick(own, Qt.MouseButton.LeftButton)  # full size in the viewer, as a received image
    assert window.image_window is not None and window.image_window.viewer.pixmap_item.pixmap().width() == 2 * (
        2 * flex_picture.CHAT_MARGIN + 300)


def test_inbox_refreshes_when_deliveries_change(qtbot, ctx: AppContext, demo_emulator: LineEmulator) -> None:
    ctx.demo = SimpleNamespace(emulator=demo_emulator)  # type: ignore[assignment]
    window = InboxWindow(ctx)
    qtbot.addWidget(window)
    settle(qtbot, ctx)
    assert window.recipients.count() == 0
    assert any("Nothing has been sent yet" in label.text() for label in window.messages.findChildren(QLabel))

    push(demo_emulator, TEACHER, messages.text_message("first"))
    ctx.bridge.deliveries_changed.emit([1])
    qtbot.waitUntil(lambda: window.recipients.count() == 1)
    push(demo_emulator, TEACHER, messages.text_message("second"))
    qtbot.mouseClick(window.refresh_button, Qt.MouseButton.LeftButton)
    settle(qtbot, ctx)
    assert texts(window) == ["first", "second"]


def test_inbox_outside_demo_mode_says_so(qtbot, ctx: AppContext) -> None:
    window = InboxWindow(ctx)
    qtbot.addWidget(window)
    assert any("only in demo mode" in label.text() for label in window.messages.findChildren(QLabel))


def test_inbox_follows_the_simulator_by_itself(qtbot, ctx: AppContext, demo_emulator: LineEmulator) -> None:
    ctx.demo = SimpleNamespace(emulator=demo_emulator)  # type: ignore[assignment]
    window = InboxWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    settle(qtbot, ctx)
    assert window.recipients.count() == 0
    # Received with no change signal from this window's sender (another process may have sent it).
    push(demo_emulator, TEACHER, messages.text_message("first"))
    qtbot.waitUntil(lambda: texts(window) == ["first"], timeout=10_000)
    push(demo_emulator, TEACHER, messages.text_message("second"))
    qtbot.waitUntil(lambda: texts(window) == ["first", "second"], timeout=10_000)
    window.hide()
    assert not window._poll.isActive()  # nobody is looking: no polling
    settle(qtbot, ctx)


def test_a_received_image_opens_full_size_in_a_zoomable_viewer(qtbot, ctx: AppContext, demo_emulator: LineEmulator,
                                                              image_url: str) -> None:
    flex = messages.publication_flex(classroom="本校", year=2026, month=12, revision=1, changed=0, language="ja",
                                     preview_url=image_url, open_url=image_url, width=640, height=480)
    push(demo_emulator, GROUP, flex)
    ctx.demo = SimpleNamespace(emulator=demo_emulator)  # type: ignore[assignment]
    window = InboxWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: len(images(window)) == 1, timeout=10_000)
    [thumbnail] = images(window)
    qtbot.mouseClick(thumbnail, Qt.MouseButton.LeftButton)
    viewer_window = window.image_window
    assert viewer_window is not None and viewer_window.isVisible()
    viewer = viewer_window.viewer
    assert viewer.has_image and viewer.pixmap_item.pixmap().width() == 640  # the full image, not the thumbnail
    viewer.actual_action.trigger()
    assert viewer.zoom == 1.0
    viewer.zoom_in_action.trigger()
    assert viewer.zoom > 1.0
    settle(qtbot, ctx)


def test_a_message_s_time_is_read_on_the_classroom_s_clock_whatever_the_pc_s_zone(
        qtbot, ctx: AppContext, demo_emulator: LineEmulator, monkeypatch: pytest.MonkeyPatch) -> None:
    import datetime as dt
    import time

    # This PC keeps New York's time (UTC-5 in December); the classroom is in Tokyo (UTC+9).
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        push(demo_emulator, TEACHER, messages.text_message("明日の授業"))
        [received] = demo_emulator.all_inbox()
        ctx.demo = SimpleNamespace(emulator=demo_emulator)  # type: ignore[assignment]
        window = InboxWindow(ctx)
        qtbot.addWidget(window)
        settle(qtbot, ctx)
        [shown] = [label.text() for label in window.findChildren(QLabel, "messageTime")]
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    tokyo = received.accepted_at.astimezone(dt.timezone(dt.timedelta(hours=9)))
    assert tokyo.strftime("%H:%M:%S") in shown and str(tokyo.day) in shown
