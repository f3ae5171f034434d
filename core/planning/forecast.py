"""Dry run and quota forecast: what would go out, when (local time, after quiet hours) and why, and
how many LINE messages the rest of the month will use against the account's monthly quota.

The dry run plans inside a transaction that is rolled back, so it shows exactly what planning would
do without changing anything.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from dataclasses import asdict, dataclass

from sqlalchemy import select

from core.channels.line import access_from_settings
from core.kinds import registry as kinds
from core.planning import planner
from core.roster import clock
from core.store import setting_keys as keys
from core.store.db import Database
from core.store.models import Classroom, Delivery, DeliveryStatus, Teacher
from core.store.settings import StoredQuota
from core.texts import Text, render, t
from core.texts.formats import Language

log = logging.getLogger(__name__)
# LINE counts its monthly quota in Japan time.
QUOTA_ZONE = "Asia/Tokyo"


@dataclass(frozen=True)
class PlannedSend:
    delivery_id: int
    kind: str
    channel: str
    recipient: str
    classroom: str
    local_send_time: str
    send_at: dt.datetime
    why: Text  # rendered in the manager's language where it is shown
    messages: int  # against LINE's monthly quota


@dataclass(frozen=True)
class QuotaForecast:
    limit: int | None  # None: no monthly limit (or unknown)
    used: int | None
    planned_rest_of_month: int
    checked_at: str | None

    @property
    def remaining_after_plan(self) -> int | None:
        if self.limit is None or self.used is None:
            return None
        return self.limit - self.used - self.planned_rest_of_month


def dry_run(db: Database, *, now: dt.datetime, days: int) -> list[PlannedSend]:
    end = now + dt.timedelta(days=days)
    with db.write() as session:
        report = planner.plan(session, now=now)
        why = {p.delivery_id: p.why for p in report.planned}
        rows = session.scalars(
            select(Delivery).where(Delivery.status.in_([DeliveryStatus.PENDING, DeliveryStatus.QUEUED]),
                                   Delivery.next_attempt_at <= end).order_by(Delivery.next_attempt_at, Delivery.id)
        ).all()
        out = [_describe(session, d, why.get(d.id)) for d in rows]
        session.rollback()  # a dry run changes nothing
    return out


def _describe(session, delivery: Delivery, why: Text | None) -> PlannedSend:  # type: ignore[no-untyped-def]
    room = session.get(Classroom, delivery.classroom_id) if delivery.classroom_id else None
    zone = room.timezone if room else QUOTA_ZONE
    teacher = session.get(Teacher, delivery.teacher_id) if delivery.teacher_id else None
    recipient = teacher.display_name if teacher else (room.name if room else (delivery.recipient or "?"))
    local = delivery.next_attempt_at.astimezone(clock.zone(zone)).strftime("%Y-%m-%d %H:%M")
    # What a delivery is, when planning gave no reason of its own (one planned before this run).
    default_why = kinds.why(delivery.kind)
    if delivery.status == DeliveryStatus.QUEUED and delivery.attempt_count:
        default_why = t("plan.why.retry", why=default_why, attempt=delivery.attempt_count,
                        code=delivery.last_error_code or "")
    return PlannedSend(delivery.id, delivery.kind, delivery.channel, recipient,
                       room.name if room else "", local, delivery.next_attempt_at, why or default_why,
                       messages_for(session, delivery))


def messages_for(session, delivery: Delivery) -> int:  # type: ignore[no-untyped-def]
    """Quota cost: a push to one user counts 1; a push to a group counts once per member."""
    if delivery.channel != "line":
        return 0
    kind = kinds.kind_of(delivery.kind)
    if kind is not None and kind.to_group:
        return group_members(session, delivery.classroom_id)
    return 1


def group_members(session, classroom_id: int | None) -> int:  # type: ignore[no-untyped-def]
    if classroom_id is None:
        return 1
    count = keys.LINE_GROUP_MEMBERS.of(classroom_id).read(session)
    return count if count is not None else 1


def forecast(db: Database, *, now: dt.datetime) -> QuotaForecast:
    """LINE messages still to be used this month (quota months follow Japan time) against the quota."""
    local_now = now.astimezone(clock.zone(QUOTA_ZONE))
    next_month = (local_now.replace(day=1, hour=0, minute=0, second=0, microsecond=0) + dt.timedelta(days=32)).replace(day=1)
    month_end = next_month.astimezone(dt.UTC)
    items = dry_run(db, now=now, days=(month_end - now).days + 1)
    cost = sum(i.messages for i in items if i.send_at < month_end)
    with db.read() as session:
        quota = keys.LINE_QUOTA.read(session)
    return QuotaForecast(quota.limit, quota.used, cost, quota.checked_at)


def refresh_quota(db: Database, *, now: dt.datetime | None = None) -> QuotaForecast | None:
    """Ask LINE for the quota and this month's usage, and remember them (hourly scheduler job)."""
    access = access_from_settings(db)
    if access is None:
        return None
    try:
        quota = access.client.quota()
        groups = {}
        with db.read() as session:
            rooms = session.scalars(select(Classroom).where(Classroom.line_group_id.is_not(None))).all()
        for room in rooms:
            try:
                groups[room.id] = access.client.group_member_count(str(room.line_group_id))
            except Exception as exc:  # noqa: BLE001 - one unreachable group must not hide the quota
                log.warning("member count of %s's group unavailable: %s", room.name, exc)
    finally:
        access.client.close()
    stamp = (now or dt.datetime.now(dt.UTC)).isoformat()
    with db.write() as session:
        keys.LINE_QUOTA.write(session, StoredQuota(quota.limit, quota.used, stamp))
        for room_id, count in groups.items():
            keys.LINE_GROUP_MEMBERS.of(room_id).write(session, count)
    return QuotaForecast(quota.limit, quota.used, 0, stamp)


def as_json(items: list[PlannedSend], fc: QuotaForecast, lang: Language = "en") -> str:
    """The dry run for scripts: each reason in `lang`, with its code beside it (`why_code`)."""
    return json.dumps({"deliveries": [asdict(i) | {"why": render(i.why, lang), "why_code": i.why.code} for i in items],
                       "quota": asdict(fc) | {"remaining_after_plan": fc.remaining_after_plan}},
                      ensure_ascii=False, indent=2, default=str)
