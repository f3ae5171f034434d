"""The dry run's reasons (`main.py plan`) carry catalog codes: English by default, Japanese for a
Japanese manager, the code beside the words in the JSON."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from sqlalchemy import update

import main
from core.planning import forecast
from core.planning.planner import plan
from core.roster import clock
from core.store.db import Database
from core.store.models import Delivery, DeliveryStatus, ShiftStatus
from core.texts import render
from tests import factories as f

TOKYO = "Asia/Tokyo"


def tokyo(day: str, wall: str) -> dt.datetime:
    return clock.to_utc(dt.date.fromisoformat(day), dt.time.fromisoformat(wall), TOKYO)


def _two_shifts(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        a, b = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        f.shift(s, room, a, dt.date(2026, 12, 10), "16:00", "21:00", now=now, status=ShiftStatus.CONFIRMED)
        # Due 21:30 the evening before (06:00 is in quiet hours).
        f.shift(s, room, b, dt.date(2026, 12, 10), "08:00", "12:00", now=now, status=ShiftStatus.CONFIRMED)


def _reasons(items: list[forecast.PlannedSend], lang: str) -> dict[str, str]:
    return {i.recipient: render(i.why, lang) for i in items}  # type: ignore[arg-type]


def test_the_dry_run_says_why_in_each_language(db: Database, now: dt.datetime) -> None:
    _two_shifts(db, now)
    # 01:00 in Tokyo: 鈴木's reminder is late and waits for the end of quiet hours; 佐藤's is on time.
    items = forecast.dry_run(db, now=tokyo("2026-12-10", "01:00"), days=2)
    assert _reasons(items, "en") == {"佐藤": "reminder", "鈴木": "reminder (held until quiet hours end)"}
    assert _reasons(items, "ja") == {"佐藤": "リマインダー", "鈴木": "リマインダー（通知しない時間帯が終わってから送ります）"}
    assert {i.why.code for i in items} == {"plan.why.reminder", "plan.why.reminder_held"}


def test_a_late_reminder_and_a_retry_say_so_in_japanese(db: Database, now: dt.datetime) -> None:
    _two_shifts(db, now)
    items = forecast.dry_run(db, now=tokyo("2026-12-10", "14:30"), days=2)  # 佐藤's was due at 14:00
    assert _reasons(items, "ja") == {"佐藤": "遅れて送るリマインダー（予定の時刻にアプリが動いていませんでした）"}
    assert _reasons(items, "en") == {"佐藤": "late reminder (the app was not running when it was due)"}
    # A reminder planned earlier and retried since: its reason is what it is, with the retry.
    with db.write() as s:
        plan(s, now=now)
        s.execute(update(Delivery).values(status=DeliveryStatus.QUEUED, attempt_count=2, last_error_code="HTTP_500"))
    items = forecast.dry_run(db, now=now, days=14)
    assert set(_reasons(items, "ja").values()) == {"リマインダー（再送 2回目: HTTP_500）"}
    assert set(_reasons(items, "en").values()) == {"reminder (retry 2: HTTP_500)"}


@pytest.fixture
def tomorrow_shift(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        a = f.teacher(s)
        tomorrow = (dt.datetime.now(dt.UTC) + dt.timedelta(days=1)).astimezone(clock.zone(TOKYO)).date()
        f.shift(s, room, a, tomorrow, "16:00", "21:00", now=now, status=ShiftStatus.CONFIRMED)


@pytest.mark.usefixtures("tomorrow_shift")
@pytest.mark.parametrize(("lang", "reason", "count", "blocked"), [
    ("ja", "リマインダー", "今後3日間の配信 1件", "この問題が解決するまで送信しません: LINEに接続していないため"),
    ("en", "reminder", "1 delivery in the next 3 days", "NOT SENT until fixed: LINE is not connected")])
def test_main_plan_prints_the_reason_in_the_run_language(capsys: pytest.CaptureFixture[str], lang: str, reason: str,
                                                         count: str, blocked: str) -> None:
    assert main.main(["--lang", lang, "plan", "--days", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # What stops the sends (LINE is not connected in this test) comes first, before the sends themselves.
    assert lines[0].startswith(blocked), lines
    first = next(i for i, line in enumerate(lines) if not line.startswith(blocked.split(":")[0]))
    assert lines[first].endswith(f"]  {reason}"), lines
    assert lines[first + 1] == count


@pytest.mark.usefixtures("tomorrow_shift")
def test_main_plan_json_gives_the_reason_in_the_run_language_and_its_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main.main(["--lang", "ja", "plan", "--days", "3", "--json"]) == 0
    delivery = json.loads(capsys.readouterr().out)["deliveries"][0]
    assert (delivery["why"], delivery["why_code"]) == ("リマインダー", "plan.why.reminder")
