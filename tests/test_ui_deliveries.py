"""The Deliveries area over a real database: live rows, filters, detail pane and the manager's actions."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QDate
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QStyle, QTreeWidgetItem
from sqlalchemy import text

from core.channels import registry
from core.store.db import Database
from core.store.models import Channel, Delivery, DeliveryAttempt, DeliveryKind, DeliveryStatus
from tests import factories as f
from tests.ui_fixtures import computer_zone, ctx, settle  # noqa: F401
from ui.common import i18n
from ui.deliveries.model import CREATED, ERROR, KIND, RECIPIENT, STATUS, WHEN
from ui.deliveries.view import DeliveriesView
from ui.services.context import AppContext

DAY = dt.timedelta(days=1)
WAIT = 20_000  # ms; a wait ends as soon as its condition holds, so only a busy machine uses it up


def _add(db: Database, now: dt.datetime, key: str, *, status: DeliveryStatus = DeliveryStatus.QUEUED,
         kind: DeliveryKind = DeliveryKind.SHIFT_REMINDER, **values: object) -> int:
    for name in ("created_at", "due_at", "next_attempt_at"):
        values.setdefault(name, now)
    with db.write() as s:
        row = Delivery(kind=kind, dedup_key=key, status=status, updated_at=now, **values)
        s.add(row)
        s.flush()
        return row.id


def _view(qtbot, ctx: AppContext) -> DeliveriesView:
    view = DeliveriesView(ctx)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    settle(qtbot, ctx, timeout=WAIT)
    return view


def _attempt_rows(qtbot, ctx: AppContext, delivery_id: int, count: int) -> tuple[DeliveriesView, list[QTreeWidgetItem]]:
    """The Deliveries view with `delivery_id` (its only row) selected, and its `count` attempts' rows in the pane."""
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=WAIT)
    assert view.select(delivery_id)
    attempts = view.detail.attempts
    qtbot.waitUntil(lambda: attempts.topLevelItemCount() == count, timeout=WAIT)
    rows = [attempts.topLevelItem(i) for i in range(count)]
    assert all(row is not None for row in rows)
    return view, [row for row in rows if row is not None]


def _ids(view: DeliveriesView) -> list[int]:
    return [view.model.item_at(r).id for r in range(view.model.rowCount())]


def _status(view: DeliveriesView, delivery_id: int) -> str | None:
    item = view.model.get(delivery_id)
    return None if item is None else item.badge


