"""Why a delivery was not sent, in the manager's language: LINE's and the mail server's refusals are kept
as catalog messages (the answer's own words a parameter), shown in Japanese in the Deliveries table and
its detail under the Japanese interface, in English with `--lang en`, and logged in English with the code.
The search finds a row by an English or a Japanese word of what it shows."""

from __future__ import annotations

import datetime as dt
import json
import logging
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

import main
from core.channels import email as email_channel
from core.channels import line_render
from core.channels.base import Outgoing
from core.emulator import LineEmulator
from core.outbox import deliveries
from core.outbox.deliveries import DeliveryFilter
from core.outbox.policy import BackoffPolicy, shown_error
from core.sending.sender import Sender, SenderConfig
from core.setup import email_checks
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus
from core.texts import render
from tests import factories as f
from tests.linefixtures import FakeClock, emulator, line_ready, make_reminders  # noqa: F401
from tests.smtpfixtures import SmtpServer, _free_port, smtp_ca, starttls_server  # noqa: F401
from tests.test_email_sender import _email_teachers
from tests.test_i18n import japanese  # noqa: F401
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.deliveries.model import ERROR
from ui.deliveries.view import DeliveriesView
from ui.services.context import AppContext

FAST = SenderConfig(concurrency=2, lease=dt.timedelta(seconds=30),
                    backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0))
WAIT = 20_000  # ms; a wait ends as soon as its condition holds
LINE_400_JA = "リクエストの内容に誤りがあるため、LINEが受け付けませんでした（HTTP 400）: "
LINE_400_EN = "LINE refused the request as invalid (HTTP 400): "


@pytest.fixture
def clock(now: dt.datetime) -> FakeClock:
    return FakeClock(now)


@pytest.fixture(autouse=True)
def _no_password_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(email_channel.PASSWORD_ENV, raising=False)


def _send(db: Database, clock: FakeClock, *, email: bool = False) -> None:
    sender = Sender(db, paths=f.home_paths(), config=FAST, clock=clock,
                    connect={} if email else {"email": None})
    try:
        sender.run_until_idle()
    finally:
        sender.stop()


def _line_400(db: Database, emulator: LineEmulator, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> int:
    """A reminder LINE refuses with its 400 and its details (an empty text)."""
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=emulator)
    monkeypatch.setattr(line_render, "push", lambda to, message: Outgoing(
        "push", to, ({"type": "text", "text": ""},)))
    _send(db, clock)
    return delivery_id


def _view(qtbot, ctx: AppContext, count: int) -> DeliveriesView:
    view = DeliveriesView(ctx)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitUntil(lambda: view.model.rowCount() == count, timeout=WAIT)
    return view


def _shown(qtbot, view: DeliveriesView, delivery_id: int) -> tuple[str, str, str, str]:
    """The row's Last error cell and its tooltip, the detail pane's error and its first attempt's error."""
    row = _ids(view).index(delivery_id)
    index = view.model.index(row, ERROR)
    assert view.select(delivery_id)
    attempts = view.detail.attempts
    qtbot.waitUntil(lambda: attempts.topLevelItemCount() >= 1, timeout=WAIT)
    first = attempts.topLevelItem(0)
    assert first is not None
    return (view.model.data(index), view.model.data(index, Qt.ItemDataRole.ToolTipRole),
            view.detail._values["error"].text(), first.text(6))


def _ids(view: DeliveriesView) -> list[int]:
    return [view.model.item_at(r).id for r in range(view.model.rowCount())]


def test_a_line_400_reads_japanese_in_deliveries_and_logs_english_with_its_code(
        qtbot, ctx: AppContext, db: Database, line_ready: LineEmulator, clock: FakeClock,
        monkeypatch: pytest.MonkeyPatch, japanese: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="core.sending.record"):
        delivery_id = _line_400(db, line_ready, clock, monkeypatch)
    logged = [r.getMessage() for r in caplog.records if r.name == "core.sending.record"]
    assert any(LINE_400_EN in m and m.endswith("[send_error.LINE_400] (failed)") for m in logged), logged
    view = _view(qtbot, ctx, 1)
    cell, tip, detail, attempt = _shown(qtbot, view, delivery_id)
    assert cell.startswith(LINE_400_JA) and "messages[0].text" in cell  # LINE's own words, as LINE wrote them
    assert tip.startswith(LINE_400_JA)
    assert detail.startswith(LINE_400_JA) and attempt.startswith("LINE_400: " + LINE_400_JA)  # codes: technical
    assert "refused" not in cell + detail + attempt
    # The table's own search finds it by a Japanese word and by the English one alike.
    view.search.setText("不正として")
    qtbot.waitUntil(lambda: _ids(view) == [delivery_id], timeout=WAIT)
    view.search.setText("nothing like this")
    qtbot.waitUntil(lambda: _ids(view) == [], timeout=WAIT)
    view.search.setText("REFUSED the request")
    qtbot.waitUntil(lambda: _ids(view) == [delivery_id], timeout=WAIT)
    settle(qtbot, ctx, timeout=WAIT)


