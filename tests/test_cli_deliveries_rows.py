"""`shiftcast deliveries` lists the rows the window's Deliveries table shows (core/outbox/rows.py): the
same deliveries, kinds, channels and states for one database, each with its channel named as its
driver names it, in the run's language, and a classroom's group named on its own channel."""

from __future__ import annotations

import datetime as dt
import json

import pytest

import main
from core.outbox import rows
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus
from tests import factories as f
from tests.ui_fixtures import ctx, settle  # noqa: F401
from ui.deliveries.model import RECIPIENT
from ui.deliveries.view import DeliveriesView
from ui.services.context import AppContext

WAIT = 20_000  # ms; a wait ends as soon as its condition holds


def _outbox(db: Database, now: dt.datetime) -> None:
    """A teacher's reminder on LINE and its copy by e-mail, a month for a classroom's group on a
    channel that is not LINE, and an alert that died on the webhook."""
    with db.write() as s:
        room = f.classroom(s)
        teacher = f.teacher(s, "佐藤", 1, email="sato@example.com", email_opt_in=True)
        made = [
            Delivery(kind=DeliveryKind.SHIFT_REMINDER, channel="line", dedup_key="r:1", status=DeliveryStatus.QUEUED,
                     teacher_id=teacher.id, classroom_id=room.id, recipient=f"U{1:032x}"),
            Delivery(kind=DeliveryKind.SHIFT_REMINDER, channel="email", dedup_key="r:1:email",
                     status=DeliveryStatus.PENDING, teacher_id=teacher.id, classroom_id=room.id,
                     recipient="sato@example.com"),
            Delivery(kind=DeliveryKind.SHIFT_PUBLICATION, channel="email", dedup_key="p:1",
                     status=DeliveryStatus.SENT, classroom_id=room.id, sent_at=now),
            Delivery(kind=DeliveryKind.ALERT, channel="webhook", dedup_key="a:1", status=DeliveryStatus.FAILED,
                     dead_lettered_at=now, last_error_code="WEBHOOK_4XX", recipient="webhook"),
        ]
        for delivery in made:
            for name in ("created_at", "due_at", "next_attempt_at", "updated_at"):
                setattr(delivery, name, now)
            s.add(delivery)


def _listed(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main.main(list(argv)) == 0
    return capsys.readouterr().out


def test_the_command_line_lists_the_windows_rows(qtbot, capsys: pytest.CaptureFixture[str], ctx: AppContext,
                                                 db: Database, now: dt.datetime) -> None:
    _outbox(db, now)
    listed = json.loads(_listed(capsys, "deliveries", "--json"))
    with db.read() as s:
        table = rows.all_rows(s)  # what the window's model is fed
    assert [(r["id"], r["kind"], r["channel"], r["status"]) for r in listed] == [
        (r.id, r.kind, r.channel, r.status) for r in table]

    view = DeliveriesView(ctx)
    qtbot.addWidget(view)
    view.show()
    settle(qtbot, ctx, timeout=WAIT)
    qtbot.waitUntil(lambda: view.model.rowCount() == 4, timeout=WAIT)
    shown = [view.model.item_at(row) for row in range(view.model.rowCount())]
    assert sorted((i.id, i.kind, i.status) for i in shown) == sorted((r["id"], r["kind"], r["status"]) for r in listed)
    # Whom the window says a row is for names the channel as the command line does, LINE's too.
    for row in range(4):
        item = view.model.item_at(row)
        [entry] = [r for r in listed if r["id"] == item.id]
        if entry["recipient_name"] is not None:
            assert entry["channel_name"] in view.model.index(row, RECIPIENT).data()


def test_each_row_names_its_channel_in_the_runs_language(capsys: pytest.CaptureFixture[str], db: Database,
                                                         now: dt.datetime) -> None:
    _outbox(db, now)
    listed = json.loads(_listed(capsys, "--lang", "en", "deliveries", "--json"))
    assert [r["channel_name"] for r in listed] == ["Webhook", "E-mail", "E-mail", "LINE"]
    assert listed[1]["recipient_name"] == "本校 (E-mail group)"  # a group on its own channel, not LINE's
    english = _listed(capsys, "--lang", "en", "deliveries").splitlines()
    japanese = _listed(capsys, "--lang", "ja", "deliveries").splitlines()
    assert " E-mail " in english[2] and "佐藤" in english[2] and "queued" not in english[2]
    assert " LINE " in english[3] and "queued" in english[3]
    assert " メール " in japanese[2] and "本校（メールグループ）" in japanese[1] and " Webhook " in japanese[0]
