"""The publication verbs: a classroom's month published to its LINE group (or its dry run), and drawn
as PNG or PDF for the wall."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import Subcommands, Verb, now
from core.errors import ValidationError
from core.texts import t

if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths

log = logging.getLogger(__name__)


def add_parsers(sub: Subcommands) -> None:
    render = sub.add_parser("render", help="draw a classroom's month as PNG or PDF (for the wall)")
    render.add_argument("--classroom", required=True)
    render.add_argument("--month", required=True, help="YYYY-MM")
    render.add_argument("--out", required=True, type=Path, help="a .png or .pdf file")

    publish = sub.add_parser("publish", help="confirm and publish a classroom's month to its LINE group")
    publish.add_argument("--classroom", required=True)
    publish.add_argument("--month", required=True, help="YYYY-MM")
    publish.add_argument("--dry-run", action="store_true", help="only show recipients, quota cost and warnings")
    publish.add_argument("--when-ready", action="store_true",
                         help="publish even though LINE or the classroom's group is not set up yet; the "
                              "group gets the month by itself once they are")
    publish.add_argument("--each-teacher", action="store_true",
                         help="also send each teacher their own month (one LINE message each against the quota)")
    publish.add_argument("--json", action="store_true")


def cmd_render(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.publication import month_image
    from core.publication import publish as publication
    from core.roster import rules
    from core.store.exports import write_export

    year, month = rules.parse_month(args.month)
    suffix = args.out.suffix.lower()
    if suffix not in (".png", ".pdf"):
        raise ValidationError(t("cli.render.suffix"))
    with db.read() as session:
        classroom = rules.classroom_by_name(session, args.classroom)
        view = publication.build_month(session, classroom, year, month, now=now(), include_drafts=True)

    def drawn() -> bytes:
        png = month_image.render_png(view)
        return month_image.pdf_of(png) if suffix == ".pdf" else png

    write_export(args.out, drawn)
    print(words.line("cli.wrote", path=str(args.out)))
    return 0


def cmd_publish(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.publication.image_store import ImageStore
    from core.roster import contacts, rules
    from core.setup import publishing

    year, month = rules.parse_month(args.month)
    if args.dry_run:
        return _dry_run(db, args, year, month)
    with db.read() as session:
        classroom = rules.classroom_by_name(session, args.classroom)
    try:
        outcome = publishing.publish(db, classroom.id, year, month, now=now(), store=ImageStore(paths.images),
                                     when_ready=args.when_ready, each_teacher=args.each_teacher)
    except publishing.NotReady as exc:
        raise ValidationError(t("cli.publish.not_ready", refusal=exc.text)) from exc
    done = outcome.published
    emails, personal = done.email_deliveries, done.teacher_months
    parts = ([t("cli.publish.group_message", id=done.delivery_id)] if done.delivery_id else []) + [
        t("cli.publish.room_message", channel=contacts.label(channel), id=delivery_id)
        for channel, delivery_id in done.room_deliveries.items()] + (
        [t("cli.publish.emails", count=len(emails))] if emails else []) + (
        [t("cli.publish.teacher_months", count=len(personal))] if personal else [])
    if args.json:
        print(json.dumps(dataclasses.asdict(done) | {"waiting_for": [words.say(m) for m in outcome.waiting_for]}))
        return 0
    queued = t("word.and", first=parts[0], second=parts[1]) if len(parts) == 2 else tuple(parts)
    if outcome.waiting_for:
        print(words.line("cli.publish.waiting", revision=done.revision, promise=publishing.promise(outcome.waiting_for),
                         missing=outcome.waiting_for))
        if parts:
            print(words.line("cli.publish.queued_now", queued=queued))
    else:
        print(words.line("cli.publish.done", revision=done.revision, queued=queued))
    return 0


def _dry_run(db: Database, args: argparse.Namespace, year: int, month: int) -> int:
    """Who would receive the month, what it would cost of LINE's quota, and what to look at first."""
    from core.publication import publish as publication
    from core.roster import contacts, rules

    with db.read() as session:
        classroom = rules.classroom_by_name(session, args.classroom)
    members = _live_member_count(db, classroom.line_group_id)
    from core.setup import publishing

    with db.read() as session:
        plan = publication.plan_publish(session, classroom.id, year, month, now=now(), members=members,
                                        each_teacher=args.each_teacher)
    missing = publishing.missing(db, classroom.id, now=now())
    if args.json:
        shown = {k: v for k, v in dataclasses.asdict(plan).items() if k != "warning_text"}
        print(json.dumps(shown | {"missing": [words.say(m) for m in missing]}, ensure_ascii=False, indent=2))
        return 0
    # Named first, as publishing itself would refuse with them.
    for blocker in missing:
        print(words.line("cli.plan.blocked", blocker=blocker))
    print(words.line("cli.publish.plan", classroom=plan.classroom, month=f"{year}-{month:02d}",
                     revision=plan.revision, draft_count=plan.drafts_to_confirm,
                     changed_count=plan.changed_cells))
    if plan.group_id or not plan.rooms:
        print(words.line("cli.publish.group", group=plan.group_id or "-",
                         members=plan.members if plan.members is not None else "?",
                         messages=plan.members if plan.members is not None else "?"))
    for channel, room in plan.rooms.items():
        print(words.line("cli.publish.room", channel=contacts.label(channel), room=room))
    if args.each_teacher:
        print(words.line("cli.publish.each_teacher", teacher_count=plan.teachers,
                         message_count=plan.teacher_messages))
    if plan.quota_limit is not None:
        print(words.line("cli.publish.quota", used_count=plan.quota_used or 0, limit_count=plan.quota_limit))
    if plan.warning_text:
        print(words.line("cli.publish.warning", warning=plan.warning_text))
    return 0


def _live_member_count(db: Database, group_id: str | None) -> int | None:
    from core.channels.line import access_from_settings

    if not group_id:
        return None
    try:
        access = access_from_settings(db)
        if access is None:
            return None
        try:
            return access.client.group_member_count(group_id)
        finally:
            access.client.close()
    except Exception as exc:  # noqa: BLE001 - the dry run falls back to the last known count
        log.warning("could not ask LINE for the group's member count: %s", exc)
        return None


COMMANDS: dict[str, Verb] = {"render": cmd_render, "publish": cmd_publish}
