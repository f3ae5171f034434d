"""Typed errors raised once, at the boundary where the problem is known.

Every user-facing error carries a message from core/texts/catalog.py, a code and its parameters:
`raise ValidationError(t("roster.classroom_exists", name=name))`. `str(error)` is the English
sentence (logs, tracebacks); front ends show `render(error.text, language)`.
"""

from __future__ import annotations

from core.texts import Text, render
from core.texts.formats import Language


class ShiftcastError(Exception):
    """Base for errors whose message is meant for the user."""

    def __init__(self, message: Text | str = "", /) -> None:
        self.text: Text | str = message
        super().__init__(str(message))

    @property
    def code(self) -> str | None:
        """The message's stable code (None for a plain-text message)."""
        return self.text.code if isinstance(self.text, Text) else None

    def render(self, lang: Language) -> str:
        return render(self.text, lang)


class ValidationError(ShiftcastError):
    """Input that breaks a rule; nothing was changed."""


class NotFoundError(ShiftcastError):
    """A named thing (classroom, teacher, shift) does not exist."""


class DatabaseError(ShiftcastError):
    """The database could not be opened or upgraded."""
