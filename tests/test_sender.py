"""The sender end to end over real HTTP against the emulator: every row of the outcome table again."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator

import pytest
from sqlalchemy import select

from core import alerts
from core.channels import line_render
from core.channels.base import Outgoing
from core.channels.line import encode_multicast, encode_push
from core.emulator import FaultPlan, InboxMessage, LineEmulator
from core.outbox import deliveries
from core.outbox.policy import BackoffPolicy, shown_error
from core.roster import rules
from core.sending.sender import Sender, SenderConfig, SenderEvents
from core.store import secrets, settings
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import AlertKind, Delivery, DeliveryAttempt, DeliveryStatus
from core.texts import Text
from tests import factories as f
from tests.linefixtures import FakeClock, emulator, line_ready, make_reminders  # noqa: F401
from tests.waiting import PATIENCE_S, wait_until

# One contract, two databases: every test here runs on SQLite and on PostgreSQL.
pytestmark = pytest.mark.backends("sqlite", "postgresql")

FAST = SenderConfig(concurrency=4, lease=dt.timedelta(seconds=30),
                    backoff=BackoffPolicy(base=dt.timedelta(minutes=2), jitter=0))


_MADE: list[Sender] = []


@pytest.fixture(autouse=True)
def stop_senders() -> Iterator[None]:
    yield
    while _MADE:
        _MADE.pop().stop()


@pytest.fixture
def clock(now: dt.datetime) -> FakeClock:
    return FakeClock(now)


def _make(db: Database, config: SenderConfig, **kwargs: object) -> Sender:
    sender = Sender(db, paths=f.home_paths(), config=config, **kwargs)  # type: ignore[arg-type]
    _MADE.append(sender)
    return sender


def _sender(db: Database, clock: FakeClock, *, config: SenderConfig = FAST, events: SenderEvents | None = None) -> Sender:
    return _make(db, config, clock=clock, events=events)


def _delivery(db: Database, delivery_id: int) -> Delivery:
    with db.read() as s:
        d = s.get(Delivery, delivery_id)
        assert d is not None
        return d


def _inbox(emulator: LineEmulator, d: Delivery) -> list[InboxMessage]:
    """What the delivery's recipient received; the LINE deliveries here always name one."""
    assert d.recipient is not None
    return emulator.inbox(d.recipient)


def _attempts(db: Database, delivery_id: int) -> list[DeliveryAttempt]:
    with db.read() as s:
        return deliveries.attempts(s, delivery_id)


