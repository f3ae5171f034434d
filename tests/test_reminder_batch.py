"""The lean reminder path (core/sending/reminder_batch.py) and the builders run the same send-time rules.

Every reason not to send a reminder is made here the way another process (or an older version of the
app) could leave it: straight in the tables, with no planner around to cancel the delivery at edit
time. The lean query must then not call the reminder ready, and the sender, which hands it to the
builders, must cancel or fail it with their reason. The cases are checked against the rule table, so
a new rule without its case here fails; and the two ways of filling in the rules' Subject are
compared field by field in every case.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from sqlalchemy import update

from core.emulator import LineEmulator
from core.outbox.policy import BackoffPolicy
from core.roster import channel_choice, rules
from core.sending import builders, reminder_batch, send_rules
from core.sending.kinds import shift_reminder
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.models import (
    Delivery,
    DeliveryStatus,
    Shift,
    ShiftStatus,
    Teacher,
)
from tests import factories as f
from tests.linefixtures import FakeClock, emulator, line_ready, make_reminders  # noqa: F401

CONFIG = SenderConfig(concurrency=2, backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0))
D, S, T = f.table(Delivery), f.table(Shift), f.table(Teacher)

Change = Callable[[Any, Delivery, dt.datetime], None]


def _shift(**values: Any) -> Change:
    def change(session: Any, d: Delivery, now: dt.datetime) -> None:
        session.execute(update(S).where(S.c.id == d.subject_id).values(**values))
    return change


def _teacher(**values: Any) -> Change:
    """Change the teacher: their own columns behind the ORM's back, their contacts through the roster rules."""
    def change(session: Any, d: Delivery, now: dt.datetime) -> None:
        own = {k: v for k, v in values.items() if k in ("active", "erased_at")}
        unreachable = values.get("line_unreachable_at")
        rest = {k: v for k, v in values.items() if k not in own and k != "line_unreachable_at"}
        assert d.teacher_id is not None
        if rest:
            rules.update_teacher(session, d.teacher_id, **rest)
        if unreachable is not None:
            f.line(session.get(Teacher, d.teacher_id)).unreachable_since = unreachable
            session.flush()
        if own:
            session.execute(update(T).where(T.c.id == d.teacher_id).values(**own))
    return change


def _delivery(**values: Any) -> Change:
    def change(session: Any, d: Delivery, now: dt.datetime) -> None:
        session.execute(update(D).where(D.c.id == d.id).values(**values))
    return change


def _bump_version(session: Any, d: Delivery, now: dt.datetime) -> None:
    session.execute(update(S).where(S.c.id == d.subject_id).values(version=S.c.version + 1))


def _another_teacher(session: Any, d: Delivery, now: dt.datetime) -> None:
    other = f.teacher(session, "別の講師", 99_999)
    session.execute(update(S).where(S.c.id == d.subject_id).values(teacher_id=other.id))


def _started(session: Any, d: Delivery, now: dt.datetime) -> None:
    session.execute(update(S).where(S.c.id == d.subject_id).values(local_date=(now - dt.timedelta(days=1)).date()))


def _standing_in(change: Change) -> Change:
    """The reminder made a copy standing in for another channel's (linked to a delivery), then `change`."""
    def standing_in(session: Any, d: Delivery, now: dt.datetime) -> None:
        session.execute(update(D).where(D.c.id == d.id).values(linked_delivery_id=d.id))
        change(session, d, now)
    return standing_in


def _old_retry_key(session: Any, d: Delivery, now: dt.datetime) -> None:
    session.execute(update(D).where(D.c.id == d.id).values(
        retry_key="5f0e2a8e-7c1b-4d3a-9a53-3f4b2c1d0e9f", retry_key_issued_at=now - dt.timedelta(hours=25),
        attempt_count=1))


