"""The app and its relay together, all real: the relay (relay/, `wrangler dev` on loopback with a local
D1), the project's LINE emulator as LINE for both, the CLI's verbs run as the manager runs them, and a
real SQLite database. The relay's cron is started over HTTP, as Cloudflare's trigger would."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import socket
from collections.abc import Iterator

import pytest
from sqlalchemy import select

import main
from core import alerts
from core.emulator import LineEmulator
from core.planning import planner
from core.receiving import pairing
from core.relay import settings as relay_settings
from core.relay import syncer
from core.roster import rules
from core.setup.relay_bundle import load
from core.store import secrets
from core.store.db import Database
from core.store.models import Alert, Delivery, DeliveryAttempt, DeliveryKind, DeliveryStatus, RelayUpload, Teacher
from core.store.paths import DataPaths
from tests import factories as f
from tests.linefixtures import TOKEN, FakeClock, line_ready, make_reminders  # noqa: F401 - line_ready is a fixture
from tests.relayfixtures import LocalRelay, LossyWay, relay  # noqa: F401 - relay is a fixture
from tests.waiting import wait_until

pytestmark = pytest.mark.slow  # every test here starts the relay with wrangler


@pytest.fixture
def emulator() -> Iterator[LineEmulator]:
    """LINE, whose webhooks may go to the relay on loopback."""
    with LineEmulator(token=TOKEN, loopback_webhooks=True) as emu:
        yield emu


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def attach(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, relay: LocalRelay) -> None:
    monkeypatch.setenv("SHIFTCAST_RELAY_KEY", relay.key)
    code, out, err = run(capsys, "relay", "attach", relay.url)
    assert code == 0, err
    monkeypatch.delenv("SHIFTCAST_RELAY_KEY")  # from here on the key comes from the keyring


def sync(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    code, out, err = run(capsys, "relay", "sync")
    assert code == 0, err
    summary = json.loads(out)
    assert isinstance(summary, dict)
    return summary


def attempts(db: Database, delivery_id: int) -> list[tuple[str | None, str, int | None]]:
    with db.read() as s:
        return [(a.via, a.outcome, a.http_status) for a in s.scalars(
            select(DeliveryAttempt).where(DeliveryAttempt.delivery_id == delivery_id).order_by(DeliveryAttempt.number))]


def delivery(db: Database, delivery_id: int) -> Delivery:
    with db.read() as s:
        row = s.get(Delivery, delivery_id)
        assert row is not None
        s.expunge(row)
        return row


def handed_over(db: Database, relay: LocalRelay, line: LineEmulator, capsys: pytest.CaptureFixture[str],
                monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """A reminder due now, handed to the attached relay by a sync: (its delivery id, its teacher's LINE ID)."""
    [reminder] = make_reminders(db, 1, now=dt.datetime.now(dt.UTC), emulator=line)
    teacher = delivery(db, reminder).recipient
    assert teacher is not None
    attach(capsys, monkeypatch, relay)
    assert sync(capsys)["uploaded"] == 1
    return reminder, teacher


def waiting_to_pair(db: Database) -> tuple[int, pairing.PairingCode]:
    """A teacher of a Japanese classroom without LINE, and the code they were handed."""
    with db.write() as s:
        room = f.classroom(s, "本校")
        teacher_id = f.teacher(s, "佐藤", 1, line_user_id=None, line_opt_in=False).id
        [code] = pairing.issue_codes(s, dt.datetime.now(dt.UTC), room.id)
    return teacher_id, code


def test_attach_checks_the_relay_and_its_key_and_status_tells_the_last_sync(
        db: Database, relay: LocalRelay, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHIFTCAST_RELAY_KEY", "ab" * 32)  # not the relay's key: refused before anything is kept
    code, _, err = run(capsys, "relay", "attach", relay.url)
    assert code == 1 and "401" in err and relay_settings.attached(db) is None

    attach(capsys, monkeypatch, relay)
    assert secrets.get_secret(relay_settings.KEY_NAME) == relay.key
    code, out, _ = run(capsys, "relay", "status")
    status = json.loads(out)
    assert code == 0 and status["url"] == relay.url and status["version"] == load().relay_version and status["last_sync"] is None

    summary = sync(capsys)
    assert summary["uploaded"] == summary["outcomes"] == summary["events"] == 0 and summary["heartbeat"] is False
    code, out, _ = run(capsys, "relay", "status")
    assert json.loads(out)["last_sync"] == summary

    assert run(capsys, "relay", "detach")[0] == 0
    assert relay_settings.attached(db) is None and secrets.get_secret(relay_settings.KEY_NAME) is None
    assert run(capsys, "relay", "sync")[0] == 1
    code, _, err = run(capsys, "relay")  # which of the four: a usage error
    assert code == 2 and "attach,sync,status,detach" in err


def test_a_reminder_the_relay_sent_while_no_sender_ran_is_sent_once_with_its_attempt_by_the_relay(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    reminder, teacher = handed_over(db, relay, line_ready, capsys, monkeypatch)

    relay.run_cron()  # no app sender has checked in: the relay sends it
    assert wait_until(lambda: len(line_ready.inbox(teacher)) == 1)
    summary = sync(capsys)
    assert summary["outcomes"] == 1 and summary["sent_by_relay"] == 1 and summary["uploaded"] == 0
    sent = delivery(db, reminder)
    assert sent.status is DeliveryStatus.SENT and sent.attempt_count == 1
    assert attempts(db, reminder) == [("relay", "sent", 200)]
    assert sync(capsys)["outcomes"] == 0  # acknowledged: not recorded twice

    code, out, err = run(capsys, "sender", "--until-idle")  # the app's own sender wakes up
    assert code == 0, err
    assert json.loads(out)["sent"] == 0
    assert len(line_ready.inbox(teacher)) == 1
    assert attempts(db, reminder) == [("relay", "sent", 200)]


def test_a_reminder_the_app_and_the_relay_both_sent_reaches_the_teacher_once(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    reminder, teacher = handed_over(db, relay, line_ready, capsys, monkeypatch)

    code, out, err = run(capsys, "sender", "--until-idle")  # the app sends it with the key it derives
    assert code == 0 and json.loads(out)["sent"] == 1, err
    relay.run_cron()  # the relay heard no heartbeat: it sends it too, with the same retry key
    assert wait_until(lambda: any(r.status == 409 for r in line_ready.request_log()))
    assert len(line_ready.inbox(teacher)) == 1

    summary = sync(capsys)
    assert summary["canceled"] == 1 and summary["outcomes"] == 1 and summary["sent_by_relay"] == 0
    sent = delivery(db, reminder)
    assert sent.status is DeliveryStatus.SENT and sent.attempt_count == 1  # marked sent once, by the app
    assert attempts(db, reminder) == [(None, "sent", 200), ("relay", "sent", 409)]


def test_a_shift_changed_before_its_reminder_went_is_not_sent_in_its_old_form(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    now = dt.datetime.now(dt.UTC)
    old, teacher = handed_over(db, relay, line_ready, capsys, monkeypatch)

    with db.write() as s:  # the manager moves the shift before its reminder went: the planner supersedes it
        shift_id = delivery(db, old).subject_id
        assert shift_id is not None
        rules.edit_shift(s, shift_id, rules.ShiftChange(start_time=dt.time(17, 0)), now=now)
        planner.plan(s, now=now)
    assert delivery(db, old).status is DeliveryStatus.CANCELED
    summary = sync(capsys)
    assert summary["canceled"] == 1 and summary["uploaded"] == 1  # the old one canceled, the new one handed over

    relay.run_cron()
    # The run is over once its outcomes are in; the new reminder is due two hours before the new start.
    assert sync(capsys)["outcomes"] == 0
    assert line_ready.inbox(teacher) == []


@contextlib.contextmanager
def answer_lost(db: Database, relay: LocalRelay, line: LineEmulator, capsys: pytest.CaptureFixture[str],
                monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, str]]:
    """A reminder due now, which the relay attached through a lossy way took at a sync whose answer was
    lost: (its delivery id, its teacher's LINE ID). The relay stays attached through that way inside."""
    [reminder] = make_reminders(db, 1, now=dt.datetime.now(dt.UTC), emulator=line)
    teacher = delivery(db, reminder).recipient
    assert teacher is not None
    way = LossyWay(relay.url)
    try:
        monkeypatch.setenv("SHIFTCAST_RELAY_KEY", relay.key)
        assert run(capsys, "relay", "attach", way.url)[0] == 0
        way.lose_answer("PUT", "/api/deliveries")
        code, _, err = run(capsys, "relay", "sync")  # the relay took the reminder; the app heard nothing back
        assert code == 1 and way.lost == [("PUT", "/api/deliveries")], err
        yield reminder, teacher
    finally:
        way.close()


def test_a_reminder_canceled_after_the_relay_s_answer_to_its_hand_over_was_lost_is_not_sent(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    now = dt.datetime.now(dt.UTC)
    with answer_lost(db, relay, line_ready, capsys, monkeypatch) as (reminder, teacher):
        with db.write() as s:  # the manager moves the shift: the reminder in its old form is canceled
            shift_id = delivery(db, reminder).subject_id
            assert shift_id is not None
            rules.edit_shift(s, shift_id, rules.ShiftChange(start_time=dt.time(17, 0)), now=now)
            planner.plan(s, now=now)
        assert delivery(db, reminder).status is DeliveryStatus.CANCELED
        assert sync(capsys)["canceled"] == 1

        relay.run_cron()  # no app sender has checked in: the relay would send what it holds
        assert sync(capsys)["outcomes"] == 0
    assert line_ready.inbox(teacher) == []


def test_a_hand_over_whose_answer_was_lost_is_uploaded_again_and_sent_once(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    with answer_lost(db, relay, line_ready, capsys, monkeypatch) as (reminder, teacher):
        assert sync(capsys)["uploaded"] == 1  # not confirmed yet: handed over again, which the relay ignores
        assert sync(capsys)["uploaded"] == 0
    with db.read() as s:
        assert s.get_one(RelayUpload, reminder).confirmed_at is not None

    relay.run_cron()
    assert wait_until(lambda: len(line_ready.inbox(teacher)) == 1)


def test_a_pairing_code_sent_to_the_relay_binds_the_teacher_after_a_sync(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    teacher_id, code = waiting_to_pair(db)
    attach(capsys, monkeypatch, relay)
    user = "U" + "7" * 32
    line_ready.add_user(user, "佐藤")
    line_ready.set_webhook_endpoint(f"{relay.url}/line/webhook")
    posted = line_ready.send_text(user, code.code)  # LINE's webhook, signed, to the relay
    assert posted.result is not None and posted.result.status_code == 200, posted.to_json()

    summary = sync(capsys)
    assert summary["events"] == summary["events_new"] == summary["events_handled"] == 1
    with db.read() as s:
        bound = f.reach(s.get_one(Teacher, teacher_id))
    assert bound.line_user_id == user and bound.line_opt_in and bound.line_opt_in_at is not None
    assert sync(capsys)["events"] == 0  # acknowledged
    with db.read() as s:
        assert s.scalar(select(Delivery.id).where(Delivery.kind == DeliveryKind.SHIFT_REMINDER)) is None


def test_a_pairing_code_sent_at_night_gets_the_relay_s_reply_at_once_and_no_second_one(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    teacher_id, code = waiting_to_pair(db)
    attach(capsys, monkeypatch, relay)
    assert sync(capsys)["codes"] == 1  # handed to the relay
    assert sync(capsys)["codes"] is None  # unchanged: not again
    user = "U" + "8" * 32
    line_ready.add_user(user, "佐藤")
    line_ready.set_webhook_endpoint(f"{relay.url}/line/webhook")

    # No app runs: the relay answers, in the classroom's language, while it is asked.
    posted = line_ready.send_text(user, code.code.lower())
    assert posted.result is not None and posted.result.status_code == 200, posted.to_json()
    assert wait_until(lambda: len(line_ready.inbox(user)) == 1)
    [reply] = line_ready.inbox(user)
    assert reply.via == "reply" and reply.message["text"] == pairing.REPLIES["ja"]["paired"]

    summary = sync(capsys)
    assert summary["events_handled"] == 1 and summary["codes"] == 0  # bound here; the spent code withdrawn
    with db.read() as s:
        bound = f.reach(s.get_one(Teacher, teacher_id))
    assert bound.line_user_id == user and bound.line_opt_in
    assert line_ready.inbox(user) == [reply]
    replies = [r for r in line_ready.request_log() if r.path == "/v2/bot/message/reply"]
    assert [r.status for r in replies] == [200]  # the app tried no second reply with the spent token
    assert "could not be sent" not in caplog.text


def test_the_running_sender_s_syncs_say_it_is_awake_and_hand_over_what_is_planned_at_once(
        db: Database, paths: DataPaths, relay: LocalRelay, line_ready: LineEmulator,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    attach(capsys, monkeypatch, relay)
    companion = syncer.RelaySyncer(db, paths)  # as the engine starts it beside its sender
    companion.start("sender-on-this-pc")
    try:
        assert wait_until(lambda: companion.rounds >= 1)  # its first sync: a heartbeat
        # A new reminder is a planning change: the syncer wakes at once, not a minute later.
        [reminder] = make_reminders(db, 1, now=dt.datetime.now(dt.UTC), emulator=line_ready)
        teacher = delivery(db, reminder).recipient
        assert teacher is not None

        def handed_over() -> bool:
            with db.read() as s:
                return s.get(RelayUpload, reminder) is not None

        assert wait_until(handed_over)
        relay.run_cron()  # the app's sender checked in within five minutes: the relay leaves it alone
    finally:
        companion.stop()
    assert line_ready.inbox(teacher) == []
    assert sync(capsys)["outcomes"] == 0
    assert delivery(db, reminder).status is DeliveryStatus.QUEUED


def test_a_relay_unreachable_for_a_while_opens_an_alert_that_a_working_sync_clears(
        db: Database, paths: DataPaths, relay: LocalRelay) -> None:
    with socket.socket() as probe:  # a loopback port with nothing behind it
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    clock = FakeClock(dt.datetime.now(dt.UTC))
    companion = syncer.RelaySyncer(db, paths, clock=clock)
    relay_settings.attach(db, closed, relay.key)
    assert companion.round("sender-on-this-pc") is None

    def open_alerts() -> list[str]:
        with db.write() as s:
            alerts.evaluate(s, now=clock.now, running_since=clock.now)
            return [a.kind.value for a in s.scalars(select(Alert).where(Alert.open_key.is_not(None)))]

    assert open_alerts() == []  # a minute's outage is no alert
    clock.advance(minutes=16)
    assert companion.round("sender-on-this-pc") is None
    assert open_alerts() == ["relay_unreachable"]

    relay_settings.attach(db, relay.url, relay.key)
    assert companion.round("sender-on-this-pc") is not None
    assert open_alerts() == []
