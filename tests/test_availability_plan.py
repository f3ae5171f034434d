"""The automatic reminder of an availability request: each planning run asks the kind's own `plan`,
which reminds, once, on the day N days before the deadline (the classroom's clock), exactly the asked
teachers who have not answered; a reminder whose teacher answers before it goes is canceled."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from core.planning.planner import plan
from core.roster import availability
from core.roster.availability_text import YES, DayAnswer
from core.sending.kinds import availability_request as kind
from core.sending.outgoing import CancelDelivery
from core.store.db import Database
from core.store.models import AvailabilityRequest, Delivery
from tests import factories as f

ASKED = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
DEADLINE = dt.date(2026, 12, 21)


def _reminders(db: Database) -> list[tuple[int | None, int | None]]:
    with db.read() as s:
        return [(d.teacher_id, d.subject_version) for d in s.scalars(
            select(Delivery).where(Delivery.kind == kind.KEY, Delivery.subject_version > 1).order_by(Delivery.id))]


def test_the_planner_reminds_only_who_has_not_answered_on_the_day_and_once(db: Database) -> None:
    with db.write() as s:
        room = f.classroom(s)
        ids = [f.teacher(s, name, n).id for n, name in enumerate(("青木", "井上", "上田"), start=1)]
        asking = kind.ask(s, room.id, 2027, 1, DEADLINE, None, now=ASKED, remind_days_before=3)
        assert asking.request_id is not None and len(asking.deliveries) == 3
        request = s.get(AvailabilityRequest, asking.request_id)
        assert request is not None
        availability.record(s, request, ids[0], [DayAnswer(dt.date(2027, 1, 4), YES)], source="text",
                            at=ASKED + dt.timedelta(days=1))
    with db.write() as s:
        plan(s, now=dt.datetime(2026, 12, 17, 14, 0, tzinfo=dt.UTC))  # 23:00 JST the 17th: not yet
    assert _reminders(db) == []
    with db.write() as s:
        plan(s, now=dt.datetime(2026, 12, 17, 15, 30, tzinfo=dt.UTC))  # 00:30 JST the 18th
    assert _reminders(db) == [(ids[1], 2), (ids[2], 2)]
    with db.write() as s:
        plan(s, now=dt.datetime(2026, 12, 18, 3, 0, tzinfo=dt.UTC))
        plan(s, now=dt.datetime(2026, 12, 20, 3, 0, tzinfo=dt.UTC))
    assert _reminders(db) == [(ids[1], 2), (ids[2], 2)]  # once
    with db.write() as s:  # 井上 answers before their reminder goes: it is canceled, not sent
        request = s.scalars(select(AvailabilityRequest)).one()
        availability.record(s, request, ids[1], [DayAnswer(dt.date(2027, 1, 5), YES)], source="buttons",
                            at=dt.datetime(2026, 12, 18, 4, 0, tzinfo=dt.UTC))
        reminder = s.scalars(select(Delivery).where(Delivery.teacher_id == ids[1], Delivery.subject_version == 2)).one()
        with pytest.raises(CancelDelivery) as canceled:
            kind.build_line(s, reminder, dt.datetime(2026, 12, 18, 4, 1, tzinfo=dt.UTC), f.home_paths())
    assert canceled.value.reason == kind.ANSWERED


def test_a_teacher_asked_on_line_by_the_request_s_own_rule_gets_nothing_else(db: Database) -> None:
    """The request goes on LINE whenever LINE can carry it (answers come back by themselves), even to a
    teacher who ranked e-mail first: one delivery, standing in for none on e-mail."""
    from core.roster import contacts
    from core.store.models import Channel, ContactRule

    with db.write() as s:
        room = f.classroom(s)
        teacher = f.teacher(s, "青木", 1, email="aoki@example.com", email_opt_in=True)
        contacts.set_choice(teacher, ContactRule.FIRST, [Channel.EMAIL, Channel.LINE])
        asking = kind.ask(s, room.id, 2027, 1, DEADLINE, None, now=ASKED)
        rows = s.scalars(select(Delivery).where(Delivery.kind == kind.KEY)).all()
    assert [(d.id, d.channel, d.status, d.linked_delivery_id) for d in rows] == [
        (asking.deliveries[0], Channel.LINE, "queued", None)]
