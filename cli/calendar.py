"""A teacher's shifts in their phone's calendar (docs/calendar.md): `export ics --teacher NAME [--month
YYYY-MM] [-o FILE]` writes the iCalendar file to import once (cli/roster.py hands it here), and
`calendar revoke --teacher NAME` gives the teacher's calendar a new private address, the old one
stopping at the next sync with the relay."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import Subcommands, UsageError, Verb, now
from core.texts import t

if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    calendar = sub.add_parser("calendar", help="each teacher's shifts in their phone's calendar: revoke")
    verbs = calendar.add_subparsers(dest="calendar_command", metavar="{revoke}", required=True)
    revoke = verbs.add_parser("revoke", help="give a teacher's calendar a new address: the old one stops working "
                                             "at the next sync with the relay")
    revoke.add_argument("--teacher", required=True, help="the teacher's name")


def export_ics(db: Database, args: argparse.Namespace) -> int:
    """`export ics`: the teacher's confirmed shifts of published months, to a file or standard output."""
    from core.calendar import ics
    from core.calendar.teachers import teacher_named
    from core.roster import rules

    if not args.teacher:
        raise UsageError(t("cli.export.ics_needs_teacher"))
    if args.classroom:
        raise UsageError(t("cli.export.not_with", option="--classroom", what="ics"))
    months = [rules.parse_month(args.month)] if args.month else None
    with db.read() as session:  # the whole name checked, and the calendar made, before any file is touched
        data = ics.calendar_for(session, teacher_named(session, args.teacher).id, months=months, now=now())
    if args.output is None:
        sys.stdout.buffer.write(data)
        return 0
    from core.store.exports import write_export

    write_export(args.output, lambda: data)
    print(words.line("cli.wrote", path=str(args.output)))
    return 0


def cmd_calendar(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.calendar import feeds
    from core.calendar.teachers import teacher_named
    from core.store import setting_keys as keys

    with db.write() as session:
        teacher = teacher_named(session, args.teacher)
        feeds.revoke(session, teacher.id)
        relay = keys.RELAY_URL.read(session)
        url = feeds.feed_url(session, teacher.id, relay) if relay else None
        name = teacher.display_name
    if url is None:
        print(words.line("cli.calendar.revoked", teacher=name))
    else:
        print(words.line("cli.calendar.revoked_at", teacher=name, url=url))
    return 0


COMMANDS: dict[str, Verb] = {"calendar": cmd_calendar}
