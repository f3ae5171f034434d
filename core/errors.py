"""Typed errors raised once, at the boundary where the problem is known.

Every user-facing error carries a one-line message fit to show as it is (CLI, dialogs).
"""

from __future__ import annotations


class ShiftcastError(Exception):
    """Base for errors whose message is meant for the user."""


class ValidationError(ShiftcastError):
    """Input that breaks a rule; nothing was changed."""


class NotFoundError(ShiftcastError):
    """A named thing (classroom, teacher, shift) does not exist."""


class DatabaseError(ShiftcastError):
    """The database could not be opened or upgraded."""