@pytest.mark.slow  # 100,000 rows
def test_100k_rows_load_and_an_update_touches_only_the_changed_rows(qtbot, ctx: AppContext, db: Database,
                                                                   now: dt.datetime) -> None:
    stamp = now.replace(tzinfo=None).isoformat(sep=" ")
    rows = [("shift_reminder", "line", f"shift_reminder:shift:{i}:v1", f"U{i:032x}", "sent", 1, stamp, stamp, stamp,
             stamp, stamp) for i in range(100_000)]
    with db.engine.begin() as conn:  # one executemany: the app's own paths would take minutes here
        conn.exec_driver_sql(
            "INSERT INTO deliveries (kind, channel, dedup_key, recipient, status, attempt_count, due_at, "
            "next_attempt_at, created_at, updated_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    view = _view(qtbot, ctx)
    model = view.model
    qtbot.waitUntil(lambda: model.rowCount() == 100_000, timeout=WAIT)
    assert model.counts["sent"] == 100_000
    assert view.count_labels["sent"].property("count") == 100_000
    before = {model.item_at(r).id: model.item_at(r) for r in range(model.rowCount())}

    changed = [17, 50_000, 99_999]
    with db.engine.begin() as conn:
        conn.execute(text("UPDATE deliveries SET status = 'failed', last_error_code = 'LINE_400', "
                          "last_error_message = 'The request body has 1 error(s)' WHERE id IN (17, 50000, 99999)"))
    newest = _add(db, now, "shift_reminder:shift:new:v1")
    signals: dict[str, list[Any]] = {"reset": [], "data": [], "inserted": []}
    model.modelReset.connect(lambda: signals["reset"].append(1))
    # Rows are numbered as they are when the signal fires, so note which deliveries they were.
    model.dataChanged.connect(lambda a, b, *_: signals["data"].extend(model.item_at(r).id
                                                                       for r in range(a.row(), b.row() + 1)))
    model.rowsInserted.connect(lambda _p, a, b: signals["inserted"].append((a, b)))
    ctx.bridge.deliveries_changed.emit(changed)
    qtbot.waitUntil(lambda: model.rowCount() == 100_001 and _status(view, 17) == "failed", timeout=WAIT)
    settle(qtbot, ctx, timeout=WAIT)

    assert signals["reset"] == []
    assert signals["inserted"] == [(0, 0)]  # the new delivery, at the top of the newest-first order
    assert sorted(signals["data"]) == changed
    assert model.item_at(0).id == newest
    assert model.counts["failed"] == 3 and model.counts["sent"] == 99_997 and model.counts["queued"] == 1
    untouched = [i for i in (1, 2, 18, 49_999, 100_000)]
    assert all(model.get(i) is before[i] for i in untouched)  # the very same objects: not reloaded
    row = model.row_of(50_000)
    assert model.index(row, STATUS).data() == "Failed"  # type: ignore[arg-type]
    assert model.index(row, ERROR).data() == "The request body has 1 error(s)"  # type: ignore[arg-type]


def test_filters_by_status_kind_classroom_date_text_and_dead_letters(qtbot, ctx: AppContext, db: Database,
                                                                     now: dt.datetime) -> None:
    with db.write() as s:
        room_a = f.classroom(s, "本校").id
        room_b = f.classroom(s, "駅前校").id
        teacher = f.teacher(s, "佐藤", 1).id
    sent = _add(db, now, "a", status=DeliveryStatus.SENT, classroom_id=room_a, teacher_id=teacher, sent_at=now)
    failed = _add(db, now - 3 * DAY, "b", status=DeliveryStatus.FAILED, classroom_id=room_b,
                  last_error_message="Failed to send messages")
    dead = _add(db, now - 10 * DAY, "c", status=DeliveryStatus.FAILED, classroom_id=room_a, dead_lettered_at=now,
                kind=DeliveryKind.SHIFT_PUBLICATION, last_error_code="LINE_5XX")
    queued = _add(db, now, "d", kind=DeliveryKind.SHIFT_CORRECTION, classroom_id=room_b)
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.model.rowCount() == 4, timeout=WAIT)
    qtbot.waitUntil(lambda: view.classroom_box.count() == 3, timeout=WAIT)
    assert view.model.index(view.model.row_of(sent), RECIPIENT).data() == "佐藤 · LINE"  # type: ignore[arg-type]
    assert view.model.index(view.model.row_of(dead), RECIPIENT).data() == "本校 (LINE group)"  # type: ignore[arg-type]

    view.status_actions["failed"].setChecked(True)
    assert sorted(_ids(view)) == [failed, dead]
    assert "Failed" in view.status_button.text()
    view.dead_check.setChecked(True)
    assert _ids(view) == [dead]
    view.dead_check.setChecked(False)
    view.status_actions["failed"].setChecked(False)

    view.kind_box.setCurrentIndex(view.kind_box.findData(DeliveryKind.SHIFT_CORRECTION.value))
    assert _ids(view) == [queued]
    view.kind_box.setCurrentIndex(0)
    view.classroom_box.setCurrentIndex(view.classroom_box.findData(room_a))
    assert sorted(_ids(view)) == [sent, dead]
    view.classroom_box.setCurrentIndex(0)

    local_today = now.astimezone().date()
    five_days_ago = local_today - dt.timedelta(days=5)
    view.date_from.setDate(QDate(five_days_ago.year, five_days_ago.month, five_days_ago.day))
    view.date_to.setDate(QDate(local_today.year, local_today.month, local_today.day))
    view.date_check.setChecked(True)
    assert sorted(_ids(view)) == [sent, failed, queued]
    view.date_check.setChecked(False)

    qtbot.keyClicks(view.search, "failed to SEND")
    qtbot.waitUntil(lambda: _ids(view) == [failed], timeout=WAIT)
    view.search.setText("5xx")
    qtbot.waitUntil(lambda: _ids(view) == [dead], timeout=WAIT)
    view.search.clear()
    qtbot.waitUntil(lambda: len(_ids(view)) == 4, timeout=WAIT)

    # A row that stops matching the filter leaves the table on the next update; one that starts matching joins.
    view.status_actions["queued"].setChecked(True)
    assert _ids(view) == [queued]
    with db.write() as s:
        s.get(Delivery, queued).status = DeliveryStatus.SENT  # type: ignore[union-attr]
        s.get(Delivery, failed).status = DeliveryStatus.QUEUED  # type: ignore[union-attr]
    ctx.bridge.deliveries_changed.emit([queued, failed])
    qtbot.waitUntil(lambda: _ids(view) == [failed], timeout=WAIT)


