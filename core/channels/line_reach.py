"""Can LINE reach a teacher's user ID? Asked of LINE's profile endpoint: 404 means the ID is unknown
to this channel or the user is not (or no longer) a friend, so messages would silently go nowhere.

Checked when the ID is saved (the teacher screen calls `check_teacher` on a background thread) and
daily for everyone by the scheduler. Only a clear answer changes anything: a network error or a
refused token leaves the teacher as they were, so a LINE outage never marks anyone unreachable.
"""

from __future__ import annotations

import datetime as dt
import logging
from enum import StrEnum

from sqlalchemy import select

from core.channels.line import LineApiError, LineClient, access_from_settings
from core.errors import NotFoundError
from core.roster import contacts
from core.store.db import Database
from core.store.models import Channel, Teacher, TeacherContact
from core.texts import t

log = logging.getLogger(__name__)


class Reach(StrEnum):
    REACHABLE = "reachable"
    UNREACHABLE = "unreachable"
    UNKNOWN = "unknown"  # LINE did not say (no token, network, 5xx, 401 …): nothing was changed


def ask(client: LineClient, user_id: str) -> Reach:
    try:
        client.profile(user_id)
    except LineApiError as exc:
        if exc.status == 404:
            return Reach.UNREACHABLE
        log.info("could not check LINE user %s: %s", user_id, exc)
        return Reach.UNKNOWN
    return Reach.REACHABLE


def record(db: Database, answers: dict[int, tuple[str, Reach]], *, now: dt.datetime) -> None:
    """Store the answers (teacher → (the ID asked about, answer)) in one transaction, skipping a
    teacher whose ID changed while LINE was being asked."""
    answers = {k: v for k, v in answers.items() if v[1] is not Reach.UNKNOWN}
    if not answers:
        return
    with db.write() as session:
        for line in session.scalars(select(TeacherContact).where(TeacherContact.teacher_id.in_(list(answers)),
                                                                 TeacherContact.channel == Channel.LINE)):
            user_id, reach = answers[line.teacher_id]
            if line.address != user_id:
                continue
            if reach is Reach.UNREACHABLE:
                line.unreachable_since = line.unreachable_since or now
            else:
                line.unreachable_since = None


def check_teacher(db: Database, teacher_id: int, *, now: dt.datetime) -> Reach:
    """Ask LINE about one teacher's saved ID and remember the answer. Blocking (a network call)."""
    with db.read() as session:
        teacher = session.get(Teacher, teacher_id)
        if teacher is None:
            raise NotFoundError(t("roster.no_teacher_id", id=teacher_id))
        user_id = contacts.address_on(teacher, Channel.LINE)
    if not user_id:
        return Reach.UNKNOWN
    access = access_from_settings(db)
    if access is None:
        return Reach.UNKNOWN
    with access.client as client:
        reach = ask(client, user_id)
    record(db, {teacher_id: (user_id, reach)}, now=now)
    return reach


def check_all(db: Database, *, now: dt.datetime) -> dict[int, Reach]:
    """Every active teacher with a LINE ID and LINE consent (the daily job)."""
    with db.read() as session:
        wanted = [(t.id, str(contacts.address_on(t, Channel.LINE)))
                  for t in session.scalars(select(Teacher).join(TeacherContact).where(
                      TeacherContact.channel == Channel.LINE, TeacherContact.address.is_not(None)))
                  if contacts.eligible(t, Channel.LINE)]
    if not wanted:
        return {}
    access = access_from_settings(db)
    if access is None:
        return {}
    with access.client as client:
        answers = {teacher_id: (user_id, ask(client, user_id)) for teacher_id, user_id in wanted}
    record(db, answers, now=now)
    return {teacher_id: reach for teacher_id, (_, reach) in answers.items()}