# (name, change, what the sender makes of it: status and cancel reason or error code)
CASES: list[tuple[str, Change, tuple[DeliveryStatus, str | None]]] = [
    ("shift changed", _bump_version, (DeliveryStatus.CANCELED, "SHIFT_CHANGED")),
    ("shift canceled", _shift(status=ShiftStatus.CANCELED.value), (DeliveryStatus.CANCELED, "SHIFT_NOT_CONFIRMED")),
    ("shift back to draft", _shift(status=ShiftStatus.DRAFT.value), (DeliveryStatus.CANCELED, "SHIFT_NOT_CONFIRMED")),
    ("shift given to another teacher", _another_teacher, (DeliveryStatus.CANCELED, "TEACHER_CHANGED")),
    ("shift already started", _started, (DeliveryStatus.CANCELED, "SHIFT_STARTED")),
    ("shift gone", _delivery(subject_id=None), (DeliveryStatus.CANCELED, "SHIFT_MISSING")),
    ("teacher left", _teacher(active=False), (DeliveryStatus.CANCELED, "TEACHER_INACTIVE")),
    ("teacher erased", _teacher(erased_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC)), (DeliveryStatus.CANCELED, "TEACHER_INACTIVE")),
    ("teacher wants e-mail only", _teacher(channel=channel_choice.EMAIL.word),
     (DeliveryStatus.CANCELED, "CHANNEL_CHANGED")),
    # A copy standing in for another channel's goes whatever the teacher ranks now, on every channel.
    ("a copy standing in, the teacher now on e-mail only", _standing_in(_teacher(channel=channel_choice.EMAIL.word)),
     (DeliveryStatus.SENT, None)),
    ("teacher left LINE", _teacher(line_opt_in=False), (DeliveryStatus.CANCELED, "LINE_NOT_OPTED_IN")),
    ("teacher has no LINE ID", _teacher(line_user_id=None), (DeliveryStatus.CANCELED, "LINE_NOT_OPTED_IN")),
    ("LINE cannot reach a teacher with e-mail fallback",
     _teacher(line_unreachable_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC), channel=channel_choice.LINE_FALLBACK.word,
              email="hanako@example.com", email_opt_in=True),
     (DeliveryStatus.CANCELED, "LINE_UNREACHABLE")),
    # Without a fallback LINE is still tried, on both paths.
    ("LINE cannot reach a teacher without fallback", _teacher(line_unreachable_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC)),
     (DeliveryStatus.SENT, None)),
    ("retry key older than 24 h", _old_retry_key, (DeliveryStatus.FAILED, "RETRY_KEY_EXPIRED")),
]


# Reasons the query itself decides (no row to read) or the sender does (the retry key), not a rule.
NOT_RULES = {"SHIFT_MISSING": "no shift row: the inner join returns nothing", "RETRY_KEY_EXPIRED": "the sender's check"}


def test_every_rule_of_a_line_reminder_has_its_case_and_every_case_its_rule() -> None:
    rule_reasons = [rule.reason for rule in reminder_batch.RULES]
    assert len(rule_reasons) == len(set(rule_reasons))
    case_reasons = {reason for _, _, (status, reason) in CASES if reason is not None}
    assert case_reasons - set(rule_reasons) <= set(NOT_RULES)
    assert set(rule_reasons) <= case_reasons
    # The lean path runs exactly the reminder kind's rules and LINE's teacher rules, in their order.
    assert shift_reminder.RULES + send_rules.for_channel("line") == reminder_batch.RULES


@pytest.fixture
def clock(now: dt.datetime) -> FakeClock:
    return FakeClock(now)


def _one_reminder(db: Database, emulator: LineEmulator, clock: FakeClock, change: Change | None) -> int:
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=emulator)
    if change is not None:
        with db.write() as s:
            d = s.get(Delivery, delivery_id)
            assert d is not None
            change(s, d, clock.now)
    return delivery_id


