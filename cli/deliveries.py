"""The delivery verbs: the outbox listed (whom each delivery is for, on which channel, when it is due on
its classroom's clock, why it failed) from the same rows the window's Deliveries table shows
(core/outbox/rows.py), a delivery sent again now (or every dead letter), a delivery canceled."""

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
    from core.outbox.deliveries import RetryOutcome
    from core.outbox.rows import DeliveryRow
    from core.store.db import Database
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


def _channel_name(channel: str) -> str:
    """The channel as its driver names it on screens (its key, for one no longer registered)."""
    from core.channels import registry

    return words.say(registry.driver(channel).label) if registry.registered(channel) else channel


def _row(r: DeliveryRow) -> dict[str, Any]:
    from core.outbox import policy

    due = r.due_at or r.created_at
    due_local, zone = _local(due, r.classroom_zone)
    return {
        "id": r.id, "kind": r.kind, "channel": r.channel, "channel_name": _channel_name(r.channel),
        "status": r.status, "recipient": r.recipient, "recipient_name": _recipient_name(r),
        "due_at": due.isoformat(), "due_local": due_local, "timezone": zone, "attempts": r.attempt_count,
        "next_attempt_at": r.next_attempt_at.isoformat() if r.next_attempt_at else None,
        "sent_at": r.sent_at.isoformat() if r.sent_at else None, "error_code": r.last_error_code,
        "error": words.say(policy.shown_error(r.last_error_message)) or None, "cancel_reason": r.cancel_reason,
        "dead_letter": r.dead_lettered_at is not None, "dedup_key": r.dedup_key,
    }


def _recipient_name(r: DeliveryRow) -> str | None:
    """Whom it is for: the teacher, or the classroom's group on its channel."""
    if r.teacher_id is not None:
        return r.teacher_name
    if r.classroom_name is not None and _to_group(r.kind):
        return words.line("cli.deliveries.group", classroom=r.classroom_name, channel=_channel_name(r.channel))
    return None


def _local(when: dt.datetime, zone_name: str | None) -> tuple[str, str]:
    """`when` on the classroom's wall clock, as the roster and `plan` show it (the PC's without one)."""
    from core.roster import clock

    if zone_name is not None:
        return when.astimezone(clock.zone(zone_name)).strftime("%Y-%m-%d %H:%M"), zone_name
    local = when.astimezone()
    return local.strftime("%Y-%m-%d %H:%M"), local.tzname() or "local"


# The words of the counts line: each status as Deliveries names it, and the dead letters among them.
_COUNTED = {**{s.value: f"delivery_status.{s.value}" for s in DeliveryStatus}, "dead_letters": "cli.deliveries.dead_letters"}


def listed_rows(db: Database, args: argparse.Namespace) -> list[DeliveryRow]:
    """The rows the listing shows: core/outbox/rows.py's, as the window's Deliveries table reads them."""
    from core.outbox import rows

    with db.read() as session:
        return rows.newest_rows(session, statuses=args.status or (), kinds=args.kind or (),
                                dead_letters_only=args.dead, limit=args.limit)


def cmd_deliveries(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.outbox import deliveries

    rows = [_row(r) for r in listed_rows(db, args)]
    with db.read() as session:
        counts = deliveries.counts(session)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for r in rows:
        problem = ": ".join(x for x in (r["error_code"], r["error"]) if x) or r["cancel_reason"] or ""
        who = r["recipient_name"] or r["recipient"] or "-"
        print(words.line("cli.deliveries.row", id=f"{r['id']:>7}", kind=f"{r['kind']:<18}",
                         channel=words.pad(r["channel_name"], 8),
                         status=words.pad(words.line(f"delivery_status.{r['status']}"), 10),
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