def test_detail_pane_lists_every_attempt_with_lines_words(qtbot, ctx: AppContext, db: Database,
                                                          now: dt.datetime) -> None:
    delivery_id = _add(db, now, "k", status=DeliveryStatus.QUEUED, attempt_count=2, last_error_code="LINE_5XX",
                       last_error_message="Internal server error")
    with db.write() as s:
        s.add_all([
            DeliveryAttempt(delivery_id=delivery_id, number=1, started_at=now, duration_ms=120, http_status=500,
                            request_id="req-1", outcome="retry", error_code="LINE_5XX",
                            error_message="Internal server error"),
            DeliveryAttempt(delivery_id=delivery_id, number=2, started_at=now + dt.timedelta(seconds=30),
                            duration_ms=5000, http_status=None, outcome="retry", error_code="TIMEOUT",
                            error_message="LINE did not answer in time"),
        ])
    view, (first, second) = _attempt_rows(qtbot, ctx, delivery_id, 2)
    assert (first.text(0), first.text(2), first.text(3), first.text(4)) == ("1", "500", "req-1", "120 ms")
    assert first.text(6) == "LINE_5XX: Internal server error"
    assert second.text(2) == "no answer" and "did not answer" in second.text(6)
    assert view.detail._values["key"].text() == "k"
    assert view.detail.title.text().startswith(f"Delivery #{delivery_id}")


def test_the_detail_pane_tells_the_relay_s_attempts_from_the_app_s(qtbot, ctx: AppContext, db: Database,
                                                                    now: dt.datetime) -> None:
    delivery_id = _add(db, now, "both", status=DeliveryStatus.SENT)
    with db.write() as s:
        s.add_all([
            DeliveryAttempt(delivery_id=delivery_id, number=1, started_at=now, http_status=200, outcome="sent"),
            DeliveryAttempt(delivery_id=delivery_id, number=2, started_at=now + dt.timedelta(minutes=6),
                            http_status=409, outcome="sent", via="relay"),
        ])
    view, (first, second) = _attempt_rows(qtbot, ctx, delivery_id, 2)
    assert (first.text(5), second.text(5)) == ("Sent", "Sent (by the relay)")


