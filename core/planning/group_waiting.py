"""A month published before its classroom had a LINE group: the group's message is owed, never lost.

Publishing records the revision either way (core/publication/publish.py). Without a group it marks the
publication as owed (setting_keys.GROUP_MESSAGE_OWED); `plan` — part of the month kind's own planner
(core/planning/mailed_publication.py), run by every planning run, and soon after a classroom's group
is set (rules.update_classroom says so with ShiftsChanged, which plans at once) — queues the group
message of each owed publication that is still the newest revision of its month, under the dedup key
publishing itself uses, so it can never be queued twice. A newer revision takes the mark over; a
month that is over is not sent any more. While LINE is not connected the queued message waits as
every LINE message does (core/outbox/not_set_up.py).

A classroom can have a room on more than one channel (its LINE group, its LINE WORKS channel:
core/roster/rooms.py): the month goes to each, and is owed while it has none.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from core.outbox import queue
from core.planning.context import PlanningContext
from core.roster import rooms as classroom_rooms
from core.roster import rules
from core.store import setting_keys as keys
from core.store.models import Channel, DeliveryKind, Publication, SubjectType


def newest_revisions() -> Select[Publication]:
    """Every publication that is the newest revision of its classroom's month."""
    newest = (select(Publication.classroom_id, Publication.year, Publication.month,
                     func.max(Publication.revision).label("revision"))
              .group_by(Publication.classroom_id, Publication.year, Publication.month).subquery())
    return select(Publication).join(newest, (Publication.classroom_id == newest.c.classroom_id)
                                    & (Publication.year == newest.c.year) & (Publication.month == newest.c.month)
                                    & (Publication.revision == newest.c.revision))


def owe(session: Session, publication: Publication) -> None:
    """The group message of `publication` goes out once its classroom has a group; older revisions' marks go."""
    older = session.scalars(select(Publication.id).where(
        Publication.classroom_id == publication.classroom_id, Publication.year == publication.year,
        Publication.month == publication.month, Publication.revision < publication.revision))
    for publication_id in older:
        keys.GROUP_MESSAGE_OWED.of(publication_id).clear(session)
    keys.GROUP_MESSAGE_OWED.of(publication.id).write(session, True)


def owed(session: Session, publication_id: int) -> bool:
    return keys.GROUP_MESSAGE_OWED.of(publication_id).read(session)


def enqueue(session: Session, publication: Publication, group_id: str, *, now: dt.datetime,
            channel: str = Channel.LINE) -> tuple[int, bool]:
    """The month's message to the classroom's room on `channel` (its LINE group by default), due now:
    (id, created). One per publication and channel, whoever asks."""
    return queue.enqueue(
        session, kind=DeliveryKind.SHIFT_PUBLICATION,
        dedup=queue.dedup_key(DeliveryKind.SHIFT_PUBLICATION, f"publication:{publication.id}", publication.revision,
                              channel),
        due_at=now, now=now, channel=channel, recipient=group_id, classroom_id=publication.classroom_id,
        subject_type=SubjectType.PUBLICATION, subject_id=publication.id,
    )


def enqueue_rooms(session: Session, publication: Publication, *, now: dt.datetime) -> dict[str, tuple[int, bool]]:
    """The month's message to each room its classroom has: channel → (id, created); empty without a room."""
    return {channel: enqueue(session, publication, room, now=now, channel=channel)
            for channel, room in classroom_rooms.rooms_of(session, publication.classroom_id).items()}


def plan(context: PlanningContext) -> list[int]:
    """Queue the owed group messages whose classroom has a room now; returns the ids created."""
    session, now = context.session, context.now
    rooms = classroom_rooms.with_any_room(session)
    if not rooms:
        return []
    created = []
    today = (now - dt.timedelta(days=1)).date()  # a day's slack: the classrooms' time zones are ahead of UTC
    for publication in session.scalars(newest_revisions().where(Publication.classroom_id.in_(list(rooms)))):
        if not owed(session, publication.id):
            continue
        keys.GROUP_MESSAGE_OWED.of(publication.id).clear(session)
        if rules.month_bounds(publication.year, publication.month)[1] < today:
            continue  # the month is over: the group has no use for it now
        created += [delivery_id for delivery_id, was_new in enqueue_rooms(session, publication, now=now).values()
                    if was_new]
    return created
