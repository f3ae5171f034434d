"""What the demo's inbox shows, read from the simulator and the demo database: each teacher's and
the group's mailbox, messages with their drawn Flex cards and LINE time pickers, the teachers not on
LINE yet, and which messages the demo's relay sent while the computer slept; after them what the LINE
WORKS stand-in took (core/app/demo_works.py), its teacher's and its room's. No widgets here; the
window (ui/demo/inbox.py) lays these out."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, TypeGuard

from core.app import demo_inbox, demo_relay, demo_works
from core.app.demo import GROUP_NAMES
from core.emulator import InboxMessage
from core.emulator.line_works import Accepted
from core.emulator.simulate import postback_actions
from core.messages import flex_text
from core.publication import flex_picture
from core.setup import classrooms, line_people
from core.store.db import Database


class _Inboxes(Protocol):
    def all_inbox(self) -> list[InboxMessage]: ...
    def group_names(self) -> dict[str, str]: ...


class _WorksInbox(Protocol):
    """The LINE WORKS stand-in, as far as the inbox reads it."""

    accepted: list[Accepted]
    files: dict[str, bytes]


@dataclass(frozen=True)
class TimePicker:
    """A LINE time picker in a message: what the phone shows beside it, and its action."""

    label: str  # the day's row for a picker in a bubble ("Thu 3 Dec"), the button's label in a quick reply
    action: dict[str, Any]
    quick_reply: bool  # offered under the message (until when), not on a day of the bubbles


def time_pickers(message: dict[str, Any]) -> tuple[TimePicker, ...]:
    """The message's time pickers in the order a phone shows them: the bubbles' ones labelled by the words
    of their row, then the quick reply's."""
    found: list[TimePicker] = []

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
            return
        if not isinstance(node, dict):
            return
        parts = node.get("contents") if node.get("type") == "box" else None
        if isinstance(parts, list):
            words = " ".join(str(p.get("text")) for p in parts if isinstance(p, dict) and p.get("type") == "text")
            for part in parts:
                action = part.get("action") if isinstance(part, dict) else None
                if _is_time_picker(action):
                    found.append(TimePicker(words or str(action.get("label", "")), action, False))
        for key, value in node.items():
            if key != "quickReply":
                walk(value)

    walk({k: v for k, v in message.items() if k != "quickReply"})
    for item in (message.get("quickReply") or {}).get("items") or []:
        action = item.get("action") if isinstance(item, dict) else None
        if _is_time_picker(action):
            found.append(TimePicker(str(action.get("label", "")), action, True))
    return tuple(found)


def _is_time_picker(action: Any) -> TypeGuard[dict[str, Any]]:
    return isinstance(action, dict) and action.get("type") == "datetimepicker" and action.get("mode") == "time"


@dataclass(frozen=True)
class Received:
    at: dt.datetime
    text: str
    image_url: str | None
    message_id: str = ""
    button: str | None = None  # the label of its postback (了解) button, if it has one
    cards: bytes | None = None  # a Flex message's bubbles drawn as a phone shows them (PNG); `text` says them
    pickers: tuple[TimePicker, ...] = ()
    by_relay: bool = False  # the demo's relay sent it while the PC slept
    picture: bytes | None = None  # a LINE WORKS image message's file, as the stand-in took it
    postback: str | None = None  # a LINE WORKS button's data: what a tap hands the bot's callback


@dataclass(frozen=True)
class Unpaired:
    """A teacher not on LINE yet who has a live pairing code."""

    teacher_id: int
    name: str
    code: str


@dataclass(frozen=True)
class Mailbox:
    recipient: str  # LINE user or group ID
    title: str
    is_group: bool
    messages: tuple[Received, ...]
    on_works: bool = False  # LINE WORKS (the stand-in), not LINE


def received(item: InboxMessage) -> Received:
    found = _received(item)
    pickers = time_pickers(item.message)
    return replace(found, pickers=pickers) if pickers else found


def _received(item: InboxMessage) -> Received:
    message: dict[str, Any] = item.message
    kind = message.get("type")
    actions = postback_actions(message)
    button = str(actions[0].get("label") or "") if actions else None
    if kind in ("text", "textV2"):
        return Received(item.accepted_at, str(message.get("text", "")), None, item.message_id, button)
    if kind == "flex":
        contents = message.get("contents") or {}
        hero = contents.get("hero") if isinstance(contents, dict) else None
        url = hero.get("url") if isinstance(hero, dict) and hero.get("type") == "image" else None
        if url is None:  # a month or a message in words: its bubbles as the phone shows them
            return Received(item.accepted_at, _flex_text(contents) or str(message.get("altText", "")), None,
                            item.message_id, button, _cards(json.dumps(message, ensure_ascii=False, sort_keys=True)))
        return Received(item.accepted_at, str(message.get("altText", "")), url, item.message_id, button)
    if kind == "image":
        return Received(item.accepted_at, "", message.get("previewImageUrl") or message.get("originalContentUrl"),
                        item.message_id, button)
    return Received(item.accepted_at, f"({kind})", None, item.message_id, button)


