"""Asking teachers for their availability from the window, each step in its own transaction: what asking
would do and cost before anything goes (who, by which channel, the LINE quota used so far), asking, and
reminding who has not answered. The requests themselves are core/sending/kinds/availability_request.py.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from core.sending.kinds import availability_request as requests
from core.sending.kinds.availability_request import Asking
from core.store import setting_keys as keys
from core.store.changes_made import ChangesMade, committed
from core.store.db import Database
from core.store.settings import StoredQuota


@dataclass(frozen=True)
class AskingPreview:
    """Who asking would reach and how (a dry run: nothing is written), and the month's LINE quota so far."""

    asking: Asking
    quota: StoredQuota


def preview(db: Database, classroom_id: int, year: int, month: int, deadline: dt.date, *,
            now: dt.datetime) -> AskingPreview:
    with db.read() as session:
        return AskingPreview(requests.ask(session, classroom_id, year, month, deadline, None, now=now, dry_run=True),
                             keys.LINE_QUOTA.read(session))


def ask(db: Database, classroom_id: int, year: int, month: int, deadline: dt.date, *, now: dt.datetime,
        remind_days_before: int | None) -> ChangesMade[Asking]:
    """Ask every active teacher who can be reached; who was asked and who could not be."""
    return committed(db, lambda session: requests.ask(session, classroom_id, year, month, deadline, None, now=now,
                                                      remind_days_before=remind_days_before))


def remind(db: Database, classroom_id: int, year: int, month: int, *, now: dt.datetime) -> ChangesMade[tuple[str, ...]]:
    """Send the month's latest request again to who has not answered; their names."""
    return committed(db, lambda session: requests.remind_month(session, classroom_id, year, month, now=now))
