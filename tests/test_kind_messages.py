"""Each built-in kind's one message (core/messages/message.py), as its `compose` makes it from the
roster: what it says, its facts (the e-mail subject's fields), its actions, accent, form, audience
and reader. The channels' drivers render these (tests/test_message_render.py); the bytes each
channel receives are checked by the channels' own tests."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from types import MappingProxyType

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from core import alerts
from core.kinds import registry
from core.messages import ack, email_text, texts
from core.messages import cover as cover_messages
from core.messages.message import Action, Audience, Message, Picture
from core.outbox import queue
from core.planning import planner
from core.planning.context import PlanningContext
from core.publication import publish
from core.publication.image_store import ImageStore
from core.receiving import acknowledge
from core.roster import channel_choice, cover, rules
from core.sending.kinds import availability_request, cover_call, cover_declined
from core.store import ack_key
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import ContactRule, Delivery, DeliveryKind, DeliveryStatus, Publication, ShiftStatus
from tests import factories as f
from tests.test_texts_alerts import _dead_letter_alert

NOW = dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC)  # 09:00 in Tokyo
DAY = dt.date(2026, 12, 3)
GROUP = "C" + "1" * 32


@pytest.fixture
def roster(db: Database) -> dict[str, int]:
    """An English classroom with its group; Sato reached on LINE and by e-mail, on a confirmed shift."""
    with db.write() as s:
        room = f.classroom(s, "Main", language="en", line_group_id=GROUP)
        sato = f.teacher(s, "Sato", 1, email="sato@example.com", email_opt_in=True,
                         channel=channel_choice.Choice(ContactRule.EVERY, ("line", "email")))
        suzuki = f.teacher(s, "Suzuki", 2)
        shift = f.shift(s, room, sato, DAY, "16:00", "21:00", now=NOW, status=ShiftStatus.CONFIRMED, note="Room 2")
        return {"room": room.id, "sato": sato.id, "suzuki": suzuki.id, "shift": shift.id}


def _compose(db: Database, delivery_id: int) -> Message:
    with db.write() as s:
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None
        kind = registry.kind_of(delivery.kind)
        assert kind is not None and kind.compose is not None
        return kind.compose(s, delivery, NOW, f.home_paths())


def _about_the_shift(s: Session, roster: dict[str, int], kind: str, channel: str = "email", version: int = 1) -> int:
    return queue.enqueue(s, kind=kind, dedup=f"{kind}:{channel}:{version}", due_at=NOW, now=NOW, channel=channel,
                         recipient="-", teacher_id=roster["sato"], classroom_id=roster["room"], subject_type="shift",
                         subject_id=roster["shift"], subject_version=version)[0]


def _shift_facts(s: Session, roster: dict[str, int]) -> texts.ShiftFacts:
    shift = rules.get_shift(s, roster["shift"])
    return texts.ShiftFacts("Main", shift.local_date, shift.start_time, shift.end_time, note=shift.note)


def _facts(facts: texts.ShiftFacts) -> Mapping[str, str]:
    return MappingProxyType(email_text.shift_fields(facts, "en"))


def test_a_reminder_says_when_and_where_with_ok_and_ask_for_cover(db: Database, roster: dict[str, int]) -> None:
    with db.write() as s:
        delivery_id = _about_the_shift(s, roster, DeliveryKind.SHIFT_REMINDER)
        facts = _shift_facts(s, roster)
    assert _compose(db, delivery_id) == Message(
        "shift_reminder", "en", "Shift reminder: Main", (texts.when(facts, "en"), "Room 2"), _facts(facts),
        to_name="Sato")
    with db.write() as s:
        acknowledge.enable(s, True)
        keys.LINE_COVER_BUTTON.write(s, True)
        key = ack_key.signing_key(s)
    message = _compose(db, delivery_id)
    assert message.actions == (Action("OK", ack.postback_data(key, delivery_id)),
                               Action("Ask for cover", cover_messages.postback_data(key, "ask", delivery_id)))


def test_a_correction_says_before_and_now_in_red_under_its_own_subject(db: Database, roster: dict[str, int]) -> None:
    with db.write() as s:
        planner.plan(s, now=NOW)
        reminder = s.scalar(select(Delivery).where(Delivery.kind == DeliveryKind.SHIFT_REMINDER,
                                                   Delivery.channel == "email"))
        assert reminder is not None
        queue.transition(s, reminder.id, expected=[reminder.status], now=NOW, status=DeliveryStatus.SENT,
                         sent_at=NOW)  # Sato was told version 1
        before = _shift_facts(s, roster)
        rules.edit_shift(s, roster["shift"], rules.ShiftChange(start_time=dt.time(17, 0)), now=NOW)
        delivery_id = _about_the_shift(s, roster, DeliveryKind.SHIFT_CORRECTION, version=2)
        after = _shift_facts(s, roster)
    assert _compose(db, delivery_id) == Message(
        "shift_correction", "en", "Shift changed: Main",
        (f"Before: {texts.when(before, 'en')}", f"Now: {texts.when(after, 'en')}", "Room 2"), _facts(before),
        accent="#C0392B", to_name="Sato", variant="shift_correction")
    with db.write() as s:
        rules.cancel_shift(s, roster["shift"], now=NOW)
        canceled = _about_the_shift(s, roster, DeliveryKind.SHIFT_CORRECTION, version=3)
    message = _compose(db, canceled)
    assert message.variant == "shift_cancellation" and message.form == "shift_cancellation"


def test_the_month_s_publication_carries_its_roster_as_the_picture(db: Database, roster: dict[str, int]) -> None:
    with db.write() as s:
        publish.publish(s, roster["room"], 2026, 12, now=NOW, store=ImageStore(f.home_paths().images))
        rows = {d.channel: d for d in s.scalars(select(Delivery).where(Delivery.kind == DeliveryKind.SHIFT_PUBLICATION))}
        publication_id = rows["email"].subject_id
        by_mail, to_group = rows["email"].id, rows["line"].id
    with db.read() as s:
        publication = s.get(Publication, publication_id)
        assert publication is not None
        key = ImageStore(f.home_paths().images).path_for(publication.image_sha256, ".png")
        key_name = key.relative_to(f.home_paths().images).as_posix()
    message = _compose(db, by_mail)
    assert (message.kind, message.heading.startswith("Shift roster"), message.to_name, message.audience) == (
        "shift_publication", True, "Sato", Audience.TEACHER)
    assert message.pictures == (Picture(key_name, message.heading, file_name="shifts-2026-12-r1"),)
    assert dict(message.facts) == email_text.month_fields("Main", 2026, 12, 1) and message.variant == ""
    group = _compose(db, to_group)
    assert group.audience is Audience.GROUP and group.to_name == "" and group.pictures == message.pictures


def test_a_teacher_s_month_is_a_line_a_day(db: Database, roster: dict[str, int]) -> None:
    with db.write() as s:
        publish.publish(s, roster["room"], 2026, 12, now=NOW, store=ImageStore(f.home_paths().images),
                        each_teacher=True)
        delivery_id = s.scalar(select(Delivery.id).where(Delivery.kind == DeliveryKind.TEACHER_MONTH))
        assert delivery_id is not None
    assert _compose(db, delivery_id) == Message(
        "teacher_month", "en", "Sato's shifts, December 2026", ("Main", "Thu 3 Dec  16:00-21:00"),
        MappingProxyType(email_text.month_fields("Main", 2026, 12, 1)), to_name="Sato")


def test_an_alert_is_a_note_to_the_manager_under_its_title(db: Database) -> None:
    alert, notes = _dead_letter_alert(db, NOW)
    with db.write() as s:
        keys.UI_LANGUAGE.write(s, "en")
        text = alerts.message_of(alert, "en", alerts.classroom_zone(s))
    for note in notes:  # the same on the webhook and by e-mail
        message = _compose(db, note.id)
        assert message == Message.of_text("alert", "en", text, audience=Audience.MANAGER, subject=text.split("\n")[0])
        assert message.subject.startswith("[Shiftcast] ")


def test_a_call_for_cover_goes_to_the_group_with_its_i_can_cover_action(db: Database, roster: dict[str, int]) -> None:
    with db.write() as s:
        request = cover.ask(s, roster["shift"], roster["sato"], now=NOW, reason="sick")
        [delivery_id] = cover_call.call(s, request.id, now=NOW, to_group=True)
        key = ack_key.signing_key(s)
        facts = _shift_facts(s, roster)
    message = _compose(db, delivery_id)
    assert (message.kind, message.audience, message.accent, message.facts) == (
        "cover_call", Audience.GROUP, cover_messages.CALL_ACCENT, _facts(facts))
    assert message.heading == "Cover needed" and "Sato cannot take this shift (sick)" in message.text
    assert message.actions == (Action("I can cover", cover_messages.postback_data(key, "call", delivery_id)),)


def test_an_assignment_and_a_decline_tell_the_teacher_on_their_channel(db: Database, roster: dict[str, int]) -> None:
    with db.write() as s:
        request = cover.ask(s, roster["shift"], roster["sato"], now=NOW)
        [declined] = [d for d in cover_declined.decline(s, request.id, now=NOW, reason="no one is free")
                      if s.get(Delivery, d).channel == "email"]  # type: ignore[union-attr]
        facts = _shift_facts(s, roster)
    message = _compose(db, declined)
    assert (message.kind, message.heading, message.lines[-1], message.facts, message.to_name) == (
        "cover_declined", "Cover not arranged", "From the manager: no one is free", _facts(facts), "Sato")
    with db.write() as s:
        request = cover.ask(s, roster["shift"], roster["sato"], now=NOW)
        cover.assign(s, request.id, roster["suzuki"], now=NOW)
        [assigned] = registry.kind_of(DeliveryKind.COVER_ASSIGNED).plan(PlanningContext(s, now=NOW))  # type: ignore[union-attr, misc]
    message = _compose(db, assigned)
    assert (message.kind, message.heading, message.to_name, message.audience, message.actions) == (
        "cover_assigned", "You're covering a shift", "Suzuki", Audience.TEACHER, ())


def test_an_availability_request_lists_the_month_s_days_under_its_request_or_reminder_subject(
        db: Database, roster: dict[str, int]) -> None:
    with db.write() as s:
        asking = availability_request.ask(s, roster["room"], 2027, 1, dt.date(2026, 12, 20), ["Sato"], now=NOW)
        [delivery_id] = asking.deliveries
    message = _compose(db, delivery_id)
    assert (message.kind, message.variant, message.accent, message.to_name) == (
        "availability_request", "availability_request", "#2B6CB0", "Sato")
    assert message.heading == "Main: when can you work in January 2027?"
    assert message.lines[-31:][0].startswith("1/1(") and len(message.lines[-31:]) == 31
    assert set(message.facts) == {"classroom", "month", "deadline"}


def test_a_nudge_tells_the_manager_who_has_not_acknowledged(db: Database, roster: dict[str, int]) -> None:
    with db.write() as s:
        acknowledge.enable(s, True)
        keys.UI_LANGUAGE.write(s, "en")
        keys.NUDGE_UNACKNOWLEDGED.of(roster["room"]).write(s, True)
        reminder = _about_the_shift(s, roster, DeliveryKind.SHIFT_REMINDER, channel="line")
        queue.transition(s, reminder, expected=[DeliveryStatus.QUEUED], now=NOW, status=DeliveryStatus.SENT,
                         sent_at=NOW)
        nudge = _about_the_shift(s, roster, DeliveryKind.UNACKNOWLEDGED_NUDGE)
    message = _compose(db, nudge)
    assert (message.kind, message.audience, message.subject) == (
        "unacknowledged_nudge", Audience.MANAGER, "[Shiftcast] Not acknowledged: Sato")
    assert message.text.startswith("Sato has not acknowledged the reminder for the shift at Main")
    assert json.dumps(message.lines) == "[]"
