from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from core.errors import ValidationError
from core.roster import rules
from core.store.db import Database
from core.store.models import (
    Delivery,
    DeliveryKind,
    ShiftRevision,
    ShiftStatus,
    Teacher,
)
from tests import factories as f

DAY = dt.date(2026, 12, 10)


def test_create_and_validate_classroom(db: Database) -> None:
    with db.write() as s:
        room = f.classroom(s)
        assert (room.timezone, room.reminder_lead_minutes, room.quiet_hours_enabled) == ("Asia/Tokyo", 120, True)
        assert (room.quiet_start, room.quiet_end) == (dt.time(22), dt.time(7))
        with pytest.raises(ValidationError, match="already exists"):
            f.classroom(s)
        with pytest.raises(ValidationError, match="group ID"):
            rules.create_classroom(s, name="x", line_group_id="C123")
        with pytest.raises(ValidationError, match="time zone"):
            rules.create_classroom(s, name="y", timezone="Nowhere/Zone")
        quiet_off = rules.create_classroom(s, name="z", quiet_hours=None)
        assert quiet_off.quiet_hours_enabled is False


def test_teacher_rules(db: Database) -> None:
    with db.write() as s:
        a = f.teacher(s, "佐藤", 1, email="sato@example.com")
        with pytest.raises(ValidationError, match="already exists"):
            f.teacher(s, "佐藤", 2)
        with pytest.raises(ValidationError, match="already belongs"):
            f.teacher(s, "鈴木", 1)
        with pytest.raises(ValidationError, match="malformed LINE user ID"):
            f.teacher(s, "鈴木", line_user_id="U12")
        with pytest.raises(ValidationError, match="e-mail"):
            f.teacher(s, "鈴木", 3, email="not-an-address")
        assert f.reach(a).line_opt_in and not f.reach(a).email_opt_in
        # A rejected update changes nothing, not even the fields that were fine.
        with pytest.raises(ValidationError, match="e-mail"):
            rules.update_teacher(s, a.id, name="佐藤花子", email="broken")
        assert (a.name, f.reach(a).email) == ("佐藤", "sato@example.com")
        assert len(rules.list_teachers(s)) == 1


