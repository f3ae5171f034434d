"""The id a manager types for a LINE WORKS member: a teacher's LINE WORKS ID."""

from __future__ import annotations

import re

from core.errors import ValidationError
from core.texts import t

# A member's login ID (e-mail form; the domain is their company's) or their user ID (a UUID).
_LOGIN_ID = re.compile(r"[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                       r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+")
_USER_ID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def check_user_id(text: str | None) -> str | None:
    """A member's login ID (name@domain) or user ID (8-4-4-4-12 hexadecimal digits), stored in lower
    case (LINE WORKS does not tell cases apart); None for a blank; a ValidationError says what is expected."""
    value = (text or "").strip()
    if not value:
        return None
    if len(value) <= 254 and (_LOGIN_ID.fullmatch(value) or _USER_ID.fullmatch(value)):
        return value.lower()
    raise ValidationError(t("line_works.bad_user_id", value=value))

