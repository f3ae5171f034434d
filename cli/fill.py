"""The fill verb: draft shifts for a classroom's month from the teachers' weekly patterns, or from last
month's confirmed shifts (core/roster/patterns.py); what was made and what was skipped, and why."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import Subcommands, Verb, now

if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths


def add_parsers(sub: Subcommands) -> None:
    fill = sub.add_parser("fill", help="make draft shifts for a classroom's month from the teachers' weekly patterns, "
                                       "skipping closed days and days a teacher already works")
    fill.add_argument("--classroom", required=True)
    fill.add_argument("--month", required=True, help="YYYY-MM")
    fill.add_argument("--from-last-month", action="store_true",
                      help="copy last month's confirmed shifts instead, the 1st Tuesday to the 1st Tuesday and so on")


def cmd_fill(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import patterns, rules

    year, month = rules.parse_month(args.month)
    with db.write() as session:
        classroom = rules.classroom_by_name(session, args.classroom)
        make = patterns.copy_last_month if args.from_last_month else patterns.fill_month
        filled = make(session, classroom.id, year, month, now=now())
        names = {s.teacher_id: rules.get_teacher(session, s.teacher_id).display_name for s in filled.skipped}
    print(words.say(filled.summary))
    for skipped in filled.skipped:
        print("  " + words.say(skipped.text(names[skipped.teacher_id])))
    return 0


COMMANDS: dict[str, Verb] = {"fill": cmd_fill}
