"""What the app hands the relay: the LINE deliveries about a shift or a published month that are due
within the next days, each as the exact request the sender would make, and the cancels of those handed
over that will no longer go.

A request is built by the very builder the sender uses (core/sending/builders.py), inside a savepoint
that is rolled back, so a send-time check that fails (and its side effects, such as an e-mail copy
instead) changes nothing here: the sender meets the same check when the delivery falls due. The retry
key is the delivery's own, or the one the sender will derive for its first attempt
(core/store/identity.py), so whichever of the relay and the app sends second gets LINE's 409. The
relay never sends after `not_after`: a shift's start, the same line the send-time rules draw, or for a
published month (the group's month, a teacher's own month) the end of that month on the classroom's
clock.

A month goes to the group as it would from the app: its pages as image messages with the relay's
addresses (the builder puts them on the relay first, core/relay/images.py), or the Flex month. One that
needs work only the app can do before it leaves (an upload to the manager's bucket, a host found
unusable and not yet recorded so) is not handed over; nor is a request larger than the relay takes.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_, select, tuple_
from sqlalchemy.orm import Session

from core.channels import line
from core.outbox import policy
from core.roster import clock, rules
from core.sending import builders
from core.sending.outgoing import CancelDelivery, CannotBuild
from core.store import identity
from core.store.models import (
    Channel,
    Classroom,
    Delivery,
    DeliveryStatus,
    Publication,
    RelayUpload,
    Shift,
    SubjectType,
)
from core.store.paths import DataPaths

HORIZON = dt.timedelta(days=3)  # how far ahead deliveries are handed over
BATCH = 40  # the relay's limit per upload
WAITING = (DeliveryStatus.PENDING, DeliveryStatus.QUEUED)
# A delivery in these states may still go out from the app; any other was canceled, superseded, failed
# or sent, and the relay must not send it.
LIVE = (*WAITING, DeliveryStatus.PROCESSING)
PREFIX = "d"
MAX_BODY_CHARS = 60_000  # the relay refuses a larger request body (and with it the whole upload)


def relay_id(delivery_id: int) -> str:
    return f"{PREFIX}{delivery_id}"


def delivery_id_of(relay_id_: object) -> int | None:
    """The app's delivery id in a relay id this app made, else None."""
    if isinstance(relay_id_, str) and relay_id_.startswith(PREFIX) and relay_id_[len(PREFIX):].isdigit():
        return int(relay_id_[len(PREFIX):])
    return None


@dataclass(frozen=True)
class Upload:
    delivery_id: int
    subject_version: int
    entry: dict[str, Any]  # as PUT /api/deliveries takes it


def _iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat()


@dataclass(frozen=True)
class Page:
    uploads: list[Upload]
    last: tuple[dt.datetime, int] | None  # the last row looked at (next attempt, id): the next page starts after it
    full: bool  # as many rows as asked for were looked at: there may be more


def sends(session: Session, *, now: dt.datetime, paths: DataPaths, after: tuple[dt.datetime, int] | None = None,
          limit: int = BATCH) -> Page:
    """A page of waiting LINE deliveries about a shift or a publication, due within HORIZON and not
    handed over yet (or handed over without the relay's answer), in due order after `after`. A row whose send-time check fails now is looked at and
    skipped, so it never holds back the rows after it."""
    query = (select(Delivery, Shift, Publication)
             .outerjoin(Shift, Delivery.about(SubjectType.SHIFT, Shift.id))
             .outerjoin(Publication, Delivery.about(SubjectType.PUBLICATION, Publication.id))
             .where(Delivery.channel == Channel.LINE.value, Delivery.status.in_(WAITING),
                    Delivery.next_attempt_at <= now + HORIZON, or_(Shift.id.is_not(None), Publication.id.is_not(None)),
                    ~select(RelayUpload.delivery_id).where(RelayUpload.delivery_id == Delivery.id, or_(
                        RelayUpload.confirmed_at.is_not(None), RelayUpload.canceled_at.is_not(None))).exists()))
    if after is not None:
        query = query.where(tuple_(Delivery.next_attempt_at, Delivery.id) > tuple_(*after))
    rows = session.execute(query.order_by(Delivery.next_attempt_at, Delivery.id).limit(limit)).all()
    last = (rows[-1][0].next_attempt_at, rows[-1][0].id) if rows else after
    database = identity.database_identity(session) if rows else ""
    found: list[Upload] = []
    for delivery, shift, publication in rows:
        subject, not_after = (shift.uid, rules.shift_instants(shift)[0]) if shift is not None else (
            publication.uid, _month_over(session, publication))
        upload = _send(session, delivery, subject, not_after, database, now=now, paths=paths)
        if upload is not None:
            found.append(upload)
    return Page(found, last, len(rows) == limit)