def test_the_detail_pane_leads_with_what_a_manager_needs_and_keeps_the_technical_lines_folded(
        qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    """The relay sent it while the computer slept; the app's later try met LINE's 409 for the same retry key.
    The relay's attempt is recorded (and numbered) after the app's, yet it happened first."""
    delivery_id = _add(db, now, "shift:7:v1:reminder", status=DeliveryStatus.SENT, due_at=now,
                       sent_at=now + dt.timedelta(seconds=2764), late_seconds=2764, retry_key="rk-1",
                       line_request_id="req-app", accepted_request_id="req-relay")
    with db.write() as s:
        s.add_all([
            DeliveryAttempt(delivery_id=delivery_id, number=1, started_at=now + dt.timedelta(minutes=50),
                            http_status=409, request_id="req-app", accepted_request_id="req-relay", outcome="sent"),
            DeliveryAttempt(delivery_id=delivery_id, number=2, started_at=now + dt.timedelta(seconds=2764),
                            http_status=200, request_id="req-relay", outcome="sent", via="relay"),
        ])
    view, (first, second) = _attempt_rows(qtbot, ctx, delivery_id, 2)
    detail = view.detail
    qtbot.waitUntil(lambda: detail.history.topLevelItemCount() == 2, timeout=WAIT)
    history = [[detail.history.topLevelItem(i).text(c) for c in range(3)] for i in range(2)]  # type: ignore[union-attr]
    assert [row[1:] for row in history] == [
        ["The relay", "LINE accepted it"],
        ["Shiftcast", "LINE already had it from an earlier attempt, so it was not sent twice"]]
    assert detail._values["late"].text() == "46 minutes late: the computer was asleep or off; the relay sent it"
    assert detail._values["sent"].text().endswith(", by the relay")
    # The technical table numbers them as they happened, and stays folded until asked for.
    assert (first.text(0), first.text(5), second.text(0), second.text(2)) == ("1", "Sent (by the relay)", "2", "409")
    assert not detail.technical.isVisible() and not detail.attempts.isVisible()
    shown = " ".join(label.text() for label in detail.findChildren(QLabel) if label.isVisible())
    assert not any(word in shown for word in ("shift:7:v1:reminder", "rk-1", "req-app", "409", "2764"))
    detail.technical_button.click()
    assert detail.technical.isVisible() and detail._values["key"].isVisible()
    assert detail._values["retry_key"].text().startswith("rk-1")
    detail.technical_button.click()
    assert not detail.technical.isVisible()


def test_the_detail_pane_names_each_channel_as_its_driver_does(qtbot, ctx: AppContext, db: Database,
                                                               now: dt.datetime) -> None:
    """No channel's words are written into the pane: an e-mail held for its login says so, not LINE."""
    delivery_id = _add(db, now, "mail", status=DeliveryStatus.QUEUED, channel=Channel.EMAIL,
                       last_error_code="SMTP_AUTH_FAILED")
    with db.write() as s:
        s.add(DeliveryAttempt(delivery_id=delivery_id, number=1, started_at=now, duration_ms=40, outcome="hold",
                              error_code="SMTP_AUTH_FAILED", error_message="SMTP 535: authentication failed"))
    view, (held,) = _attempt_rows(qtbot, ctx, delivery_id, 1)
    title = registry.driver(Channel.EMAIL).title
    assert view.detail.title.text().endswith(f"· {title}")
    assert held.text(5) == f"Held: {title} refused our credentials"


def test_an_attempt_image_hosting_refused_says_the_month_went_as_a_message(qtbot, ctx: AppContext, db: Database,
                                                                          now: dt.datetime) -> None:
    from core.outbox import policy
    from core.texts import t

    delivery_id = _add(db, now, "month", status=DeliveryStatus.SENT, kind=DeliveryKind.SHIFT_PUBLICATION)
    why = t("send_error.HOSTING_UNUSABLE", said=t("send_error.said", words=t("hosting.secret_missing")))
    with db.write() as s:
        s.add_all([
            DeliveryAttempt(delivery_id=delivery_id, number=1, started_at=now, duration_ms=0, outcome="throttled",
                            error_code="HOSTING_UNUSABLE", error_message=policy.stored_error(why)),
            DeliveryAttempt(delivery_id=delivery_id, number=2, started_at=now, duration_ms=80, http_status=200,
                            outcome="sent"),
        ])
    _, (refused, sent) = _attempt_rows(qtbot, ctx, delivery_id, 2)
    assert refused.text(5) == "Not sent: image hosting failed; the month goes as a message next"
    assert refused.text(6) == ("HOSTING_UNUSABLE: image hosting cannot be used, so the month goes to the group as a "
                               "message, without the image: the image hosting secret access key is missing; enter it "
                               "in Settings")
    assert sent.text(5) == "Sent"


def test_retry_a_dead_letter_warns_about_a_new_retry_key(qtbot, ctx: AppContext, db: Database,
                                                         now: dt.datetime) -> None:
    dead = _add(db, now - 3 * DAY, "dead", status=DeliveryStatus.FAILED, attempt_count=5, dead_lettered_at=now,
                retry_key="6f1c1f3e-3d2b-4f7e-9a59-1f0d3c2b1a00", retry_key_issued_at=now - 2 * DAY,
                last_error_code="LINE_5XX")
    sent = _add(db, now, "sent", status=DeliveryStatus.SENT, sent_at=now)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=WAIT)
    assert view.count_labels["dead_letters"].property("count") == 1
    view.select(sent)
    assert not view.retry_action.isEnabled() and not view.cancel_action.isEnabled()
    view.select(dead)
    assert view.retry_action.isEnabled() and view.cancel_action.isEnabled()

    view.retry_action.trigger()
    qtbot.waitUntil(lambda: _status(view, dead) == "queued", timeout=WAIT)
    assert view.message is not None and "new retry key" in view.message.text() and "twice" in view.message.text()
    assert view.model.counts["dead_letters"] == 0 and view.count_labels["dead_letters"].property("count") == 0
    with db.read() as s:
        row = s.get(Delivery, dead)
        assert row is not None and row.retry_key != "6f1c1f3e-3d2b-4f7e-9a59-1f0d3c2b1a00"
        assert row.attempt_count == 0 and row.dead_lettered_at is None


def test_cancel_then_actions_follow_the_new_status(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    queued = _add(db, now, "q")
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=WAIT)
    view.select(queued)
    assert view.cancel_action.isEnabled()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    view.cancel_action.trigger()
    qtbot.waitUntil(lambda: _status(view, queued) == "canceled", timeout=WAIT)
    assert not view.cancel_action.isEnabled() and view.retry_action.isEnabled()
    qtbot.waitUntil(lambda: "MANAGER" in view.detail._values["status"].text(), timeout=WAIT)


