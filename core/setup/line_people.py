"""The people side of Connect LINE, each step a transaction of its own: the groups the account was
invited into that no classroom has yet, one of them made a classroom's group, the teachers' one-time
codes issued, and how far the teachers are (paired or holding a code, and the lockouts in force after
too many wrong codes); and whose a LINE user or group ID is."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from sqlalchemy.orm import Session

from core.receiving import groups, pairing, pairing_limits
from core.receiving.groups import GroupProposal
from core.receiving.pairing import TeacherPairing
from core.roster import queries
from core.roster.queries import ClassroomSettings
from core.store import setting_keys as keys
from core.store.db import Database
from core.texts import Text


@dataclass(frozen=True)
class Progress:
    teachers: tuple[TeacherPairing, ...]  # every active teacher, in the listing order
    limits: tuple[Text, ...]  # while codes are ignored after too many wrong ones, the incidents' words


@dataclass(frozen=True)
class Issued:
    progress: Progress
    room: ClassroomSettings | None  # the classroom the codes were issued for; None: every classroom


def proposed_groups(db: Database) -> tuple[GroupProposal, ...]:
    """The groups no classroom has, newest join first."""
    with db.read() as session:
        return tuple(groups.proposed_groups(session))


def accept_group(db: Database, classroom_id: int, group_id: str, *, now: dt.datetime) -> str:
    """Make a proposed group the classroom's group; answers the classroom's name."""
    with db.write() as session:
        return groups.accept_group(session, classroom_id, group_id, now).name


def progress(db: Database, *, now: dt.datetime) -> Progress:
    with db.read() as session:
        return _progress(session, now)


def issue_codes(db: Database, classroom_id: int | None, *, now: dt.datetime) -> Issued:
    """A live code for every teacher of the classroom (None: of every classroom) not yet on LINE, and the
    progress with them, in one transaction."""
    with db.write() as session:
        pairing.issue_codes(session, now, classroom_id)
        room = queries.classroom(session, classroom_id) if classroom_id is not None else None
        return Issued(_progress(session, now), room)


def recipient_names(db: Database, recipients: Collection[str]) -> Mapping[str, str]:
    """LINE user and group IDs → the teacher's or the classroom's name; IDs nobody has are left out."""
    with db.read() as session:
        return MappingProxyType(queries.line_recipient_names(session, recipients))


def _progress(session: Session, now: dt.datetime) -> Progress:
    return Progress(tuple(pairing.pairing_progress(session, now)), tuple(pairing_limits.notices(session, now)))


def manager_code(db: Database, now: dt.datetime) -> pairing.ManagerCode:
    """The code the manager sends the account from their own LINE to be kept as the manager (a live one
    is shown again)."""
    with db.write() as session:
        return pairing.issue_manager_code(session, now)


def manager_line_user_id(db: Database) -> str | None:
    with db.read() as session:
        return keys.ALERTS_LINE_USER_ID.read(session)
