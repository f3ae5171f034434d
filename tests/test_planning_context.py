"""The public planning context is all a kind needs to plan itself: tests/briefing_kind.py, registered
here alone, gets quiet hours, lateness, fallback to the next contact with its canceled twin, one
delivery per version and channel across runs, supersession and the dry run's words — and the planner
itself is only a loop over the registered kinds, naming none of them."""

from __future__ import annotations

import ast
import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import event, select, update

from core.channels.line import LineCancel
from core.kinds import registry
from core.planning import forecast, planner
from core.roster import channel_choice, clock, rules
from core.store.db import Database
from core.store.models import Classroom, Delivery, DeliveryStatus, ShiftStatus, Teacher
from core.texts import render
from tests import briefing_kind
from tests import factories as f

ROOT = Path(__file__).resolve().parent.parent
TOKYO = "Asia/Tokyo"


def tokyo(day: str, wall: str) -> dt.datetime:
    return clock.to_utc(dt.date.fromisoformat(day), dt.time.fromisoformat(wall), TOKYO)


@pytest.fixture
def briefing() -> Iterator[registry.MessageKind]:
    undo = registry.register_kind(briefing_kind.KIND)
    yield briefing_kind.KIND
    undo()


def _briefings(db: Database) -> list[Delivery]:
    with db.read() as s:
        return list(s.scalars(select(Delivery).where(Delivery.kind == briefing_kind.KEY).order_by(Delivery.id)))


def test_a_kind_from_the_tests_plans_through_the_context_alone(db: Database, now: dt.datetime,
                                                               briefing: registry.MessageKind) -> None:
    with db.write() as s:
        room = f.classroom(s)  # quiet hours 22:00–07:00, Tokyo
        sato, suzuki = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        tanaka = f.teacher(s, "田中", 3, email="t3@example.com", email_opt_in=True,
                           channel=channel_choice.LINE_FALLBACK)
        f.line(tanaka).unreachable_since = now  # LINE cannot reach 田中: the next contact, e-mail
        afternoon = f.shift(s, room, sato, dt.date(2026, 12, 10), "16:00", "21:00", now=now,
                            status=ShiftStatus.CONFIRMED)
        f.shift(s, room, suzuki, dt.date(2026, 12, 10), "09:00", "12:00", now=now, status=ShiftStatus.CONFIRMED)
        f.shift(s, room, tanaka, dt.date(2026, 12, 10), "16:00", "21:00", now=now, status=ShiftStatus.CONFIRMED)
        ids = {"sato": sato.id, "suzuki": suzuki.id, "tanaka": tanaka.id, "afternoon": afternoon.id}

    # The dry run shows each in the kind's own words (the stand-in on e-mail says so) and changes nothing.
    said = {(p.recipient, p.channel): render(p.why, "en") for p in forecast.dry_run(db, now=now, days=15)
            if p.kind == briefing_kind.KEY}
    assert said == {("佐藤", "line"): "the day's briefing before a shift",
                    ("鈴木", "line"): "the day's briefing before a shift",
                    ("田中", "email"): "the day's briefing before a shift by e-mail (LINE cannot reach this teacher)"}
    assert _briefings(db) == []

    with db.write() as s:
        first = planner.plan(s, now=now)
    with db.write() as s:
        again = planner.plan(s, now=now)
    assert again.created == [] and again.by_kinds == []  # one per version and channel, however often it runs
    rows = {(d.teacher_id, d.channel): d for d in _briefings(db)}
    assert sorted(rows) == sorted([(ids["sato"], "line"), (ids["suzuki"], "line"), (ids["tanaka"], "line"),
                                   (ids["tanaka"], "email")])
    assert {p.delivery_id for p in first.created if p.kind == briefing_kind.KEY} == {
        d.id for d in rows.values() if d.status == DeliveryStatus.PENDING}
    # Three hours before; moved earlier out of quiet hours (06:00 → 30 minutes before they begin).
    assert rows[ids["sato"], "line"].due_at == tokyo("2026-12-10", "13:00")
    assert rows[ids["suzuki"], "line"].due_at == tokyo("2026-12-09", "21:30")
    # Fallback: the e-mail stands in for a LINE delivery recorded as canceled with LINE's unreachable reason.
    twin, mail = rows[ids["tanaka"], "line"], rows[ids["tanaka"], "email"]
    assert (twin.status, twin.cancel_reason) == (DeliveryStatus.CANCELED, LineCancel.UNREACHABLE)
    assert (mail.status, mail.linked_delivery_id, mail.recipient) == (DeliveryStatus.PENDING, twin.id, "t3@example.com")

    # A change supersedes the waiting one and plans the new version's.
    with db.write() as s:
        rules.edit_shift(s, ids["afternoon"], rules.ShiftChange(start_time=dt.time(17, 0)), now=now)
        changed = planner.plan(s, now=now)
    old = rows[ids["sato"], "line"]
    assert old.id in changed.superseded
    with db.read() as s:
        stale = s.get(Delivery, old.id)
        assert stale is not None and (stale.status, stale.cancel_reason) == (DeliveryStatus.CANCELED, "SUPERSEDED")
    [new] = [p for p in changed.created if p.kind == briefing_kind.KEY]
    assert (new.teacher_id, new.version, new.due_at) == (ids["sato"], 2, tokyo("2026-12-10", "14:00"))


