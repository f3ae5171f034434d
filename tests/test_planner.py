"""Planning reminders and corrections, and the whole path to each teacher's inbox."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select, update

from core.emulator import LineEmulator
from core.planning import forecast
from core.planning.planner import plan
from core.roster import clock, csv_files, rules
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus, ShiftStatus
from core.texts import render
from tests import factories as f
from tests.linefixtures import FakeClock, emulator, line_ready, user_id  # noqa: F401

TOKYO = "Asia/Tokyo"


def tokyo(day: str, wall: str) -> dt.datetime:
    return clock.to_utc(dt.date.fromisoformat(day), dt.time.fromisoformat(wall), TOKYO)


def _count(db: Database) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Delivery)) or 0


def _setup(db: Database, now: dt.datetime) -> dict[str, int]:
    with db.write() as s:
        room = f.classroom(s)
        a, b = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        quiet = f.teacher(s, "高橋", 3, line_opt_in=False)
        s1 = f.shift(s, room, a, dt.date(2026, 12, 10), "16:00", "21:00", now=now, status=ShiftStatus.CONFIRMED)
        s2 = f.shift(s, room, b, dt.date(2026, 12, 10), "08:00", "12:00", now=now, status=ShiftStatus.CONFIRMED)
        f.shift(s, room, quiet, dt.date(2026, 12, 10), "08:00", "12:00", now=now, status=ShiftStatus.CONFIRMED)
        f.shift(s, room, a, dt.date(2026, 12, 11), "16:00", "21:00", now=now)  # draft: no reminder
        return {"s1": s1.id, "s2": s2.id, "a": a.id, "b": b.id}


def test_planning_is_idempotent_with_exact_due_times(db: Database, now: dt.datetime) -> None:
    ids = _setup(db, now)
    with db.write() as s:
        report = plan(s, now=now)
    assert len(report.created) == 2
    by_shift = {p.shift_id: p for p in report.created}
    assert by_shift[ids["s1"]].due_at == tokyo("2026-12-10", "14:00")
    assert by_shift[ids["s2"]].due_at == tokyo("2026-12-09", "21:30")  # 06:00 is in quiet hours
    for _ in range(3):
        with db.write() as s:
            assert plan(s, now=now).created == []
    assert _count(db) == 2
    with db.read() as s:
        rows = s.scalars(select(Delivery)).all()
    assert all(d.status == DeliveryStatus.PENDING and d.next_attempt_at == d.due_at for d in rows)


def test_edit_supersedes_pending_reminder(db: Database, now: dt.datetime) -> None:
    ids = _setup(db, now)
    with db.write() as s:
        plan(s, now=now)
        rules.edit_shift(s, ids["s1"], rules.ShiftChange(start_time=dt.time(17)), now=now)
        report = plan(s, now=now)
    assert len(report.superseded) == 1 and len(report.created) == 1
    assert report.created[0].due_at == tokyo("2026-12-10", "15:00")
    with db.read() as s:
        old = s.get(Delivery, report.superseded[0])
        assert old is not None and (old.status, old.cancel_reason) == (DeliveryStatus.CANCELED, "SUPERSEDED")


def test_turning_quiet_hours_off_and_lead_time(db: Database, now: dt.datetime) -> None:
    ids = _setup(db, now)
    with db.write() as s:
        rules.update_classroom(s, 1, quiet_hours=None, reminder_lead_minutes=60)
        report = plan(s, now=now)
    by_shift = {p.shift_id: p.due_at for p in report.created}
    assert by_shift[ids["s2"]] == tokyo("2026-12-10", "07:00")


def _send_all(db: Database, clk: FakeClock) -> None:
    Sender(db, paths=f.home_paths(), config=SenderConfig(concurrency=2), clock=clk).run_until_idle()


def test_end_to_end_import_plan_send_correct(db: Database, line_ready: LineEmulator) -> None:
    """CSV import → planning → sender → inbox; then edits after the reminder went out."""
    clk = FakeClock(tokyo("2026-12-01", "09:00"))
    with db.write() as s:
        f.classroom(s)
        csv_files.import_teachers(s, (
            "name,line_user_id,line_opt_in\n"
            f"佐藤,{user_id(1)},yes\n鈴木,{user_id(2)},yes\n田中,{user_id(3)},yes\n").encode())
        csv_files.import_shifts(s, (
            "classroom,teacher,date,start,end,status\n"
            "本校,佐藤,2026-12-02,16:00,21:00,confirmed\n"
            "本校,鈴木,2026-12-03,08:00,12:00,confirmed\n"
            "本校,田中,2026-12-04,10:00,12:00,confirmed\n").encode(), now=clk.now)
    for n in (1, 2, 3):
        line_ready.add_user(user_id(n), f"teacher {n}")

    def run_at(when: dt.datetime) -> None:
        clk.now = when
        with db.write() as s:
            plan(s, now=clk.now)
        _send_all(db, clk)

    run_at(tokyo("2026-12-02", "13:59"))
    assert line_ready.inbox(user_id(1)) == []  # not yet due
    run_at(tokyo("2026-12-02", "14:00"))
    [reminder] = line_ready.inbox(user_id(1))
    assert reminder.accepted_at is not None and "12月2日(水) 16:00〜21:00" in reminder.message["altText"]

    # The shift moves after its reminder went out: exactly one correction, however often planning runs.
    with db.write() as s:
        sato_shift = s.scalar(select(Delivery.subject_id).where(Delivery.recipient == user_id(1)))
        assert sato_shift is not None
        rules.edit_shift(s, sato_shift, rules.ShiftChange(start_time=dt.time(17), end_time=dt.time(22)), now=clk.now)
    for _ in range(3):
        run_at(clk.now + dt.timedelta(minutes=1))
    first, correction = line_ready.inbox(user_id(1))
    assert "変更前: 12月2日(水) 16:00〜21:00" in correction.message["altText"]
    assert "変更後: 12月2日(水) 17:00〜22:00" in correction.message["altText"]

    # 鈴木's 08:00 shift on the 3rd: reminder at 21:30 on the 2nd (quiet hours).
    run_at(tokyo("2026-12-02", "21:29"))
    assert line_ready.inbox(user_id(2)) == []
    run_at(tokyo("2026-12-02", "21:30"))
    assert len(line_ready.inbox(user_id(2))) == 1

    # The shift goes to 田中 after 鈴木 was told: 鈴木 hears it is no longer theirs, 田中 is reminded.
    with db.write() as s:
        suzuki_shift = s.scalar(select(Delivery.subject_id).where(Delivery.recipient == user_id(2)))
        assert suzuki_shift is not None
        tanaka = rules.teacher_by_name(s, "田中")
        rules.edit_shift(s, suzuki_shift, rules.ShiftChange(teacher_id=tanaka.id), now=clk.now)
    run_at(clk.now + dt.timedelta(minutes=1))
    assert "担当が変更" in line_ready.inbox(user_id(2))[-1].message["altText"]
    assert "12月3日(木) 08:00〜12:00" in line_ready.inbox(user_id(3))[-1].message["altText"]

    # Canceling 田中's own 4th shift before its reminder: nothing is sent for it at all.
    with db.write() as s:
        own = [x for x in rules.month_shifts(s, 1, 2026, 12) if x.local_date == dt.date(2026, 12, 4)][0]
        rules.cancel_shift(s, own.id, now=clk.now)
    run_at(tokyo("2026-12-04", "08:00"))
    assert len(line_ready.inbox(user_id(3))) == 1


def test_asleep_across_the_due_time(db: Database, line_ready: LineEmulator) -> None:
    clk = FakeClock(tokyo("2026-12-01", "09:00"))
    with db.write() as s:
        room = f.classroom(s)
        a, b = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        f.shift(s, room, a, dt.date(2026, 12, 2), "16:00", "21:00", now=clk.now, status=ShiftStatus.CONFIRMED)
        f.shift(s, room, b, dt.date(2026, 12, 2), "11:00", "12:00", now=clk.now, status=ShiftStatus.CONFIRMED)
        plan(s, now=clk.now)
    for n in (1, 2):
        line_ready.add_user(user_id(n), f"teacher {n}")
    # The laptop sleeps from the 1st until 15:10 on the 2nd: 佐藤's reminder (due 14:00) goes out late,
    # 鈴木's shift has already started and its reminder is canceled.
    clk.now = tokyo("2026-12-02", "15:10")
    with db.write() as s:
        plan(s, now=clk.now)
    _send_all(db, clk)
    assert len(line_ready.inbox(user_id(1))) == 1 and line_ready.inbox(user_id(2)) == []
    with db.read() as s:
        rows = {d.recipient: d for d in s.scalars(select(Delivery))}
    assert rows[user_id(1)].late_seconds == 70 * 60
    assert rows[user_id(2)].cancel_reason == "SHIFT_STARTED"


def test_dry_run_changes_nothing_and_forecasts_quota(db: Database, now: dt.datetime) -> None:
    _setup(db, now)
    items = forecast.dry_run(db, now=now, days=14)
    assert _count(db) == 0
    assert [(i.recipient, i.local_send_time, str(i.why)) for i in items] == [
        ("鈴木", "2026-12-09 21:30", "reminder"), ("佐藤", "2026-12-10 14:00", "reminder")]
    fc = forecast.forecast(db, now=now)
    assert fc.planned_rest_of_month == 2 and fc.limit is None


def test_forecast_uses_the_refreshed_quota(db: Database, line_ready: LineEmulator, now: dt.datetime) -> None:
    _setup(db, now)
    line_ready.set_quota(200)
    refreshed = forecast.refresh_quota(db, now=now)
    assert refreshed is not None and (refreshed.limit, refreshed.used) == (200, 0)
    fc = forecast.forecast(db, now=now)
    assert (fc.limit, fc.used, fc.planned_rest_of_month, fc.remaining_after_plan) == (200, 0, 2, 198)


def test_plan_cli_json(db: Database, now: dt.datetime, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    import main

    with db.write() as s:
        room = f.classroom(s)
        a = f.teacher(s)
        tomorrow = (dt.datetime.now(dt.UTC) + dt.timedelta(days=1)).astimezone(clock.zone(TOKYO)).date()
        f.shift(s, room, a, tomorrow, "16:00", "21:00", now=now, status=ShiftStatus.CONFIRMED)
    assert main.main(["plan", "--days", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [d["kind"] for d in out["deliveries"]] == ["shift_reminder"]
    assert out["deliveries"][0]["local_send_time"].endswith("14:00")
    assert out["quota"]["planned_rest_of_month"] in (0, 1)
    assert _count(db) == 0


def test_a_change_in_the_night_is_told_after_quiet_hours_and_a_late_reminder_says_why(db: Database, now: dt.datetime) -> None:
    """Quiet hours 22:00–07:00: a shift changed at 04:55 is told at 07:00, not at once; a shift confirmed
    at 04:57 that starts at 06:30 is reminded at once, as late because it was confirmed after its
    reminder's time (the app was running all along)."""
    with db.write() as s:
        room = f.classroom(s)
        sato, suzuki = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        told = f.shift(s, room, sato, dt.date(2026, 12, 10), "10:00", "14:00", now=now, status=ShiftStatus.CONFIRMED)
        early = f.shift(s, room, suzuki, dt.date(2026, 12, 10), "06:30", "09:00", now=now)
        plan(s, now=now)
        s.execute(update(Delivery).values(status=DeliveryStatus.SENT))  # 佐藤 heard of the 10:00 shift
        rules.edit_shift(s, told.id, rules.ShiftChange(start_time=dt.time(10, 30)), now=tokyo("2026-12-10", "04:55"))
        [correction] = [p for p in plan(s, now=tokyo("2026-12-10", "04:55")).created
                        if p.kind == DeliveryKind.SHIFT_CORRECTION]  # and the new time's reminder, at 08:30
        rules.edit_shift(s, early.id, rules.ShiftChange(status=ShiftStatus.CONFIRMED), now=tokyo("2026-12-10", "04:57"))
        [reminder] = plan(s, now=tokyo("2026-12-10", "04:57")).created
    assert correction.teacher_id == sato.id
    assert correction.send_at == correction.due_at == tokyo("2026-12-10", "07:00")  # held, so not late either
    assert render(correction.why, "en") == "the shift changed after the teacher was told (held until quiet hours end)"
    assert reminder.kind == DeliveryKind.SHIFT_REMINDER and reminder.teacher_id == suzuki.id
    assert reminder.send_at == tokyo("2026-12-10", "04:57")  # the shift starts before quiet hours end
    assert render(reminder.why, "en") == "late reminder (the shift was confirmed or changed after the reminder's time)"
    with db.read() as s:
        row = s.get(Delivery, correction.delivery_id)
        assert row is not None and row.next_attempt_at == tokyo("2026-12-10", "07:00")