def test_sent_on_2xx_with_request_id_and_retry_key(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    sender = _sender(db, clock)
    stats = sender.run_until_idle()
    assert stats.sent == 1
    d = _delivery(db, delivery_id)
    [received] = _inbox(line_ready, d)
    assert d.status == DeliveryStatus.SENT and d.sent_at == clock.now and d.line_request_id == received.request_id
    assert received.retry_key == d.retry_key and d.retry_key_issued_at == clock.now
    assert received.message["type"] == "flex"
    assert "本校" in received.message["altText"] and "16:00〜21:00" in received.message["altText"]
    [attempt] = _attempts(db, delivery_id)
    assert (attempt.http_status, attempt.outcome, attempt.retry_key) == (200, "sent", d.retry_key)
    assert d.late_seconds == 0


def test_a_turn_rolled_back_for_a_deadlock_runs_again_with_the_same_results(db, line_ready: LineEmulator, clock: FakeClock,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """On a shared server a turn can meet another transaction in a deadlock; the server rolls it back
    whole and the turn runs again, recording the same results: nothing lost, nothing sent twice."""
    from psycopg.errors import DeadlockDetected
    from sqlalchemy.exc import OperationalError

    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    sender = _sender(db, clock)
    real_claim = sender._claimer.claim
    calls: list[int] = []

    def deadlocked_on_the_second_turn(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:  # the turn after the first claim: the one recording its result, if it is back
            raise OperationalError("UPDATE deliveries …", {}, DeadlockDetected("deadlock detected"))
        return real_claim(*args, **kwargs)

    monkeypatch.setattr(sender._claimer, "claim", deadlocked_on_the_second_turn)
    stats = sender.run_until_idle()
    assert len(calls) >= 3 and stats.sent == 1
    d = _delivery(db, delivery_id)
    assert d.status == DeliveryStatus.SENT and len(_inbox(line_ready, d)) == 1
    assert [a.outcome for a in _attempts(db, delivery_id)] == ["sent"]


def test_a_turn_rolled_back_after_recording_counts_its_results_once(db, line_ready: LineEmulator,
                                                                   clock: FakeClock,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadlock comes after the turn recorded its sent row: the rollback undoes the row, the turn
    runs again and records it again, and the counts say one send, not two."""
    from psycopg.errors import DeadlockDetected
    from sqlalchemy.exc import OperationalError

    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    sender = _sender(db, clock)
    real_record = sender._recorder.record
    rolled_back: list[int] = []

    def deadlocked_once_after_recording(session, finished, now) -> None:
        real_record(session, finished, now)
        if finished and not rolled_back:
            rolled_back.append(len(finished))
            raise OperationalError("UPDATE deliveries …", {}, DeadlockDetected("deadlock detected"))

    monkeypatch.setattr(sender._recorder, "record", deadlocked_once_after_recording)
    stats = sender.run_until_idle()
    assert rolled_back == [1]
    assert (stats.sent, stats.failed, stats.retried) == (1, 0, 0)
    assert _delivery(db, delivery_id).status == DeliveryStatus.SENT
    assert [a.outcome for a in _attempts(db, delivery_id)] == ["sent"]


def test_5xx_retries_with_backoff_reusing_the_key(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    line_ready.set_faults(FaultPlan(fail_next=2))
    sender = _sender(db, clock)
    sender.run_until_idle()
    d = _delivery(db, delivery_id)
    assert (d.status, d.attempt_count, d.last_error_code) == (DeliveryStatus.QUEUED, 1, "LINE_5XX")
    assert d.next_attempt_at == clock.now + dt.timedelta(minutes=2)
    clock.advance(minutes=2)
    sender.run_until_idle()
    assert _delivery(db, delivery_id).next_attempt_at == clock.now + dt.timedelta(minutes=4)
    clock.advance(minutes=4)
    sender.run_until_idle()
    d = _delivery(db, delivery_id)
    assert d.status == DeliveryStatus.SENT and d.last_error_code is None
    attempts = _attempts(db, delivery_id)
    assert [a.http_status for a in attempts] == [500, 500, 200] and {a.retry_key for a in attempts} == {d.retry_key}
    assert len(_inbox(line_ready, d)) == 1


def test_accepted_then_5xx_comes_back_as_409_and_counts_as_sent(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    line_ready.set_faults(FaultPlan(accept_then_error_rate=1.0, seed=1))
    sender = _sender(db, clock)
    sender.run_until_idle()
    line_ready.set_faults(FaultPlan())
    clock.advance(minutes=2)
    sender.run_until_idle()
    d = _delivery(db, delivery_id)
    [received] = _inbox(line_ready, d)
    assert d.status == DeliveryStatus.SENT and d.accepted_request_id == received.request_id
    assert [a.http_status for a in _attempts(db, delivery_id)] == [500, 409]


def test_timeout_after_acceptance_is_not_a_duplicate(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    with db.write() as s:
        keys.SENDER_HTTP_TIMEOUT_SECONDS.write(s, 0.5)
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    line_ready.set_faults(FaultPlan(timeout_after_accept_rate=1.0, hang_seconds=2.0, seed=1))
    sender = _sender(db, clock)
    sender.run_until_idle()
    assert _delivery(db, delivery_id).last_error_code == "TIMEOUT"
    line_ready.set_faults(FaultPlan())
    clock.advance(minutes=2)
    sender.run_until_idle()
    d = _delivery(db, delivery_id)
    assert d.status == DeliveryStatus.SENT and len(_inbox(line_ready, d)) == 1
    assert [a.error_code for a in _attempts(db, delivery_id)] == ["TIMEOUT", None]


def test_connection_reset_is_retried(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    line_ready.set_faults(FaultPlan(reset_rate=1.0, seed=1))
    sender = _sender(db, clock)
    sender.run_until_idle()
    assert _delivery(db, delivery_id).last_error_code == "CONNECTION_ERROR"
    line_ready.set_faults(FaultPlan())
    clock.advance(minutes=2)
    sender.run_until_idle()
    assert _delivery(db, delivery_id).status == DeliveryStatus.SENT


def test_retries_run_out_then_dead_letter_and_alert(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    line_ready.set_faults(FaultPlan(fail_next=100))
    alerts: list[tuple[str, Text | str]] = []
    sender = _sender(db, clock, events=SenderEvents(alert=[lambda code, text: alerts.append((code, text))]))
    for minutes in (0, 2, 4, 8, 16, 32):
        clock.advance(minutes=minutes)
        sender.run_until_idle()
    d = _delivery(db, delivery_id)
    assert (d.status, d.attempt_count, d.last_error_code) == (DeliveryStatus.FAILED, 6, "LINE_5XX")
    assert d.dead_lettered_at is not None
    assert len(_attempts(db, delivery_id)) == 6 and alerts and alerts[0][0] == "DEAD_LETTER"
    assert _inbox(line_ready, d) == []


def test_rate_limit_429_retries_without_spending_budget(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    ids = make_reminders(db, 3, now=clock.now, emulator=line_ready)
    line_ready.set_rate_limit("push", 0.001)  # one token, then nothing
    sender = _sender(db, clock)
    sender.run_until_idle()
    throttled = [d for d in map(lambda i: _delivery(db, i), ids) if d.status == DeliveryStatus.QUEUED]
    assert throttled and all(d.last_error_code == "RATE_LIMITED" and d.attempt_count == 0 for d in throttled)
    line_ready.set_rate_limit("push", None)
    clock.advance(seconds=5)
    sender.run_until_idle()
    assert all(_delivery(db, i).status == DeliveryStatus.SENT for i in ids)


def test_monthly_quota_429_fails_with_quota_code(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    ids = make_reminders(db, 2, now=clock.now, emulator=line_ready)
    line_ready.set_quota(1)
    alerts: list[str] = []
    _sender(db, clock, events=SenderEvents(alert=[lambda code, _t: alerts.append(code)])).run_until_idle()
    statuses = sorted((_delivery(db, i).status.value, _delivery(db, i).last_error_code or "") for i in ids)
    assert statuses == [("failed", "QUOTA_EXHAUSTED"), ("sent", "")]
    assert "QUOTA_EXHAUSTED" in alerts


def test_401_holds_the_channel_until_the_token_changes(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    ids = make_reminders(db, 3, now=clock.now, emulator=line_ready)
    secrets.set_line_token("a-wrong-token-that-line-refuses")
    holds: list[str | None] = []
    sender = _sender(db, clock, events=SenderEvents(hold_changed=[holds.append]))
    sender.run_until_idle()
    rows = [_delivery(db, i) for i in ids]
    assert all(d.status == DeliveryStatus.QUEUED and d.attempt_count == 0 for d in rows)
    assert any(d.last_error_code == "AUTH_FAILED" for d in rows) and holds == ["AUTH_FAILED"]
    requests_before = len(line_ready.request_log())
    clock.advance(minutes=10)
    sender.run_until_idle()
    assert len(line_ready.request_log()) == requests_before  # held: nothing more is tried
    with db.read() as s:
        assert (settings.get(s, keys.LINE_HOLD.name) or "").startswith("AUTH_FAILED|")

    from tests.linefixtures import TOKEN

    # The manager saves the corrected token in Settings: the running sender picks it up by itself.
    secrets.set_line_token(TOKEN)
    clock.advance(seconds=5)
    sender.run_until_idle()
    assert all(_delivery(db, i).status == DeliveryStatus.SENT for i in ids) and holds[-1] is None


def test_a_send_with_the_corrected_token_closes_the_auth_incident(db, line_ready: LineEmulator,
                                                                    clock: FakeClock) -> None:
    from tests.linefixtures import TOKEN

    first = make_reminders(db, 2, now=clock.now, emulator=line_ready)
    secrets.set_line_token("a-wrong-token-that-line-refuses")
    holds: list[str | None] = []
    _sender(db, clock, events=SenderEvents(hold_changed=[holds.append])).run_until_idle()
    with db.read() as s:
        assert [a.open_key for a in alerts.open_alerts(s)] == ["channel_held:line"]

    # Later runs, each a sender of its own as `main.py sender --until-idle` is, with no scheduler
    # whose minute watch would notice: the good token sends, and that closes the incident.
    secrets.set_line_token(TOKEN)
    clock.advance(minutes=5)
    _sender(db, clock, events=SenderEvents(hold_changed=[holds.append])).run_until_idle()
    assert all(_delivery(db, i).status == DeliveryStatus.SENT for i in first)
    with db.read() as s:
        assert alerts.open_alerts(s) == []
        [closed] = alerts.list_alerts(s, now=clock.now)
        assert closed.kind is AlertKind.CHANNEL_HELD and closed.cleared_at == clock.now
        assert not keys.LINE_HOLD.is_set(s)
    assert holds == ["AUTH_FAILED", None]


def test_a_send_on_line_closes_the_quota_incident_but_not_dead_letters(db, line_ready: LineEmulator,
                                                                         clock: FakeClock) -> None:
    with db.write() as s:
        alerts.open_incident(s, alerts.quota_exhausted(), now=clock.now)
        alerts.open_incident(s, alerts.dead_letters(1), now=clock.now)
    make_reminders(db, 1, now=clock.now, emulator=line_ready)
    _sender(db, clock).run_until_idle()
    with db.read() as s:
        assert [a.kind for a in alerts.open_alerts(s)] == [AlertKind.DEAD_LETTER]


def test_400_fails_with_lines_message_and_details(db, line_ready: LineEmulator, clock: FakeClock,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    # Every reminder's push is made by line_render.push, on the lean path and the ORM path alike.
    monkeypatch.setattr(line_render, "push", lambda to, message: Outgoing(
        "push", to, ({"type": "text", "text": ""},)))
    _sender(db, clock).run_until_idle()
    d = _delivery(db, delivery_id)
    assert (d.status, d.last_error_code, d.dead_lettered_at) == (DeliveryStatus.FAILED, "LINE_400", None)
    error = str(shown_error(d.last_error_message))
    assert "HTTP 400" in error and "messages[0].text" in error
    assert d.last_error_at_recipient is False  # about the message, not the teacher


def test_400_naming_the_recipient_is_recorded_as_at_the_recipient(db, line_ready: LineEmulator, clock: FakeClock,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    monkeypatch.setattr(line_render, "push", lambda to, message: Outgoing(
        "push", "U-not-a-line-id", ({"type": "text", "text": "明日のシフト"},)))
    sender = _sender(db, clock)
    sender.run_until_idle()
    d = _delivery(db, delivery_id)
    assert (d.status, d.last_error_code, d.last_error_at_recipient) == (DeliveryStatus.FAILED, "LINE_400", True)


def test_the_text_reaches_line_exactly_as_built(db, line_ready: LineEmulator, clock: FakeClock,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Tabs, newlines, quotes and backslashes survive the encoding the sender does on its loop thread."""
    text = "タブ\tと改行\nを含む \"引用\" \\ \u2028"
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    monkeypatch.setattr(line_render, "push", lambda to, message: Outgoing(
        "push", to, ({"type": "text", "text": text},)))
    _sender(db, clock).run_until_idle()
    d = _delivery(db, delivery_id)
    [received] = _inbox(line_ready, d)
    assert d.status == DeliveryStatus.SENT and received.message["text"] == text


def test_encoded_bodies_are_the_messages_as_built() -> None:
    text = "行1\n行2\t列\r\u2028\u0000 \"引用\" \\"
    messages = [{"type": "text", "text": text}]
    push = json.loads(encode_push("U" + "0" * 32, messages))
    multicast = json.loads(encode_multicast(["U" + "1" * 32, "U" + "2" * 32], messages))
    assert push == {"to": "U" + "0" * 32, "messages": messages}
    assert multicast == {"to": ["U" + "1" * 32, "U" + "2" * 32], "messages": messages}


def test_retry_key_older_than_24h_is_never_reused_automatically(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready, start_in=dt.timedelta(days=5))
    line_ready.set_faults(FaultPlan(fail_next=1))
    sender = _sender(db, clock)
    sender.run_until_idle()
    clock.advance(hours=24)  # the laptop slept through the retry
    sender.run_until_idle()
    d = _delivery(db, delivery_id)
    assert (d.status, d.last_error_code) == (DeliveryStatus.FAILED, "RETRY_KEY_EXPIRED")
    with db.write() as s:
        outcome = deliveries.retry_now(s, delivery_id, now=clock.now)
    assert outcome.new_retry_key
    sender.run_until_idle()
    d = _delivery(db, delivery_id)
    assert d.status == DeliveryStatus.SENT and len(_inbox(line_ready, d)) == 1


def test_checks_at_send_time_cancel_with_reasons(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    ids = make_reminders(db, 4, now=clock.now, emulator=line_ready)
    with db.write() as s:
        rows = [s.get(Delivery, i) for i in ids]
        rules.edit_shift(s, rows[0].subject_id, rules.ShiftChange(start_time=dt.time(15)), now=clock.now)
        rules.cancel_shift(s, rows[1].subject_id, now=clock.now)
        rules.update_teacher(s, rows[2].teacher_id, line_opt_in=False)
    _sender(db, clock).run_until_idle()
    got = [(_delivery(db, i).status.value, _delivery(db, i).cancel_reason) for i in ids]
    assert got == [("canceled", "SHIFT_CHANGED"), ("canceled", "SHIFT_CHANGED"),
                   ("canceled", "LINE_NOT_OPTED_IN"), ("sent", None)]


def test_shift_already_started_is_canceled(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready, start_in=dt.timedelta(hours=1))
    clock.advance(days=1)
    _sender(db, clock).run_until_idle()
    assert _delivery(db, delivery_id).cancel_reason == "SHIFT_STARTED"


def test_late_sends_record_how_late(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    [delivery_id] = make_reminders(db, 1, now=clock.now, emulator=line_ready)
    clock.advance(minutes=37)
    _sender(db, clock).run_until_idle()
    d = _delivery(db, delivery_id)
    assert d.status == DeliveryStatus.SENT and d.late_seconds == 37 * 60


def test_background_thread_is_woken_by_an_enqueue(db, line_ready: LineEmulator, now: dt.datetime) -> None:
    import threading

    config = SenderConfig(concurrency=2, poll_interval=600.0)  # only the wake-up can make it send in time
    done = threading.Event()
    events = SenderEvents(deliveries_changed=[lambda ids: done.set() if line_ready.all_inbox() else None])
    sender = _make(db, config, events=events).start()
    try:
        [delivery_id] = make_reminders(db, 1, now=dt.datetime.now(dt.UTC), emulator=line_ready)
        assert done.wait(PATIENCE_S)
    finally:
        sender.stop()
    assert _delivery(db, delivery_id).status == DeliveryStatus.SENT


def test_graceful_stop_leaves_no_lease_behind(db, line_ready: LineEmulator) -> None:
    make_reminders(db, 40, now=dt.datetime.now(dt.UTC), emulator=line_ready)
    line_ready.set_faults(FaultPlan(latency_ms=50))
    sender = _make(db, SenderConfig(concurrency=2)).start()
    assert wait_until(lambda: bool(line_ready.all_inbox()))  # stopped in the middle of its work
    sender.stop()
    with db.read() as s:
        rows = s.scalars(select(Delivery)).all()
    assert not [d for d in rows if d.status == DeliveryStatus.PROCESSING or d.lease_owner]
    sent = [d for d in rows if d.status == DeliveryStatus.SENT]
    assert len(sent) > 0 and len(line_ready.all_inbox()) == len(sent)
    assert all(d.attempt_count == (1 if d.status == DeliveryStatus.SENT else 0) for d in rows)


def test_no_token_means_nothing_is_claimed(db, emulator: LineEmulator, clock: FakeClock) -> None:
    [delivery_id] = make_reminders(db, 1, now=clock.now)
    _sender(db, clock).run_until_idle()
    d = _delivery(db, delivery_id)
    assert d.status == DeliveryStatus.QUEUED and d.attempt_count == 0


def test_leases_of_sends_still_in_flight_are_renewed(db, line_ready: LineEmulator, clock: FakeClock) -> None:
    """Several rounds wait in flight while LINE is slow: a live sender keeps its leases, so nobody
    else claims what it is still sending."""
    from core.outbox import queue

    ids = make_reminders(db, 3, now=clock.now, emulator=line_ready)
    line_ready.set_faults(FaultPlan(latency_ms=1500))
    sender = _sender(db, clock)
    claimed_at = clock.now
    sender.turn()  # claimed and handed over; LINE answers in 1.5 s
    clock.advance(seconds=8)  # past a quarter of the 30 s lease
    sender.turn()
    with db.read() as s:
        leases = {s.get(Delivery, i).lease_expires_at for i in ids}
    assert leases == {clock.now + FAST.lease}
    clock.now = claimed_at + FAST.lease + dt.timedelta(seconds=1)  # the first lease would have run out
    with db.write() as s:
        assert queue.claim(s, owner="someone-else", now=clock.now, lease=FAST.lease, limit=10) == []
    sender.run_until_idle()
    assert all(_delivery(db, i).status == DeliveryStatus.SENT for i in ids)
    assert len(line_ready.all_inbox()) == 3
    with db.read() as s:
        assert all(a.http_status == 200 for i in ids for a in deliveries.attempts(s, i))