def test_requeue_all_dead_letters_counts_the_new_keys(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    old = _add(db, now, "old", status=DeliveryStatus.FAILED, dead_lettered_at=now, retry_key="k-old",
               retry_key_issued_at=now - 2 * DAY)
    fresh = _add(db, now, "fresh", status=DeliveryStatus.FAILED, dead_lettered_at=now, retry_key="k-fresh",
                 retry_key_issued_at=now - dt.timedelta(hours=1))
    ctx.clock = lambda: now
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.requeue_action.isEnabled(), timeout=WAIT)
    view.requeue_action.trigger()
    qtbot.waitUntil(lambda: _status(view, old) == "queued" and _status(view, fresh) == "queued", timeout=WAIT)
    assert view.message is not None
    assert "2 dead letters are queued again" in view.message.text()
    assert "1 of them got a new retry key" in view.message.text()
    assert not view.requeue_action.isEnabled()


def test_sorting_keeps_the_selection_and_new_rows_land_in_sorted_place(qtbot, ctx: AppContext, db: Database,
                                                                      now: dt.datetime) -> None:
    from PySide6.QtCore import Qt

    ids = {name: _add(db, now, name, recipient=name) for name in ("c", "a", "b")}
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.model.rowCount() == 3, timeout=WAIT)
    assert _ids(view) == [ids["b"], ids["a"], ids["c"]]  # newest first by default

    def recipients() -> list[str]:
        return [view.model.index(r, RECIPIENT).data() for r in range(view.model.rowCount())]

    view.table.sortByColumn(RECIPIENT, Qt.SortOrder.AscendingOrder)
    view.select(ids["b"])
    assert recipients() == ["a", "b", "c"]
    _add(db, now, "bb", recipient="bb")
    ctx.bridge.deliveries_changed.emit([])  # "something new was enqueued"
    qtbot.waitUntil(lambda: view.model.rowCount() == 4, timeout=WAIT)
    assert recipients() == ["a", "b", "bb", "c"]
    view.table.sortByColumn(RECIPIENT, Qt.SortOrder.DescendingOrder)
    _add(db, now, "ab", recipient="ab")
    ctx.bridge.deliveries_changed.emit([])
    qtbot.waitUntil(lambda: view.model.rowCount() == 5, timeout=WAIT)
    assert recipients() == ["c", "bb", "b", "ab", "a"]
    assert view.selected_id() == ids["b"]

    # Sorted by status, a selected row whose status changes moves to its new place and stays selected.
    view.table.sortByColumn(STATUS, Qt.SortOrder.AscendingOrder)
    with db.write() as s:
        s.get(Delivery, ids["b"]).status = DeliveryStatus.SENT  # type: ignore[union-attr]
    ctx.bridge.deliveries_changed.emit([ids["b"]])
    qtbot.waitUntil(lambda: _status(view, ids["b"]) == "sent", timeout=WAIT)
    assert [view.model.item_at(r).status for r in range(5)] == ["queued"] * 4 + ["sent"]
    assert view.selected_id() == ids["b"] and view.model.row_of(ids["b"]) == 4


def _wall(day: dt.date, hour: int, minute: int = 0) -> str:
    """A wall time as the English table writes it: weekday, day, month name and year, never "1 12 2026"."""
    return f"{day:%a} {day.day} {day:%b %Y} {hour:02d}:{minute:02d}"


def test_times_are_the_classrooms_and_a_note_names_its_zone(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                            computer_zone: Callable[[str], None]) -> None:
    computer_zone("UTC")
    due = dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.UTC)  # 17:00 in Tokyo
    with db.write() as s:
        room = f.classroom(s, "本校", timezone="Asia/Tokyo").id
    queued = _add(db, now, "tokyo", classroom_id=room, due_at=due, next_attempt_at=due)
    alert = _add(db, now, "alert", kind=DeliveryKind.ALERT, due_at=due, next_attempt_at=due)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=WAIT)
    for delivery_id in (queued, alert):  # an alert has no classroom: the classrooms' zone all the same
        row = view.model.row_of(delivery_id)
        assert view.model.index(row, WHEN).data() == _wall(due.date(), 17)  # type: ignore[arg-type]
        assert view.model.index(row, CREATED).data() == _wall(now.date(), 9)  # type: ignore[arg-type]
    assert view.model.index(view.model.row_of(alert), KIND).data() == "Alert"  # type: ignore[arg-type]
    note = view.zone_note
    assert note.isVisible() and all(w in note.text() for w in ("Asia/Tokyo", "JST", "UTC"))
    view.select(queued)
    qtbot.waitUntil(lambda: view.detail._values["due"].text() == f"{_wall(due.date(), 17)} JST", timeout=WAIT)


