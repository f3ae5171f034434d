"""Core's messages on screen in the Japanese interface: the alerts banner (and what the tray is told),
the Deliveries view's cancel reasons, and the CSV import's problem list."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QWidget

from core import alerts
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus
from core.texts import t
from tests import factories as f
from tests.test_i18n import japanese  # noqa: F401
from tests.test_ui_email import NOW, dead_letter
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.deliveries.model import STATUS
from ui.deliveries.view import DeliveriesView
from ui.services.context import AppContext
from ui.shell import alerts_banner
from ui.shell.alerts_banner import AlertsBanner
from ui.shifts.csv_files import CsvProblemsDialog
from ui.shifts.view import ShiftsView

WAIT = 10_000


def _keep(widget: QWidget, name: str) -> None:
    """With SHIFTCAST_SHOTS set, save what the test saw (docs/screenshots/ is made this way)."""
    folder = os.environ.get("SHIFTCAST_SHOTS")
    if folder:
        widget.grab().save(str(Path(folder) / name))


def test_the_banner_and_the_tray_speak_japanese(qtbot, ctx: AppContext, japanese: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(alerts_banner, "DEBOUNCE_MS", 50)
    told: list[tuple[str, str]] = []
    ctx.bridge.alert.connect(lambda code, text: told.append((code, text)))
    banner = AlertsBanner(ctx)
    qtbot.addWidget(banner)
    banner.resize(900, 120)
    banner.show()
    settle(qtbot, ctx)
    dead_letter(ctx.db)
    with ctx.db.write() as s:
        alerts.open_incident(s, alerts.queue_stalled(3, NOW - dt.timedelta(minutes=20)), now=NOW)
    ctx.bridge.raise_alert("DEAD_LETTER", t("alert.dead_letters", count=1))  # as the sender does
    qtbot.waitUntil(lambda: len(banner.alerts) == 2, timeout=WAIT)
    texts = sorted(a.text for a in banner.alerts)
    assert texts[0].splitlines() == [
        "1件の配信が、すべての再送に失敗しました（配信不能）。",
        "失敗した配信を確認し、再送するか取り消してください。なくなると、このアラートは消えます。",
        "発生: 2026年12月1日(火) 00:00（UTC）",
    ]
    assert texts[1].splitlines()[:2] == [
        "3件の配信が15分以上送信待ちになっています。",
        "最も古いものは 2026年11月30日(月) 23:40（UTC）から送信待ちです。送信処理は動いていますが、送信されていません。"
        "LINEとメールがサーバーに接続できるか確認してください。",
    ]
    assert told == [("DEAD_LETTER", "1件の配信が、すべての再送に失敗しました（配信不能）。")]
    assert [b.text() for b in banner.buttons] != ["Show dead letters", "Show deliveries"]  # the window's own words too
    _keep(banner, "alerts-banner-ja.png")


def test_cancel_reasons_in_deliveries_speak_japanese(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                     japanese: Path) -> None:
    with db.write() as s:
        row = Delivery(kind=DeliveryKind.SHIFT_REMINDER, dedup_key="c", status=DeliveryStatus.CANCELED, updated_at=now,
                       created_at=now, due_at=now, next_attempt_at=now, cancel_reason="SHIFT_CHANGED")
        s.add(row)
        s.flush()
        canceled = row.id
    ctx.clock = lambda: now
    view = DeliveriesView(ctx)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=WAIT)
    tooltip = view.model.data(view.model.index(0, STATUS), Qt.ItemDataRole.ToolTipRole)
    assert tooltip == "シフトが変更されたため、新しい内容を送ります（SHIFT_CHANGED）"
    view.select(canceled)
    qtbot.waitUntil(lambda: "SHIFT_CHANGED" in view.detail._values["status"].text(), timeout=WAIT)
    assert "シフトが変更されたため、新しい内容を送ります（SHIFT_CHANGED）" in view.detail._values["status"].text()
    settle(qtbot, ctx)


def test_a_csv_import_error_lists_its_problems_in_japanese(qtbot, ctx: AppContext, db: Database, now: dt.datetime,
                                                           tmp_path: Path, japanese: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    with db.write() as s:
        f.classroom(s, "本校")
        f.teacher(s, "佐藤", 1)
    bad = tmp_path / "bad.csv"
    bad.write_text("classroom,teacher,date,start,end\n本校,佐藤,2026-12-20,16:00,21:00\n"
                   "本校,誰か,2026-12-21,16:00,21:00\n本校,佐藤,2026/12/32,16:00,21:00\n"
                   "本校,佐藤,2026-12-22,21:00,16:00\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    ctx.clock = lambda: now
    view = ShiftsView(ctx)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    settle(qtbot, ctx)
    view.csv.import_shifts()
    qtbot.waitUntil(lambda: isinstance(view.csv.last_dialog, CsvProblemsDialog), timeout=WAIT)
    dialog = view.csv.last_dialog
    assert isinstance(dialog, CsvProblemsDialog)
    assert dialog.problems.toPlainText().splitlines() == [
        "3行目: 「誰か」という講師は登録されていません。",
        "4行目: 「2026/12/32」は日付として読めません。2026-12-01 のように YYYY-MM-DD で入力してください。",
        "5行目: 終了時刻は開始時刻より後にしてください（21:00–16:00）。翌日の2:00は26:00と入力します。",
    ]
    dialog.resize(640, 320)
    _keep(dialog, "csv-import-error-ja.png")
    dialog.close()
    settle(qtbot, ctx)
