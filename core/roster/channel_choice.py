"""The words a manager types for how a teacher is reached (a CSV column, the command line), as the
contacts' rule and the channels in order (core/roster/contacts.py), and back."""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import ValidationError
from core.roster import contacts
from core.store.models import Channel, ContactRule, Teacher
from core.texts import t


@dataclass(frozen=True)
class Choice:
    """Which channels, in which order, by which rule."""

    rule: ContactRule
    channels: tuple[str, ...]

    @property
    def word(self) -> str:
        """The word a CSV export writes for it, which an import reads back."""
        for word, choice in WORDS.items():
            if choice == self:
                return word
        return "+".join(self.channels) + ("" if self.rule is ContactRule.EVERY or len(self.channels) < 2 else ":first")


LINE = Choice(ContactRule.EVERY, (Channel.LINE,))
EMAIL = Choice(ContactRule.EVERY, (Channel.EMAIL,))
BOTH = Choice(ContactRule.EVERY, (Channel.LINE, Channel.EMAIL))
LINE_FALLBACK = Choice(ContactRule.FIRST, (Channel.LINE, Channel.EMAIL))  # LINE, and e-mail when LINE cannot reach them

# What a manager may type in a CSV file or the command line, Japanese included; the first word of
# each choice is the one an export writes.
WORDS = {
    "line": LINE,
    "email": EMAIL, "e-mail": EMAIL, "mail": EMAIL, "メール": EMAIL,
    "both": BOTH, "line+email": BOTH, "両方": BOTH,
    "line_fallback": LINE_FALLBACK, "fallback": LINE_FALLBACK, "line_then_email": LINE_FALLBACK,
    "line優先": LINE_FALLBACK,
}


def parse(value: str | Choice | None) -> Choice:
    if isinstance(value, Choice):
        return value
    word = (value or "").strip().lower()
    if not word:
        return LINE
    choice = WORDS.get(word)
    if choice is None:
        # Any channels with addresses, joined by "+", ":first" for fallback: what `word` writes for them.
        keys, _, rule = word.partition(":")
        channels = tuple(keys.split("+"))
        if rule not in ("", "first") or not all(channel in contacts.ADDRESSING for channel in channels):
            raise ValidationError(t("roster.bad_channel", value=str(value)))
        choice = Choice(ContactRule.FIRST if rule else ContactRule.EVERY, channels)
    return choice


def of(teacher: Teacher) -> Choice:
    rule, channels = contacts.choice_of(teacher)
    return Choice(rule, channels)
