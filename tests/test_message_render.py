"""One channel-neutral message (core/messages/message.py), rendered by every driver: LINE's Flex
bubble with its actions as footer buttons, the e-mail's subject, text and HTML with the picture
inline, the alert webhook's text for the manager, and the chat channel of the tests' text. Each
finds the address itself: the teacher's contact on its channel, the classroom's group, the
manager's address in the settings."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator
from email import message_from_bytes
from email import policy as email_policy
from types import MappingProxyType

import pytest

from core.channels import registry
from core.channels.base import Outgoing
from core.channels.build_errors import CancelDelivery, CannotBuild
from core.channels.email_draft import render as render_mail
from core.messages import ack, email_text, texts
from core.messages.message import Action, ActionKind, Audience, Message, Picture
from core.publication.image_store import ImageStore
from core.roster import channel_choice, rules
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import ContactRule, Delivery
from tests import factories as f
from tests.chat_channel import KEY as CHAT
from tests.chat_channel import ChatDriver

ROOM = "https://hooks.example.invalid/chat/sato"
MESSAGE = Message(
    kind="shift_reminder", language="en", heading="Shift reminder", lines=("Main: Tue 1 Dec, 16:00–21:00", "Bring keys"),
    facts=MappingProxyType({"classroom": "Main", "date": "12/1", "when": "Tue 1 Dec, 16:00–21:00"}),
    actions=(Action("OK", "ack:1:mac"), Action("Map", "https://example.com/map", ActionKind.LINK)),
    accent="#C0392B", to_name="Sato")


@pytest.fixture
def chat() -> Iterator[None]:
    undo = registry.register_channel(ChatDriver())
    yield
    undo()


@pytest.fixture
def delivery_ids(db: Database, now: dt.datetime, chat: None) -> dict[str, int]:
    """A delivery to the teacher on each channel, one to the classroom's group, one to the manager."""
    with db.write() as s:
        room = f.classroom(s, "Main", line_group_id="C" + "1" * 32)
        sato = f.teacher(s, "Sato", 1, email="sato@example.com", email_opt_in=True,
                         contacts_in={CHAT: rules.ContactChange(ROOM, True)},
                         channel=channel_choice.Choice(ContactRule.EVERY, ("line", "email", CHAT)))
        keys.SMTP_FROM.write(s, "office@example.com")
        keys.ALERTS_LINE_USER_ID.write(s, "U" + "9" * 32)
        keys.ALERTS_EMAIL.write(s, "manager@example.com")
        keys.ALERTS_WEBHOOK_URL.write(s, "https://hooks.example.invalid/alerts")
        rows = {name: Delivery(kind="shift_reminder", dedup_key=f"render:{name}", channel=channel,
                               teacher_id=sato.id if name not in ("group", "manager") else None,
                               classroom_id=room.id, due_at=now, next_attempt_at=now)
                for name, channel in (("line", "line"), ("email", "email"), (CHAT, CHAT), ("group", "line"),
                                      ("manager", "webhook"))}
        s.add_all(rows.values())
        s.flush()
        return {name: d.id for name, d in rows.items()}


def _render(db: Database, delivery_id: int, message: Message, channel: str | None = None) -> Outgoing:
    with db.write() as s:
        delivery = s.get(Delivery, delivery_id)
        assert delivery is not None
        return registry.driver(channel or delivery.channel).render(s, delivery, message, f.home_paths())


def _bubble(message: Message) -> dict[str, object]:
    """The bubble as LINE took it before messages were channel-neutral: flex_message with the buttons."""
    return ack.with_buttons(texts.flex_message(message.text, accent=message.accent), [ack.Button("OK", "ack:1:mac")])


def test_line_renders_a_bubble_with_the_actions_as_its_footer_to_the_teacher_or_the_group(
        db: Database, delivery_ids: dict[str, int]) -> None:
    footer = {"type": "box", "layout": "vertical", "spacing": "sm", "contents": [
        {"type": "button", "style": "primary", "height": "sm", "color": "#C0392B",
         "action": {"type": "postback", "label": "OK", "data": "ack:1:mac", "displayText": "OK"}},
        {"type": "button", "style": "secondary", "height": "sm",
         "action": {"type": "uri", "label": "Map", "uri": "https://example.com/map"}}]}
    bubble = texts.flex_message(MESSAGE.text, accent="#C0392B")
    expected = ({**bubble, "contents": {**bubble["contents"], "footer": footer}},)
    pushed = _render(db, delivery_ids["line"], MESSAGE)
    assert (pushed.endpoint, pushed.to, pushed.messages) == ("push", f"U{1:032x}", expected)
    to_group = _render(db, delivery_ids["group"], dataclasses.replace(MESSAGE, audience=Audience.GROUP))
    assert (to_group.to, to_group.messages) == ("C" + "1" * 32, expected)
    # With only its postback, the bubble is byte for byte what the 了解 button made of it before.
    only_ok = dataclasses.replace(MESSAGE, actions=MESSAGE.actions[:1])
    assert _render(db, delivery_ids["line"], only_ok).messages == (_bubble(only_ok),)
    hosted = dataclasses.replace(MESSAGE, actions=(), pictures=(Picture("ab/ab.png", "the month", "https://i/1.png"),
                                                                Picture("cd/cd.png", "not hosted")))
    assert _render(db, delivery_ids["line"], hosted).messages == (
        texts.flex_message(MESSAGE.text, accent="#C0392B"),
        {"type": "image", "originalContentUrl": "https://i/1.png", "previewImageUrl": "https://i/1.png"})


