"""Publishing a month only when it can reach the classroom's group now (its LINE group, its room on
another channel such as LINE WORKS), or when the manager chose to have its group message wait.

Before anything is queued, the readiness check (core/setup/readiness.py) says what stops the group
message: LINE not connected or the keyring unusable, or the classroom without its LINE group yet. Image
hosting never does: without it, or with hosting that is set up but cannot work, the month goes to the
group as Flex carousels (core/messages/month_flex.py; core/sending/kinds/shift_publication.py). Then
`publish` refuses with those reasons, unless the manager asked for the month to go once they are fixed
(`when_ready`, which the window's Publish asks for in its confirmation): the revision is recorded and
its e-mail copies and teachers' own months are queued at once; the group message waits — queued and
marked with the reasons (core/outbox/not_set_up.py) while LINE is missing, owed to the group
(core/planning/group_waiting.py) while the group is — and goes out by itself once they are fixed.

A classroom's rooms say which channels its month needs: the readiness requirement named after each
room's channel ("line", "line_works"); LINE's alone while it has none (the group it will choose). A
classroom on LINE WORKS alone is therefore never refused because LINE is not connected.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from core.errors import ValidationError
from core.outbox import not_set_up
from core.publication import publish as publication
from core.publication.image_store import ImageStore
from core.roster import rooms, rules
from core.setup import readiness
from core.store.db import Database
from core.store.models import Channel
from core.texts import Text, t

# Without a room yet, the month waits for a LINE group: LINE's requirement is the one it needs. Image
# hosting is never one: without it the month goes to the group as a Flex list (core/messages/month_flex.py).
_WITHOUT_ROOM = (Channel.LINE.value,)
_LINE_CODES = ("readiness.line.missing", "readiness.keyring.broken")  # what LINE's requirement says is missing


class NotReady(ValidationError):
    """The month cannot reach its group now; nothing was published."""

    def __init__(self, classroom: str, missing: tuple[Text, ...]) -> None:
        super().__init__(t("publish.not_ready", classroom=classroom, missing=missing))
        self.missing = missing


@dataclass(frozen=True)
class Outcome:
    published: publication.Published
    waiting_for: tuple[Text, ...]  # empty: nothing stops the group message


def blockers(requirements: Sequence[readiness.Requirement], *, rooms: Collection[str]) -> tuple[Text, ...]:
    """What stops a classroom's group message, in the manager's words (pure). `rooms`: the channels
    the classroom has a room on; the requirement of each (keyed by the channel) must be met."""
    needed = rooms or _WITHOUT_ROOM
    found = tuple(r.says for r in requirements if r.key in needed and r.state is not readiness.State.OK)
    return found if rooms else (*found, t("publish.no_group"))


def promise(missing: Sequence[Text]) -> Text:
    """When the group gets the month, in one sentence, from what stops its message now (pure)."""
    group = any(m.code == "publish.no_group" for m in missing)
    line = any(m.code in _LINE_CODES for m in missing)
    if any(m.code not in (*_LINE_CODES, "publish.no_group") for m in missing):  # another channel's room (LINE WORKS)
        return t("publish.promise.fixed")
    if line and group:
        return t("publish.promise.line_and_group")
    if group:
        return t("publish.promise.group")
    return t("publish.promise.line") if line else t("publish.promise.now")


def missing(db: Database, classroom_id: int, *, now: dt.datetime) -> tuple[Text, ...]:
    with db.read() as session:
        rules.get_classroom(session, classroom_id)  # NotFoundError when it is gone
        channels = tuple(rooms.rooms_of(session, classroom_id))  # its LINE group and other channels' rooms
    return blockers(readiness.check(db, now=now, autostart=None), rooms=channels)


def publish(db: Database, classroom_id: int, year: int, month: int, *, now: dt.datetime, store: ImageStore,
            when_ready: bool = False, each_teacher: bool = False, font_file: str | None = None) -> Outcome:
    waiting = missing(db, classroom_id, now=now)
    with db.write() as session:
        if waiting and not when_ready:
            raise NotReady(rules.get_classroom(session, classroom_id).name, waiting)
        done = publication.publish(session, classroom_id, year, month, now=now, store=store, font_file=font_file,
                                   each_teacher=each_teacher)
        group_messages = [*([done.delivery_id] if done.delivery_id is not None else []), *done.room_deliveries.values()]
        if waiting and group_messages:
            not_set_up.mark(session, missing=waiting, now=now, ids=group_messages)
    return Outcome(done, waiting)
