"""A channel held because its credentials were refused: a settings row "<code>|<fingerprint>|<ISO time>".

The fingerprint is of the credentials (LINE's token; SMTP's settings and password) at the time of
the refusal, so the hold lifts itself as soon as they change — nobody has to remember to lift it.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core.store import settings


def check(session: Session, key: str, fingerprint: str) -> tuple[bool, bool]:
    """(held, lifted): is the channel held for these credentials, and was a hold for older ones lifted now?"""
    hold = settings.get(session, key)
    if not hold:
        return False, False
    _, held_for, _ = (hold.split("|") + ["", ""])[:3]
    if held_for == fingerprint:
        return True, False
    settings.put(session, key, None)  # the credentials changed since the hold: try again
    return False, True


def hold(session: Session, key: str, *, code: str, fingerprint: str, now: dt.datetime) -> bool:
    """Hold the channel; False if it already was."""
    if settings.get(session, key):
        return False
    settings.put(session, key, f"{code}|{fingerprint}|{now.isoformat()}")
    return True
