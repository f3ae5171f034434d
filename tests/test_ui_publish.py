"""The Publish area over a real database: preview, dry run, changes, publishing through the real sender
to the LINE emulator (images on a loopback S3 server), history and exports."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox
from sqlalchemy import select

from core.emulator import LineEmulator
from core.publication import publish as publication
from core.publication.image_store import ImageStore
from core.roster import rules
from core.sending.sender import Sender, SenderConfig
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, Shift
from core.store.settings import StoredQuota
from tests import factories as f
from tests.linefixtures import TOKEN, FakeClock, user_id
from tests.s3server import hosted, s3_endpoint  # noqa: F401
from tests.ui_fixtures import computer_zone, ctx, documents, settle  # noqa: F401
from ui.common.month_picker import default_month
from ui.deliveries.view import DeliveriesView
from ui.publish.view import PublishView
from ui.services.context import AppContext

GROUP = "C" + "2" * 32
WAIT = 20_000  # ms; a wait ends as soon as its condition holds, so only a busy machine uses it up


@pytest.fixture
def line_group(monkeypatch: pytest.MonkeyPatch) -> Iterator[LineEmulator]:
    from core.store import secrets

    with LineEmulator(token=TOKEN, allow_loopback_media=True) as emu:
        emu.add_group(GROUP, "本校 講師", [user_id(n) for n in range(1, 6)])
        monkeypatch.setenv("SHIFTCAST_LINE_API_BASE", emu.base_url)
        secrets.set_line_token(TOKEN)
        yield emu


def _month(db: Database, now: dt.datetime, *, group: str | None = GROUP) -> dict[str, int]:
    with db.write() as s:
        room = f.classroom(s, line_group_id=group)
        a, b = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        first = f.shift(s, room, a, dt.date(2026, 12, 3), now=now)
        f.shift(s, room, b, dt.date(2026, 12, 4), "09:00", "12:00", now=now)
        return {"room": room.id, "shift": first.id}


SMALL_SCREEN = (1366, 640)  # the area in a window on a 1366×768 screen, under the menus and tabs


def _view(qtbot, ctx: AppContext, size: tuple[int, int] = (1200, 800)) -> PublishView:
    view = PublishView(ctx)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    view.set_month(2026, 12)
    return view


def _answer_yes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Answer Yes to every question the view asks; the questions asked, in order."""
    questions: list[str] = []

    def answer_yes(_parent, _title, text, *args, **kwargs):
        questions.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer_yes)
    return questions


def _loaded(qtbot, ctx: AppContext, view: PublishView) -> None:
    qtbot.waitUntil(lambda: view.state is not None and view.state.month == 12 and view.viewer.has_image,
                    timeout=WAIT)
    settle(qtbot, ctx, timeout=WAIT)


def test_default_month_is_next_month_after_the_20th(qtbot, ctx: AppContext) -> None:
    assert default_month(dt.date(2026, 12, 20)) == (2026, 12)
    assert default_month(dt.date(2026, 12, 21)) == (2027, 1)
    assert default_month(dt.date(2026, 5, 31)) == (2026, 6)
    ctx.clock = lambda: dt.datetime(2026, 12, 25, 12, 0, tzinfo=dt.UTC)
    view = PublishView(ctx)
    qtbot.addWidget(view)
    view.show()  # the preview is rendered only while the area is on screen
    assert view.month() == (2027, 1) and view.month_label.text() == "January 2027"
    view.prev_action.trigger()
    assert view.month() == (2026, 12) and view.month_label.text() == "December 2026"
    # No classroom yet: nothing to preview, and the view says what to do.
    qtbot.waitUntil(lambda: "Add classroom…" in view.viewer.message.text(), timeout=WAIT)
    assert "Shifts" in view.viewer.message.text()  # where a classroom is really added
    assert not view.publish_button.isEnabled()


