"""Incidents: the conditions (pure), one incident per condition however often it is seen, clearing
when the condition ends, and the notifications an incident enqueues."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select, update

from core import alerts
from core.outbox import queue
from core.store import setting_keys as keys
from core.store.models import (
    Alert,
    AlertKind,
    Channel,
    Delivery,
    DeliveryKind,
    DeliveryStatus,
)
from core.store.settings import ChannelHold
from core.texts import render, t

NOW = dt.datetime(2026, 12, 10, 3, 0, tzinfo=dt.UTC)


def _facts(**changes: object) -> alerts.QueueFacts:
    base = {"dead_letters": 0, "holds": {}, "quota_failed_at": None, "line_sent_at": None, "oldest_due": None,
            "due_count": 0}
    return alerts.QueueFacts(**(base | changes))  # type: ignore[arg-type]


def _kinds(found: list[alerts.Condition]) -> list[str]:
    return [c.key for c in found]


def test_quiet_queue_has_no_conditions() -> None:
    assert alerts.conditions(_facts(), now=NOW, running_since=NOW) == []


def test_dead_letters_and_holds() -> None:
    found = alerts.conditions(_facts(dead_letters=3, holds={"email": "SMTP_AUTH_FAILED"}), now=NOW, running_since=None)
    assert _kinds(found) == ["dead_letter:", "channel_held:email"]
    assert str(found[0].title).startswith("3 deliveries failed") and found[0].code == "DEAD_LETTER"


def test_quota_runs_out_until_a_later_send_or_the_next_month() -> None:
    failed = NOW - dt.timedelta(hours=1)
    assert _kinds(alerts.conditions(_facts(quota_failed_at=failed), now=NOW, running_since=None)) == ["quota_exhausted:line"]
    later_sent = _facts(quota_failed_at=failed, line_sent_at=NOW)
    assert alerts.conditions(later_sent, now=NOW, running_since=None) == []
    next_month = dt.datetime(2027, 1, 1, 0, 0, tzinfo=dt.UTC)  # 09:00 in Japan: LINE's new month
    assert alerts.conditions(_facts(quota_failed_at=failed), now=next_month, running_since=None) == []


def test_stalled_counts_from_when_the_sender_started() -> None:
    due = NOW - dt.timedelta(hours=8)  # due while the laptop was closed
    facts = _facts(oldest_due=due, due_count=4)
    assert alerts.conditions(facts, now=NOW, running_since=NOW - dt.timedelta(minutes=5)) == []
    assert _kinds(alerts.conditions(facts, now=NOW, running_since=NOW - dt.timedelta(minutes=16))) == ["queue_stalled:"]
    assert alerts.conditions(facts, now=NOW, running_since=None) == []  # not sending: not a stall


def _dead_letter(db, n: int) -> int:
    with db.write() as s:
        delivery_id, _ = queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup=f"k{n}", due_at=NOW, now=NOW)
        queue.transition(s, delivery_id, expected=[DeliveryStatus.QUEUED], now=NOW, status=DeliveryStatus.FAILED,
                          dead_lettered_at=NOW)
    return delivery_id


def test_a_relay_unreachable_for_a_while_is_an_alert_a_short_outage_is_not() -> None:
    since = NOW - dt.timedelta(minutes=14)
    assert alerts.conditions(_facts(relay_unreachable_since=since), now=NOW, running_since=NOW) == []
    found = alerts.conditions(_facts(relay_unreachable_since=since), now=NOW + dt.timedelta(minutes=1),
                              running_since=NOW)
    assert _kinds(found) == ["relay_unreachable:"] and found[0].code == "RELAY_UNREACHABLE"
    assert "10 Dec 2026 02:46 UTC" in render(found[0].detail, "en")


def test_one_incident_however_often_the_condition_is_seen_then_cleared_then_new(db) -> None:
    with db.write() as s:
        keys.ALERTS_WEBHOOK_URL.write(s, "http://127.0.0.1:9/hook")
        keys.ALERTS_EMAIL.write(s, "boss@example.com")
    _dead_letter(db, 1)
    with db.write() as s:
        opened, _ = alerts.evaluate(s, now=NOW, running_since=NOW)
        assert [a.kind for a in opened] == [AlertKind.DEAD_LETTER]
        assert alerts.open_incident(s, alerts.dead_letters(5), now=NOW) is None  # the sender noticing again
    _dead_letter(db, 2)
    with db.write() as s:
        assert alerts.evaluate(s, now=NOW + dt.timedelta(minutes=1), running_since=NOW) == ([], [])
        notes = s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.ALERT)).all()
        assert sorted(d.channel for d in notes) == ["email", "webhook"]
        assert {(d.subject_type, d.subject_id) for d in notes} == {("alert", opened[0].id)} and {d.recipient for d in notes} == {"webhook", "boss@example.com"}
        s.execute(update(Delivery).where(Delivery.dead_lettered_at.is_not(None)).values(dead_lettered_at=None,
                                                                                         status="queued"))
        _, cleared = alerts.evaluate(s, now=NOW + dt.timedelta(minutes=2), running_since=NOW)
        assert [a.id for a in cleared] == [opened[0].id]
    _dead_letter(db, 3)
    with db.write() as s:
        reopened, _ = alerts.evaluate(s, now=NOW + dt.timedelta(minutes=3), running_since=NOW)
        assert len(reopened) == 1 and reopened[0].id != opened[0].id
        listed = alerts.list_alerts(s, now=NOW + dt.timedelta(minutes=3))
        assert [a.id for a in listed] == [reopened[0].id, opened[0].id]
        assert [a.id for a in alerts.open_alerts(s)] == [reopened[0].id]


def test_a_held_channel_is_not_also_a_stall(db) -> None:
    with db.write() as s:
        queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="e1", due_at=NOW, now=NOW, channel=Channel.EMAIL)
        keys.SMTP_HOLD.write(s, ChannelHold("SMTP_AUTH_FAILED", "abc", NOW))
        later = NOW + dt.timedelta(minutes=30)
        opened, _ = alerts.evaluate(s, now=later, running_since=NOW)
        assert [a.open_key for a in opened] == ["channel_held:email"]
        keys.SMTP_HOLD.clear(s)
        opened, cleared = alerts.evaluate(s, now=later, running_since=NOW)
        assert [a.open_key for a in opened] == ["queue_stalled:"] and [a.scope for a in cleared] == ["email"]
        assert s.scalar(select(Alert).where(Alert.id == cleared[0].id)).cleared_at == later


def test_without_targets_an_incident_enqueues_nothing(db) -> None:
    _dead_letter(db, 1)
    with db.write() as s:
        opened, _ = alerts.evaluate(s, now=NOW, running_since=None)
        assert len(opened) == 1
        assert s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.ALERT)).all() == []


def test_a_stall_names_its_cause_and_writes_the_classroom_s_time() -> None:
    due = NOW - dt.timedelta(minutes=40)  # 11:20 in Tokyo
    waiting = _facts(oldest_due=due, due_count=2, not_set_up=("line",), zone="Asia/Tokyo")
    [stalled] = alerts.conditions(waiting, now=NOW, running_since=NOW - dt.timedelta(hours=1))
    assert render(stalled.detail, "en") == ("The oldest has been due since Thu 10 Dec 2026 11:20 (Asia/Tokyo). "
                                            "They wait because LINE is not set up; set it up in Settings.")
    assert "LINEが設定されていないため" in render(stalled.detail, "ja")
    [going] = alerts.conditions(_facts(oldest_due=due, due_count=2), now=NOW, running_since=NOW - dt.timedelta(hours=1))
    assert "(UTC). The sender is running, yet they have not gone" in render(going.detail, "en")


def test_the_stall_facts_say_which_channel_is_not_set_up_and_the_alert_the_classroom_s_zone(db) -> None:
    from core.outbox import not_set_up
    from tests import factories as f

    with db.write() as s:
        f.classroom(s)  # Asia/Tokyo
        queue.enqueue(s, kind=DeliveryKind.SHIFT_REMINDER, dedup="waits", due_at=NOW - dt.timedelta(minutes=40),
                      now=NOW - dt.timedelta(minutes=40))
        not_set_up.mark(s, missing=t("sending.not_set_up", channel="LINE"), now=NOW, channel="line")
        facts = alerts.read_facts(s, now=NOW)
        assert (facts.not_set_up, facts.zone) == (("line",), "Asia/Tokyo")
        [condition] = [c for c in alerts.conditions(facts, now=NOW, running_since=NOW - dt.timedelta(hours=1))
                       if c.kind is AlertKind.QUEUE_STALLED]
        alerts.open_incident(s, condition, now=NOW)
        [alert] = alerts.open_alerts(s)
        shown = alerts.message_of(alert, "en", alerts.classroom_zone(s))
    assert shown.splitlines()[-1] == "Since Thu 10 Dec 2026 12:00 (Asia/Tokyo)."
    assert "LINE is not set up" in shown