def _month_over(session: Session, publication: Publication) -> dt.datetime:
    """The first moment after the published month, on its classroom's clock: a month is not sent later."""
    room = session.get(Classroom, publication.classroom_id)  # gone: the builder cancels the delivery
    after = dt.date(publication.year + publication.month // 12, publication.month % 12 + 1, 1)
    return clock.to_utc(after, dt.time(0), room.timezone if room is not None else "UTC")


def _send(session: Session, delivery: Delivery, subject_uid: str, not_after: dt.datetime, database: str, *,
          now: dt.datetime, paths: DataPaths) -> Upload | None:
    if delivery.retry_key is not None and not policy.retry_key_usable(delivery.retry_key_issued_at, now):
        return None  # the sender fails it (RETRY_KEY_EXPIRED); the relay must not use the key either
    # Captured before the build: the savepoint's rollback expires the row.
    delivery_id, version, dedup_key = delivery.id, delivery.subject_version or 0, delivery.dedup_key
    retry_key, issued_at, generation = delivery.retry_key, delivery.retry_key_issued_at, delivery.retry_key_generation
    due_at = delivery.next_attempt_at
    savepoint = session.begin_nested()
    try:
        outgoing = builders.prepare(session, delivery, now, paths)
    except (CancelDelivery, CannotBuild):
        return None  # the sender says why when it comes to it
    finally:
        savepoint.rollback()
    if outgoing.before_send is not None or outgoing.endpoint not in line.SEND_PATHS:
        return None  # work only the app can do before it leaves (an image upload)
    body = json.loads(line.encode(outgoing))
    # Counted as JavaScript counts a string's length: in UTF-16 code units.
    if len(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-16-le")) // 2 > MAX_BODY_CHARS:
        return None  # a month of many Flex cards: only the app sends it
    if retry_key is None:  # the key the sender's first attempt derives (core/sending/prepare.py)
        retry_key = identity.retry_key(database, dedup_key, subject_uid, outgoing.to, generation)
    entry: dict[str, Any] = {
        "id": relay_id(delivery_id), "subject_version": version, "path": line.SEND_PATHS[outgoing.endpoint],
        "body": body, "retry_key": retry_key, "due_at": _iso(due_at), "not_after": _iso(not_after),
    }
    if issued_at is not None:
        entry["retry_key_issued_at"] = _iso(issued_at)
    return Upload(delivery_id, version, entry)


def cancels(session: Session, *, limit: int = BATCH) -> list[Upload]:
    """Deliveries handed over that will no longer go from the app (canceled, superseded, failed or sent):
    a cancel under a newer version than the one uploaded, so the relay drops what it holds."""
    rows = session.execute(
        select(RelayUpload.delivery_id, RelayUpload.subject_version).join(Delivery, Delivery.id == RelayUpload.delivery_id)
        .where(RelayUpload.canceled_at.is_(None), Delivery.status.not_in(LIVE))
        .order_by(RelayUpload.delivery_id).limit(limit)).all()
    return [Upload(delivery_id, version + 1, {"id": relay_id(delivery_id), "subject_version": version + 1, "cancel": True})
            for delivery_id, version in rows]


def hand_over(session: Session, sent: list[Upload], *, now: dt.datetime) -> None:
    """Record the deliveries about to be uploaded, in the transaction that picked them and before the call:
    from here on a cancel of each reaches the relay, whatever becomes of the upload's answer."""
    for upload in sent:
        if session.get(RelayUpload, upload.delivery_id) is None:
            session.add(RelayUpload(delivery_id=upload.delivery_id, subject_version=upload.subject_version,
                                    uploaded_at=now))


def remember(session: Session, sent: list[Upload], canceled: list[Upload], *, now: dt.datetime) -> None:
    """What the relay answered it took: uploads confirmed once, cancels once."""
    for upload in sent:
        taken = session.get(RelayUpload, upload.delivery_id)
        if taken is None:
            session.add(RelayUpload(delivery_id=upload.delivery_id, subject_version=upload.subject_version,
                                    uploaded_at=now, confirmed_at=now))
        elif taken.confirmed_at is None:
            taken.confirmed_at = now
    for upload in canceled:
        row = session.get(RelayUpload, upload.delivery_id)
        if row is not None:
            row.canceled_at = now