def test_dry_run_warns_when_the_cached_quota_does_not_cover_the_group(qtbot, ctx: AppContext, db: Database,
                                                                      now: dt.datetime) -> None:
    ids = _month(db, now)
    with db.write() as s:
        keys.LINE_QUOTA.write(s, StoredQuota(limit=200, used=197))
        keys.LINE_GROUP_MEMBERS.of(ids['room']).write(s, 5)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    _loaded(qtbot, ctx, view)

    assert view.warning.isVisible()
    assert "3 messages left" in view.warning.text() and "needs 5" in view.warning.text()
    assert view.cost_label.text() == "5 messages"
    assert view.members_label.text() == "5 (cached)"
    assert view.quota_label.text() == "3 of 200"
    assert view.drafts_label.text() == "2"
    assert GROUP not in view.recipients_label.text() and GROUP in view.recipients_label.toolTip()
    # Neither LINE nor image hosting is set up here: the month can be published all the same, and the
    # area says when the group will get it.
    assert view.publish_button.isEnabled()
    assert view.promise_label.text() == "The month will be sent to the group as soon as LINE is connected."
    # Nothing published yet, and still the roster as it stands can be exported and printed.
    assert view.history.topLevelItemCount() == 0 and view.export_png_button.isEnabled()

    # The preview zooms: buttons and Ctrl+wheel both step the zoom; Fit follows the window again.
    fitted = view.viewer.zoom
    view.viewer.zoom_in_action.trigger()
    assert view.viewer.zoom == pytest.approx(fitted * 1.25) and not view.viewer.fitting
    view.viewer.actual_action.trigger()
    assert view.viewer.zoom == 1.0
    view.viewer.fit_action.trigger()
    assert view.viewer.fitting and view.viewer.zoom == pytest.approx(fitted)


