"""Formats of identifiers the user types or imports. One place, so messages stay consistent."""

from __future__ import annotations

import re

from core.errors import ValidationError
from core.texts import t

LINE_USER_ID = re.compile(r"U[0-9a-f]{32}")
LINE_GROUP_ID = re.compile(r"C[0-9a-f]{32}")
LINE_ROOM_ID = re.compile(r"R[0-9a-f]{32}")
# Deliberately loose: the mail server is the judge; this only catches typing mistakes.
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


def line_user_id(value: str | None) -> str | None:
    value = (value or "").strip()
    if not value:
        return None
    if not LINE_USER_ID.fullmatch(value):
        raise ValidationError(t("roster.bad_user_id", value=value))
    return value


def line_group_id(value: str | None) -> str | None:
    value = (value or "").strip()
    if not value:
        return None
    if not LINE_GROUP_ID.fullmatch(value):
        raise ValidationError(t("roster.bad_group_id", value=value))
    return value


def email(value: str | None) -> str | None:
    value = (value or "").strip()
    if not value:
        return None
    if len(value) > 320 or not EMAIL.fullmatch(value):
        raise ValidationError(t("roster.bad_email", value=value))
    return value
