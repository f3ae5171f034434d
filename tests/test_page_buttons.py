"""The teachers' page's buttons in messages: while the page is ready, the reminder opens the teacher's
month, the month to the group the classroom's month, the availability request its calendar and the
cover call the calls; without the page (off, no IDs, no relay) every message is what it was. Sent by
the real sender to the LINE emulator, whose checks follow LINE's reference (a uri action's address and
label, five messages a push); LINE WORKS shows the link as a button."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sqlalchemy import select

from core.channels import line_works
from core.emulator import LineEmulator
from core.kinds import registry
from core.messages.message import Action, ActionKind, Audience, Message
from core.outbox import queue
from core.pages.addresses import page_url
from core.publication import publish
from core.publication.image_store import ImageStore
from core.roster import channel_choice, cover
from core.sending import builders, reminder_batch
from core.sending.kinds import availability_request, cover_call
from core.sending.sender import Sender
from core.setup import teachers_page
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import ContactRule, Delivery, DeliveryKind, Shift, ShiftStatus
from tests import factories as f
from tests.linefixtures import FakeClock, emulator, line_ready, user_id  # noqa: F401
from tests.test_line_acknowledge import FAST

NOW = dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC)  # 09:00 in Tokyo
DAY = dt.date(2026, 12, 3)
GROUP = "C" + "1" * 32
LIFF = "1657000000-AbCdEfGh"
SATO = user_id(1)


def _page(db: Database, *, relay: bool = True) -> None:
    teachers_page.save(db, login_channel_id="1657000000", liff_id=LIFF, enabled=True)
    with db.write() as s:
        keys.RELAY_URL.write(s, "https://relay.example.com" if relay else None)


@pytest.fixture
def roster(db: Database) -> dict[str, int]:
    """A Japanese classroom with its LINE group; Sato on LINE, on a confirmed shift; Suzuki
    by e-mail only."""
    with db.write() as s:
        room = f.classroom(s, "本校", line_group_id=GROUP)
        sato = f.teacher(s, "佐藤", 1)
        suzuki = f.teacher(s, "鈴木", 2, line_user_id=None, line_opt_in=False, email="suzuki@example.com",
                           email_opt_in=True, channel=channel_choice.Choice(ContactRule.EVERY, ("email",)))
        shift = f.shift(s, room, sato, DAY, "16:00", "21:00", now=NOW, status=ShiftStatus.CONFIRMED)
        f.shift(s, room, suzuki, DAY + dt.timedelta(days=1), "16:00", "21:00", now=NOW, status=ShiftStatus.CONFIRMED)
        return {"room": room.id, "sato": sato.id, "suzuki": suzuki.id, "shift": shift.id}


def _deliveries(db: Database, roster: dict[str, int]) -> dict[str, int]:
    """A reminder to Sato on LINE, the month to the group and to Suzuki by e-mail, an availability request to each,
    and a call for cover to the group."""
    with db.write() as s:
        shift = s.get_one(Shift, roster["shift"])
        reminder, _ = queue.enqueue(
            s, kind=DeliveryKind.SHIFT_REMINDER, dedup=f"reminder:{shift.id}", due_at=NOW, now=NOW, recipient=SATO,
            teacher_id=roster["sato"], classroom_id=roster["room"], subject_type="shift", subject_id=shift.id,
            subject_version=shift.version)
        publish.publish(s, roster["room"], 2026, 12, now=NOW, store=ImageStore(f.home_paths().images))
        month = {d.teacher_id: d.id for d in s.scalars(select(Delivery).where(
            Delivery.kind == DeliveryKind.SHIFT_PUBLICATION))}
        asking = availability_request.ask(s, roster["room"], 2027, 1, dt.date(2026, 12, 20), None, now=NOW)
        by_teacher = {s.get_one(Delivery, d).teacher_id: d for d in asking.deliveries}
        request = cover.ask(s, roster["shift"], roster["sato"], now=NOW, reason="体調不良")
        [call] = cover_call.call(s, request.id, now=NOW, to_group=True)
        return {"reminder": reminder, "month_group": month[None], "month_mail": month[roster["suzuki"]],
                "ask_sato": by_teacher[roster["sato"]], "ask_suzuki": by_teacher[roster["suzuki"]], "call": call,
                "request": s.get_one(Delivery, by_teacher[roster["sato"]]).subject_id or 0}


def _compose(db: Database, delivery_id: int) -> Message:
    with db.write() as s:
        delivery = s.get_one(Delivery, delivery_id)
        kind = registry.kind_of(delivery.kind)
        assert kind is not None and kind.compose is not None
        return kind.compose(s, delivery, NOW, f.home_paths())


def _links(message: Message) -> list[Action]:
    return [a for a in message.actions if a.kind is ActionKind.LINK]


def test_with_the_page_ready_each_kind_carries_one_link_to_its_view(db: Database, roster: dict[str, int]) -> None:
    ids = _deliveries(db, roster)
    _page(db)
    mine = Action("マイページを開く", page_url(LIFF, "month", month="2026-12"), ActionKind.LINK)
    assert _links(_compose(db, ids["reminder"])) == [mine]
    assert _compose(db, ids["reminder"]).actions[-1] == mine  # after 了解 and Ask for cover, when they are on
    assert _links(_compose(db, ids["ask_sato"])) == [
        Action("マイページを開く", page_url(LIFF, "availability", request=ids["request"]), ActionKind.LINK)]
    assert _links(_compose(db, ids["call"])) == [
        Action("マイページを開く", page_url(LIFF, "covers"), ActionKind.LINK)]
    group = _compose(db, ids["month_group"])
    assert group.audience is Audience.GROUP and _links(group) == [
        Action("今月のシフトを見る", page_url(LIFF, "classroom", classroom=f"c{roster['room']}", month="2026-12"),
               ActionKind.LINK)]
    # Only a teacher paired on LINE has a page; a teacher's e-mail copy of the month is theirs already.
    assert _links(_compose(db, ids["ask_suzuki"])) == []
    assert _links(_compose(db, ids["month_mail"])) == []
    assert mine.data == "https://liff.line.me/1657000000-AbCdEfGh?view=month&month=2026-12"


@pytest.mark.parametrize("how", ["off", "no relay", "no ids"])
def test_without_the_page_every_message_is_what_it_was(db: Database, roster: dict[str, int], how: str) -> None:
    ids = _deliveries(db, roster)
    before = {name: _compose(db, delivery_id) for name, delivery_id in ids.items() if name != "request"}
    _page(db, relay=how != "no relay")
    if how == "off":
        teachers_page.set_enabled(db, False)
    if how == "no ids":
        with db.write() as s:
            keys.LIFF_ID.write(s, None)
    after = {name: _compose(db, delivery_id) for name, delivery_id in ids.items() if name != "request"}
    assert after == before
    assert all(not _links(message) for message in after.values())


def _uris(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Every uri action in these LINE messages: (label, address)."""
    found: list[tuple[str, str]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "uri":
                found.append((node["label"], node["uri"]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(messages)
    return found


def test_line_takes_each_kind_with_its_link_and_the_lean_reminder_is_the_same(
        db: Database, roster: dict[str, int], line_ready: LineEmulator) -> None:
    line_ready.add_user(SATO, "佐藤")
    line_ready.add_group(GROUP, "本校", [SATO])
    ids = _deliveries(db, roster)
    _page(db)
    with db.write() as s:
        lean = reminder_batch.load(s, [ids["reminder"]], NOW, f.home_paths())[ids["reminder"]]
        built = builders.prepare(s, s.get_one(Delivery, ids["reminder"]), NOW, f.home_paths())
    assert lean.outgoing == built  # the lean path shows the same button
    sender = Sender(db, paths=f.home_paths(), config=FAST, clock=FakeClock(NOW))
    try:
        sender.run_until_idle()
    finally:
        sender.stop()
    with db.read() as s:
        states = {name: s.get_one(Delivery, ids[name]).status for name in ("reminder", "month_group", "ask_sato", "call")}
    assert set(states.values()) == {"sent"}, states
    to_sato = [m.message for m in line_ready.inbox(SATO)]
    to_group = [m.message for m in line_ready.inbox(GROUP)]
    month, availability, covers = (page_url(LIFF, "month", month="2026-12"),
                                   page_url(LIFF, "availability", request=ids["request"]), page_url(LIFF, "covers"))
    assert sorted(_uris(to_sato)) == sorted([("マイページを開く", month), ("マイページを開く", availability)])
    classroom = page_url(LIFF, "classroom", classroom=f"c{roster['room']}", month="2026-12")
    assert sorted(_uris(to_group)) == sorted([("今月のシフトを見る", classroom), ("マイページを開く", covers)])
    # The availability request's calendar and the month's carousel are each followed by the link's own bubble.
    follows = [m["contents"]["body"]["contents"][0]["action"]["uri"] for m in to_sato + to_group
               if m["type"] == "flex" and m["contents"]["type"] == "bubble" and "header" not in m["contents"]]
    assert sorted(follows) == sorted([availability, classroom])


def test_line_works_shows_the_link_as_a_button() -> None:
    message = Message.of_text("shift_reminder", "ja", "シフトのお知らせ\n12/3 16:00–21:00",
                              actions=(Action("了解", "ack:1:mac"),
                                       Action("マイページを開く", page_url(LIFF, "month", month="2026-12"),
                                              ActionKind.LINK)))
    content = line_works.content_of(message)
    assert {"type": "uri", "label": "マイページを開く", "uri": page_url(LIFF, "month", month="2026-12")} in (
        content["actions"] if "actions" in content else content.get("buttons", []))
