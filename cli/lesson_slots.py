"""The lesson-slots verb: a classroom's lesson slots (コマ) listed, one added or given new times, or removed
(core/roster/lesson_slots.py)."""

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
    slots = sub.add_parser("lesson-slots", help="list a classroom's lesson slots (コマ), or add, change or remove one")
    slots.add_argument("--classroom", required=True)
    change = slots.add_mutually_exclusive_group()
    change.add_argument("--add", metavar="NAME", help="add this slot, or give it new times (with --start and --end), "
                                                      "e.g. 1限")
    change.add_argument("--remove", metavar="NAME", help="remove this slot")
    slots.add_argument("--start", help="the slot's start, HH:MM")
    slots.add_argument("--end", help="the slot's end, HH:MM")


def cmd_lesson_slots(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.roster import clock, lesson_slots, rules

    if args.add and not (args.start and args.end):
        raise UsageError(t("cli.slots.times_missing"))
    if (args.start or args.end) and not args.add:
        raise UsageError(t("cli.slots.times_without_add"))
    with db.write() as session:
        classroom = rules.classroom_by_name(session, args.classroom)
        if args.add:
            start, _ = clock.parse_wall_time(args.start)
            end, _ = clock.parse_wall_time(args.end)
            lesson_slots.add_slot(session, classroom.id, lesson_slots.LessonSlot(args.add, start, end))
        elif args.remove:
            lesson_slots.remove_slot(session, classroom.id, args.remove)
        slots = lesson_slots.classroom_slots(session, classroom.id)
        name = classroom.name
    for slot in slots:
        print(words.line("cli.slots.row", name=slot.name, start=clock.format_wall_time(slot.start_time),
                         end=clock.format_wall_time(slot.end_time)))
    print(words.line("cli.slots.count", count=len(slots), classroom=name))
    return 0


COMMANDS: dict[str, Verb] = {"lesson-slots": cmd_lesson_slots}