def _flex_text(contents: Any) -> str:
    """A bubble's lines; a carousel's bubbles one after another, a blank line between them."""
    bubbles = contents.get("contents") if isinstance(contents, dict) and contents.get("type") == "carousel" else [contents]
    return "\n\n".join("\n".join(flex_text.lines(bubble)) for bubble in bubbles or [])


@lru_cache(maxsize=64)
def _cards(message_json: str) -> bytes:
    """The drawing of one Flex message, kept: the inbox reloads every message each time one arrives."""
    return flex_picture.picture([json.loads(message_json)])


def load_unpaired(db: Database, now: dt.datetime) -> list[Unpaired]:
    """Teachers without LINE who hold a live pairing code, by name."""
    return [Unpaired(p.teacher_id, p.name, p.code) for p in line_people.progress(db, now=now).teachers
            if p.code is not None]


@dataclass(frozen=True)
class Inbox:
    boxes: list[Mailbox]
    unpaired: list[Unpaired]
    zone: str | None = None  # the classrooms' time zone, when they share one: the clock messages are read on


def load_inbox(db: Database, emulator: _Inboxes, now: dt.datetime, relay: demo_relay.DemoRelay | None = None,
               works: _WorksInbox | None = None) -> Inbox:
    zones = {room.timezone for room in classrooms.listing(db)}
    return Inbox(load_mailboxes(db, emulator, relay) + load_works_mailboxes(db, works), load_unpaired(db, now),
                 zones.pop() if len(zones) == 1 else None)


def load_mailboxes(db: Database, emulator: _Inboxes, relay: demo_relay.DemoRelay | None = None) -> list[Mailbox]:
    """Everything received so far, grouped by recipient: groups first, then teachers by name. A message
    the relay sent is marked: by its attempt once the app recorded it, before that by when it came
    (while the PC slept nothing else sends)."""
    items = emulator.all_inbox()
    by_relay = demo_relay.sent_by_relay(db, [item.request_id for item in items]) if relay is not None else set()
    by_recipient: dict[str, list[Received]] = {}
    for item in items:
        message = received(item)
        if relay is not None and (item.request_id in by_relay or relay.slept_at(item.accepted_at)):
            message = replace(message, by_relay=True)
        by_recipient.setdefault(item.recipient, []).append(message)
    # A group no classroom has (yet, or any more) by its name in LINE, never by its ID.
    names = {**GROUP_NAMES, **emulator.group_names()}
    names.update(line_people.recipient_names(db, list(by_recipient)))
    boxes = [Mailbox(rid, names.get(rid) or rid, rid.startswith("C"),
                     tuple(sorted(msgs, key=lambda m: m.at))) for rid, msgs in by_recipient.items()]
    return sorted(boxes, key=lambda b: (not b.is_group, b.title == b.recipient, b.title))


def works_received(item: Accepted, files: dict[str, bytes]) -> Received:
    """A message the LINE WORKS stand-in took, as its talk shows it: text, a button template's text and
    its 了解, or a picture."""
    content = item.content
    at = dt.datetime.fromtimestamp(item.at, dt.UTC)
    kind = content.get("type")
    if kind == "text":
        return Received(at, str(content.get("text", "")), None)
    if kind == "button_template":
        found = demo_works.button_data(content)
        return Received(at, str(content.get("contentText", "")), None, button=found[0] if found else None,
                        postback=found[1] if found else None)
    if kind == "image":
        return Received(at, "", None, picture=files.get(str(content.get("fileId", ""))))
    return Received(at, f"({kind})", None)


def load_works_mailboxes(db: Database, works: _WorksInbox | None) -> list[Mailbox]:
    """What the stand-in took, by recipient: the classrooms' rooms first, then teachers by name."""
    if works is None:
        return []
    names = demo_works.names(db)
    files = dict(works.files)
    by_recipient: dict[tuple[bool, str], list[Received]] = {}
    for item in list(works.accepted):  # a copy: the stand-in's threads append to it
        by_recipient.setdefault((item.target == "channels", item.to), []).append(works_received(item, files))
    boxes = [Mailbox(to, (names.rooms if room else names.teachers).get(to) or to, room,
                     tuple(sorted(msgs, key=lambda m: m.at)), on_works=True)
             for (room, to), msgs in by_recipient.items()]
    return sorted(boxes, key=lambda b: (not b.is_group, b.title))


def fetch_image(home: Path | None, url: str) -> bytes:
    """The picture the demo kept for `url` when it last stopped, else fetched from this computer."""
    kept = demo_inbox.kept_image(home, url) if home is not None else None
    return kept if kept is not None else demo_inbox.fetch(url)
