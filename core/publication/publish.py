"""Publishing a classroom's month to its LINE group (and its room on any other channel: LINE WORKS).

`publish` confirms the month's drafts, renders the wide grid (printing, e-mail) and the pages for phones
(the LINE group), stores them content-addressed, and writes
the immutable Publication row and its delivery in ONE transaction (without a LINE group yet, the
publication is marked as owed to it instead: core/planning/group_waiting.py), then returns: the sender uploads
the images and sends the LINE message later (with image hosting: portrait pages for phones, from
core/publication/month_pages.py; without it: the month itself as Flex carousels). Asked to
(`each_teacher`), it also sends each teacher their own month (core/planning/teacher_months.py). A new
revision highlights the cells that changed and
supersedes an older revision that has not gone out yet.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import secrets as token_source
from dataclasses import dataclass, field, replace

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.errors import ValidationError
from core.outbox import queue
from core.outbox.policy import CancelReason
from core.planning import group_waiting, mailed_publication, teacher_months
from core.publication import month_image, month_pages
from core.publication.image_store import ImageStore
from core.roster import month as month_roster
from core.roster import rooms as classroom_rooms
from core.roster import rules
from core.store import setting_keys as keys
from core.store.models import (
    Channel,
    Classroom,
    Delivery,
    DeliveryStatus,
    Publication,
    Shift,
    ShiftStatus,
    SubjectType,
)
from core.texts import Text, t


@dataclass(frozen=True)
class Published:
    publication_id: int
    delivery_id: int | None  # the LINE group message; None without a group (owed while the classroom has no room)
    revision: int
    changed_cells: int
    superseded: list[int]
    email_deliveries: list[int] = field(default_factory=list)  # copies for teachers reached by e-mail
    teacher_months: list[int] = field(default_factory=list)  # each teacher's own month, when asked for
    # The month's message to the classroom's room on each other channel: channel key → delivery id
    room_deliveries: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PublishPlan:
    """The dry run: who receives it and what it costs against LINE's monthly quota."""

    classroom: str
    group_id: str | None
    members: int | None  # None: not known yet (LINE not reachable or never asked)
    messages: int | None  # quota cost: one push to a group counts once per member
    quota_limit: int | None
    quota_used: int | None
    revision: int
    drafts_to_confirm: int
    changed_cells: int
    warning: str | None  # in English; `warning_text` is the same for rendering in the manager's language
    warning_text: Text | None = None
    # Each teacher's own month, when asked for: LINE messages (also in `messages`) and the teachers
    teacher_messages: int = 0
    teachers: int = 0
    # The classroom's room on each other channel (LINE WORKS): channel key → room; one message each
    rooms: dict[str, str] = field(default_factory=dict)


def latest(session: Session, classroom_id: int, year: int, month: int) -> Publication | None:
    return session.scalar(select(Publication).where(
        Publication.classroom_id == classroom_id, Publication.year == year, Publication.month == month,
    ).order_by(Publication.revision.desc()).limit(1))


def build_month(session: Session, classroom: Classroom, year: int, month: int, *, now: dt.datetime,
                include_drafts: bool) -> month_roster.MonthRoster:
    """The month as it would be published now, with the changes since the last revision marked."""
    current = month_roster.from_database(session, classroom, year, month, include_drafts=include_drafts)
    previous = latest(session, classroom.id, year, month)
    revision = 1 if previous is None else previous.revision + 1
    changed = (frozenset() if previous is None else
               month_roster.changed_cells(month_roster.cells_of(previous.snapshot_json), current.cells))
    # Everything from the database as read (cells, readings, positions), with the revision's own facts.
    return replace(current, revision=revision, changed=changed, generated_at=now)