def test_a_late_one_goes_before_the_shift_held_out_of_quiet_hours(db: Database, now: dt.datetime,
                                                                  briefing: registry.MessageKind) -> None:
    """The app was not running when they were due: at 05:00 (quiet hours until 07:00) a shift at 07:30
    gets its briefing at 07:00; one at 06:30 gets it at once; one that started gets none."""
    with db.write() as s:
        room = f.classroom(s)
        sato, suzuki, takahashi = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2), f.teacher(s, "高橋", 3)
        for who, start in ((sato, "07:30"), (suzuki, "06:30"), (takahashi, "04:00")):
            f.shift(s, room, who, dt.date(2026, 12, 10), start, "10:00", now=now, status=ShiftStatus.CONFIRMED)
        report = planner.plan(s, now=tokyo("2026-12-10", "05:00"))
        by_teacher = {p.teacher_id: p for p in report.created if p.kind == briefing_kind.KEY}
        assert sorted(by_teacher) == [sato.id, suzuki.id]
        held, at_once = by_teacher[sato.id], by_teacher[suzuki.id]
    assert held.send_at == tokyo("2026-12-10", "07:00")
    assert render(held.why, "en") == "the day's briefing before a shift (held until quiet hours end)"
    assert at_once.send_at == tokyo("2026-12-10", "05:00")
    assert render(at_once.why, "en") == (
        "the day's briefing before a shift (sent in quiet hours: the shift starts before they end)")
    with db.write() as s:
        later = planner.plan(s, now=tokyo("2026-12-10", "09:00"))
    assert [p for p in later.created if p.kind == briefing_kind.KEY] == []


def test_a_late_one_outside_quiet_hours_says_it_is_late(db: Database, now: dt.datetime,
                                                        briefing: registry.MessageKind) -> None:
    with db.write() as s:
        room = f.classroom(s)
        sato = f.teacher(s, "佐藤", 1)
        f.shift(s, room, sato, dt.date(2026, 12, 10), "11:00", "14:00", now=now, status=ShiftStatus.CONFIRMED)
        [late] = [p for p in planner.plan(s, now=tokyo("2026-12-10", "09:00")).created if p.kind == briefing_kind.KEY]
    assert late.due_at == tokyo("2026-12-10", "08:00") and late.send_at == tokyo("2026-12-10", "09:00")
    assert render(late.why, "en") == "late briefing (its time had passed)"


