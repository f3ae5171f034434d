"""The core operations the window's Deliveries, Publish, Settings, Connect LINE and shell call with the
Database: each opens and ends its own transaction and answers frozen values, so a screen never holds a
session (core/outbox/board.py, core/setup/classrooms.py, senders.py, line_buttons.py, line_people.py,
core/publication/screen.py, core/app/window_prefs.py, open_alerts.py)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from core import alerts
from core.app import open_alerts, window_prefs
from core.errors import NotFoundError, ValidationError
from core.outbox import board, queue
from core.planning.unacknowledged import NudgeSettings
from core.publication import screen
from core.setup import classrooms, line_buttons, line_people, senders
from core.store.db import Database
from core.store.models import DeliveryKind, DeliveryStatus
from core.store.secrets import SecretStoreError
from tests import factories as f

GROUP = "C" + "ab" * 16


def _reminder(db: Database, now: dt.datetime) -> int:
    with db.write() as s:
        room = f.classroom(s, "本校")
        teacher = f.teacher(s, "佐藤", 1)
        delivery_id, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER, dedup="reminder:1", due_at=now + dt.timedelta(hours=1), now=now,
            recipient=f.reach(teacher).line_user_id, teacher_id=teacher.id, classroom_id=room.id)
    return delivery_id


def test_the_deliveries_board_reads_rows_and_acts_each_in_its_own_transaction(db: Database, now: dt.datetime) -> None:
    first = _reminder(db, now)
    everything = board.all_rows(db)
    assert everything.zones == ("Asia/Tokyo",)
    assert [row.id for row in everything.rows] == [first]
    assert board.counts(db)["pending"] == 1
    assert board.waiting_soon(db, now=now).total == 1

    assert board.cancel(db, first, now=now) == first
    changed = board.changed_rows(db, [first, first + 50], newer_than=first)
    assert ([r.status for r in changed.rows], changed.missing) == ([DeliveryStatus.CANCELED.value], (first + 50,))
    outcome = board.retry_now(db, first, now=now)
    assert outcome.delivery_id == first and outcome.waits  # back for its due time, an hour away
    assert board.requeue_dead_letters(db, now=now) == ()
    assert board.acknowledged_ids(db) == frozenset()
    facts = board.facts(db, first)
    assert facts is not None and (facts.teacher, facts.classroom, facts.attempts) == ("佐藤", "本校", ())
    assert board.facts(db, first + 50) is None

    status = board.status(db)
    assert (status.counts["pending"], status.hold, dict(status.not_set_up), status.open_cover) == (1, None, {}, 0)
    with pytest.raises(TypeError):
        status.counts["sent"] = 5  # type: ignore[index]  # an answer, not the screen's to change
    assert senders.sending_now(db, now=now) == ()


def test_a_classroom_saved_with_a_bad_value_changes_neither_it_nor_its_nudge(db: Database) -> None:
    with db.write() as s:
        room_id = f.classroom(s, "本校").id
    listed = classrooms.with_nudges(db)
    assert [r.name for r in listed.rooms] == ["本校"] and listed.rooms == classrooms.listing(db)
    before = listed.nudges[room_id]
    change = classrooms.ClassroomChange(line_group_id=GROUP, reminder_lead_minutes=45,
                                        quiet_hours=(dt.time(22), dt.time(7)), language="en", liff_id="")
    saved = classrooms.save(db, room_id, change, NudgeSettings(not before.tell_manager, 5))
    assert (saved.line_group_id, saved.lead_minutes, saved.language) == (GROUP, 45, "en")
    assert classrooms.one(db, room_id) == saved
    assert classrooms.with_nudges(db).nudges[room_id] == NudgeSettings(not before.tell_manager, 5)

    with pytest.raises(ValidationError):
        classrooms.save(db, room_id, dataclasses.replace(change, reminder_lead_minutes=0, language="ja"),
                        NudgeSettings(before.tell_manager, 7))
    assert classrooms.one(db, room_id) == saved
    assert classrooms.with_nudges(db).nudges[room_id] == NudgeSettings(not before.tell_manager, 5)
    with pytest.raises(NotFoundError):
        classrooms.one(db, room_id + 100)


def test_the_window_remembers_its_language_its_first_run_and_the_tray_hint_once(db: Database) -> None:
    assert window_prefs.at_start(db) == window_prefs.AtStart(window_prefs.AUTOMATIC_LANGUAGE, False)
    window_prefs.save_language(db, "ja")
    window_prefs.first_run_done(db)
    assert window_prefs.at_start(db) == window_prefs.AtStart("ja", True)
    assert window_prefs.language(db) == "ja"
    with pytest.raises(ValidationError):
        window_prefs.save_language(db, "xx")
    assert window_prefs.language(db) == "ja"
    assert [window_prefs.tray_hint_first_time(db) for _ in range(3)] == [True, False, False]


def test_the_line_buttons_are_switched_and_read_back(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    assert line_buttons.ack_button(db) == line_buttons.AckButton(False)
    assert line_buttons.cover_button(db) is False
    line_buttons.switch_ack(db, True)
    line_buttons.switch_cover(db, True)
    assert line_buttons.ack_button(db) == line_buttons.AckButton(True)
    assert line_buttons.cover_button(db) is True

    def no_keyring(_session: object) -> str:
        raise SecretStoreError("no keyring")

    monkeypatch.setattr("core.store.ack_key.held_key", no_keyring)
    shown = line_buttons.ack_button(db)
    assert shown.on and shown.problem is not None  # stored on, yet off after all: said why


def test_connect_line_issues_codes_and_answers_progress_and_the_classroom(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room_id = f.classroom(s, "本校", language="en").id
        f.teacher(s, "佐藤", 1, line_user_id=None, line_opt_in=False)
    issued = line_people.issue_codes(db, room_id, now=now)
    assert issued.room is not None and (issued.room.id, issued.room.language) == (room_id, "en")
    assert [(p.name, p.code is not None) for p in issued.progress.teachers] == [("佐藤", True)]
    assert issued.progress.limits == ()
    assert line_people.progress(db, now=now) == issued.progress
    assert line_people.issue_codes(db, None, now=now).room is None
    assert line_people.proposed_groups(db) == ()
    assert dict(line_people.recipient_names(db, ["U" + "0" * 31 + "1", "Unobody"])) == {}


def test_publish_reads_a_month_state_and_a_missing_classroom_is_said(db: Database, now: dt.datetime) -> None:
    with db.write() as s:
        room = f.classroom(s, "本校", line_group_id=GROUP)
        f.shift(s, room, f.teacher(s, "佐藤", 1), dt.date(2026, 12, 10), "16:00", "21:00", now=now)
        room_id = room.id
    state = screen.month_state(db, room_id, 2026, 12, now=now)
    assert (state.room.id, state.changes, state.revisions) == (room_id, (), ())
    assert screen.month_view(db, room_id, 2026, 12, now=now) is not None
    with pytest.raises(NotFoundError):
        screen.month_state(db, room_id + 100, 2026, 12, now=now)


def test_the_alerts_banner_lines_are_in_the_managers_language_without_the_mail_prefix(
        db: Database, now: dt.datetime) -> None:
    assert open_alerts.open_alerts(db, "en") == ()
    with db.write() as s:
        alerts.open_incident(s, alerts.dead_letters(2), now=now)
    (english,) = open_alerts.open_alerts(db, "en")
    (japanese,) = open_alerts.open_alerts(db, "ja")
    assert english.id == japanese.id and english.text != japanese.text
    assert not english.text.startswith(open_alerts.PREFIX)
