"""The sender reaches channels only through their drivers (core/channels/base.py).

A fake channel (tests/fake_channel.py) takes the place of each registered channel in turn, once sending
one request per pool task and once in batches: its deliveries are claimed, built, sent through it
and recorded by its own rules, held and released by its own credentials. Nothing else changes, so
nothing in the sender can be specific to LINE, e-mail, the webhook or any other channel.
"""

from __future__ import annotations

import datetime as dt
from functools import partial

import pytest

from core.channels import registry
from core.outbox import deliveries
from core.outbox import queue as outbox
from core.sending.sender import Sender, SenderConfig, SenderEvents
from core.store.db import Database
from core.store.models import Delivery, DeliveryKind, DeliveryStatus
from tests import factories as f
from tests import fake_channel
from tests.fake_channel import FakeDriver
from tests.linefixtures import FakeClock

CONFIG = SenderConfig(concurrency=2, lease=dt.timedelta(seconds=30))
MODES = {"pooled": None, "batch": 3}


@pytest.fixture
def clock(now: dt.datetime) -> FakeClock:
    return FakeClock(now)


def _enqueue(db: Database, channel: str, recipients: list[str], now: dt.datetime) -> list[int]:
    with db.write() as s:
        return [outbox.enqueue(s, kind=DeliveryKind.ALERT, dedup=f"fake:{channel}:{n}", due_at=now, now=now,
                               channel=channel, recipient=recipient)[0] for n, recipient in enumerate(recipients)]


def _sender(db: Database, driver: FakeDriver, clock: FakeClock, events: SenderEvents | None = None) -> Sender:
    # The fake connects as its driver says, whichever channel it stands in for.
    return Sender(db, paths=f.home_paths(), config=CONFIG, clock=clock, events=events,
                  connect={"line": None} | {driver.key: partial(driver.connect, db)})


def _rows(db: Database, ids: list[int]) -> list[Delivery]:
    with db.read() as s:
        return [s.get(Delivery, i) for i in ids]  # type: ignore[misc]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("channel", list(registry.DRIVERS))
def test_a_delivery_goes_claim_build_send_record_through_any_channels_driver(
        db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, channel: str, mode: str) -> None:
    driver = fake_channel.install(monkeypatch, channel, batch=MODES[mode], retry_keys=mode == "pooled")
    ids = _enqueue(db, channel, ["ok:1", "ok:2", "busy:3", "wrong:4", "ok:5", "ok:6", "ok:7"], clock.now)
    sender = _sender(db, driver, clock)
    try:
        stats = sender.run_until_idle()
    finally:
        sender.stop()
    assert (stats.sent, stats.retried, stats.failed) == (5, 1, 1)
    assert sorted(driver.sent_to) == ["busy:3", "ok:1", "ok:2", "ok:5", "ok:6", "ok:7", "wrong:4"]
    batches = [batch for connection in driver.connections for batch in connection.batches]
    if MODES[mode] is None:
        assert all(len(batch) == 1 for batch in batches)  # one request per pool task
    else:
        assert len(batches) == 3 and max(len(batch) for batch in batches) == 3  # 7 in batches of at most 3
    rows = _rows(db, ids)
    assert [d.status for d in rows] == [DeliveryStatus.SENT, DeliveryStatus.SENT, DeliveryStatus.QUEUED,
                                        DeliveryStatus.FAILED] + [DeliveryStatus.SENT] * 3
    assert rows[0].line_request_id == f"fake-{ids[0]}"  # the request id its server gave
    assert (rows[2].last_error_code, rows[3].last_error_code) == ("FAKE_5XX", "FAKE_4XX")  # its own rules' codes
    sent_keys = {i: key for batch in batches for i, _, key in batch}
    if driver.retry_keys:  # issued and committed before the request left, and the one it carried
        assert all(d.retry_key is not None and sent_keys[d.id] == d.retry_key for d in rows)
    else:
        assert all(d.retry_key is None for d in rows) and set(sent_keys.values()) == {None}
    with db.read() as s:
        attempts = {d.id: deliveries.attempts(s, d.id) for d in rows}
    assert [a.outcome for a in attempts[ids[2]]] == ["retry"] and [a.outcome for a in attempts[ids[3]]] == ["failed"]
    assert {a.http_status for d in rows for a in attempts[d.id]} == {200, 503, 400}


@pytest.mark.parametrize("channel", list(registry.DRIVERS))
def test_a_refusal_holds_any_channel_by_its_own_key_until_its_credentials_change(
        db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, channel: str) -> None:
    driver = fake_channel.install(monkeypatch, channel)
    driver.refused.add("key-1")
    holds: list[str | None] = []
    ids = _enqueue(db, channel, ["ok:1"], clock.now)
    sender = _sender(db, driver, clock, SenderEvents(hold_changed=[holds.append]))
    try:
        sender.run_until_idle()
        [held] = _rows(db, ids)
        assert (held.status, held.attempt_count, held.last_error_code) == (DeliveryStatus.QUEUED, 0, "AUTH_FAILED")
        with db.read() as s:
            hold = fake_channel.HOLD.read(s)
            assert hold is not None and (hold.code, hold.fingerprint) == ("AUTH_FAILED", "key-1")
        assert holds == ["AUTH_FAILED"]
        ok = _enqueue(db, channel, ["ok:2"], clock.now)
        clock.advance(minutes=5)
        sender.run_until_idle()
        assert _rows(db, ok)[0].status == DeliveryStatus.QUEUED  # held: nothing goes out
        assert driver.sent_to == ["ok:1"]
        assert driver.connections[0].closed  # its credentials are read again, to notice a fix

        driver.fingerprint = "key-2"  # the manager saves new credentials
        sender.run_until_idle()
    finally:
        sender.stop()
    assert [d.status for d in _rows(db, ids + ok)] == [DeliveryStatus.SENT] * 2 and holds == ["AUTH_FAILED", None]
    with db.read() as s:
        assert fake_channel.HOLD.read(s) is None


def test_every_channel_has_a_driver_that_names_it() -> None:
    assert all(channel == driver.key for channel, driver in registry.DRIVERS.items())