def test_the_planner_is_a_loop_over_the_kinds_and_names_none() -> None:
    """What a kind plans is its own module's; the planner holds no helper of one kind, and reaches the
    roster, the outbox and the kinds' modules only through the context and the registry."""
    source = (ROOT / "core" / "planning" / "planner.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} | {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert {name for name in imported if name and name.startswith("core")} == {
        "core.kinds", "core.planning.context"}
    assert [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.ClassDef)] == ["plan"]
    tree.body = [node for node in tree.body if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
    code = ast.unparse(tree).lower()  # the docstring may point to where the kinds plan, the code names none
    assert not {"reminder", "correction", "publication", "quiet", "fallback"} & set(re.findall(r"[a-z]+", code))



def _statements_of_a_run(db: Database, now: dt.datetime) -> int:
    """How many SQL statements a planning run issues."""
    count = []

    def seen(*args: object) -> None:
        count.append(1)

    event.listen(db.engine, "before_cursor_execute", seen)
    try:
        with db.write() as s:
            assert planner.plan(s, now=now).created == []
    finally:
        event.remove(db.engine, "before_cursor_execute", seen)
    return len(count)


def test_an_idempotent_run_costs_the_same_few_statements_for_more_shifts(db: Database, now: dt.datetime,
                                                                          briefing: registry.MessageKind) -> None:
    """What the outbox holds about the shifts ahead is loaded once: a run that plans nothing new issues
    as many statements for 40 shifts as for 10, the kind from the tests asking too."""
    with db.write() as s:
        room = f.classroom(s)
        teachers = [f.teacher(s, f"講師{n}", n, email=f"t{n}@example.com", email_opt_in=True,
                              channel=channel_choice.BOTH) for n in range(1, 11)]
        room_id, teacher_ids = room.id, [teacher.id for teacher in teachers]
    counts = []
    for days in (range(1, 2), range(2, 5)):
        with db.write() as s:
            for day in days:
                for teacher_id in teacher_ids:
                    f.shift(s, s.get_one(Classroom, room_id), s.get_one(Teacher, teacher_id),
                            dt.date(2026, 12, 2 + day), now=now, status=ShiftStatus.CONFIRMED)
            planner.plan(s, now=now)
        counts.append(_statements_of_a_run(db, now))
    assert counts[0] == counts[1] < 40, counts


@pytest.mark.parametrize("order", ["registered", "reversed"])
def test_a_reminder_made_needless_by_a_correction_is_so_whichever_kind_plans_first(
        db: Database, now: dt.datetime, monkeypatch: pytest.MonkeyPatch, order: str) -> None:
    """The reminder asks which corrections go now (planned once per run, `context.once`), so the order
    the kinds were registered in changes nothing."""
    if order == "reversed":
        everyone = registry.kinds()
        monkeypatch.setattr(registry, "kinds", lambda: tuple(reversed(everyone)))
    with db.write() as s:
        room = f.classroom(s)
        sato = f.teacher(s, "佐藤", 1)
        shift = f.shift(s, room, sato, dt.date(2026, 12, 1), "10:00", "15:00", now=now, status=ShiftStatus.CONFIRMED)
        planner.plan(s, now=now)
        s.execute(update(Delivery).values(status=DeliveryStatus.SENT))  # 佐藤 heard of 10:00
        rules.edit_shift(s, shift.id, rules.ShiftChange(start_time=dt.time(11, 0)), now=now)
        report = planner.plan(s, now=now)
        rows = [(d.kind, d.status, d.cancel_reason) for d in s.scalars(select(Delivery).order_by(Delivery.id))]
    assert rows == [("shift_reminder", DeliveryStatus.SENT, None),
                    ("shift_correction", DeliveryStatus.QUEUED, None),
                    ("shift_reminder", DeliveryStatus.CANCELED, "COVERED_BY_CORRECTION")]
    assert [p.kind for p in report.created] == ["shift_correction"]
