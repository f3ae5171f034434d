"""The account in LINE groups: a join proposes the group for a classroom, a leave of a classroom's
group raises an alert, and the manager accepts a proposed group as a classroom's group.

LINE has no API that lists the groups an account is in, so a `join` event (the account invited into a
group) is the only way to learn a group's ID. The handler asks LINE for the group's name, icon and
member count at once (`GET /v2/bot/group/{id}/summary` and `…/members/count`), so the manager picks
"講師グループ (8 people)" rather than a `C…` ID; if LINE does not answer, the proposal is kept without
them. The two calls run inside the handler's write transaction: join events are rare, handled one at
a time on the dispatcher's thread, and the client's timeouts bound them.

A `leave` marks the group left. While a classroom's group is left, core/alerts.py keeps an incident
open (LINE_GROUP_LEFT); a later join of that group, or another group for the classroom, ends it. As for
follow/unfollow, a redelivered event older than the newest join/leave of the same group changes nothing.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core import alerts
from core.channels.line import LineApiError, LineClient
from core.errors import ValidationError
from core.receiving.events import ReceivedEvent
from core.roster import rules
from core.store import setting_keys as keys
from core.store.models import Classroom, ProposedGroup, WebhookEvent
from core.texts import t

log = logging.getLogger(__name__)
TYPES = frozenset({"join", "leave"})
LineSource = Callable[[], LineClient | None]


@dataclass(frozen=True, slots=True)
class GroupProposal:
    """A group the account is in and no classroom has yet, as the Connect LINE wizard offers it."""

    group_id: str
    name: str | None  # None: LINE did not say (the summary call failed)
    member_count: int | None
    picture_url: str | None
    joined_at: dt.datetime


def _superseded(session: Session, event: ReceivedEvent) -> bool:
    if event.occurred_at is None:
        return False
    newer = session.scalar(select(WebhookEvent.id).where(
        WebhookEvent.source_group_id == event.group_id, WebhookEvent.type.in_(TYPES),
        WebhookEvent.event_id != event.event_id, WebhookEvent.occurred_at > event.occurred_at).limit(1))
    return newer is not None


def _summary(line: LineSource, group_id: str) -> tuple[str | None, int | None, str | None]:
    client = line()
    if client is None:
        return None, None, None
    try:
        summary = client.group_summary(group_id)
        count = client.group_member_count(group_id)
    except (LineApiError, KeyError, ValueError, TypeError) as exc:
        log.warning("LINE's summary of a group the account joined is unavailable: %s", exc)
        return None, None, None
    name = summary.get("groupName")
    picture = summary.get("pictureUrl")
    return (name[:200] if isinstance(name, str) and name else None, count,
            picture if isinstance(picture, str) and picture.startswith("https://") else None)


def _left_key(classroom_id: int) -> str:
    return alerts.group_left(classroom_id, "").key


class GroupHandler:
    types = TYPES

    def __init__(self, line: LineSource) -> None:
        self.line = line

    def handle(self, session: Session, event: ReceivedEvent, *, now: dt.datetime) -> None:
        group_id = event.group_id
        if event.source_type != "group" or not group_id or _superseded(session, event):
            return
        at = min(event.occurred_at or now, now)
        proposal = session.scalar(select(ProposedGroup).where(ProposedGroup.group_id == group_id))
        rooms = list(session.scalars(select(Classroom).where(Classroom.line_group_id == group_id)))
        if event.type == "join":
            name, count, picture = _summary(self.line, group_id)
            if proposal is None:
                proposal = ProposedGroup(group_id=group_id, joined_at=at)
                session.add(proposal)
            proposal.joined_at, proposal.left_at = at, None
            proposal.name = name or proposal.name
            proposal.member_count = count if count is not None else proposal.member_count
            proposal.picture_url = picture
            session.flush()
            if rooms:
                alerts.clear(session, [_left_key(room.id) for room in rooms], now=now)
            log.info("the LINE account joined a group (%s members)", count if count is not None else "?")
            return
        if proposal is None:  # a group pasted by hand before pairing existed: remember that it was left
            proposal = ProposedGroup(group_id=group_id, joined_at=at)
            session.add(proposal)
        proposal.left_at = at
        session.flush()
        for room in rooms:
            alerts.open_incident(session, alerts.group_left(room.id, room.name), now=now)
        log.info("the LINE account left a group%s", f" (the group of classrooms: {len(rooms)})" if rooms else "")


def proposed_groups(session: Session) -> list[GroupProposal]:
    """The groups the account is in that no classroom has, newest join first."""
    taken = select(Classroom.line_group_id).where(Classroom.line_group_id.is_not(None))
    rows = session.scalars(select(ProposedGroup).where(
        ProposedGroup.left_at.is_(None), ProposedGroup.group_id.not_in(taken))
        .order_by(ProposedGroup.joined_at.desc(), ProposedGroup.id.desc()))
    return [GroupProposal(p.group_id, p.name, p.member_count, p.picture_url, p.joined_at) for p in rows]


def accept_group(session: Session, classroom_id: int, group_id: str, now: dt.datetime) -> Classroom:
    """Make a proposed group the classroom's group (its member count kept for the quota forecast)."""
    proposal = session.scalar(select(ProposedGroup).where(ProposedGroup.group_id == group_id))
    if proposal is None or proposal.left_at is not None:
        raise ValidationError(t("line.group_not_joined"))
    previous = rules.get_classroom(session, classroom_id).line_group_id
    room = rules.update_classroom(session, classroom_id, line_group_id=group_id)
    proposal.accepted_at, proposal.classroom_id = now, classroom_id
    if proposal.member_count is not None:
        keys.LINE_GROUP_MEMBERS.of(classroom_id).write(session, proposal.member_count)
    if previous != group_id:
        alerts.clear(session, [_left_key(classroom_id)], now=now)
    return room