def _published_once(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> PublishView:
    """December published as revision 1 (queued, not sent), the view open on it."""
    ids = _month(db, now)
    with db.write() as s:
        publication.publish(s, ids["room"], 2026, 12, now=now, store=ImageStore(ctx.paths.images))
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    _loaded(qtbot, ctx, view)
    return view


def test_the_revisions_are_listed_on_the_classrooms_clock(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                         computer_zone: Callable[[str], None]) -> None:
    computer_zone("America/New_York")
    view = _published_once(qtbot, ctx, db, now)
    item = view.history.topLevelItem(0)
    assert item is not None and item.text(1) == "Tue 1 Dec 2026 09:00"  # in Tokyo; 19:00 on 30 Nov in New York


def test_export_opens_in_documents_then_in_the_last_folder_used(qtbot, ctx: AppContext, db: Database,
                                                                now: dt.datetime, tmp_path: Path, documents: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    view = _published_once(qtbot, ctx, db, now)
    first = view.history.topLevelItem(0)
    assert first is not None
    view.history.setCurrentItem(first)
    given: list[str] = []  # what each dialog was told to open at
    wall = tmp_path / "for the wall"
    wall.mkdir()

    def save(_parent: object, _title: str, where: str, *_args: object) -> tuple[str, str]:
        given.append(where)
        return str(wall / Path(where).name), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    view.export(pdf=False)
    qtbot.waitUntil(lambda: (wall / "本校-2026-12-r1.png").exists(), timeout=WAIT)
    settle(qtbot, ctx, timeout=WAIT)
    view.export(pdf=True)
    assert given == [str(documents / "本校-2026-12-r1.png"), str(wall / "本校-2026-12-r1.pdf")]


def test_publishing_what_cannot_reach_the_group_yet_says_when_it_will_and_then_waits(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    _month(db, now)
    ctx.clock = lambda: now
    deliveries_view = DeliveriesView(ctx)
    qtbot.addWidget(deliveries_view)
    view = _view(qtbot, ctx)
    _loaded(qtbot, ctx, view)
    said = view.warning.text()
    assert said.startswith("Not yet: LINE is not connected") and "hosting" not in said, said
    assert view.publish_button.isEnabled()

    questions: list[str] = []

    def answer_yes(_parent, _title, text, *args, **kwargs):
        questions.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer_yes)
    view.publish_button.click()
    assert "as soon as LINE is connected. Not yet: LINE is not connected" in questions[0], questions[0]
    qtbot.waitUntil(lambda: "as soon as LINE is connected" in view.status.text(), timeout=WAIT)
    assert "on its way" not in view.status.text() and "LINE is not connected" in view.status.text()

    def publication_row_waiting() -> bool:
        model = deliveries_view.model
        rows = [model.item_at(r) for r in range(model.rowCount())]
        return any(i.kind == DeliveryKind.SHIFT_PUBLICATION.value and i.status == "queued"
                   and i.texts[-1].startswith("waiting, not tried: LINE is not connected") for i in rows)

    qtbot.waitUntil(publication_row_waiting, timeout=WAIT)
    settle(qtbot, ctx, timeout=WAIT)


def test_after_publishing_the_revisions_list_selects_the_new_revision(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    view = _published_once(qtbot, ctx, db, now)
    assert view._selected_revision() == 1
    with db.write() as s:
        shift = s.scalars(select(Shift)).first()
        assert shift is not None
        rules.edit_shift(s, shift.id, rules.ShiftChange(start_time=dt.time(15)), now=now)
    qtbot.waitUntil(lambda: view.state is not None and view.state.plan.revision == 2 and bool(view.state.changes),
                    timeout=WAIT)
    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Yes)
    view.publish_button.click()
    qtbot.waitUntil(lambda: view.state is not None and view.state.plan.revision == 3, timeout=WAIT)
    settle(qtbot, ctx, timeout=WAIT)
    listed = [view.history.topLevelItem(i) for i in range(view.history.topLevelItemCount())]
    assert [item.text(0) for item in listed if item is not None] == ["2", "1"]
    assert view._selected_revision() == 2  # the one just published, as the preview has moved past it
    assert view.export_png_button.isEnabled()


def test_before_the_first_publication_the_roster_as_it_stands_exports_and_prints(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtGui import QImage, QPageLayout
    from PySide6.QtPrintSupport import QPrintDialog, QPrinter
    from PySide6.QtWidgets import QDialog

    _month(db, now)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    _loaded(qtbot, ctx, view)
    assert view.history.topLevelItemCount() == 0  # nothing published yet
    for control in (view.export_png_button, view.export_pdf_button, view.print_button):
        assert control.isEnabled(), control.text()

    targets = iter([tmp_path / "now.png", tmp_path / "now.pdf"])
    suggested: list[str] = []

    def save(_parent: object, _title: str, where: str, *_args: object) -> tuple[str, str]:
        suggested.append(Path(where).name)
        return str(next(targets)), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    view.export_png_button.click()
    qtbot.waitUntil(lambda: (tmp_path / "now.png").exists(), timeout=WAIT)
    view.export_pdf_button.click()
    qtbot.waitUntil(lambda: (tmp_path / "now.pdf").exists(), timeout=WAIT)
    settle(qtbot, ctx, timeout=WAIT)
    assert suggested == ["本校-2026-12-preview.png", "本校-2026-12-preview.pdf"]
    exported = QImage(str(tmp_path / "now.png"))
    assert not exported.isNull()
    assert (tmp_path / "now.pdf").read_bytes().startswith(b"%PDF")

    printed = tmp_path / "printed.pdf"
    asked: list[QPrinter] = []

    def print_to_a_file(dialog: QPrintDialog) -> int:
        printer = dialog.printer()
        asked.append(printer)
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(printed))
        return QDialog.DialogCode.Accepted.value

    monkeypatch.setattr(QPrintDialog, "exec", print_to_a_file)
    view.print_button.click()
    qtbot.waitUntil(lambda: "to the printer" in view.status.text(), timeout=WAIT)
    data = printed.read_bytes()
    assert data.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", data)) == 1  # one page
    assert b"/Subtype /Image" in data and len(data) > 20_000  # the month's picture, not an empty page
    assert asked[0].docName() == "本校-2026-12-preview"
    wide = exported.width() > exported.height()
    assert (asked[0].pageLayout().orientation() == QPageLayout.Orientation.Landscape) == wide

    # What was exported is the month as its publication then keeps it.
    with db.write() as s:
        room_id = s.scalars(select(Shift.classroom_id)).first()
        assert room_id is not None
        publication.publish(s, room_id, 2026, 12, now=now, store=ImageStore(ctx.paths.images))
    qtbot.waitUntil(lambda: view.state is not None and bool(view.state.revisions), timeout=WAIT)
    assert view.state is not None
    kept = QImage.fromData(ImageStore(ctx.paths.images).get(view.state.revisions[0].image_sha256, ".png"))
    assert kept.size() == exported.size()
    settle(qtbot, ctx, timeout=WAIT)


def test_a_first_day_classroom_without_line_or_its_group_publishes_and_the_month_waits_for_them(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.planning import group_waiting

    _month(db, now, group=None)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    _loaded(qtbot, ctx, view)
    promise = "The month will be sent to the group as soon as LINE is connected and the group chosen."
    assert view.publish_button.isEnabled() and view.promise_label.text() == promise
    assert "no LINE group yet" in view.warning.text() and "Settings" not in view.warning.text()
    assert view.recipients_label.text() == "No LINE group yet: the month waits for it"
    # The preview is what the group will get (the cards, without image hosting), and says so.
    qtbot.waitUntil(lambda: view.preview_form.isVisibleTo(view), timeout=WAIT)
    assert view.preview_form.text().startswith("What the LINE group will get once it is chosen: As a message")

    questions = _answer_yes(monkeypatch)
    view.publish_button.click()
    assert promise in questions[0] and "to its LINE group" not in questions[0], questions[0]
    qtbot.waitUntil(lambda: "Revision 1 is published" in view.status.text(), timeout=WAIT)
    assert promise in view.status.text()
    qtbot.waitUntil(lambda: view.history.topLevelItemCount() == 1, timeout=WAIT)
    item = view.history.topLevelItem(0)
    assert item is not None and item.text(3) == "Waiting for the LINE group"
    with db.read() as s:
        assert group_waiting.owed(s, view.state.revisions[0].publication_id if view.state else 0)
    settle(qtbot, ctx, timeout=WAIT)


def test_publish_goes_out_through_the_sender_and_shows_as_sent(
        qtbot, ctx: AppContext, db: Database, hosted: str, line_group: LineEmulator, now: dt.datetime,
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    ids = _month(db, now)
    clock = FakeClock(now)
    ctx.clock = clock
    sender = Sender(db, paths=f.home_paths(), config=SenderConfig(concurrency=2), clock=clock)
    ctx.bridge.attach(sender.events)
    sender.start()
    try:
        deliveries_view = DeliveriesView(ctx)
        qtbot.addWidget(deliveries_view)
        view = _view(qtbot, ctx)
        _loaded(qtbot, ctx, view)
        # The live member count came from the emulator's group, not from a cache.
        qtbot.waitUntil(lambda: view.members_label.text() == "5 (from LINE just now)", timeout=WAIT)

        questions = _answer_yes(monkeypatch)
        view.publish_button.click()
        assert "revision 1" in questions[0] and "2 draft shifts" in questions[0] and "5 messages" in questions[0]

        def publication_row_sent() -> bool:
            model = deliveries_view.model
            rows = [model.item_at(r) for r in range(model.rowCount())]
            return any(i.kind == DeliveryKind.SHIFT_PUBLICATION.value and i.badge == "sent" for i in rows)

        qtbot.waitUntil(publication_row_sent, timeout=WAIT)
        # One push: the announcement and December 2026's four pages for phones.
        assert [m.message["type"] for m in line_group.inbox(GROUP)] == ["text"] + ["image"] * 4
        assert "Revision 1 is published" in view.status.text()
        def first_revision_sent() -> bool:
            item = view.history.topLevelItem(0)
            return view.history.topLevelItemCount() == 1 and item is not None and item.text(3).startswith("Sent")

        qtbot.waitUntil(first_revision_sent, timeout=WAIT)

        # A later edit shows up as "teacher — day: old → new" against the published revision.
        with db.write() as s:
            rules.edit_shift(s, ids["shift"], rules.ShiftChange(start_time=dt.time(15)), now=now)
        qtbot.waitUntil(lambda: view.state is not None and len(view.state.changes) == 1, timeout=WAIT)
        line = view.changes.item(0).text()
        assert line.startswith("佐藤 — ") and line.endswith(": 16:00-21:00 → 15:00-21:00")
        assert view.state is not None and view.state.plan.revision == 2

        # Export the published revision for the classroom wall.
        targets = iter([tmp_path / "wall.png", tmp_path / "wall.pdf"])
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(next(targets)), ""))
        view.export_png_button.click()
        qtbot.waitUntil(lambda: (tmp_path / "wall.png").exists(), timeout=WAIT)
        view.export_pdf_button.click()
        qtbot.waitUntil(lambda: (tmp_path / "wall.pdf").exists(), timeout=WAIT)
        settle(qtbot, ctx, timeout=WAIT)
        assert (tmp_path / "wall.png").read_bytes().startswith(b"\x89PNG")
        assert (tmp_path / "wall.pdf").read_bytes().startswith(b"%PDF")
        # The wall gets the wide grid, not the pages the group received.
        with ctx.db.read() as s:
            first = publication.latest(s, ids["room"], 2026, 12)
            assert first is not None and first.pages_json
        assert (tmp_path / "wall.png").read_bytes() == ImageStore(ctx.paths.images).get(first.image_sha256, ".png")
        assert (tmp_path / "wall.png").read_bytes() not in {ImageStore(ctx.paths.images).get(p["image"], ".png")
                                                            for p in json.loads(first.pages_json)}
    finally:
        sender.stop()


def test_the_preview_opens_fitted_to_its_width_and_zooms(qtbot, ctx: AppContext, db: Database,
                                                         now: dt.datetime) -> None:
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent

    _month(db, now)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx, SMALL_SCREEN)
    _loaded(qtbot, ctx, view)
    viewer = view.viewer
    image = viewer.pixmap_item.boundingRect()
    shown_width = image.width() * viewer.zoom
    canvas = viewer.canvas.contentsRect().width()
    assert canvas - viewer.canvas.verticalScrollBar().sizeHint().width() - 4 <= shown_width <= canvas
    assert viewer.fit_action.text() == "Fit width"
    assert viewer.canvas.width() >= view.width() * 0.65, (viewer.canvas.width(), view.width())  # most of the room

    fitted = viewer.zoom
    viewer.zoom_in_action.trigger()
    assert viewer.zoom == pytest.approx(fitted * 1.25) and not viewer.fitting
    assert {"+", "Ctrl++"} <= {k.toString() for k in viewer.zoom_in_action.shortcuts()}
    assert "-" in {k.toString() for k in viewer.zoom_out_action.shortcuts()}
    wheel = QWheelEvent(QPointF(10, 10), QPointF(viewer.canvas.mapToGlobal(QPoint(10, 10))), QPoint(0, 0),
                        QPoint(0, 120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.ControlModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(viewer.canvas.viewport(), wheel)
    assert viewer.zoom == pytest.approx(fitted * 1.25 * 1.25)
    viewer.fit_action.trigger()
    assert viewer.zoom == pytest.approx(fitted) and viewer.fitting


def test_the_tick_sends_each_teacher_their_month_and_the_dry_run_counts_it(
        qtbot, ctx: AppContext, db: Database, line_group: LineEmulator, now: dt.datetime,
        monkeypatch: pytest.MonkeyPatch) -> None:
    ids = _month(db, now)
    ctx.clock = FakeClock(now)
    view = _view(qtbot, ctx)
    _loaded(qtbot, ctx, view)
    qtbot.waitUntil(lambda: view.cost_label.text() == "5 messages", timeout=WAIT)
    assert view.each_teacher_label.text() == "not sent"
    view.each_teacher.setChecked(True)
    qtbot.waitUntil(lambda: view.cost_label.text() == "7 messages", timeout=WAIT)
    assert view.each_teacher_label.text() == "teachers: 2; LINE messages: 2, counted in the quota cost"
    questions = _answer_yes(monkeypatch)
    view.publish_button.click()
    qtbot.waitUntil(lambda: "Each teacher's own month: 2 messages." in view.status.text(), timeout=WAIT)
    assert "7 messages" in questions[0]
    settle(qtbot, ctx, timeout=WAIT)
    with db.read() as s:
        kinds = sorted(d.kind for d in s.scalars(select(Delivery).where(Delivery.classroom_id == ids["room"])))
    assert kinds == ["shift_publication", "teacher_month", "teacher_month"]


def test_the_preview_shows_the_pages_the_group_receives_also_before_the_group_is_chosen(ctx: AppContext) -> None:
    """With image hosting the preview is the month's pages for phones, side by side as LINE lists them;
    a classroom without its group yet sees the pages it will get, said so, not the wide grid."""
    from core.publication import month_pages
    from core.texts import render
    from ui.publish.view import render_preview

    now = ctx.clock()
    grouped = _month(ctx.db, now)["room"]
    with ctx.db.write() as s:
        keys.HOSTING_ENDPOINT.write(s, "https://r2.example.com")  # its secret is read only when it sends
        keys.HOSTING_BUCKET.write(s, "rosters")
        keys.HOSTING_ACCESS_KEY_ID.write(s, "AKIA")
        mailed = f.classroom(s, "分校").id
        f.shift(s, rules.get_classroom(s, mailed), rules.teacher_by_name(s, "佐藤"), dt.date(2026, 12, 10), now=now)
    year, month = 2026, 12
    with ctx.db.read() as s:
        view = publication.preview_month(s, grouped, year, month, now=now)
    pages = month_pages.render_pages(view)
    shown = render_preview(ctx, grouped, year, month).image
    assert (shown.width(), shown.height()) == (len(pages) * month_pages.PAGE_WIDTH + (len(pages) - 1) * 48,
                                              max(p.height for p in pages))
    with ctx.db.read() as s:
        later = month_pages.render_pages(publication.preview_month(s, mailed, year, month, now=now))
    preview = render_preview(ctx, mailed, year, month)
    assert preview.image.width() == len(later) * month_pages.PAGE_WIDTH + (len(later) - 1) * 48
    assert preview.form is not None and render(preview.form, "en") == "What the LINE group will get once it is chosen: As pictures for phones"


def test_the_preview_shows_the_form_the_group_receives_flex_cards_without_hosting_pages_with_it(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    from core.publication import flex_picture, month_pages

    _month(db, now)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    _loaded(qtbot, ctx, view)
    # No image hosting: the month goes as Flex, a card a week, drawn as a phone shows it.
    assert view.preview_form.isVisibleTo(view)
    assert view.preview_form.text() == "As a message, one card per week — no image hosting"
    cards = 5  # December 2026's calendar weeks
    assert view.viewer.pixmap_item.pixmap().width() == (2 * flex_picture.CHAT_MARGIN + cards * 300
                                                        + (cards - 1) * flex_picture.CARD_GAP) * flex_picture.SCALE

    with db.write() as s:  # image hosting set up: the pages for phones, as today
        keys.HOSTING_ENDPOINT.write(s, "https://r2.example.com")
        keys.HOSTING_BUCKET.write(s, "rosters")
        keys.HOSTING_ACCESS_KEY_ID.write(s, "AKIA")
    ctx.bridge.settings_changed.emit()
    qtbot.waitUntil(lambda: view.preview_form.text() == "As pictures for phones", timeout=WAIT)
    pages = {n * month_pages.PAGE_WIDTH + 48 * (n - 1) for n in range(1, 5)}  # side by side, 48 px apart
    qtbot.waitUntil(lambda: view.viewer.pixmap_item.pixmap().width() in pages, timeout=WAIT)


def test_a_second_revision_with_nothing_changed_says_so_not_zero_cells(qtbot, ctx: AppContext, db: Database,
                                                                       now: dt.datetime) -> None:
    view = _published_once(qtbot, ctx, db, now)
    assert view.revision_label.text() == "2 — no change since the previous revision"
