"""The closed-days verb: a classroom's closed days of a month listed, one closed or opened
(core/roster/closed_days.py)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import Subcommands, UsageError, Verb
from core.texts import t

if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    closed = sub.add_parser("closed-days", help="list a classroom's closed days of a month (national holidays "
                                                "unless opened), or close or open one day")
    closed.add_argument("--classroom", required=True)
    closed.add_argument("--month", required=True, help="YYYY-MM")
    change = closed.add_mutually_exclusive_group()
    change.add_argument("--add", metavar="DATE", help="close this day, YYYY-MM-DD")
    change.add_argument("--remove", metavar="DATE", help="open this day, YYYY-MM-DD (a holiday too)")
    closed.add_argument("--note", default="", help="why the day is closed (with --add), e.g. 夏期休業")


def cmd_closed_days(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import closed_days, rules

    if args.note and not args.add:
        raise UsageError(t("cli.closed.note_without_add"))
    year, month = rules.parse_month(args.month)
    with db.write() as session:
        classroom = rules.classroom_by_name(session, args.classroom)
        if args.add:
            day = closed_days.parse_day(args.add)
            closed_days.mark_closed(session, classroom.id, day, args.note)
            print(words.line("cli.closed.added", day=day, classroom=classroom.name))
        elif args.remove:
            day = closed_days.parse_day(args.remove)
            closed_days.mark_open(session, classroom.id, day)
            print(words.line("cli.closed.removed", day=day, classroom=classroom.name))
        closed = closed_days.read_month(session, classroom.id, year, month)
        name = classroom.name
    for item in closed.values():
        print(words.line("cli.closed.holiday_row" if item.holiday else "cli.closed.row", day=item.day, note=item.note))
    print(words.line("cli.closed.count", count=len(closed), month=f"{year}-{month:02d}", classroom=name))
    return 0


COMMANDS: dict[str, Verb] = {"closed-days": cmd_closed_days}