def test_shift_rules(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        a = f.teacher(s, "佐藤", 1)
        first = f.shift(s, room, a, DAY, "16:00", "21:00", now=now)
        assert first.version == 1
        with pytest.raises(ValidationError, match="end after it starts"):
            f.shift(s, room, a, DAY + dt.timedelta(days=1), "16:00", "15:00", now=now)
        with pytest.raises(ValidationError, match="overlaps"):
            f.shift(s, room, a, DAY, "20:00", "22:00", now=now)
        # Touching ends do not overlap.
        f.shift(s, room, a, DAY, "21:00", "22:00", now=now)
        # Overlap across midnight with the next day's early shift.
        f.shift(s, room, a, DAY + dt.timedelta(days=2), "22:00", "26:00", now=now)
        with pytest.raises(ValidationError, match="overlaps"):
            f.shift(s, room, a, DAY + dt.timedelta(days=3), "01:00", "03:00", now=now)
        with pytest.raises(ValidationError, match="longer than 24 hours"):
            f.shift(s, room, a, DAY + dt.timedelta(days=5), "10:00", "35:00", now=now)
        inactive = f.teacher(s, "休職中", 9, active=False)
        with pytest.raises(ValidationError, match="not an active teacher"):
            f.shift(s, room, inactive, DAY, now=now)


def test_overlap_across_classrooms_in_different_zones(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        tokyo = f.classroom(s, "東京")
        online = f.classroom(s, "Online", timezone="UTC")
        a = f.teacher(s)
        f.shift(s, tokyo, a, DAY, "18:00", "20:00", now=now)  # 09:00–11:00 UTC
        with pytest.raises(ValidationError, match="overlaps"):
            f.shift(s, online, a, DAY, "10:00", "12:00", now=now)
        f.shift(s, online, a, DAY, "11:00", "12:00", now=now)


def test_version_bumps_only_on_changes_that_matter(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        a, b = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        shift = f.shift(s, room, a, DAY, now=now)
        rules.edit_shift(s, shift.id, rules.ShiftChange(note="持ち物: 教材"), now=now)
        assert shift.version == 1
        rules.edit_shift(s, shift.id, rules.ShiftChange(start_time=dt.time(15)), now=now)
        assert shift.version == 2
        rules.edit_shift(s, shift.id, rules.ShiftChange(teacher_id=b.id, local_date=DAY + dt.timedelta(days=1)), now=now)
        assert shift.version == 3
        rules.edit_shift(s, shift.id, rules.ShiftChange(start_time=dt.time(15)), now=now)  # no change at all
        assert shift.version == 3
        revisions = s.scalars(select(ShiftRevision).where(ShiftRevision.shift_id == shift.id).order_by(ShiftRevision.version)).all()
        assert [(r.version, r.teacher_id, r.start_time) for r in revisions] == [
            (1, a.id, dt.time(16)), (2, a.id, dt.time(15)), (3, b.id, dt.time(15))
        ]
        rules.edit_shift(s, shift.id, rules.ShiftChange(), now=now)  # nothing given: nothing changes
        assert shift.version == 3 and shift.note == "持ち物: 教材"


def test_a_shift_change_names_only_a_shifts_fields_and_gives_only_what_was_set() -> None:
    # A field a shift does not have is refused where the change is made, before any database is asked.
    with pytest.raises(TypeError):
        rules.ShiftChange(colour="red")  # type: ignore[call-arg]
    change = rules.ShiftChange(start_time=dt.time(15), ends_next_day=False, note="")
    assert change.given() == {"start_time": dt.time(15), "ends_next_day": False, "note": ""}
    assert rules.ShiftChange().given() == {}


def test_confirm_month_cancel_and_delete(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        a = f.teacher(s)
        shifts = [f.shift(s, room, a, dt.date(2026, 12, d), now=now) for d in (1, 15, 31)]
        next_month = f.shift(s, room, a, dt.date(2027, 1, 1), now=now)
        confirmed = rules.confirm_month(s, room.id, 2026, 12, now=now)
        assert {x.id for x in confirmed} == {x.id for x in shifts}
        assert all(x.status == ShiftStatus.CONFIRMED and x.version == 2 for x in shifts)
        assert next_month.status == ShiftStatus.DRAFT
        assert rules.confirm_month(s, room.id, 2026, 12, now=now) == []

        canceled = rules.cancel_shift(s, shifts[0].id, now=now)
        assert canceled.status == ShiftStatus.CANCELED and canceled.version == 3
        assert rules.get_shift(s, shifts[0].id) is canceled  # the row stays
        # A canceled shift frees the slot.
        f.shift(s, room, a, dt.date(2026, 12, 1), now=now)
        with pytest.raises(ValidationError, match="back to draft"):
            rules.edit_shift(s, shifts[1].id, rules.ShiftChange(status=ShiftStatus.DRAFT), now=now)
        with pytest.raises(ValidationError, match="cancel it instead"):
            rules.delete_shift(s, shifts[1].id)
        rules.delete_shift(s, next_month.id)
        assert s.scalar(select(func.count()).select_from(ShiftRevision).where(ShiftRevision.shift_id == next_month.id)) == 0


def test_confirm_month_is_all_or_nothing(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        a, b = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        ok = f.shift(s, room, a, dt.date(2026, 12, 1), now=now)
        f.shift(s, room, b, dt.date(2026, 12, 2), now=now)
        rules.update_teacher(s, b.id, active=False)
        with pytest.raises(ValidationError, match="鈴木: teacher is not active"):
            rules.confirm_month(s, room.id, 2026, 12, now=now)
        assert ok.status == ShiftStatus.DRAFT


def test_erasing_a_teacher_keeps_history_anonymised(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s)
        a = f.teacher(s, "佐藤", 1, email="sato@example.com")
        past = f.shift(s, room, a, dt.date(2026, 11, 20), now=now, status=ShiftStatus.CONFIRMED)
        future = f.shift(s, room, a, dt.date(2026, 12, 20), now=now, status=ShiftStatus.CONFIRMED)
        s.add(Delivery(kind=DeliveryKind.SHIFT_REMINDER, dedup_key="r:1:1", recipient=f.reach(a).line_user_id,
                       teacher_id=a.id, subject_type="shift", subject_id=past.id, subject_version=1))
        s.flush()
        rules.erase_teacher(s, a.id, now=now)
    with db.read() as s:
        t = s.get(Teacher, a.id)
        assert t is not None and (t.name, f.reach(t).line_user_id, f.reach(t).email, t.active) == (None, None, None, False)
        assert t.display_name.startswith("(deleted")
        assert rules.get_shift(s, past.id).status == ShiftStatus.CONFIRMED
        assert rules.get_shift(s, future.id).status == ShiftStatus.CANCELED
        delivery = s.scalar(select(Delivery))
        assert delivery is not None and delivery.recipient is None and delivery.teacher_id == a.id
        assert rules.list_teachers(s) == []


def test_month_helpers() -> None:
    assert rules.month_bounds(2028, 2) == (dt.date(2028, 2, 1), dt.date(2028, 2, 29))
    assert rules.month_bounds(2026, 12) == (dt.date(2026, 12, 1), dt.date(2026, 12, 31))
    assert rules.parse_month("2026-07") == (2026, 7)
    for bad in ("2026-13", "July", "2026/07", ""):
        with pytest.raises(ValidationError):
            rules.parse_month(bad)


@pytest.mark.parametrize("text", ["9999-12", "0001-01", "1999-12", "2100-01"])
def test_months_beyond_the_roster_years_are_bad_values(text: str) -> None:
    with pytest.raises(ValidationError, match=f"bad month {text}: months go from 2000-01 to 2099-12"):
        rules.parse_month(text)
    assert rules.month_bounds(2099, 12) == (dt.date(2099, 12, 1), dt.date(2099, 12, 31))
    assert rules.month_bounds(2000, 1) == (dt.date(2000, 1, 1), dt.date(2000, 1, 31))


@pytest.mark.parametrize("day", [dt.date(1, 1, 1), dt.date(9999, 12, 31), dt.date(1999, 12, 31), dt.date(2100, 1, 1)])
def test_a_shift_beyond_the_roster_years_is_refused(db: Database, now: dt.datetime, day: dt.date) -> None:
    with db.write() as s:
        room, teacher = f.classroom(s), f.teacher(s, "佐藤", 1)
        kept = f.shift(s, room, teacher, dt.date(2026, 12, 1), now=now)
        draft = rules.ShiftDraft(classroom_id=room.id, teacher_id=teacher.id, local_date=day,
                                 start_time=dt.time(16), end_time=dt.time(2), ends_next_day=True)
        with pytest.raises(ValidationError, match=f"bad date {day.isoformat()}"):
            rules.add_shift(s, draft, now=now)
        with pytest.raises(ValidationError, match="between 2000-01-01 and 2099-12-31"):
            rules.edit_shift(s, kept.id, rules.ShiftChange(local_date=day), now=now)