def test_a_note_to_the_manager_is_plain_text_at_the_manager_s_address_on_each_channel(
        db: Database, delivery_ids: dict[str, int]) -> None:
    note = Message.of_text("alert", "en", "[Shiftcast] Sending stopped\nSince 09:00 (Asia/Tokyo).",
                           audience=Audience.MANAGER, subject="[Shiftcast] Stopped")
    line = _render(db, delivery_ids["manager"], note, "line")
    assert (line.to, line.messages) == ("U" + "9" * 32, ({"type": "text", "text": note.text},))
    hook = _render(db, delivery_ids["manager"], note)
    assert (hook.endpoint, hook.to, hook.messages) == ("webhook", "https://hooks.example.invalid/alerts",
                                                       ({"text": note.text},))
    mail = _render(db, delivery_ids["manager"], note, "email").mail
    assert mail is not None and mail.to == "manager@example.com"
    assert (mail.subject, mail.text) == ("[Shiftcast] Stopped", note.text + "\n")
    assert mail.html == ("<!DOCTYPE html><html><body><p>[Shiftcast] Sending stopped<br>\n"
                         "Since 09:00 (Asia/Tokyo).</p></body></html>")
    untitled = _render(db, delivery_ids["manager"], dataclasses.replace(note, subject=""), "email").mail
    assert untitled is not None and untitled.subject == "[Shiftcast] Sending stopped"  # its heading


def test_e_mail_renders_the_templates_subject_the_text_with_links_and_the_picture_inline(
        db: Database, delivery_ids: dict[str, int], now: dt.datetime) -> None:
    sha, path = ImageStore(f.home_paths().images).put(b"\x89PNG picture", ".png")
    key = path.relative_to(f.home_paths().images).as_posix()
    pictured = dataclasses.replace(MESSAGE, pictures=(Picture(key, "the month", file_name="shifts-2026-12-r1"),))
    outgoing = _render(db, delivery_ids["email"], pictured)
    mail = outgoing.mail
    assert mail is not None and (outgoing.endpoint, outgoing.to, mail.to, mail.to_name) == (
        "email", "sato@example.com", "sato@example.com", "Sato")
    composed = email_text.compose(email_text.load_templates("en", f.home_paths().templates),
                                  subject_name="shift_reminder", message_text=MESSAGE.text + "\nMap: https://example.com/map",
                                  fields=MESSAGE.facts, name="Sato", accent="#C0392B",
                                  images=[("roster@shiftcast", "the month")])
    assert (mail.subject, mail.text, mail.html) == (composed.subject, composed.text, composed.html)
    assert "Main" in mail.subject and "Sato" in mail.text and "ack:1:mac" not in mail.text  # a postback stays on chat
    [part] = mail.inline
    assert (part.filename, part.cid, part.shared, part.load()) == ("shifts-2026-12-r1.png", "roster@shiftcast",
                                                                  f"png:{sha}", b"\x89PNG picture")
    sent = message_from_bytes(render_mail(mail, date=now), policy=email_policy.default)
    assert sent["To"] == "Sato <sato@example.com>" and sent["From"] == "office@example.com"
    # A variant names its own subject's template.
    cancellation = _render(db, delivery_ids["email"], dataclasses.replace(MESSAGE, variant="shift_cancellation")).mail
    assert cancellation is not None and cancellation.subject == email_text.compose(
        email_text.load_templates("en"), subject_name="shift_cancellation", message_text="", fields=MESSAGE.facts,
        name="Sato").subject != mail.subject


def test_the_chat_channel_of_the_tests_posts_the_text_to_the_teacher_s_room(
        db: Database, delivery_ids: dict[str, int]) -> None:
    posted = _render(db, delivery_ids[CHAT], MESSAGE)
    assert (posted.endpoint, posted.to, posted.messages) == ("chat", ROOM, ({"text": MESSAGE.text},))


def test_an_audience_a_channel_cannot_reach_or_an_address_not_set_stops_the_message(
        db: Database, delivery_ids: dict[str, int], now: dt.datetime) -> None:
    for delivery, message, channel in (("line", MESSAGE, "webhook"),  # the webhook reaches the manager alone
                                       ("group", dataclasses.replace(MESSAGE, audience=Audience.GROUP), "email"),
                                       ("manager", dataclasses.replace(MESSAGE, audience=Audience.MANAGER), CHAT)):
        with pytest.raises(CannotBuild) as refused:
            _render(db, delivery_ids[delivery], message, channel)
        assert refused.value.code == "UNSUPPORTED_KIND"
    with db.write() as s:
        keys.ALERTS_LINE_USER_ID.write(s, None)
        keys.ALERTS_WEBHOOK_URL.write(s, None)
        rules.list_classrooms(s)[0].line_group_id = None
        teacher = rules.list_teachers(s)[0]
        rules.update_teacher(s, teacher.id, contacts_in={CHAT: rules.ContactChange(None, False)}, now=now)
    note = dataclasses.replace(MESSAGE, audience=Audience.MANAGER)
    for delivery, message, channel, reason in (
            ("manager", note, "line", "MANAGER_LINE_NOT_CONFIGURED"),
            ("manager", note, "webhook", "WEBHOOK_NOT_CONFIGURED"),
            ("group", dataclasses.replace(MESSAGE, audience=Audience.GROUP), "line", "NO_GROUP"),
            (CHAT, MESSAGE, CHAT, "CHAT_NOT_AGREED")):
        with pytest.raises(CancelDelivery) as canceled:
            _render(db, delivery_ids[delivery], message, channel)
        assert canceled.value.reason == reason