def test_no_zone_note_when_the_computer_keeps_the_classrooms_time(qtbot, ctx: AppContext, db: Database,
                                                                   now: dt.datetime,
                                                                   computer_zone: Callable[[str], None]) -> None:
    computer_zone("Asia/Tokyo")
    with db.write() as s:
        room = f.classroom(s, "本校", timezone="Asia/Tokyo").id
    queued = _add(db, now, "tokyo", classroom_id=room)
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=WAIT)
    assert view.model.index(0, WHEN).data() == _wall(now.date(), 9)
    assert not view.zone_note.isVisible()
    view.select(queued)
    qtbot.waitUntil(lambda: view.detail._values["due"].text() == _wall(now.date(), 9), timeout=WAIT)


def test_the_date_filter_reads_days_on_the_chosen_classrooms_clock(qtbot, ctx: AppContext, db: Database,
                                                                   now: dt.datetime,
                                                                   computer_zone: Callable[[str], None]) -> None:
    computer_zone("America/New_York")  # `now` is 09:00 on 1 Dec in Tokyo, 19:00 on 30 Nov here
    with db.write() as s:
        tokyo = f.classroom(s, "本校", timezone="Asia/Tokyo").id
        f.classroom(s, "London", timezone="Europe/London")  # two zones: no single one for the whole table
    small_hours = dt.datetime(2026, 11, 30, 16, 0, tzinfo=dt.UTC)  # 01:00 on 1 Dec in Tokyo, 11:00 on 30 Nov here
    early = _add(db, now, "early", classroom_id=tokyo, created_at=small_hours)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.model.rowCount() == 1 and view.classroom_box.count() == 3, timeout=WAIT)
    view.classroom_box.setCurrentIndex(view.classroom_box.findData(tokyo))
    assert view.date_to.date() == QDate(2026, 12, 1)  # today in Tokyo
    assert view.date_from.date() == QDate(2026, 11, 24)
    view.date_from.setDate(QDate(2026, 12, 1))
    view.date_check.setChecked(True)
    assert _ids(view) == [early]  # created on 1 Dec on the classroom's clock


def test_each_status_enables_only_its_actions_and_cancel_asks_first(qtbot, ctx: AppContext, db: Database,
                                                                    now: dt.datetime,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    allowed = {  # the table in core/outbox/deliveries.py
        DeliveryStatus.PENDING: (False, True), DeliveryStatus.QUEUED: (True, True),
        DeliveryStatus.PROCESSING: (False, False), DeliveryStatus.SENT: (False, False),
        DeliveryStatus.FAILED: (True, True), DeliveryStatus.CANCELED: (True, False),
    }
    ids = {status: _add(db, now, status.value, status=status) for status in allowed}
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.model.rowCount() == len(allowed), timeout=WAIT)
    for status, (retry, cancel) in allowed.items():
        assert view.select(ids[status])
        assert (view.retry_action.isEnabled(), view.cancel_action.isEnabled()) == (retry, cancel), status

    asked: list[str] = []
    answer = QMessageBox.StandardButton.No

    def question(_parent, _title, text, *_a, **_k):
        asked.append(text)
        return answer

    monkeypatch.setattr(QMessageBox, "question", question)
    queued = ids[DeliveryStatus.QUEUED]
    view.select(queued)
    view.cancel_action.trigger()
    settle(qtbot, ctx, timeout=WAIT)
    assert len(asked) == 1 and f"#{queued}" in asked[0] and "will not be sent" in asked[0]
    assert _status(view, queued) == "queued" and view.cancel_action.isEnabled()
    with db.read() as s:
        assert s.get(Delivery, queued).status == DeliveryStatus.QUEUED  # type: ignore[union-attr]
    answer = QMessageBox.StandardButton.Yes
    view.cancel_action.trigger()
    qtbot.waitUntil(lambda: _status(view, queued) == "canceled", timeout=WAIT)
    assert len(asked) == 2 and not view.cancel_action.isEnabled() and view.retry_action.isEnabled()


def test_retry_of_a_canceled_future_reminder_says_when_it_goes(qtbot, ctx: AppContext, db: Database,
                                                               now: dt.datetime,
                                                               computer_zone: Callable[[str], None]) -> None:
    computer_zone("UTC")
    due = dt.datetime(2026, 12, 31, 6, 0, tzinfo=dt.UTC)  # 15:00 in Tokyo
    with db.write() as s:
        room = f.classroom(s, "本校", timezone="Asia/Tokyo").id
    future = _add(db, now, "future", status=DeliveryStatus.CANCELED, classroom_id=room, due_at=due,
                  next_attempt_at=due, cancel_reason="MANAGER")
    past = _add(db, now, "past", status=DeliveryStatus.FAILED, classroom_id=room, first_attempt_at=now,
                attempt_count=3)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=WAIT)
    view.select(future)
    view.retry_action.trigger()
    qtbot.waitUntil(lambda: _status(view, future) == "pending", timeout=WAIT)
    assert view.message is not None
    assert "will be sent on Thu 31 Dec 2026 at 15:00 JST" in view.message.text()
    with db.read() as s:
        assert s.get(Delivery, future).next_attempt_at == due  # type: ignore[union-attr]
    view.select(past)
    view.retry_action.trigger()
    qtbot.waitUntil(lambda: _status(view, past) == "queued", timeout=WAIT)
    assert view.message.text() == f"Delivery #{past} will be sent now."


