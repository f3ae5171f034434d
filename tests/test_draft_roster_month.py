"""A draft month read from a real SQLite roster: open days, needs, active teachers with their limits, current
answers (and hours), weekly patterns as wishes, confirmed shifts anywhere as fixed, drafts kept or replaced;
and the draft against the current drafts, applied in one transaction as single shifts for runs of slots."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from core.errors import ValidationError
from core.planning import draft_month as roster_month
from core.roster import availability, closed_days, lesson_slots, limits, membership, needs, patterns, rules
from core.roster import draft_changes as changes
from core.roster.availability_text import DayAnswer
from core.roster.lesson_slots import LessonSlot
from core.store.db import Database
from core.store.kinds import ShiftStatus
from core.store.models import LessonSlot as LessonSlotRow
from tests import factories as f

T = dt.time
SLOTS = [LessonSlot("1限", T(16, 50), T(18, 10)), LessonSlot("2限", T(18, 20), T(19, 40)),
         LessonSlot("3限", T(19, 50), T(21, 10))]
MON, TUE, WED = dt.date(2027, 2, 1), dt.date(2027, 2, 2), dt.date(2027, 2, 3)


def _roster(db: Database, now: dt.datetime) -> dict[str, int]:
    with db.write() as s:
        main, other = f.classroom(s, "本校").id, f.classroom(s, "駅前校").id
        lesson_slots.set_slots(s, main, SLOTS)
        lesson_slots.set_slots(s, other, SLOTS[:1])
        sato, ito, gone = f.teacher(s, "佐藤", 1), f.teacher(s, "伊藤", 2), f.teacher(s, "退職", 3)
        outsider = f.teacher(s, "別校", 4)
        for who in (sato, ito, gone):
            membership.join(s, main, who.id, now=now)
        membership.join(s, other, ito.id, now=now)
        membership.join(s, other, outsider.id, now=now)
        rules.update_teacher(s, gone.id, active=False)
        closed_days.mark_closed(s, main, WED)
        needs.set_need(s, main, needs.Need("2限", 2, weekday=1))
        third = s.scalar(select(LessonSlotRow.id).where(LessonSlotRow.classroom_id == main, LessonSlotRow.name == "3限"))
        assert third is not None
        limits.set_limits(s, ito.id, limits.Limits(max_shifts=8, max_minutes=2400, slots=frozenset({third})))
        request = availability.ask(s, main, 2027, 2, dt.date(2027, 1, 25), [sato.id, ito.id], now=now)
        availability.record(s, request, sato.id, [DayAnswer(MON, "yes"), DayAnswer(TUE, "no")], source="text", at=now)
        availability.record(s, request, sato.id, [DayAnswer(TUE, "hours", T(18, 0), None)], source="text",
                            at=now + dt.timedelta(hours=1))  # a correction: the current answer is the later one
        availability.record(s, request, ito.id, [DayAnswer(MON, "no")], source="text", at=now)
        patterns.add_pattern(s, patterns.Pattern(sato.id, main, 1, T(18, 0), T(21, 30), dt.date(2027, 1, 1)))
        f.shift(s, rules.get_classroom(s, other), ito, MON, "16:00", "19:00", now=now,
                status=ShiftStatus.CONFIRMED)
        f.shift(s, rules.get_classroom(s, main), sato, TUE, "16:50", "18:10", now=now)
        return {"main": main, "other": other, "sato": sato.id, "ito": ito.id, "gone": gone.id, "outsider": outsider.id}


def test_the_month_is_read_from_the_roster(db: Database, now: dt.datetime) -> None:
    ids = _roster(db, now)
    with db.read() as s:
        month = roster_month.read(s, [ids["main"]], 2027, 2)
        kept = roster_month.read(s, [ids["main"]], 2027, 2, unanswered="yes", replace_drafts=False)
    (room,) = month.rooms
    assert [slot.name for slot in room.slots] == ["1限", "2限", "3限"]
    assert WED not in room.days and MON in room.days and len(room.days) == 25  # 2027-02-11 and -23 are holidays
    assert room.needs[(TUE, "2限")] == 2 and room.needs[(MON, "2限")] == 0
    by_name = {teacher.name: teacher for teacher in month.teachers}
    assert set(by_name) == {"佐藤", "伊藤"}  # the inactive teacher and another classroom's are left out
    sato, ito = by_name["佐藤"], by_name["伊藤"]
    assert sato.answers == {MON: "yes", TUE: (T(18, 0), None)}
    assert ito.answers == {MON: "no"}
    assert ito.limits.max_shifts == 8 and ito.limits.max_minutes == 2400
    assert ito.slots == frozenset({(ids["main"], "3限")}) and sato.slots is None
    assert ito.classroom_ids == frozenset({ids["main"]})  # of the classrooms drafted
    # Tuesdays 18:00–21:30: 2限 and 3限 but not 1限, on every Tuesday of February that is open.
    assert (ids["main"], TUE, "2限") in sato.wishes and (ids["main"], TUE, "3限") in sato.wishes
    assert (ids["main"], TUE, "1限") not in sato.wishes and (ids["main"], dt.date(2027, 2, 23), "2限") not in sato.wishes
    assert len([w for w in sato.wishes if w[2] == "2限"]) == 3  # the 2nd, 9th, 16th (the 23rd is 天皇誕生日)
    # The other classroom's confirmed shift stays, so Ito is never in two places; Sato's draft is replaced.
    assert [(p.teacher_id, p.classroom_id, p.day, p.status) for p in month.placed] == [
        (ids["ito"], ids["other"], MON, ShiftStatus.CONFIRMED)]
    assert len(month.replaced) == 1 and month.unanswered == "no"
    assert kept.unanswered == "yes" and kept.replaced == ()
    assert [(p.teacher_id, p.day) for p in kept.placed] == [(ids["ito"], MON), (ids["sato"], TUE)]


def test_classrooms_that_share_a_teacher_are_drafted_together(db: Database, now: dt.datetime) -> None:
    ids = _roster(db, now)
    with db.write() as s:
        lone = f.classroom(s, "離れ校").id
    with db.read() as s:
        assert roster_month.sharing(s, ids["main"]) == sorted([ids["main"], ids["other"]])
        assert roster_month.sharing(s, lone) == [lone]
        both = roster_month.read(s, roster_month.sharing(s, ids["main"]), 2027, 2)
    assert {teacher.name for teacher in both.teachers} == {"佐藤", "伊藤", "別校"}
    assert len(both.rooms) == 2


def test_unanswered_days_count_as_yes_or_no_only(db: Database, now: dt.datetime) -> None:
    ids = _roster(db, now)
    with db.read() as s, pytest.raises(ValidationError) as caught:
        roster_month.read(s, [ids["main"]], 2027, 2, unanswered="maybe")
    assert "maybe" in str(caught.value)


def test_runs_of_slots_make_single_shifts() -> None:
    assert changes.runs(SLOTS, [2, 0, 1]) == [(T(16, 50), T(21, 10))]
    assert changes.runs(SLOTS, [0, 2]) == [(T(16, 50), T(18, 10)), (T(19, 50), T(21, 10))]
    assert changes.runs(SLOTS, []) == []


def _draft(room: int, teacher: int, day: dt.date, start: T, end: T) -> rules.ShiftDraft:
    return rules.ShiftDraft(classroom_id=room, teacher_id=teacher, local_date=day, start_time=start, end_time=end)


def test_a_draft_against_the_current_drafts_then_applied(db: Database, now: dt.datetime) -> None:
    ids = _roster(db, now)
    main, sato, ito = ids["main"], ids["sato"], ids["ito"]
    same = _draft(main, sato, TUE, T(16, 50), T(18, 10))  # the draft there now
    new = _draft(main, ito, TUE, T(19, 50), T(21, 10))
    with db.read() as s:
        current = changes.current_drafts(s, [main], 2027, 2)
        replacing = changes.compare(current, [new], replace_drafts=True)
        keeping = changes.compare(current, [new], replace_drafts=False)
        untouched = changes.compare(current, [same, new], replace_drafts=True)
    assert replacing.added == (new,) and [d for _, d in replacing.removed] == [same] and replacing.unchanged == ()
    assert keeping.added == (new,) and keeping.removed == () and keeping.unchanged == (same,)
    assert untouched.added == (new,) and untouched.removed == () and untouched.unchanged == (same,)
    with db.write() as s:
        applied = changes.apply_draft(s, [main], 2027, 2, [new], replace_drafts=True, now=now)
    with db.read() as s:
        rows = [(r.teacher_id, r.local_date, r.start_time, r.status) for r in rules.month_shifts(s, main, 2027, 2)]
    assert rows == [(ito, TUE, T(19, 50), ShiftStatus.DRAFT)]
    assert len(applied.added) == 1 and [d for _, d in applied.removed] == [same]


def test_a_draft_the_roster_refuses_changes_nothing(db: Database, now: dt.datetime) -> None:
    ids = _roster(db, now)
    main, ito = ids["main"], ids["ito"]
    clash = _draft(main, ito, MON, T(16, 50), T(18, 10))  # Ito works at the other classroom then
    with pytest.raises(ValidationError), db.write() as s:
        changes.apply_draft(s, [main], 2027, 2, [clash], replace_drafts=True, now=now)
    with db.read() as s:
        assert len(changes.current_drafts(s, [main], 2027, 2)) == 1  # Sato's draft was not removed


def test_the_solvers_problem_is_made_from_the_roster(db: Database, now: dt.datetime) -> None:
    from core.drafting import problem
    from core.planning import from_roster

    ids = _roster(db, now)
    main, other, sato, ito = (str(ids[k]) for k in ("main", "other", "sato", "ito"))
    with db.read() as s:
        made = from_roster.to_problem(roster_month.read(s, [ids["main"]], 2027, 2, unanswered="yes"), seconds=7)
    assert [(slot.name, slot.start, slot.end, slot.classroom) for slot in made.slots] == [
        ("1限", 1010, 1090, main), ("2限", 1100, 1180, main), ("3限", 1190, 1270, main)]
    assert WED not in made.days and len(made.days) == 25 and made.unanswered == "yes" and made.time_limit_seconds == 7
    assert problem.Need(main, TUE, "2限", 2) in made.needs and all(n.count > 0 for n in made.needs)
    teachers = {teacher.id: teacher for teacher in made.teachers}
    assert teachers[sato].available == {MON: "yes", TUE: problem.Window(18 * 60, 24 * 60)}  # hours from 18:00 on
    assert teachers[ito].available == {MON: "no"} and teachers[ito].slots == frozenset({"3限"})
    assert teachers[ito].max_shifts == 8 and teachers[ito].classrooms == frozenset({main})
    assert (main, TUE, "2限") in teachers[sato].wishes
    # Ito's confirmed shift at the other classroom takes his time; Sato's draft is replaced, so not fixed.
    assert made.locked == (problem.Fixed(ito, MON, 16 * 60, 19 * 60, other),)


def test_a_teacher_busy_at_another_classroom_is_not_drafted_then(db: Database, now: dt.datetime) -> None:
    from core.drafting import solver
    from core.planning import from_roster

    ids = _roster(db, now)
    with db.write() as s:
        needs.set_need(s, ids["main"], needs.Need("3限", 1, weekday=0))  # Mondays' 3限: only Ito teaches it
        request = availability.latest(s, ids["main"], 2027, 2)
        assert request is not None
        availability.record(s, request, ids["ito"], [DayAnswer(MON, "yes"), DayAnswer(dt.date(2027, 2, 8), "yes")],
                            source="text", at=now + dt.timedelta(hours=2))
        f.shift(s, rules.get_classroom(s, ids["other"]), rules.get_teacher(s, ids["ito"]), MON, "19:00", "22:00",
                now=now, status=ShiftStatus.CONFIRMED)
    with db.read() as s:
        month = roster_month.read(s, [ids["main"]], 2027, 2)
    drafted = from_roster.draft(month, 10, lambda _: None, solver.Stopper())
    ito = [(d.local_date, d.start_time) for d in drafted.proposed if d.teacher_id == ids["ito"]]
    assert ito == [(dt.date(2027, 2, 8), T(19, 50))]  # not on the 1st: he is at the other classroom then
    sato = [(d.local_date, d.start_time, d.end_time) for d in drafted.proposed if d.teacher_id == ids["sato"]]
    assert (MON, T(19, 50), T(21, 10)) in sato and not any(g.day == MON for g in drafted.gaps)  # Sato takes it


def test_days_already_gone_are_not_drafted_and_their_drafts_stay(db: Database, now: dt.datetime) -> None:
    """Drafting the month in its middle proposes nothing for the days gone on the classroom's clock, and
    replaces none of their drafts: 2027-02-02 09:30 in Tokyo is still the 1st in UTC."""
    ids = _roster(db, now)
    during = dt.datetime(2027, 2, 2, 0, 30, tzinfo=dt.UTC)  # the 2nd, 09:30 in Tokyo
    with db.read() as s:
        whole = roster_month.read(s, [ids["main"]], 2027, 2)
        rest = roster_month.read(s, [ids["main"]], 2027, 2, now=during)
        current = changes.current_drafts(s, [ids["main"]], 2027, 2, now=dt.datetime(2027, 2, 2, 15, tzinfo=dt.UTC))
    (room,), (left,) = whole.rooms, rest.rooms
    assert MON in room.days and MON not in left.days and TUE in left.days and left.days == room.days[1:]
    assert rest.replaced == whole.replaced  # Sato's draft on the 2nd is today's: still replaced
    assert current == []  # on the 3rd in Tokyo, the draft of the 2nd is gone by