def test_a_used_up_monthly_quota_reads_japanese(qtbot, ctx: AppContext, db: Database,
                                                 line_ready: LineEmulator, clock: FakeClock, japanese: Path) -> None:
    make_reminders(db, 2, now=clock.now, emulator=line_ready)
    line_ready.set_quota(1)
    _send(db, clock)
    with db.read() as s:
        [failed] = [d.id for d in deliveries.list_deliveries(s) if d.last_error_code == "QUOTA_EXHAUSTED"]
    view = _view(qtbot, ctx, 2)
    cell, _tip, detail, attempt = _shown(qtbot, view, failed)
    quota = "LINE公式アカウントの今月の送信数が上限に達しました（HTTP 429）: You have reached your monthly limit."
    assert cell == quota and detail == quota and attempt == "QUOTA_EXHAUSTED: " + quota
    settle(qtbot, ctx, timeout=WAIT)


def test_an_smtp_535_reads_japanese(qtbot, ctx: AppContext, db: Database, starttls_server: SmtpServer,
                                    clock: FakeClock, japanese: Path) -> None:
    starttls_server.configure(db)
    email_channel.set_smtp_password("not the password")
    [delivery_id] = _email_teachers(db, clock.now, 1)
    _send(db, clock, email=True)
    view = _view(qtbot, ctx, 1)
    cell, _tip, detail, attempt = _shown(qtbot, view, delivery_id)
    refused = "メールサーバーがユーザー名またはパスワードを受け付けませんでした（SMTP 535）"
    assert cell.startswith(refused) and detail.startswith(refused)
    assert attempt.startswith("SMTP_AUTH_FAILED: " + refused)
    settle(qtbot, ctx, timeout=WAIT)


def test_the_cli_lists_the_error_in_the_runs_language(db: Database, line_ready: LineEmulator, clock: FakeClock,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    delivery_id = _line_400(db, line_ready, clock, monkeypatch)
    assert main.main(["--lang", "en", "deliveries"]) == 0
    out = capsys.readouterr().out
    assert f"LINE_400: {LINE_400_EN}" in out and "messages[0].text" in out and "\x1e" not in out
    assert main.main(["--lang", "ja", "deliveries"]) == 0
    assert f"LINE_400: {LINE_400_JA}" in capsys.readouterr().out
    assert main.main(["--lang", "en", "deliveries", "--json"]) == 0
    [row] = [r for r in json.loads(capsys.readouterr().out) if r["id"] == delivery_id]
    assert row["error_code"] == "LINE_400" and row["error"].startswith(LINE_400_EN)


@pytest.mark.backends("sqlite", "postgresql")
def test_the_search_finds_an_error_by_its_english_or_japanese_words(db: Database, backend: str,
                                                                   line_ready: LineEmulator, clock: FakeClock,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    refused = _line_400(db, line_ready, clock, monkeypatch)
    with db.write() as s:  # a row written before errors were kept as messages: plain English words
        old = Delivery(kind=DeliveryKind.SHIFT_REMINDER, dedup_key="old", status=DeliveryStatus.FAILED,
                       created_at=clock.now, due_at=clock.now, next_attempt_at=clock.now, updated_at=clock.now,
                       last_error_code="LINE_5XX", last_error_message="HTTP 500: Internal server error")
        s.add(old)
        s.flush()
        old_id = old.id

    def found(words: str) -> list[int]:
        with db.read() as s:
            return [d.id for d in deliveries.list_deliveries(s, DeliveryFilter(text=words))]

    assert found("refused the request as invalid") == [refused]  # our English
    assert found("内容に誤りがある") == [refused]  # our Japanese
    assert found("messages[0].text") == [refused]  # LINE's words, a parameter
    assert found("Internal server") == [old_id]  # an old row's plain words
    assert found("LINE_") == [old_id, refused]  # the code column, as before
    assert found("nothing of the kind") == []
    if backend == "sqlite":  # rendered in the query: words across a parameter, and nothing of the encoding
        assert found("HTTP 400") == [refused]
        assert found("params") == []


def test_an_unreachable_mail_server_is_said_once_in_the_delivery_and_the_settings_check(
        db: Database, starttls_server: SmtpServer, clock: FakeClock) -> None:
    starttls_server.configure(db)
    closed = _free_port()  # nothing listens there
    with db.write() as s:
        keys.SMTP_PORT.write(s, closed)
    [delivery_id] = _email_teachers(db, clock.now, 1)
    _send(db, clock, email=True)
    with db.read() as s:
        d = s.get(Delivery, delivery_id)
        assert d is not None
        error = shown_error(d.last_error_message)
    assert d.last_error_code == "CONNECTION_ERROR"
    assert render(error, "en").startswith(f"could not connect: {starttls_server.host}:{closed}: ")
    assert render(error, "ja").startswith(f"接続できませんでした: {starttls_server.host}:{closed}: ")
    check = email_checks.check_login(db)
    # The check names the server itself; its detail is only why.
    assert check.failure is email_checks.LoginFailure.CONNECTION and check.detail
    assert f":{closed}" not in check.detail