@pytest.fixture(params=["en", "ja"])
def language(request: pytest.FixtureRequest, qapp: QApplication, tmp_path: Path) -> Iterator[str]:
    """The interface in each language in turn; English again afterwards."""
    try:
        yield i18n.install(qapp, request.param, tmp_path)
    finally:
        i18n.install(qapp, "en", tmp_path)


def test_kind_column_and_status_filter_fit_their_longest_text(qtbot, ctx: AppContext, language: str) -> None:
    view = DeliveriesView(ctx)
    qtbot.addWidget(view)
    view.resize(1366, 768)  # the smallest screen a manager was seen using
    view.show()
    settle(qtbot, ctx, timeout=WAIT)
    if language == "ja":
        assert view.words.kinds[DeliveryKind.SHIFT_REMINDER.value] != "Shift reminder"  # really translated
    metrics = view.table.fontMetrics()
    style = view.table.style()
    margins = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view.table) + 1)
    longest_kind = max(metrics.horizontalAdvance(text) for text in view.words.kinds.values())
    assert view.table.columnWidth(KIND) >= longest_kind + margins
    box = view.kind_box
    assert box.width() >= max(box.fontMetrics().horizontalAdvance(box.itemText(i)) for i in range(box.count()))

    button = view.status_button
    arrow = button.style().pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, None, button)
    for key, action in [("", None), *view.status_actions.items()]:
        if action is not None:
            action.setChecked(True)
        qtbot.waitUntil(lambda: button.width() >= button.minimumWidth(), timeout=WAIT)
        assert button.width() >= button.fontMetrics().horizontalAdvance(button.text()) + arrow, key
        if action is not None:
            action.setChecked(False)


def test_an_acknowledged_delivery_says_when_its_teacher_tapped_ok(qtbot, ctx: AppContext, db: Database,
                                                                  now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s, timezone="Asia/Tokyo")
        who = f.teacher(s)
        room_id, teacher_id = room.id, who.id
    tapped = dt.datetime(2026, 12, 1, 6, 5, tzinfo=dt.UTC)  # 15:05 in Tokyo
    acked = _add(db, now, "shift_reminder:shift:1:v1", status=DeliveryStatus.SENT, sent_at=now,
                 classroom_id=room_id, teacher_id=teacher_id, acknowledged_at=tapped)
    plain = _add(db, now, "shift_reminder:shift:2:v1", status=DeliveryStatus.SENT, sent_at=now,
                 classroom_id=room_id, teacher_id=teacher_id)
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=WAIT)
    status_of = {view.model.item_at(r).id: view.model.item_at(r).texts[STATUS] for r in range(2)}
    assert status_of[plain] == "Sent"
    assert status_of[acked].startswith("Sent · ✓ 了解 ") and "15:05" in status_of[acked]
    assert view.select(acked)
    settle(qtbot, ctx, timeout=WAIT)
    assert "1 Dec 2026 15:05" in view.detail._values["acknowledged"].text()  # in the classroom's zone
    assert view.select(plain)
    settle(qtbot, ctx, timeout=WAIT)
    assert view.detail._values["acknowledged"].text() == "—"


def test_an_acknowledged_status_fits_its_column_on_a_small_screen(qtbot, ctx: AppContext, db: Database,
                                                                 now: dt.datetime, language: str) -> None:
    with db.write() as s:
        room = f.classroom(s, timezone="Asia/Tokyo")
        room_id, teacher_id = room.id, f.teacher(s).id
    tapped = dt.datetime(2026, 12, 30, 14, 59, tzinfo=dt.UTC)  # 23:59 in Tokyo, a long weekday and month
    acked = _add(db, now, "shift_reminder:shift:1:v1", status=DeliveryStatus.SENT, sent_at=now,
                 classroom_id=room_id, teacher_id=teacher_id, acknowledged_at=tapped)
    view = DeliveriesView(ctx)
    qtbot.addWidget(view)
    view.resize(1366, 768)
    view.show()
    settle(qtbot, ctx, timeout=WAIT)
    qtbot.waitUntil(lambda: view.model.get(acked) is not None, timeout=WAIT)
    item = view.model.get(acked)
    assert item is not None
    text = item.texts[STATUS]
    assert "了解" in text and "23:59" in text
    # The badge is the text and 16 pixels, drawn 4 pixels inside its cell on both sides (StatusBadgeDelegate).
    assert view.table.fontMetrics().horizontalAdvance(text) + 24 <= view.table.columnWidth(STATUS), text