@pytest.mark.parametrize(("name", "change", "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_lean_path_and_the_builders_agree_on_every_reason_not_to_send(
        db: Database, line_ready: LineEmulator, clock: FakeClock, name: str, change: Change,
        expected: tuple[DeliveryStatus, str | None]) -> None:
    delivery_id = _one_reminder(db, line_ready, clock, change)
    status, reason = expected
    with db.read() as s:
        # Ready on the lean path exactly when the builders would send it: the same rules decide.
        ready = delivery_id in reminder_batch.load(s, [delivery_id], clock.now, f.home_paths())
        assert ready == (status == DeliveryStatus.SENT), name
        _assert_same_subject(s, delivery_id, clock.now)

    sender = Sender(db, paths=f.home_paths(), config=CONFIG, clock=clock)
    sender.run_until_idle()
    sender.stop()
    with db.read() as s:
        d = s.get(Delivery, delivery_id)
        assert d is not None
        assert d.status == status, (name, d.status, d.cancel_reason, d.last_error_code)
        if status == DeliveryStatus.CANCELED:
            assert d.cancel_reason == reason
        elif status == DeliveryStatus.FAILED:
            assert d.last_error_code == reason
    sent = len(line_ready.all_inbox())
    assert sent == (1 if status == DeliveryStatus.SENT else 0)


def _assert_same_subject(session: Any, delivery_id: int, now: dt.datetime) -> None:
    """Both paths see the same facts: the Subject from the query row equals the one from the ORM."""
    found: Sequence[reminder_batch.Found | None] = reminder_batch.rows(session, [delivery_id]) or [None]
    [row] = found
    d = session.get(Delivery, delivery_id)
    shift = session.get(Shift, d.subject_id) if d.subject_id is not None else None
    if row is None:  # no shift (or teacher) row: the builders must find a reason in that
        assert shift is None or shift.teacher is None
        return
    assert shift is not None
    orm = send_rules.subject_of(d, shift, shift.teacher, rules.shift_instants(shift)[0], now)
    lean = reminder_batch.subject_of_row(row, now)
    for field in dataclasses.fields(send_rules.Subject):
        assert getattr(lean, field.name) == getattr(orm, field.name), field.name


def test_a_ready_reminder_is_the_same_message_on_both_paths(db: Database, line_ready: LineEmulator,
                                                           clock: FakeClock) -> None:
    ids = make_reminders(db, 3, now=clock.now, emulator=line_ready)
    with db.write() as s:  # a note and a shift past midnight: every fact the message shows
        first, second = s.get(Delivery, ids[0]), s.get(Delivery, ids[1])
        assert first is not None and second is not None
        s.execute(update(S).where(S.c.id == first.subject_id).values(note="教室の鍵は受付に"))
        s.execute(update(S).where(S.c.id == second.subject_id).values(
            end_time=dt.time(1, 30), ends_next_day=True))
    with db.write() as s:
        lean = reminder_batch.load(s, ids, clock.now, f.home_paths())
        assert sorted(lean) == sorted(ids)
        for delivery_id in ids:
            d = s.get(Delivery, delivery_id)
            assert d is not None
            built = builders.prepare(s, d, clock.now, f.home_paths())
            ready = lean[delivery_id]
            _assert_same_subject(s, delivery_id, clock.now)
            assert ready.outgoing == built
            assert (ready.attempt_count, ready.attempt_number, ready.retry_key) == (0, 1, None)
            assert ready.due_at == d.due_at and ready.first_attempt_at is None
        assert "教室の鍵は受付に" in str(lean[ids[0]].outgoing.messages)


def test_a_retry_on_the_lean_path_numbers_its_attempt_and_keeps_its_key(db: Database, line_ready: LineEmulator,
                                                                        clock: FakeClock) -> None:
    from core.emulator import FaultPlan

    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    line_ready.set_faults(FaultPlan(fail_next=1))
    sender = Sender(db, paths=f.home_paths(), config=CONFIG, clock=clock)
    sender.run_until_idle()
    clock.advance(minutes=2)
    with db.read() as s:
        first = s.get(Delivery, delivery_id)
        assert first is not None and first.retry_key is not None
        ready = reminder_batch.load(s, [delivery_id], clock.now, f.home_paths())[delivery_id]
    assert (ready.attempt_number, ready.attempt_count, ready.retry_key) == (2, 1, first.retry_key)
    sender.run_until_idle()
    sender.stop()
    with db.read() as s:
        d = s.get(Delivery, delivery_id)
        assert d is not None and d.status == DeliveryStatus.SENT and d.attempt_count == 2
    [received] = line_ready.all_inbox()
    assert received.retry_key == first.retry_key
