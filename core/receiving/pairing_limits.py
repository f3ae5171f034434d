"""Limits on guessing pairing codes: by LINE user first, and for everyone only at a rate no stranger reaches by chance.

Every code a LINE user sends that binds nobody (never issued, used, expired, or sent from another
teacher's LINE account) is a wrong code, stored with its sender and time. The 5th wrong code from one
LINE user within an hour locks that user out for an hour: the reply to it says so and until when, and
their codes after it, right ones too, get no reply and bind nobody.

A limit per user alone does not bound guessing, since an attacker can use many LINE accounts; so the
500th wrong code from all users together within an hour pauses pairing for everyone for an hour. It
counts only codes that were checked: a locked-out user's codes are not, nor are those sent during a
pause, and after a pause the count starts afresh. 500 takes 100 LINE accounts a hour (each locked after
5) to reach, and holding it closed takes that every hour. The code space makes 500 an hour harmless
(core/receiving/pairing.py has the figures). During a pause no code is checked (a check of a code that
happens to be right is exactly what a guesser needs), but nobody is left unanswered: each LINE user who
sends a code then gets one reply saying until when pairing is paused, and sends it again after that.
Either lockout opens the manager's incident (core/alerts.py), which clears when its hour is over.

The rules are pure with the clock passed in (`lock_until`, `counted_since`, `gate`); the wrong codes
and the lockouts are rows (`pairing_failures`, `pairing_lockouts`), so restarting the receiver lifts
nothing. The one reply a user gets during a pause is stored as one of their wrong codes, at a time
after the pause began, which is how a second one is not sent.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from core import alerts
from core.store.models import PairingFailure, PairingLockout
from core.texts import Text

log = logging.getLogger(__name__)
PER_USER = 5  # wrong codes from one LINE user within WINDOW lock that user out
EVERYONE = 500  # wrong codes from all LINE users together within WINDOW pause pairing for everyone
WINDOW = dt.timedelta(hours=1)
LOCKOUT = dt.timedelta(hours=1)
KEEP = dt.timedelta(days=1)  # wrong codes and ended lockouts stay this long for a support request, then go


# ----- the rules (pure) -----


def lock_until(wrong_at: Iterable[dt.datetime], limit: int, *, at: dt.datetime,
               since: dt.datetime | None = None) -> dt.datetime | None:
    """After a wrong code at `at`, one of `wrong_at`: until when its sender (or everyone, for the limit of
    all users) is ignored, once `limit` wrong codes fall within WINDOW up to `at` (and after `since`,
    when given); None while fewer do."""
    start = max(at - WINDOW, since) if since is not None else at - WINDOW
    recent = sum(1 for when in wrong_at if start < when <= at)
    return at + LOCKOUT if recent >= limit else None


def counted_since(last_pause_until: dt.datetime | None, at: dt.datetime) -> dt.datetime | None:
    """Wrong codes for the pause for everyone count from the end of the last pause, when it ended
    within the window: what came in before or during it was already paid for by the pause."""
    return last_pause_until if last_pause_until is not None and last_pause_until <= at else None


def is_locked(until: dt.datetime | None, at: dt.datetime) -> bool:
    return until is not None and at < until


class Step(Enum):
    CHECK = "check"  # look the code up: bind it, or count it wrong
    TELL_PAUSED = "tell_paused"  # pairing is paused for everyone: say until when, once, and check nothing
    IGNORE = "ignore"  # a user locked out (told when, with their last wrong code), or told of the pause already


@dataclass(frozen=True, slots=True)
class Gate:
    step: Step
    until: dt.datetime | None = None  # when the pause ends, for TELL_PAUSED


def gate(user_until: dt.datetime | None, pause: tuple[dt.datetime, dt.datetime] | None, told_since: dt.datetime | None,
         at: dt.datetime) -> Gate:
    """What to do with a code at `at` from a LINE user locked until `user_until`, while everyone is
    paused from `pause[0]` until `pause[1]`, the user's latest wrong code being `told_since`."""
    if is_locked(user_until, at):
        return Gate(Step.IGNORE)
    if pause is not None and is_locked(pause[1], at):
        told = told_since is not None and told_since > pause[0]
        return Gate(Step.IGNORE) if told else Gate(Step.TELL_PAUSED, pause[1])
    return Gate(Step.CHECK)


# ----- reading and recording -----


def _lockouts(session: Session, line_user_id: str) -> dict[str, PairingLockout]:
    scopes = [line_user_id, PairingLockout.EVERYONE]
    return {row.scope: row for row in session.scalars(select(PairingLockout).where(PairingLockout.scope.in_(scopes)))}


def check(session: Session, line_user_id: str, at: dt.datetime) -> Gate:
    """What to do with a code from this LINE user at `at` (`gate` over the stored lockouts); a user told
    of the pause now is recorded, so that they are told once."""
    rows = _lockouts(session, line_user_id)
    mine, everyone = rows.get(line_user_id), rows.get(PairingLockout.EVERYONE)
    told_since = session.scalar(select(func.max(PairingFailure.at)).where(PairingFailure.line_user_id == line_user_id))
    decided = gate(mine.locked_until if mine else None,
                   (everyone.locked_at, everyone.locked_until) if everyone else None, told_since, at)
    if decided.step is Step.TELL_PAUSED:
        session.add(PairingFailure(line_user_id=line_user_id, at=at))
    return decided


def record_wrong(session: Session, line_user_id: str, at: dt.datetime) -> dt.datetime | None:
    """Count a code from this LINE user that bound nobody; lock the user, or everyone, out when it reaches
    a limit, and open the manager's incident. Until when this user is locked out, if they now are."""
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
    last_pause = _lockouts(session, line_user_id).get(PairingLockout.EVERYONE)
    everyone = lock_until(session.scalars(select(PairingFailure.at).where(PairingFailure.at > since)), EVERYONE, at=at,
                          since=counted_since(last_pause.locked_until if last_pause else None, at))
    if everyone is not None:
        _lock(session, PairingLockout.EVERYONE, at, everyone)
        log.warning("%d wrong pairing codes within an hour from all LINE users; every code is ignored for an hour "
                    "[alert.pairing_paused]", EVERYONE)
        alerts.open_incident(session, alerts.pairing_paused(everyone), now=at)
    session.execute(delete(PairingFailure).where(PairingFailure.at < at - KEEP))
    session.execute(delete(PairingLockout).where(PairingLockout.locked_until < at - KEEP))
    return until


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
