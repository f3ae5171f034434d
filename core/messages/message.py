"""The channel-neutral message: what a kind says, once, before any channel shapes it.

A message kind (core/sending/kinds/) checks its delivery and builds one `Message`; each channel's
driver renders it in its own form (LINE: a Flex bubble with postback buttons, or text; e-mail: a
subject, a text part and an HTML part; LINE WORKS: its bot's message with button actions; a chat
webhook: text). A kind overrides a channel only for what that channel alone has (the LINE month's
carousel of week bubbles, the availability request's time pickers).

Pure data: no session, no channel, no I/O. The parts are the ones every renderer can show in some
form, so a renderer never needs to know which kind made the message:

- `heading`: the first line, a title bar on channels that have one;
- `lines`: the body, one paragraph per line;
- `facts`: the message's named values (classroom, date, start, end, note ...) that templates such as
  the e-mail subject fill in — not shown as a list unless a renderer chooses to;
- `actions`: what the reader can do: a postback (了解, "Ask for cover", "I can take it") carries signed
  data the receiver checks; a link opens an address;
- `accent`: the colour of the title bar and the first action (a correction is red);
- `pictures`: images that belong to the message (the month's pages), with their alternative text;
- `audience`: who reads it, which says where a channel sends it: a teacher (their contact on the
  channel), the classroom's group or room, or the manager (the alerts' address on the channel). A note
  to the manager is plain text on every channel;
- `variant` and `subject`: a kind with more than one form names the form (a correction that is a
  cancellation), which picks the e-mail subject's template; a note to the manager brings its
  subject whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

DEFAULT_ACCENT = "#1B7F5B"


class Audience(StrEnum):
    TEACHER = "teacher"  # the delivery's teacher, on their contact on the delivery's channel
    GROUP = "group"  # the classroom's group (or room) on the channel
    MANAGER = "manager"  # the manager, at the alerts' address on the channel


class ActionKind(StrEnum):
    POSTBACK = "postback"  # tapping it sends `data` back to the receiver (signed: ack:, cv:, av:)
    LINK = "link"  # tapping it opens `data`, an https address


@dataclass(frozen=True, slots=True)
class Action:
    """A button: its words (shown in the chat as the reader's when tapped) and what it does. The
    first action of a message is the primary one."""

    label: str
    data: str
    kind: ActionKind = ActionKind.POSTBACK


@dataclass(frozen=True, slots=True)
class Picture:
    """An image that belongs to the message: its name in the data folder's image store, its
    alternative text, and its public address once a host has placed it (None: not hosted)."""

    key: str
    alt: str
    url: str | None = None
    file_name: str = ""  # the name it is attached under, without its type's suffix ("": the key's)


@dataclass(frozen=True, slots=True)
class Message:
    """One message as its kind means it, in the language of the classroom it is about."""

    kind: str  # the message kind's key; the e-mail subject's template is chosen by it
    language: str  # "ja" or "en"
    heading: str
    lines: tuple[str, ...] = ()
    facts: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    actions: tuple[Action, ...] = ()
    accent: str = DEFAULT_ACCENT
    pictures: tuple[Picture, ...] = ()
    to_name: str = ""  # the reader's name, for a greeting ("" for a group or the manager)
    audience: Audience = Audience.TEACHER
    variant: str = ""  # the kind's form, when it has several: names the e-mail subject's template
    subject: str = ""  # a subject given whole (a note to the manager); "": the heading, or a template's

    @property
    def form(self) -> str:
        """The name of the form it takes: its variant, else its kind (the e-mail subject's template)."""
        return self.variant or self.kind

    @property
    def text(self) -> str:
        """The whole message as plain text, heading first: what a text-only channel sends."""
        return "\n".join((self.heading, *self.lines))

    @classmethod
    def of_text(cls, kind: str, language: str, text: str, *, facts: Mapping[str, str] | None = None,
                actions: tuple[Action, ...] = (), accent: str = DEFAULT_ACCENT, pictures: tuple[Picture, ...] = (),
                to_name: str = "", audience: Audience = Audience.TEACHER, variant: str = "",
                subject: str = "") -> Message:
        """A message from a text whose first line is its heading (the teachers' editable templates
        give whole texts). Split at line feeds only, so that `text` gives back the very text."""
        heading, *lines = text.split("\n")
        return cls(kind=kind, language=language, heading=heading, lines=tuple(lines),
                   facts=MappingProxyType(dict(facts or {})), actions=actions, accent=accent, pictures=pictures,
                   to_name=to_name, audience=audience, variant=variant, subject=subject)