def publish(session: Session, classroom_id: int, year: int, month: int, *, now: dt.datetime, store: ImageStore,
            font_file: str | None = None, each_teacher: bool = False) -> Published:
    """Publish the month; `each_teacher`: also send each teacher their own month of it."""
    classroom = rules.get_classroom(session, classroom_id)
    rules.confirm_month(session, classroom.id, year, month, now=now)
    view = build_month(session, classroom, year, month, now=now, include_drafts=False)
    if view.is_update and not view.changed:
        raise ValidationError(t("publish.nothing_new", revision=view.revision - 1))
    original = month_image.render_png(view, font_file=font_file)
    preview = month_image.preview_jpeg(original)
    original_sha, _ = store.put(original, ".png")
    preview_sha, _ = store.put(preview, ".jpg")
    from PIL import Image  # here, not above: the window and the sender import this module at every start

    width, height = Image.open(io.BytesIO(original)).size
    pages = month_pages.stored_pages(view, store, font_file=font_file)
    publication = Publication(
        classroom_id=classroom.id, year=year, month=month, revision=view.revision,
        document_id=token_source.token_urlsafe(18), is_update=view.is_update,
        image_sha256=original_sha, image_bytes=len(original), image_width=width, image_height=height,
        preview_sha256=preview_sha, preview_bytes=len(preview), pages_json=json.dumps(pages),
        snapshot_json=month_roster.snapshot(view),
        changes_json=json.dumps(sorted([t, d] for t, d in view.changed), ensure_ascii=False),
        created_at=now,
    )
    session.add(publication)
    session.flush()
    superseded = _supersede_older(session, publication, now)
    queued = group_waiting.enqueue_rooms(session, publication, now=now)  # LINE group, LINE WORKS channel …
    if not queued:  # recorded all the same: the group gets it as soon as it is chosen
        group_waiting.owe(session, publication)
    delivery_id = queued[Channel.LINE][0] if Channel.LINE in queued else None
    rooms = {channel: delivery for channel, (delivery, _) in queued.items() if channel != Channel.LINE}
    # E-mail copies in the same transaction, for teachers who asked for e-mail.
    emails = mailed_publication.fan_out(session, publication, now=now)
    personal = teacher_months.fan_out(session, publication, now=now) if each_teacher else []
    return Published(publication.id, delivery_id, publication.revision, len(view.changed), superseded, emails,
                     personal, rooms)


def _supersede_older(session: Session, publication: Publication, now: dt.datetime) -> list[int]:
    about = Delivery.about(SubjectType.PUBLICATION, Publication.id)
    waiting = session.scalars(select(Delivery.id).join(Publication, about).where(
        Publication.classroom_id == publication.classroom_id, Publication.year == publication.year,
        Publication.month == publication.month, Publication.revision < publication.revision,
        Delivery.status.in_([DeliveryStatus.PENDING, DeliveryStatus.QUEUED]),
    )).all()
    return [i for i in waiting if queue.transition(
        session, i, expected=[DeliveryStatus.PENDING, DeliveryStatus.QUEUED], now=now,
        status=DeliveryStatus.CANCELED, cancel_reason=CancelReason.SUPERSEDED.value)]


def preview_month(session: Session, classroom_id: int, year: int, month: int, *,
                  now: dt.datetime) -> month_roster.MonthRoster:
    """The month as publishing it now would show it, drafts included: the Publish area's preview."""
    return build_month(session, rules.get_classroom(session, classroom_id), year, month, now=now, include_drafts=True)


def plan_publish(session: Session, classroom_id: int, year: int, month: int, *, now: dt.datetime,
                 members: int | None = None, each_teacher: bool = False) -> PublishPlan:
    """What publishing would do, without doing it. `members` is a live group member count if known;
    `each_teacher`: each teacher's own month too, one LINE message per teacher reached on LINE."""
    classroom = rules.get_classroom(session, classroom_id)
    drafts = session.scalar(select(func.count()).select_from(Shift).where(
        Shift.classroom_id == classroom.id, Shift.status == ShiftStatus.DRAFT,
        Shift.local_date.between(*rules.month_bounds(year, month)))) or 0
    view = build_month(session, classroom, year, month, now=now, include_drafts=True)
    if members is None:
        members = keys.LINE_GROUP_MEMBERS.of(classroom.id).read(session)
    quota = keys.LINE_QUOTA.read(session)
    limit, used = quota.limit, quota.used
    personal = teacher_months.recipients(session, teacher_months.MonthShown(
        classroom.id, year, month, view.revision, frozenset(view.cells),
        frozenset(name for name, _ in view.changed))) if each_teacher else []
    personal_line = sum(1 for _, channels in personal if Channel.LINE in channels)
    messages = None if members is None else members + personal_line
    if not classroom.line_group_id and each_teacher:
        messages = personal_line  # no group message: only the personal ones cost
    warning: Text | None = None  # a missing group is no warning: the month waits for it (core/setup/publishing.py)
    if view.is_update and not view.changed:
        warning = t("publish.warn.unchanged", revision=view.revision - 1)
    elif messages is not None and limit is not None and used is not None and used + messages > limit:
        warning = t("publish.warn.quota", left_count=limit - used, needed_count=messages)
    others = {channel: room for channel, room in classroom_rooms.rooms_of(session, classroom.id).items()
              if channel != Channel.LINE}
    return PublishPlan(classroom.name, classroom.line_group_id, members, messages, limit, used, view.revision,
                       drafts, len(view.changed), str(warning) if warning else None, warning, personal_line,
                       len(personal), others)
