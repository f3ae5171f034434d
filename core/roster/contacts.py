"""A teacher's contacts: the ways they can be reached, one per channel, and which of them are used.

A contact is a channel's key (any registered channel, a plain string), the teacher's address on it,
when they agreed to it, since when the channel cannot reach it, and its rank among the ways the
teacher chose. The teacher's `ContactRule` says how the ranked ones are used: every one they agreed
to, or the first that can reach them and then the next. These are the pure rules the planner and the
send-time checks both ask, so they never disagree, plus the few writes that keep a teacher's contacts
in shape (one per channel; an address names one teacher on its channel).

How an address on a channel is checked, and whether the channel needs the teacher's consent, is the
channel's to say: `ADDRESSING` holds it by key. The built-in channels' rules are here (the roster
checks what a manager types, and sits below the channels); `register_channel`
(core/channels/registry.py) adds a new channel's from its driver. Likewise the columns a teachers CSV
file and the command line give a channel's contact (`ContactColumn`) are its driver's, in `COLUMNS`
by key once it is registered.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.roster import ids
from core.store.models import Channel, ContactRule, Teacher, TeacherContact
from core.texts import Text, t


@dataclass(frozen=True)
class Addressing:
    """A channel's rules for a teacher's address on it."""

    label: Text  # the channel's name on screens and in sentences about its addresses
    check: Callable[[str | None], str | None]  # typed → stored (None for blank); ValidationError if malformed
    needs_consent: bool = True  # reaches the teacher only once they agreed to it


ADDRESSING: dict[str, Addressing] = {
    # A brand's name, the same in every language (resources/i18n/glossary.md).
    Channel.LINE: Addressing(t("text.plain", text="LINE"), ids.line_user_id),
    Channel.EMAIL: Addressing(t("channel.email"), ids.email),
}


@dataclass(frozen=True)
class ContactColumn:
    """A column that holds a teacher's contact on one channel, in a teachers CSV file and the command
    line's teacher listing: the address on it, or (`agreed`) whether the teacher agreed to it, yes/no.
    `name` is the column as files are written and `--json` names it ("line_user_id"); `headings` are
    the other words an imported file may head it with (as a manager types them in Japanese Excel,
    compared without case, width or extra spaces), the first of them its Japanese name in messages
    ("word.column.<name>", which registering the channel adds)."""

    name: str
    headings: tuple[str, ...]
    agreed: bool = False


# Each channel's contact columns by key, in the order the channels were registered. The built-in
# channels' are here, as their address rules are, so the command line lists a teacher's contacts
# without loading the channels; their drivers declare these, and `register_channel` adds a new
# channel's from its driver.
COLUMNS: dict[str, tuple[ContactColumn, ...]] = {
    Channel.LINE: (ContactColumn("line_user_id", ("LINEユーザーID", "LINE ID", "line_id", "lineid", "LINE user ID")),
                   ContactColumn("line_opt_in", ("LINE通知",), agreed=True)),
    Channel.EMAIL: (ContactColumn("email", ("メール", "メールアドレス", "E-mail", "email address")),
                    ContactColumn("email_opt_in", ("メール通知",), agreed=True)),
}


def columns() -> list[tuple[str, ContactColumn]]:
    """Every channel's contact columns as (channel key, column): the addresses first, then the
    agreements, each in the channels' order."""
    every = [(channel, column) for channel, declared in COLUMNS.items() for column in declared]
    return [pair for pair in every if not pair[1].agreed] + [pair for pair in every if pair[1].agreed]


def column_value(contacts: Iterable[ContactView], channel: str, column: ContactColumn) -> str | bool | None:
    """What a contact column holds for a teacher with these contacts: their address on the channel
    (None: none), or whether they agreed to it."""
    found = on(contacts, channel)
    if column.agreed:
        return found is not None and found.agreed_at is not None
    return found.address if found is not None else None


def needs_consent(channel: str) -> bool:
    rules = ADDRESSING.get(channel)
    return rules is None or rules.needs_consent


def check_address(channel: str, value: str | None) -> str | None:
    rules = ADDRESSING.get(channel)
    if rules is None:
        raise ValidationError(t("roster.unknown_channel", channel=channel))
    return rules.check(value)


def label(channel: str) -> Text:
    rules = ADDRESSING.get(channel)
    return rules.label if rules is not None else t("text.plain", text=channel)


