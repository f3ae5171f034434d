"""The patterns verb: a teacher's weekly patterns listed, one added (with the dates it holds between) or
removed by its number in the list (core/roster/patterns.py); `shiftcast fill` makes drafts from them."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cli import numbers, words
from cli.verbs import Subcommands, Verb

if TYPE_CHECKING:
    from core.roster.patterns import Pattern
    from core.store.db import Database
    from core.store.paths import DataPaths

MAX_NUMBER = 10**6


def add_parsers(sub: Subcommands) -> None:
    weekly = sub.add_parser("patterns", help="a teacher's weekly patterns: list them, add one (from and until a "
                                             "date if given) or remove one")
    actions = weekly.add_subparsers(dest="patterns_action", metavar="{list,add,remove}", required=True)
    listing = actions.add_parser("list", help="the teacher's weekly patterns, numbered")
    listing.add_argument("--teacher", required=True, help="the teacher's name")
    add = actions.add_parser("add", help="add a weekly pattern: a weekday, its hours and the classroom")
    add.add_argument("--teacher", required=True, help="the teacher's name")
    add.add_argument("--classroom", required=True)
    add.add_argument("--weekday", required=True, help="mon to sun, 月 to 日, or 0 (Monday) to 6 (Sunday)")
    add.add_argument("--start", required=True, help="the pattern's start, HH:MM")
    add.add_argument("--end", required=True, help="the pattern's end, HH:MM")
    add.add_argument("--from", dest="valid_from", metavar="DATE",
                     help="the first day it holds, YYYY-MM-DD (without it: from always)")
    add.add_argument("--until", dest="valid_until", metavar="DATE",
                     help="the last day it holds, YYYY-MM-DD (without it: for good)")
    remove = actions.add_parser("remove", help="remove the weekly pattern with this number in the list")
    remove.add_argument("--teacher", required=True, help="the teacher's name")
    remove.add_argument("number", type=numbers.whole_number(1, MAX_NUMBER), help="its number in `patterns list`")


def row_line(number: int, pattern: Pattern, classroom: str) -> str:
    """ "2. 火 17:00–21:00 本校 from … until …" in the run's language."""
    import datetime as dt

    from core.roster import clock, rules
    from core.texts.formats import weekday_short

    weekday = weekday_short(dt.date(2024, 1, 1) + dt.timedelta(days=pattern.weekday), words.current())
    line = words.line("cli.patterns.row", number=number, weekday=weekday,
                      start=clock.format_wall_time(pattern.start_time), end=clock.format_wall_time(pattern.end_time),
                      classroom=classroom)
    if pattern.valid_from > rules.FIRST_DAY:
        line += " " + words.line("cli.patterns.from", day=pattern.valid_from)
    if pattern.valid_until is not None:
        line += " " + words.line("cli.patterns.until", day=pattern.valid_until)
    return line


def cmd_patterns(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import clock, closed_days, patterns, rules
    from core.store.models import Classroom

    with db.write() as session:
        teacher = rules.teacher_by_name(session, args.teacher)
        if args.patterns_action == "add":
            start, _ = clock.parse_wall_time(args.start)
            end, _ = clock.parse_wall_time(args.end)
            pattern = patterns.Pattern(
                teacher.id, rules.classroom_by_name(session, args.classroom).id, patterns.parse_weekday(args.weekday),
                start, end, closed_days.parse_day(args.valid_from) if args.valid_from else rules.FIRST_DAY,
                closed_days.parse_day(args.valid_until) if args.valid_until else None)
            patterns.add_pattern(session, pattern)
        elif args.patterns_action == "remove":
            patterns.remove_pattern(session, teacher.id, args.number)
        weekly = patterns.teacher_patterns(session, teacher.id)
        rooms = {p.classroom_id: session.get(Classroom, p.classroom_id) for p in weekly}
        names = {room_id: room.name if room else f"#{room_id}" for room_id, room in rooms.items()}
        name = teacher.display_name
    for number, pattern in enumerate(weekly, start=1):
        print(row_line(number, pattern, names[pattern.classroom_id]))
    print(words.line("cli.patterns.count", count=len(weekly), teacher=name))
    return 0


COMMANDS: dict[str, Verb] = {"patterns": cmd_patterns}
