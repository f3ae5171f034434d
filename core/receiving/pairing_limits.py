"""Limits on guessing pairing codes: too many wrong codes, and their sender is ignored for an hour.

Every code a LINE user sends that binds nobody (never issued, used, expired, or sent from another
teacher's LINE account) is a wrong code, stored with its sender and time. The 5th wrong code from one
LINE user within an hour locks that user out for an hour: their codes, right ones too, get no reply
and bind nobody. LINE users cost nothing to make, so a limit per user alone bounds nothing; the 30th
wrong code from all users together within an hour therefore pauses pairing for everyone for an hour.
Either lockout opens the manager's incident (core/alerts.py), which clears when its hour is over.
So at most 30 codes are ever checked in any hour, which is what the code space is sized for
(core/receiving/pairing.py). The price: someone sending 30 wrong codes an hour keeps pairing paused;
the incident tells the manager, who can still tick a teacher's LINE consent by hand.

The rules are pure with the clock passed in (`lock_until`, `is_locked`); the wrong codes and the
lockouts are rows (`pairing_failures`, `pairing_lockouts`), so restarting the receiver lifts nothing.
A code that is ignored is not counted: a locked-out sender cannot extend the lockout of everyone.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from core import alerts
from core.store.models import PairingFailure, PairingLockout
from core.texts import Text

log = logging.getLogger(__name__)
PER_USER = 5  # wrong codes from one LINE user within WINDOW lock that user out
EVERYONE = 30  # wrong codes from all LINE users together within WINDOW pause pairing for everyone
WINDOW = dt.timedelta(hours=1)
LOCKOUT = dt.timedelta(hours=1)
KEEP = dt.timedelta(days=1)  # wrong codes and ended lockouts stay this long for a support request, then go


# ----- the rules (pure) -----


def lock_until(wrong_at: Iterable[dt.datetime], limit: int, *, at: dt.datetime) -> dt.datetime | None:
    """After a wrong code at `at`, one of `wrong_at`: until when its sender (or everyone, for the limit of
    all users) is ignored, once `limit` wrong codes fall within WINDOW up to `at`; None while fewer do."""
    recent = sum(1 for when in wrong_at if at - WINDOW < when <= at)
    return at + LOCKOUT if recent >= limit else None


def is_locked(until: dt.datetime | None, at: dt.datetime) -> bool:
    return until is not None and at < until


# ----- reading and recording -----


def ignored(session: Session, line_user_id: str, at: dt.datetime) -> bool:
    """Whether a code from this LINE user is ignored at `at`: they, or everyone, are locked out."""
    scopes = [line_user_id, PairingLockout.EVERYONE]
    return any(is_locked(until, at) for until in session.scalars(
        select(PairingLockout.locked_until).where(PairingLockout.scope.in_(scopes))))


def record_wrong(session: Session, line_user_id: str, at: dt.datetime) -> None:
    """Count a code from this LINE user that bound nobody; lock the user, or everyone, out when it reaches
    a limit, and open the manager's incident."""
    session.add(PairingFailure(line_user_id=line_user_id, at=at))
    session.flush()
    since = at - WINDOW
    theirs = session.scalars(select(PairingFailure.at).where(PairingFailure.line_user_id == line_user_id,
                                                             PairingFailure.at > since))
    until = lock_until(theirs, PER_USER, at=at)
    if until is not None:
        _lock(session, line_user_id, at, until)
        log.warning("a LINE user sent %d wrong pairing codes within an hour; their codes are ignored for an hour "
                    "[alert.pairing_locked]", PER_USER)
        alerts.open_incident(session, alerts.pairing_locked(alerts.pairing_lockouts(session, now=at)[0]), now=at)
    until = lock_until(session.scalars(select(PairingFailure.at).where(PairingFailure.at > since)), EVERYONE, at=at)
    if until is not None:
        _lock(session, PairingLockout.EVERYONE, at, until)
        log.warning("%d wrong pairing codes within an hour from all LINE users; every code is ignored for an hour "
                    "[alert.pairing_paused]", EVERYONE)
        alerts.open_incident(session, alerts.pairing_paused(until), now=at)
    session.execute(delete(PairingFailure).where(PairingFailure.at < at - KEEP))
    session.execute(delete(PairingLockout).where(PairingLockout.locked_until < at - KEEP))


def _lock(session: Session, scope: str, at: dt.datetime, until: dt.datetime) -> None:
    row = session.scalar(select(PairingLockout).where(PairingLockout.scope == scope))
    if row is None:
        session.add(PairingLockout(scope=scope, locked_at=at, locked_until=until))
    else:
        row.locked_at, row.locked_until = at, until
    session.flush()


def notices(session: Session, at: dt.datetime) -> list[Text]:
    """What the Connect LINE wizard says beside the codes while a lockout is in force (the incidents' titles)."""
    return [condition.title for condition in alerts.pairing_conditions(*alerts.pairing_lockouts(session, now=at))]
