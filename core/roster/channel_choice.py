"""Which channels a teacher's messages go by: their choice (LINE, e-mail, both, LINE with e-mail
fallback) against what they agreed to and what works. Pure rules; the planner and the send-time
checks both ask here, so they never disagree."""

from __future__ import annotations

from core.errors import ValidationError
from core.store.models import Channel, ChannelChoice, Teacher
from core.texts import t

# What a manager may type in a CSV file or the command line, Japanese included.
WORDS = {
    "line": ChannelChoice.LINE,
    "email": ChannelChoice.EMAIL, "e-mail": ChannelChoice.EMAIL, "mail": ChannelChoice.EMAIL,
    "メール": ChannelChoice.EMAIL,
    "both": ChannelChoice.BOTH, "line+email": ChannelChoice.BOTH, "両方": ChannelChoice.BOTH,
    "line_fallback": ChannelChoice.LINE_FALLBACK, "fallback": ChannelChoice.LINE_FALLBACK,
    "line_then_email": ChannelChoice.LINE_FALLBACK, "line優先": ChannelChoice.LINE_FALLBACK,
}


def parse(value: str | ChannelChoice | None) -> ChannelChoice:
    if isinstance(value, ChannelChoice):
        return value
    word = (value or "").strip().lower()
    if not word:
        return ChannelChoice.LINE
    choice = WORDS.get(word)
    if choice is None:
        raise ValidationError(t("roster.bad_channel", value=str(value)))
    return choice


def line_eligible(teacher: Teacher) -> bool:
    return eligible(teacher.active, teacher.erased_at is not None, teacher.line_opt_in, teacher.line_user_id)


def email_eligible(teacher: Teacher) -> bool:
    return eligible(teacher.active, teacher.erased_at is not None, teacher.email_opt_in, teacher.email)


def eligible(active: bool, erased: bool, opted_in: bool, address: str | None) -> bool:
    """A channel can be used for a teacher: active, not erased, agreed to it, with an address on it."""
    return bool(active and not erased and opted_in and address)


def channels_for(choice: ChannelChoice, *, line_ok: bool, email_ok: bool, line_unreachable: bool) -> tuple[Channel, ...]:
    """The channels to plan a teacher's message on.

    With fallback, a teacher LINE cannot reach, or who has no LINE at all, is planned on e-mail; one
    LINE can reach gets LINE only, and e-mail only if that LINE delivery later fails."""
    line = (Channel.LINE,) if line_ok else ()
    email = (Channel.EMAIL,) if email_ok else ()
    if choice is ChannelChoice.EMAIL:
        return email
    if choice is ChannelChoice.BOTH:
        return line + email
    if choice is ChannelChoice.LINE_FALLBACK:
        return line if line_ok and not line_unreachable else email
    return line


def planned_channels(teacher: Teacher) -> tuple[Channel, ...]:
    return channels_for(ChannelChoice(teacher.channel), line_ok=line_eligible(teacher),
                        email_ok=email_eligible(teacher), line_unreachable=teacher.line_unreachable_at is not None)


def falls_back_to_email(teacher: Teacher) -> bool:
    """A LINE message that cannot reach this teacher should go by e-mail instead."""
    return choice_falls_back(ChannelChoice(teacher.channel), email_ok=email_eligible(teacher))


def choice_falls_back(choice: ChannelChoice, *, email_ok: bool) -> bool:
    return choice is ChannelChoice.LINE_FALLBACK and email_ok


def wants(teacher: Teacher, channel: Channel) -> bool:
    """Does the teacher's choice still include this channel (a fallback counts for e-mail)?"""
    return choice_includes(ChannelChoice(teacher.channel), channel)


def choice_includes(choice: ChannelChoice, channel: Channel) -> bool:
    if channel is Channel.LINE:
        return choice is not ChannelChoice.EMAIL
    if channel is Channel.EMAIL:
        return choice is not ChannelChoice.LINE
    return True