class ContactView(Protocol):
    """What the rules read of a contact (the ORM row, or a row of a Core query)."""

    @property
    def channel(self) -> str: ...

    @property
    def address(self) -> str | None: ...

    @property
    def agreed_at(self) -> dt.datetime | None: ...

    @property
    def unreachable_since(self) -> dt.datetime | None: ...

    @property
    def rank(self) -> int | None: ...


# ----- the rules (pure) -----


def usable(contact: ContactView) -> bool:
    """The contact can carry a message: it has an address, and the teacher agreed if the channel asks."""
    return bool(contact.address) and (contact.agreed_at is not None or not needs_consent(contact.channel))


def ranked(contacts: Iterable[ContactView]) -> list[ContactView]:
    """The contacts the teacher chose, first choice first."""
    return sorted((c for c in contacts if c.rank is not None), key=lambda c: c.rank or 0)


def planned(rule: ContactRule, contacts: Iterable[ContactView]) -> tuple[str, ...]:
    """The channels to plan a teacher's message on.

    EVERY: each ranked contact that is usable (one the channel cannot reach is still tried: the
    teacher may have come back). FIRST: the first usable one the channel can reach; a later one only
    when every earlier one cannot carry the message, and none when all of them are unreachable."""
    ok = [c for c in ranked(contacts) if usable(c)]
    if rule is ContactRule.FIRST:
        return tuple(c.channel for c in ok if c.unreachable_since is None)[:1]
    return tuple(c.channel for c in ok)


def planned_for(teacher: Teacher) -> tuple[str, ...]:
    """The channels a teacher's messages are planned on now (none while they are inactive or erased)."""
    if not teacher.active or teacher.erased_at is not None:
        return ()
    return planned(ContactRule(teacher.contact_rule), teacher.contacts)


def wants(contacts: Iterable[ContactView], channel: str) -> bool:
    """Does the teacher still choose this channel (a later one in a fallback counts)?"""
    return any(c.channel == channel for c in ranked(contacts))


def fallback_after(rule: ContactRule, contacts: Iterable[ContactView], channel: str) -> str | None:
    """The channel a message goes by when `channel` cannot carry it to this teacher: the next usable
    ranked contact after it, for a teacher whose rule is FIRST; None otherwise."""
    if rule is not ContactRule.FIRST:
        return None
    after = False
    for contact in ranked(contacts):
        if after and usable(contact):
            return contact.channel
        after = after or contact.channel == channel
    return None


C = TypeVar("C", bound=ContactView)


def on(contacts: Iterable[C], channel: str) -> C | None:
    return next((c for c in contacts if c.channel == channel), None)


def address_on(teacher: Teacher, channel: str) -> str | None:
    contact = on(teacher.contacts, channel)
    return contact.address if contact is not None else None


def eligible(teacher: Teacher, channel: str) -> bool:
    """A channel can be used for this teacher: active, not erased, with a usable contact on it."""
    contact = on(teacher.contacts, channel)
    return bool(teacher.active and teacher.erased_at is None and contact is not None
                and usable(contact))


# ----- writes -----


def contact(teacher: Teacher, channel: str) -> TeacherContact:
    """The teacher's contact on `channel`, made (unranked, not agreed) when they have none yet."""
    found = next((c for c in teacher.contacts if c.channel == channel), None)
    if found is None:
        found = TeacherContact(channel=channel, address=None, agreed_at=None, agreed_by_teacher=False,
                               unreachable_since=None, rank=None)
        teacher.contacts.append(found)
    return found


def owner(session: Session, channel: str, address: str) -> Teacher | None:
    """The teacher whose contact on `channel` is `address` (an address names one teacher per channel)."""
    return session.scalar(select(Teacher).join(TeacherContact).where(
        TeacherContact.channel == channel, TeacherContact.address == address))


def set_choice(teacher: Teacher, rule: ContactRule, channels: Sequence[str]) -> None:
    """The teacher is reached on `channels`, in this order, by `rule`; their other contacts stay, unranked."""
    teacher.contact_rule = rule
    for existing in teacher.contacts:
        existing.rank = None
    for rank, channel in enumerate(channels):
        contact(teacher, channel).rank = rank


def choice_of(teacher: Teacher) -> tuple[ContactRule, tuple[str, ...]]:
    return ContactRule(teacher.contact_rule), tuple(c.channel for c in ranked(teacher.contacts))
