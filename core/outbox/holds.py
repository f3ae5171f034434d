"""A channel held because its credentials were refused: a hold setting (core/store/setting_keys.py,
LINE_HOLD or SMTP_HOLD) holding the error code, a fingerprint and the time.

The fingerprint is of the credentials (LINE's token; SMTP's settings and password) at the time of
the refusal, so the hold lifts itself as soon as they change — nobody has to remember to lift it.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from core.store.settings import ChannelHold, HoldSetting


def check(session: Session, key: HoldSetting, fingerprint: str) -> tuple[bool, bool]:
    """(held, lifted): is the channel held for these credentials, and was a hold for older ones lifted now?"""
    hold = key.read(session)
    if hold is None:
        return False, False
    if hold.fingerprint == fingerprint:
        return True, False
    key.clear(session)  # the credentials changed since the hold: try again
    return False, True


def hold(session: Session, key: HoldSetting, *, code: str, fingerprint: str, now: dt.datetime) -> bool:
    """Hold the channel; False if it already was."""
    if key.is_set(session):
        return False
    key.write(session, ChannelHold(code, fingerprint, now))
    return True
