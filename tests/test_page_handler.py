"""The teachers' page's answers as the app takes them in (core/receiving/page.py): events of type "page"
recorded and handled by the standard handlers, as a relay sync does, on a real SQLite database."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

import pytest
from sqlalchemy import select

import main
from core.messages import ack
from core.receiving import acknowledge, events, handlers, pairing
from core.roster import availability, cover
from core.roster.availability_text import DayAnswer
from core.sending.kinds import cover_call
from core.store import ack_key
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import (
    AvailabilityAnswer,
    AvailabilityAsked,
    AvailabilityRequest,
    CoverVolunteer,
    Delivery,
    DeliveryKind,
    WebhookEvent,
)
from tests.linefixtures import user_id
from tests.test_page_documents import MANAGER, NOW, Seeded, seed, sent_reminder
from tests.ui_fixtures import ctx, settle  # noqa: F401 - ctx is a fixture
from ui.availability.dialog import AvailabilityDialog
from ui.services.context import AppContext


def handle(db: Database, who: str, answer: dict[str, Any], *, at: dt.datetime = NOW) -> None:
    """The event the relay stores for an answer, pulled and handled as a sync does."""
    event = {"type": "page", "webhookEventId": f"page-{secrets.token_hex(16)}", "timestamp": int(at.timestamp() * 1000),
             "mode": "active", "source": {"type": "user", "userId": who}, "page": answer}
    with db.write() as s:
        assert events.record(s, [event], now=at) == 1
    done = handlers.handle_pending(db, pairing.standard_handlers(lambda: None), now=at)
    assert (done.handled, done.failed) == (1, 0)


def asked(db: Database, seeded: Seeded, deadline: dt.date = dt.date(2026, 12, 20)) -> int:
    with db.write() as s:
        return availability.ask(s, seeded.honcho, 2027, 1, deadline, [seeded.sato, seeded.suzuki], now=NOW).id


def _hhmm(value: dt.time | None) -> str | None:
    return None if value is None else value.isoformat("minutes")


def answers(db: Database, request_id: int) -> list[tuple[str, str, str | None, str | None, bool, str]]:
    with db.read() as s:
        return [(a.local_date.isoformat(), a.answer, _hhmm(a.start_time), _hhmm(a.end_time), a.late, a.source)
                for a in s.scalars(select(AvailabilityAnswer).where(
                    AvailabilityAnswer.request_id == request_id, AvailabilityAnswer.replaced_at.is_(None))
                    .order_by(AvailabilityAnswer.local_date))]


def test_an_ack_from_the_page_acknowledges_the_reminder_as_the_chat_s_了解_does(db: Database) -> None:
    seeded = seed(db)
    with db.write() as s:
        acknowledge.enable(s, True)
        reminder = sent_reminder(s, seeded.shifts["sato_7"])
        data = ack.postback_data(ack_key.signing_key(s), reminder)
    handle(db, user_id(2), {"action": "ack", "ack": data})  # 鈴木 cannot acknowledge 佐藤's reminder
    with db.read() as s:
        assert acknowledge.acknowledged(s, [reminder]) == {}
    handle(db, user_id(1), {"action": "ack", "ack": data}, at=NOW + dt.timedelta(minutes=5))
    with db.read() as s:
        assert acknowledge.acknowledged(s, [reminder]) == {reminder: NOW + dt.timedelta(minutes=5)}


def test_availability_from_the_page_is_recorded_with_its_source_closed_and_other_days_left_out(db: Database) -> None:
    seeded = seed(db)
    request = asked(db, seeded)
    handle(db, user_id(1), {"action": "availability", "request": request, "days": [
        {"date": "2027-01-04", "answer": "yes"}, {"date": "2027-01-05", "answer": "no"},
        {"date": "2027-01-06", "answer": "hours", "from": "16:00", "to": "20:00"},
        {"date": "2027-01-07", "answer": "hours", "from": None, "to": "19:00"},
        {"date": "2027-01-01", "answer": "yes"},  # New Year's Day: closed
        {"date": "2027-02-01", "answer": "yes"},  # another month
        {"date": "2027-01-08", "answer": "hours", "from": "20:00", "to": "16:00"}]})  # ends before it starts
    assert answers(db, request) == [
        ("2027-01-04", "yes", None, None, False, "page"), ("2027-01-05", "no", None, None, False, "page"),
        ("2027-01-06", "hours", "16:00", "20:00", False, "page"), ("2027-01-07", "hours", None, "19:00", False, "page")]
    # After the deadline the answer is taken, marked late; a teacher not asked is not heard.
    handle(db, user_id(1), {"action": "availability", "request": request, "days": [{"date": "2027-01-05", "answer": "yes"}]},
           at=dt.datetime(2026, 12, 21, 3, 0, tzinfo=dt.UTC))
    handle(db, user_id(3), {"action": "availability", "request": request, "days": [{"date": "2027-01-05", "answer": "yes"}]})
    assert answers(db, request)[1] == ("2027-01-05", "yes", None, None, True, "page")
    with db.read() as s:
        assert {a.teacher_id for a in s.scalars(select(AvailabilityAnswer))} == {seeded.sato}


def test_availability_from_the_page_after_the_month_is_over_is_refused(db: Database) -> None:
    seeded = seed(db)
    request = asked(db, seeded)
    handle(db, user_id(1), {"action": "availability", "request": request, "days": [{"date": "2027-01-04", "answer": "yes"}]},
           at=dt.datetime(2027, 2, 1, 3, 0, tzinfo=dt.UTC))
    assert answers(db, request) == []


def test_a_cover_offer_from_the_page_counts_only_from_a_teacher_the_call_went_to(db: Database) -> None:
    seeded = seed(db)
    with db.write() as s:
        request = cover.ask(s, seeded.shifts["suzuki_2"], seeded.suzuki, now=NOW)
        cover_call.call(s, request.id, now=NOW, teacher_ids=[seeded.sato])
        request_id = request.id
    handle(db, user_id(3), {"action": "cover_offer", "call": request_id})  # 田中 was not called
    handle(db, user_id(1), {"action": "cover_offer", "call": request_id})
    with db.read() as s:
        assert [v.teacher_id for v in s.scalars(select(CoverVolunteer))] == [seeded.sato]


def test_the_manager_reminds_one_teacher_from_the_page_and_nobody_else_can(db: Database) -> None:
    seeded = seed(db)
    request = asked(db, seeded)
    with db.write() as s:
        keys.ALERTS_LINE_USER_ID.write(s, MANAGER)

    def reminders() -> list[tuple[int | None, int | None]]:
        with db.read() as s:
            return [(d.teacher_id, d.subject_version) for d in s.scalars(select(Delivery).where(
                Delivery.kind == DeliveryKind.AVAILABILITY_REQUEST.value).order_by(Delivery.id))]

    handle(db, user_id(1), {"action": "remind", "request": request, "teacher": seeded.suzuki})  # a teacher: no
    handle(db, "U" + "e" * 32, {"action": "remind", "request": request, "teacher": seeded.suzuki})  # a stranger: no
    assert reminders() == []
    handle(db, MANAGER, {"action": "remind", "request": request, "teacher": seeded.suzuki})
    assert reminders() == [(seeded.suzuki, 2)]
    with db.read() as s:
        reminded = {a.teacher_id: a.reminded_at for a in s.scalars(select(AvailabilityAsked))}
    assert reminded == {seeded.sato: None, seeded.suzuki: NOW}


def test_a_stranger_s_page_event_changes_nothing_and_is_marked_handled(db: Database) -> None:
    seeded = seed(db)
    request = asked(db, seeded)
    handle(db, "U" + "e" * 32, {"action": "availability", "request": request,
                                "days": [{"date": "2027-01-04", "answer": "yes"}]})
    assert answers(db, request) == []
    with db.read() as s:
        assert all(e.handled_at is not None for e in s.scalars(select(WebhookEvent)))


def test_the_availability_dialog_and_the_status_verb_say_which_answers_came_from_the_page(
        qtbot, ctx: AppContext, db: Database, capsys: pytest.CaptureFixture[str]) -> None:
    seeded = seed(db)
    request = asked(db, seeded)
    handle(db, user_id(1), {"action": "availability", "request": request, "days": [{"date": "2027-01-04", "answer": "yes"}]})
    with db.write() as s:
        availability.record(s, availability.latest(s, seeded.honcho, 2027, 1) or _absent(), seeded.suzuki,
                            [DayAnswer(dt.date(2027, 1, 4), "no")], source=availability.TEXT, at=NOW)
        rows = {a.name: a.from_page for a in availability.answers(s, request)}
    assert rows == {"佐藤 花子": True, "鈴木 次郎": False}
    ctx.clock = lambda: NOW
    dialog = AvailabilityDialog(ctx, seeded.honcho, "本町教室", 2027, 1)
    qtbot.addWidget(dialog)
    dialog.show()
    settle(qtbot, ctx)
    assert {dialog.table.item(r, 0).text(): dialog.table.item(r, 1).text()  # type: ignore[union-attr]
            for r in range(dialog.table.rowCount())} == {"佐藤 花子": "Answered (from the page)", "鈴木 次郎": "Answered"}
    assert main.main(["--lang", "ja", "availability", "status", "--classroom", "本町教室", "--month", "2027-01"]) == 0
    out = capsys.readouterr().out
    assert "佐藤 花子" in out and "（ページから）" in out.split("佐藤 花子")[1].splitlines()[0]
    assert "（ページから）" not in out.split("鈴木 次郎")[1].splitlines()[0]


def _absent() -> AvailabilityRequest:
    raise AssertionError("the request is gone")
