"""The delivery verbs: the outbox listed (whom each delivery is for, when it is due on its classroom's
clock, why it failed), a delivery sent again now (or every dead letter), a delivery canceled."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from typing import TYPE_CHECKING, Any

from cli import numbers, words
from cli.verbs import Subcommands, Verb, now
from core.errors import ValidationError
from core.store.kinds import DeliveryStatus
from core.texts import Text, t

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from core.outbox.deliveries import RetryOutcome
    from core.store.db import Database
    from core.store.models import Delivery
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    listing = sub.add_parser("deliveries", help="list deliveries (newest first)")
    listing.add_argument("--status", choices=[s.value for s in DeliveryStatus], action="append")
    # Any registered message kind, built in or not, so no fixed choices (core/kinds/registry.py).
    listing.add_argument("--kind", action="append")
    listing.add_argument("--dead", action="store_true", help="only dead letters")
    listing.add_argument("--limit", type=numbers.whole_number(1, 100_000), default=100)
    listing.add_argument("--json", action="store_true")

    retry = sub.add_parser("retry", help="send a delivery again now (or every dead letter with --dead)")
    retry.add_argument("id", type=numbers.ROW_ID, nargs="?")
    retry.add_argument("--dead", action="store_true")

    cancel = sub.add_parser("cancel", help="cancel a delivery that was not sent")
    cancel.add_argument("id", type=numbers.ROW_ID)


def _to_group(kind: str) -> bool:
    from core.kinds import registry

    found = registry.kind_of(kind)
    return found is not None and found.to_group


def _row(d: Delivery, names: _Names) -> dict[str, Any]:
    from core.outbox import policy

    due_local, zone = names.local(d.due_at, d.classroom_id)
    return {
        "id": d.id, "kind": d.kind, "status": d.status.value, "recipient": d.recipient,
        "recipient_name": names.recipient(d), "due_at": d.due_at.isoformat(), "due_local": due_local,
        "timezone": zone, "attempts": d.attempt_count,
        "next_attempt_at": d.next_attempt_at.isoformat() if d.next_attempt_at else None,
        "sent_at": d.sent_at.isoformat() if d.sent_at else None, "error_code": d.last_error_code,
        "error": words.say(policy.shown_error(d.last_error_message)) or None, "cancel_reason": d.cancel_reason,
        "dead_letter": d.dead_lettered_at is not None, "dedup_key": d.dedup_key,
    }


class _Names:
    """Who a delivery is for and its classroom's time zone, looked up once for the whole listing."""

    def __init__(self, session: Session, rows: list[Delivery]) -> None:
        from sqlalchemy import select

        from core.store.models import Classroom, Teacher

        teacher_ids = {d.teacher_id for d in rows if d.teacher_id is not None}
        room_ids = {d.classroom_id for d in rows if d.classroom_id is not None}
        self.teachers: dict[int, str | None] = {
            teacher_id: name for teacher_id, name in session.execute(
                select(Teacher.id, Teacher.name).where(Teacher.id.in_(teacher_ids)))
        } if teacher_ids else {}
        self.rooms: dict[int, tuple[str, str]] = {
            room_id: (name, zone) for room_id, name, zone in session.execute(
                select(Classroom.id, Classroom.name, Classroom.timezone).where(Classroom.id.in_(room_ids)))
        } if room_ids else {}

    def recipient(self, d: Delivery) -> str | None:
        if d.teacher_id is not None and d.teacher_id in self.teachers:
            return self.teachers[d.teacher_id]
        if d.classroom_id is not None and d.classroom_id in self.rooms and _to_group(d.kind) \
                and d.channel == "line":
            return words.line("cli.deliveries.group", classroom=self.rooms[d.classroom_id][0])
        return None

    def local(self, when: dt.datetime, classroom_id: int | None) -> tuple[str, str]:
        """`when` on the classroom's wall clock, as the roster and `plan` show it (the PC's without one)."""
        from core.roster import clock

        if classroom_id is not None and classroom_id in self.rooms:
            zone_name = self.rooms[classroom_id][1]
            return when.astimezone(clock.zone(zone_name)).strftime("%Y-%m-%d %H:%M"), zone_name
        local = when.astimezone()
        return local.strftime("%Y-%m-%d %H:%M"), local.tzname() or "local"


# The words of the counts line: each status as Deliveries names it, and the dead letters among them.
_COUNTED = {**{s.value: f"delivery_status.{s.value}" for s in DeliveryStatus}, "dead_letters": "cli.deliveries.dead_letters"}


def cmd_deliveries(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.outbox import deliveries

    flt = deliveries.DeliveryFilter(
        statuses=tuple(DeliveryStatus(s) for s in args.status or ()),
        kinds=tuple(args.kind or ()),
        dead_letters_only=args.dead,
    )
    with db.read() as session:
        found = deliveries.list_deliveries(session, flt, limit=args.limit)
        names = _Names(session, found)
        rows = [_row(d, names) for d in found]
        counts = deliveries.counts(session)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for r in rows:
        problem = ": ".join(x for x in (r["error_code"], r["error"]) if x) or r["cancel_reason"] or ""
        who = r["recipient_name"] or r["recipient"] or "-"
        print(words.line("cli.deliveries.row", id=f"{r['id']:>7}", kind=f"{r['kind']:<18}", status=words.pad(words.line(f"delivery_status.{r['status']}"), 10),
                         due=r["due_local"], zone=r["timezone"], who=who, attempts=r["attempts"],
                         problem=problem).rstrip())
    print("  ".join(f"{words.line(_COUNTED[k])}: {v}" for k, v in counts.items()))
    return 0


def cmd_retry(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.outbox import deliveries

    if (args.id is None) == (not args.dead):
        raise ValidationError(t("cli.retry.what"))
    with db.write() as session:
        if args.dead:
            outcomes = deliveries.requeue_dead_letters(session, now=now())
        else:
            outcomes = [deliveries.retry_now(session, args.id, now=now())]
    for o in outcomes:
        note = t("cli.retry.new_key") if o.new_retry_key else t("cli.retry.same_key")
        print(words.line("cli.retry.done", id=o.delivery_id, when=_when_retried(o), note=note))
    if not outcomes:
        print(words.line("cli.retry.none"))
    return 0


def _when_retried(outcome: RetryOutcome) -> Text:
    """When a retried delivery goes, in its classroom's zone, as `plan` says it."""
    if not outcome.waits:
        return t("cli.retry.now")
    from core.roster import clock

    zone = outcome.zone or "UTC"
    local = outcome.send_at.astimezone(clock.zone(zone))
    return t("cli.retry.at", day=local.date(), time=local.time(), zone=zone)


def cmd_cancel(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.outbox import deliveries

    with db.write() as session:
        deliveries.cancel(session, args.id, now=now())
    print(words.line("cli.canceled", id=args.id))
    return 0


COMMANDS: dict[str, Verb] = {"deliveries": cmd_deliveries, "retry": cmd_retry, "cancel": cmd_cancel}