def test_a_tap_received_while_the_view_is_open_shows_without_a_reload(qtbot, ctx: AppContext, db: Database,
                                                                      now: dt.datetime) -> None:
    from core.emulator import LineEmulator
    from core.messages import ack
    from core.receiving import acknowledge
    from core.receiving.server import WebhookReceiver
    from core.store import ack_key
    from tests.linefixtures import user_id

    secret = "0f1e2d3c4b5a69780f1e2d3c4b5a6978"
    with db.write() as s:
        acknowledge.enable(s, True)
        key = ack_key.signing_key(s)
        who = f.teacher(s, "佐藤", 1, line_user_id=user_id(1))
        teacher_id = who.id
    tapped = _add(db, now, "shift_reminder:shift:1:v1", status=DeliveryStatus.SENT, sent_at=now,
                  channel=Channel.LINE, teacher_id=teacher_id, recipient=user_id(1))
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=WAIT)
    assert view.model.item_at(0).texts[STATUS] == "Sent"
    with LineEmulator(token="t", channel_secret=secret, loopback_webhooks=True) as line, \
            WebhookReceiver(db, secret, handlers=[acknowledge.AckHandler()]) as rx:
        line.set_webhook_endpoint(rx.url)
        sent = line.postback(user_id(1), ack.postback_data(key, tapped))  # the teacher taps 了解
        assert sent.result is not None and sent.result.status_code == 200
        assert rx.dispatcher.wait_handled(1, timeout=30)
    # Nobody pressed Reload: the store's hook told the table.
    qtbot.waitUntil(lambda: "了解" in view.model.item_at(0).texts[STATUS], timeout=WAIT)


def test_the_view_says_who_sends_from_this_database(qtbot, ctx: AppContext, db: Database, now: dt.datetime) -> None:
    from core.sending import presence

    clock_now = ctx.clock()
    with db.write() as s:
        presence.register(s, "nas:1:a", home="/srv/shiftcast", app="sender", now=clock_now, host="nas", pid=1)
        presence.register(s, "pc:2:b", home="C:/Shiftcast", app="window", host="office-pc", pid=2,
                          now=clock_now - presence.STALE_AFTER - dt.timedelta(minutes=1))
        presence.register(s, "old:3:c", home="/old", app="tray", now=clock_now, host="old", pid=3)
        presence.stopped(s, "old:3:c", now=clock_now)
    view = _view(qtbot, ctx)
    note = view.senders_note
    assert note.isVisible()
    assert note.text().startswith("Sending from: nas (since ") and "office-pc (no heartbeat since " in note.text()
    assert "old" not in note.text()  # a sender that said it stopped is not sending
    assert "nas · sender · pid 1 · /srv/shiftcast" in note.toolTip()


def test_the_date_filter_writes_days_as_the_rest_of_the_window(qtbot, ctx: AppContext) -> None:
    view = _view(qtbot, ctx)
    view.date_from.setDate(QDate(2026, 11, 24))
    assert view.date_from.text() == "Tue 24 Nov 2026"


def test_who_sends_is_told_on_the_classroom_s_clock_as_the_rows_are(qtbot, ctx: AppContext, db: Database,
                                                                    now: dt.datetime,
                                                                    computer_zone: Callable[[str], None]) -> None:
    from core.sending import presence

    computer_zone("America/New_York")  # `now` is 09:00 on 1 Dec in Tokyo, 19:00 on 30 Nov here
    with db.write() as s:
        f.classroom(s, "本校", timezone="Asia/Tokyo")
        presence.register(s, "nas:1:a", home="/srv/shiftcast", app="sender", now=now, host="nas", pid=1)
    ctx.clock = lambda: now
    view = _view(qtbot, ctx)
    qtbot.waitUntil(lambda: view.zone_note.isVisible() and view.senders_note.isVisible(), timeout=WAIT)
    qtbot.waitUntil(lambda: view.senders_note.text() == f"Sending from: nas (since {_wall(dt.date(2026, 12, 1), 9)})",
                    timeout=WAIT)
