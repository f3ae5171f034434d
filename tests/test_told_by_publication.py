"""A published month tells the teachers on it: a later change to a shift they saw there gets them
one correction (before → after), whether or not the month is published again."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from core.emulator import LineEmulator
from core.planning import told
from core.planning.planner import plan
from core.publication import publish
from core.publication.image_store import ImageStore
from core.roster import rules
from core.sending.kinds import shift_correction
from core.sending.sender import Sender, SenderConfig
from core.store.db import Database
from core.store.models import (
    Delivery,
    DeliveryKind,
    DeliveryStatus,
    Shift,
    ShiftStatus,
    Teacher,
)
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import FakeClock, emulator, line_ready, user_id  # noqa: F401

GROUP = "C" + "1" * 32
DAY = dt.date(2026, 12, 10)
MINUTE = dt.timedelta(minutes=1)


def _month(db: Database, now: dt.datetime, *, status: ShiftStatus = ShiftStatus.DRAFT) -> dict[str, int]:
    with db.write() as s:
        room = f.classroom(s, line_group_id=GROUP)
        sato, suzuki = f.teacher(s, "佐藤", 1), f.teacher(s, "鈴木", 2)
        mine = f.shift(s, room, sato, DAY, "16:00", "21:00", now=now, status=status)
        f.shift(s, room, suzuki, DAY, "09:00", "12:00", now=now, status=status)
        return {"room": room.id, "shift": mine.id, "sato": sato.id, "suzuki": suzuki.id}


def _publish(db: Database, paths: DataPaths, room: int, now: dt.datetime) -> None:
    with db.write() as s:
        publish.publish(s, room, 2026, 12, now=now, store=ImageStore(paths.images))


def _corrections(db: Database, shift_id: int) -> list[Delivery]:
    with db.read() as s:
        return list(s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.SHIFT_CORRECTION,
                                                     Delivery.about("shift", shift_id)).order_by(Delivery.id)))


def _waiting(rows: list[Delivery]) -> list[Delivery]:
    return [d for d in rows if d.status in (DeliveryStatus.PENDING, DeliveryStatus.QUEUED)]


def _text(db: Database, shift_id: int, teacher_id: int) -> str:
    with db.read() as s:
        shift, teacher = s.get(Shift, shift_id), s.get(Teacher, teacher_id)
        assert shift is not None and teacher is not None
        return shift_correction.correction_for(s, shift, teacher, f.home_paths()).text


def _plan(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        plan(s, now=now)


def test_a_move_after_publishing_queues_one_correction_with_before_and_after(db: Database, paths: DataPaths,
                                                                           now: dt.datetime) -> None:
    ids = _month(db, now)
    _publish(db, paths, ids["room"], now)
    _plan(db, now)
    assert _corrections(db, ids["shift"]) == []  # published, not changed: nothing to correct
    with db.write() as s:
        rules.edit_shift(s, ids["shift"], rules.ShiftChange(start_time=dt.time(17), end_time=dt.time(22)), now=now + MINUTE)
    for n in range(3):  # however often planning runs
        _plan(db, now + MINUTE * (2 + n))
    [correction] = _corrections(db, ids["shift"])
    assert correction.teacher_id == ids["sato"] and correction.status == DeliveryStatus.QUEUED  # due now
    text = _text(db, ids["shift"], ids["sato"])
    assert "変更前: 12月10日(木) 16:00〜21:00" in text and "変更後: 12月10日(木) 17:00〜22:00" in text
    # 鈴木's shift did not change: no correction for them.
    with db.read() as s:
        assert s.scalar(select(Delivery.id).where(Delivery.kind == DeliveryKind.SHIFT_CORRECTION,
                                                  Delivery.teacher_id == ids["suzuki"])) is None


def test_a_second_edit_before_sending_leaves_one_waiting_correction_from_what_was_published(
        db: Database, paths: DataPaths, now: dt.datetime) -> None:
    ids = _month(db, now)
    _publish(db, paths, ids["room"], now)
    with db.write() as s:
        rules.edit_shift(s, ids["shift"], rules.ShiftChange(start_time=dt.time(17)), now=now + MINUTE)
    _plan(db, now + MINUTE * 2)
    with db.write() as s:
        rules.edit_shift(s, ids["shift"], rules.ShiftChange(start_time=dt.time(18)), now=now + MINUTE * 3)
    _plan(db, now + MINUTE * 4)
    rows = _corrections(db, ids["shift"])
    [waiting] = _waiting(rows)
    # The earlier one is superseded, as for reminders; the one left says what the roster showed.
    assert [(d.status, d.cancel_reason) for d in rows if d is not waiting] == [(DeliveryStatus.CANCELED, "SUPERSEDED")]
    text = _text(db, ids["shift"], ids["sato"])
    assert "変更前: 12月10日(木) 16:00〜21:00" in text and "変更後: 12月10日(木) 18:00〜21:00" in text


def test_publishing_again_after_the_move_still_sends_one_correction(db: Database, paths: DataPaths,
                                                                    now: dt.datetime) -> None:
    ids = _month(db, now)
    _publish(db, paths, ids["room"], now)
    with db.write() as s:
        rules.edit_shift(s, ids["shift"], rules.ShiftChange(start_time=dt.time(17)), now=now + MINUTE)
    _publish(db, paths, ids["room"], now + MINUTE * 2)  # before any planning ran
    _plan(db, now + MINUTE * 3)
    [correction] = _waiting(_corrections(db, ids["shift"]))
    assert correction.teacher_id == ids["sato"]
    assert "変更前: 12月10日(木) 16:00〜21:00" in _text(db, ids["shift"], ids["sato"])


def test_canceling_a_published_shift_sends_one_cancellation_notice(db: Database, paths: DataPaths,
                                                                   line_ready: LineEmulator) -> None:
    clk = FakeClock(dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC))
    ids = _month(db, clk.now)
    _publish(db, paths, ids["room"], clk.now)
    line_ready.add_user(user_id(1), "佐藤")
    with db.write() as s:
        # The group message is not what this test is about; only the teacher's own inbox is.
        s.execute(f.table(Delivery).update().where(Delivery.kind == DeliveryKind.SHIFT_PUBLICATION)
                  .values(status=DeliveryStatus.CANCELED))
        rules.cancel_shift(s, ids["shift"], now=clk.now + MINUTE)
    for _ in range(3):
        clk.now += MINUTE
        _plan(db, clk.now)
        Sender(db, paths=f.home_paths(), config=SenderConfig(concurrency=2),
               clock=clk).run_until_idle()
    [notice] = line_ready.inbox(user_id(1))
    assert "12月10日(木) 16:00〜21:00" in notice.message["altText"] and "取り消されました" in notice.message["altText"]
    assert [d.status for d in _corrections(db, ids["shift"])] == [DeliveryStatus.SENT]


def test_never_told_shifts_get_no_correction(db: Database, paths: DataPaths, now: dt.datetime) -> None:
    ids = _month(db, now, status=ShiftStatus.CONFIRMED)  # confirmed, never published, no reminder sent yet
    with db.write() as s:
        rules.edit_shift(s, ids["shift"], rules.ShiftChange(start_time=dt.time(17)), now=now + MINUTE)
    _plan(db, now + MINUTE * 2)
    assert _corrections(db, ids["shift"]) == []
    _publish(db, paths, ids["room"], now + MINUTE * 3)
    with db.write() as s:
        # Added as a draft after that publication, changed, then confirmed and moved: the roster
        # never showed it confirmed, so nobody was told anything to correct.
        shift = s.get(Shift, ids["shift"])
        assert shift is not None
        later = f.shift(s, shift.classroom, shift.teacher, DAY + dt.timedelta(days=1), now=now + MINUTE * 4)
        rules.edit_shift(s, later.id, rules.ShiftChange(start_time=dt.time(15)), now=now + MINUTE * 5)
        rules.edit_shift(s, later.id, rules.ShiftChange(status=ShiftStatus.CONFIRMED), now=now + MINUTE * 6)
        rules.edit_shift(s, later.id, rules.ShiftChange(start_time=dt.time(14)), now=now + MINUTE * 7)
    _plan(db, now + MINUTE * 8)
    with db.read() as s:
        assert s.scalar(select(Delivery.id).where(Delivery.kind == DeliveryKind.SHIFT_CORRECTION)) is None


def test_a_shift_moved_to_another_month_was_not_on_that_months_roster() -> None:
    at = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    december, january = (1, 2026, 12), (1, 2027, 1)
    revisions = [
        told.Revision(1, at, ShiftStatus.DRAFT, 7, 1, 2026, 12),
        told.Revision(2, at, ShiftStatus.CONFIRMED, 7, 1, 2026, 12),
        told.Revision(3, at + MINUTE, ShiftStatus.CONFIRMED, 7, 1, 2027, 1),
        told.Revision(4, at + MINUTE * 3, ShiftStatus.CONFIRMED, 8, 1, 2027, 1),
    ]
    assert told.published(revisions, [(december, at)]) == {7: 2}
    assert told.published(revisions, [(december, at + MINUTE * 2)]) == {}  # it had left December by then
    assert told.published(revisions, [(january, at + MINUTE * 2), (january, at + MINUTE * 4)]) == {7: 3, 8: 4}
    assert told.published(revisions, [(december, at - MINUTE)]) == {}  # before the shift existed
