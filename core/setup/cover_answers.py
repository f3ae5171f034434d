"""The manager's answers to a cover request that send a message, each in its own transaction: calling for
volunteers (core/sending/kinds/cover_call.py) and declining (core/sending/kinds/cover_declined.py).
Giving the shift to a teacher is a roster edit: core/roster/cover_board.py."""

from __future__ import annotations

import datetime as dt

from core.sending.kinds import cover_call, cover_declined
from core.store.changes_made import ChangesMade, committed
from core.store.db import Database


def call(db: Database, request_id: int, *, now: dt.datetime) -> ChangesMade[list[int]]:
    """Call for cover the usual way (the classroom's group, else every teacher who could take the shift);
    the ids of the deliveries enqueued."""
    return committed(db, lambda session: cover_call.call(session, request_id, now=now))


def decline(db: Database, request_id: int, *, now: dt.datetime, reason: str = "") -> ChangesMade[list[int]]:
    """The shift stays with the teacher who asked, who is told (with `reason`, if given); the deliveries' ids."""
    return committed(db, lambda session: cover_declined.decline(session, request_id, now=now, reason=reason))
